"""Cue claims: values the request marks explicitly — quoted text with its lead-in ("folder
'Trips'"), `key:value` and "learned: X" syntax, "similar to 42", "in the Trips folder", camera
brands and models."""

from __future__ import annotations

import copy
import re

from photosearch.query import lexicon as lx
from photosearch.query.claims.attributes import names_a_thing
from photosearch.query.parse_state import ClaimState
from photosearch.query.places import fold, place_key
from photosearch.query.plan import (
    ANY_ACTION_CAMERA,
    ANY_ALBUM,
    ANY_DEDICATED_CAMERA,
    ANY_DRONE,
    ANY_PHONE,
    ANY_RAW,
    ANY_SIMILAR,
    WHATSAPP_NAMES,
)

#: "similar to" before words, not a photo's file name or number: the photos of what the words say.
_SIMILAR_TO_A_THING = re.compile(r"\bsimilar\s+to\b(?=\s+(?:(?:the|a|an|my|our|that)\s+)?[a-z])")
SIMILAR_TO_WORDS = (
    "“similar to” was read as photos of what follows; a photo's file name finds the ones like it"
)

#: Words for videos, which the library does not hold: "videos of the kids" is the kids' photos, and
#: a note says so ("a video game", "a video call", "hair clips" are things).
_VIDEOS = re.compile(
    r"\b(?:(?:\d+[\s-]*(?:seconds?|secs?|minutes?|mins?)\s+)?(?:home\s+)?videos?(?:\s+clips?)?"
    r"|clips?(?=\s+of\b)|home\s+movies?|slo[\s-]?mo|slow[\s-]motion"
    r"|time[\s-]?lapses?|screen\s+recordings?)\b(?!\s+(?:games?|cameras?|calls?|players?|tapes?|chats?|stores?|editor)\b)"
)


def _claim_videos(st: ClaimState) -> None:
    for m in st.unclaimed(_VIDEOS):
        said = " ".join(st.text[m.start() : m.end()].split())
        st.note(f"Only photos are searched: the library holds no videos, so “{said}” was left out", 0.0)
        st.claim(m.start(), m.end(), "and", text="")


_QUOTE_RE = re.compile(r"(?:(?<=^)|(?<=[\s(:=,]))([\"“”'‘’])(.+?)([\"“”'‘’])(?=$|[\s),.;:!?])")
_LEAD_IN_CHARS = 64  # longest lead-in ("in the folder called", "that says") with room for spaces
_IMG_EXT = r"(?:jpe?g|png|heic|heif|webp|tiff?|gif|bmp|dng|cr2|nef|arw|raf|orf)"
#: Brand words that are everyday nouns: a camera only with a model, a cue ("shot on"), or when the
#: catalog has that camera (the words its model names contain).
AMBIGUOUS_BRANDS = {"apple": ("iphone", "ipad", "apple"), "galaxy": ("galaxy",), "pixel": ("pixel",)}


def claim_quotes(st: ClaimState) -> None:
    """Quoted values, typed by their lead-in ("folder 'Trips'", "says 'EXIT'"); text otherwise."""
    for m in _QUOTE_RE.finditer(st.text):
        open_q, value, close_q = m.group(1), m.group(2).strip(), m.group(3)
        if (open_q in "'‘") != (close_q in "'’"):
            continue
        if not value:
            continue
        # Lead-in words sit just before the quote and trailing ones just after: bounded windows
        # keep parsing linear in the request (whole-prefix searches made it quadratic).
        before = st.low[max(0, m.start() - _LEAD_IN_CHARS) : m.start()]
        after = st.low[m.end() : m.end() + _LEAD_IN_CHARS]
        start = m.start()
        end = m.end()
        kind = "text"
        for key, pat in (
            (
                "folder",
                r"(?:in\s+|from\s+)?(?:the\s+|my\s+)?(?:folder|album|directory)\s*(?:called\s+|named\s+|:\s*)?$",
            ),
            ("tag", r"(?:tagged(?:\s+as|\s+with)?|with\s+(?:the\s+)?tag|tag\s*:?)\s*$"),
            ("file", r"(?:file\s*names?|files?)\s*(?:called\s+|named\s+|like\s+|:\s*)?$"),
            ("knowledge", r"(?:learned|learnt|knowledge|web)\s*:?\s*(?:about\s+)?$"),
            ("camera", r"(?:taken\s+with|shot\s+on|camera\s*:?)\s*(?:the\s+|my\s+)?$"),
            ("person", r"person\s*:?\s*$"),
            ("place", r"place\s*:?\s*$"),
            ("concept", r"concept\s*:?\s*$"),
            ("similar", r"(?:similar\s+to|like)\s*$"),
            (
                "text",
                r"(?:(?:that\s+|which\s+)?(?:says?|saying|reads?|reading)|written|(?:with\s+)?(?:the\s+)?(?:words?|text)|text\s*:?)\s*$",
            ),
        ):
            mm = re.search(pat, before)
            if mm:
                kind = key
                start = m.start() - len(before) + mm.start()
                break
        ma = re.match(r"\s*(?:folder|album|directory)\b", after)
        if ma and kind == "text":
            kind = "folder"
            end = m.end() + ma.end()
            mb = re.search(r"(?:in\s+|from\s+)?(?:the\s+|my\s+)?$", before)
            if mb:
                start = m.start() - len(before) + mb.start()
        node = {kind: value}
        if kind == "folder" and re.search(r"\balbum\s*:\s*$", before):
            node = {"album": value}  # `album:'Summer House'` names an album, as `album:Holidays` does
        elif kind == "folder" and "album" in st.low[start:end]:
            node = album_or_folder(st, value)
        key = next(iter(node))
        st.claim(start, end, "atom", node, slot=key)


def album_or_folder(st: ClaimState, value: str) -> dict:
    """ "album X": the user's album X when there is one, else the folder X (many people call their
    folders albums)."""
    for known in st.ctx.albums:
        if fold(known) == fold(value):
            return {"album": known}
    return {"folder": value}


#: A file type as people name it → the file names it matches ("jpeg" photos end in .jpg or .jpeg;
#: "files ending in .png", ".png files").
FORMAT_GLOBS = {
    "jpg": "*.jp*g",
    "jpeg": "*.jp*g",
    "png": "*.png",
    "heic": "*.heic",
    "heif": "*.heif",
    "webp": "*.webp",
    "gif": "*.gif",
    "tif": "*.tif*",
    "tiff": "*.tif*",
    "avif": "*.avif",
    "jxl": "*.jxl",
    "bmp": "*.bmp",
    "dng": "*.dng",
}
_FORMAT = re.compile(
    r"(?:\b(?:(?:files?|photos?|images?|pictures?)\s+)?(?:ending|that\s+end|with\s+the\s+extension)\s+(?:in\s+|with\s+)?)?"
    r"(?<![\w.*])\.?(?P<f>"
    + "|".join(FORMAT_GLOBS)
    + r")s?\b(?:\s+(?:files?|photos?|images?|pictures?|pics|shots))?"
)


#: Near-duplicates of any photo: "duplicates", "near-duplicate photos", "dupes"; a burst's photos are
#: near-duplicates too ("burst photos", "bursts": no maker's burst mark is read).
_DUPLICATES = re.compile(
    r"\b(?:(?:near[- ]?)?(?:duplicat(?:e|es|ed)|dupes?)|bursts?(?:\s+mode)?)\b"
    r"(?:\s+(?:photos?|pictures?|pics|shots?|images?|ones))?(?!\s+(?:of\s+(?:colou?r|light|flavou?r|energy)|pipes?)\b)"
    # "similar photos", "similar-looking shots": near-duplicates ("photos similar to 42" is one photo's)
    r"|\b(?:very\s+)?similar(?:[- ]looking)?\s+(?:photos|pictures|pics|shots|images|ones)\b(?!\s+to\b)"
)
#: Any album: "photos in an album", "not in any album", "photos without an album".
_ANY_ALBUM = re.compile(
    r"\b(?P<no>without\s+)?(?:(?:in|inside|within|to|into|from)\s+)?(?:an?|any|some)\s+albums?\b"
    r"(?!\s+(?:covers?|art|artwork|sleeves?)\b)"
    r"|\b(?:in|inside|within)\s+albums\b"
)


#: Camera RAW files: "raw files", "raw photos", "shot in raw" (not "raw fish").
_RAW = re.compile(
    r"\braw\s+(?:files?|photos?|images?|pictures?|pics|shots)\b|\b(?:shot|taken|saved)\s+in\s+raw\b"
)


#: Photos a phone took: "from my phone", "taken with a phone", "shot on my mobile", "phone pictures"
#: ("a photo of my phone" is the phone in the photo, "a girl on the phone" is making a call).
_PHONE = re.compile(
    r"\b(?:(?:(?:taken|shot|made)\s+(?:with|on|by)|from)\s+(?:my|a|the|our|his|her|their)"
    r"|(?:on|with)\s+(?:my|our|his|her|their))\s+"  # "talking on the phone" is a call, no camera
    r"(?:(?:old|new|previous|last|other|work|first|current|spare)\s+)?"  # "from my old phone"
    r"(?:smart\s*phone|(?:camera\s+)?phone|mobile(?:\s+phone)?|cell\s*phone|cell)\b"
    r"|\b(?:smart\s*phone|phone|mobile|cell\s*phone)\s+(?:photos?|pictures?|pics|shots|snaps)\b"
    r"|(?<=\bnot\s)(?:my|our)\s+(?:smart\s*phone|phone|mobile)\b"  # "from my camera, not my phone"
)

#: A camera's things that are not the camera: "taken by a camera trap", "from my camera bag".
_CAMERA_THINGS = (
    r"(?:traps?|rolls?|bags?|straps?|shops?|stores?|lens(?:es)?|batter(?:y|ies)|cases?|phones?)\b"
)


def _kind_of_camera(nouns: str, bare: str) -> re.Pattern:
    """A kind of camera that took the photo: its noun after a cue ("shot on a drone", "from my dslr",
    "taken by drone"), or a noun the photos are named by ("drone shots", "dslr photos"); "a photo of a
    drone" and "me with my camera" are the thing in the photo."""
    return re.compile(
        r"\b(?:(?:taken|shot|made|filmed|captured|photographed)\s+(?:with|on|by|from|using)"
        r"(?:\s+(?:my|a|an|the|our|his|her|their))?|(?:from|on|using)\s+(?:my|the|our|his|her|their))\s+"
        rf"(?:(?:old|new|first|other|spare|little)\s+)?(?:{nouns})\b(?!\s+{_CAMERA_THINGS})"
        rf"|\bby\s+(?:{bare})\b(?!\s+(?:of|the|a|an|and|with|in|on)\b)"
        rf"|\b(?:{bare})\s+(?:photos?|pictures?|pics|shots?|images?|footage|photography|views?|snaps|selfies?)\b"
    )


#: The phone's front camera: "taken with the front camera", "selfie cam" (a selfie, as its lens says).
_FRONT_CAMERA = re.compile(
    r"\b(?:(?:taken|shot)\s+(?:with|on|using)\s+)?(?:(?:the|my|a)\s+)?(?:front(?:[\s-]facing)?|selfie)\s+(?:camera|cam)\b"
)
#: Kinds of camera by the words people call them (a brand first: "gopro footage" is GoPro's): a
#: drone's, an action camera's, and a dedicated camera's, "dslr photos", "taken with my camera"
#: (not a phone's; `resolvers/camera_kinds.py`).
_CAMERA_KINDS = (
    (ANY_DRONE, _kind_of_camera(r"drones?|quadcopters?|mavic", r"drones?|quadcopters?|mavic")),
    (ANY_ACTION_CAMERA, _kind_of_camera(r"action\s+cam(?:era)?s?", r"action\s+cam(?:era)?s?|helmet\s+cam")),
    (
        ANY_DEDICATED_CAMERA,
        _kind_of_camera(
            r"(?:(?:digital|compact|real|proper|big|system|mirrorless|film)\s+)?cameras?|d?slrs?|mirrorless",
            r"d?slrs?|mirrorless(?:\s+cameras?)?|(?:digital|compact|system)\s+cameras?"
            r"|point[\s-]and[\s-]shoots?(?:\s+cameras?)?",
        ),
    ),
)
#: The whole library said as a place: "in my library", "from my camera roll", "my entire collection"
#: ("added to my library" is when they were added).
_WHOLE_LIBRARY = re.compile(
    r"(?<!to )\b(?:(?:in|from|on|across|of|through)\s+)?(?:my|our)\s+(?:(?:whole|entire|photo|picture)\s+)*"
    r"(?:library|collection|camera\s+roll|gallery|photos\s+app|photo\s+archive)\b"
)


#: Where a messaging or social app saves the photos it received: the names it gives them
#: (WhatsApp's "IMG-20230101-WA0001.jpg") or the folder it keeps them in (Android's Pictures/Telegram,
#: WeChat's "WeiXin").
APP_SOURCES = {
    "whatsapp": {"or": [{"file": WHATSAPP_NAMES}, {"folder": "WhatsApp"}]},
    "telegram": {"folder": "Telegram"},
    "signal": {"folder": "Signal"},
    "instagram": {"folder": "Instagram"},
    "snapchat": {"folder": "Snapchat"},
    "messenger": {"folder": "Messenger"},
    "facebook": {"folder": "Facebook"},
    "wechat": {"or": [{"folder": "WeChat"}, {"folder": "WeiXin"}]},
    "viber": {"folder": "Viber"},
}
_APP_NAMES = {"whatsapp": "WhatsApp", "wechat": "WeChat"}
_APP = "|".join(APP_SOURCES)
_PHOTO_WORDS = r"(?:photos?|pictures?|pics|images?|videos?)"
#: "photos from whatsapp", "sent on telegram", "instagram pictures"; "downloaded images".
_FROM_APP = re.compile(
    r"\b(?:(?:sent|received|shared|saved|got|forwarded)\s+)?(?:from|via|on|through|over|in)\s+(?:my\s+|the\s+)?"
    rf"(?P<app>{_APP})\b(?!\s+(?:chats?|messages?|groups?|calls?|posts?|stories|story|reels?|feed|app|logo|icon)\b)"
    rf"|\b(?P<app2>{_APP})\s+(?={_PHOTO_WORDS}\b)"
)
_DOWNLOADED = re.compile(
    rf"\bdownloaded\s+(?={_PHOTO_WORDS}\b)|\b(?:i|we)\s+downloaded\b"
    r"|\b(?:from|in)\s+(?:my\s+|the\s+)?downloads(?:\s+folder)?\b"
    r"|^\s*(?:my\s+|the\s+)?downloads\b(?!\s+(?:page|button|icon|bar|speed|sign))"  # "downloads from this month"
)

#: Photos someone else sent: "photos people sent me", "pictures shared with me", "received photos" (who
#: sent them is no one in the photo: "people" is dropped with it).
_RECEIVED = re.compile(
    r"\b(?:(?:(?:other\s+)?people|someone|somebody|others|friends|everyone|they)\s+(?=sent|shared|forwarded|texted))?"
    r"(?:(?:sent|shared|forwarded|texted)\s+(?:to|with)\s+(?:me|us)"
    r"|(?:sent|forwarded|texted)\s+(?:me|us)|(?:i|we)\s+(?:received|got\s+sent)"
    rf"|received\s+(?={_PHOTO_WORDS}\b))\b"
)


def received_photos() -> dict:
    """Where photos others sent are saved: each messaging app's files or folder, and downloads."""
    sources: list[dict] = []
    for node in APP_SOURCES.values():
        sources.extend(node.get("or", [node]))
    return {"or": [*copy.deepcopy(sources), {"folder": "Download"}]}


class CueClaims:
    """The cue passes that need compiled patterns: prefix syntax, similar, folders, cameras."""

    def __init__(self):
        self.knowledge = re.compile(
            r"\b(?:learned|knowledge|web|learnt)\s*:\s*(?P<v>[^,;]+?)(?=$|[,;]|\s+(?:and|or|not|but|with|without)\b)"
        )
        self.prefix = re.compile(
            r"\b(?P<k>concept|person|place|text|camera|lens|folder|file|album|similar|tag|kind|quality)\s*:\s*(?P<v>[^\s,;]+)"
        )
        self.similar = re.compile(
            r"\b(?:(?:more|others?|ones?)\s+)?"  # "more like photo 42", "others like IMG_1234.jpg"
            r"(?:similar(?:\s+(?:photos?|pictures?|pics?|images?|shots?|ones?))?\s+to|look(?:s|ing)?\s+like|like"
            r"|resembling|same\s+as|close\s+to)\s+(?:the\s+)?"
            rf"(?:(?:photo|picture|image|pic|shot)\s+)?(?:(?:number|no\.?|id|#)\s*)?#?"
            rf"(?P<v>\d+\b|[~/.][^\s,;]+|[^\s,;]+\.{_IMG_EXT}\b)"
        )
        # "file IMG_2041", "files named holiday*", "filename contains 2019": part of a file's name
        # (a plain word after "file" needs "named"/"called": "a file cabinet" is a thing), or a name
        # typed with its extension ("chelsea.jpg")
        self.file_name = re.compile(
            r"\b(?:file\s*names?|files?)\s+(?:(?:called|named|like|containing|contains|with|matching)\s+"
            r"(?P<v>[\w*?][\w.*?-]*)|(?P<w>[\w*?]*[\d_*?.][\w.*?-]*))"
            rf"|(?<![\w/.~])(?P<x>[\w*?-]+\.{_IMG_EXT})\b"
            # a camera's or a phone's own file name typed bare: "img_4523", "DSC_0042", "PXL_20230101"
            r"|(?<![\w/.~-])(?P<y>(?:img|dsc|dscf|dscn|pxl|mvimg|gopr|dji|sam|wp)[_-]\d{3,}[\w-]*)\b"
        )
        self.folder_patterns = [
            # a path typed out: "in /home/anna/Pictures", "from ~/Pictures/2019", "in D:\\Photos"
            re.compile(
                r"\b(?:in|from|inside|within|under)\s+(?P<v>(?:~|\.{1,2})?/[^\s,;]+|[a-z]:\\[^\s,;]*)"
            ),
            re.compile(
                r"\b(?:in|from|inside|within)?\s*(?:the\s+|my\s+)?(?:folder|album|directory|dir)\s+(?:called\s+|named\s+)?(?P<v>[\w][\w-]*(?:\s+\d{4})?)"
            ),
            re.compile(
                r"\b(?:in|from|inside|within)\s+(?:the\s+|my\s+)?(?P<v>[\w][\w-]*(?:\s+[\w][\w-]*){0,2}?)\s+(?:folder|album|directory)\b"
            ),
        ]
        brands = "|".join(
            re.escape(b)
            for b in sorted(
                {**lx.CAMERA_BRANDS, "google pixel": 1, "apple iphone": 1, "samsung galaxy": 1},
                key=len,
                reverse=True,
            )
        )
        model_words = "|".join(sorted(lx.CAMERA_MODEL_WORDS, key=len, reverse=True))
        self.camera = re.compile(
            rf"(?:\b(?P<cue>(?:taken|shot|captured|made|photographed)\s+(?:with|on|by|using)|with|on|using|from|by)\s+)?"
            rf"(?:(?P<det>my|the|a|an|our|his|her)\s+(?:old\s+|new\s+)?)?\b(?P<b>{brands})\b"
            rf"(?P<m>(?:\s+(?:[a-z]*\d[\w]*|(?:{model_words})\b))*)"
            r"(?:\s+(?:cameras?|phones?|dslrs?)\b)?"  # "my canon camera": the camera, not a thing in the photo
        )

    def claim_prefix(self, st: ClaimState) -> None:
        """ "learned: X" and `key:value` syntax."""
        for m in st.unclaimed(self.knowledge):
            st.claim(m.start(), m.end(), "atom", {"knowledge": st.orig(m, "v")}, slot="knowledge")
        for m in self.prefix.finditer(st.low):
            if not st.free(m.start(), m.end()):
                continue
            key, value, end = m.group("k"), st.orig(m, "v"), m.end()
            if key in ("album", "folder") and (year := re.match(r"\s+\d{4}\b", st.low[end:])):
                end += year.end()  # "album: summer 2023"
                value = st.text[m.start("v") : end]
            if key in ("kind", "quality"):
                value = (
                    value.lower().rstrip("s")
                    if key == "kind"
                    else lx.QUALITY_WORDS.get(value.lower(), value.lower())
                )
            st.claim(m.start(), end, "atom", {key: value}, slot=key)

    def claim_similar(self, st: ClaimState) -> None:
        """ "similar to 42", "like ~/a.jpg": a photo id or path; "duplicates", "near-duplicate
        photos": a near-duplicate of any photo (`plan.ANY_SIMILAR`; "no duplicates" is compose's)."""
        for m in st.unclaimed(_DUPLICATES):
            if "burst" in m.group(0) or "similar" in m.group(0):
                st.note(
                    f"“{' '.join(m.group(0).split())}” was read as near-duplicates"
                    + (", as a burst's photos are" if "burst" in m.group(0) else ""),
                    0.0,
                )
            st.claim(m.start(), m.end(), "atom", {"similar": ANY_SIMILAR}, slot="similar")
        for m in st.unclaimed(self.similar):
            st.claim(m.start(), m.end(), "atom", {"similar": st.orig(m, "v")}, slot="similar")
        for m in st.unclaimed(_SIMILAR_TO_A_THING):  # "similar to the sunset photo": no photo named
            st.claim(m.start(), m.end(), "drop", text="")
            st.note(SIMILAR_TO_WORDS, 0.0)

    def claim_files(self, st: ClaimState) -> None:
        """ "file IMG_2041", "files named holiday*": part of the photo's file name; "HEIC files",
        "jpegs", "PNG images": the file type's name ending; video words, which no photo is."""
        _claim_videos(st)
        for m in st.unclaimed(_RAW):
            st.claim(m.start(), m.end(), "atom", {"file": ANY_RAW}, slot="file")
        for m in st.unclaimed(_FORMAT):
            st.claim(m.start(), m.end(), "atom", {"file": FORMAT_GLOBS[m.group("f")]}, slot="file")
        for m in self.file_name.finditer(st.low):
            group = next(g for g in ("v", "w", "x", "y") if m.group(g))
            if st.free(m.start(), m.end()) and m.group(group) not in lx.STOP_WORDS:
                st.claim(m.start(), m.end(), "atom", {"file": st.orig(m, group)}, slot="file")

    def claim_folders(self, st: ClaimState) -> None:
        """ "in the Trips folder", "album Summer 2020" (named as the catalog spells it); "in an
        album", "without an album": any manual album (`plan.ANY_ALBUM`); "in my library" is every
        photo."""
        _claim_sources(st)
        for m in st.unclaimed(_WHOLE_LIBRARY):
            st.claim(m.start(), m.end(), "drop", text="")
        for m in st.unclaimed(_ANY_ALBUM):
            node = {"album": ANY_ALBUM}
            st.claim(m.start(), m.end(), "atom", {"not": node} if m.group("no") else node, slot="album")
        for pat in self.folder_patterns:
            for m in pat.finditer(st.low):
                s = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
                if not st.free(s, m.end()):
                    continue
                value = st.orig(m, "v")
                first = value.split()[0].lower()
                if value.lower() in lx.STOP_WORDS or first in lx.SEPARATORS or first in _ALBUM_THINGS:
                    continue  # "the album from italy": no album "from"; "album covers" are things
                node = album_or_folder(st, value) if "album" in m.group(0) else {"folder": value}
                if "folder" in node:
                    for known in st.ctx.folders:
                        if fold(known) == fold(value) or fold(known).endswith("/" + fold(value)):
                            node = {"folder": known.rsplit("/", 1)[-1]}
                            break
                key = next(iter(node))
                st.claim(s, m.end(), "atom", node, slot=key)
        _albums_named_before(st)

    def claim_cameras(self, st: ClaimState) -> None:
        """A camera brand and model words ("shot on a Pixel 7"); any phone ("photos from my phone")."""
        for m in self.camera.finditer(st.low):
            if not st.free(m.start(), m.end()):
                continue
            brand = m.group("b")
            shown = lx.CAMERA_BRANDS.get(brand) or lx.CAMERA_BRANDS[brand.split()[-1]]
            models = [_model_word(w) for w in m.group("m").split()]
            if brand in AMBIGUOUS_BRANDS and not models and not _says_a_camera(m):
                # "apple", "an apple", "with an apple": the fruit, though most libraries hold iPhones
                if any(w in fold(c) for c in st.ctx.cameras for w in AMBIGUOUS_BRANDS[brand]):
                    st.note(
                        f"“{brand}” was read as the word; “taken with my {brand}” finds that camera's photos",
                        0.0,
                    )
                continue
            if not models and m.start("b") == m.start() and _names_a_thing(st.low, m):
                continue  # "mount fuji" is a mountain, no Fujifilm
            if not models and _an_app_of(st.low, m):
                continue  # "a screenshot of google maps": the app, no Pixel's photo
            value = " ".join([shown, *models])
            for known in st.ctx.cameras:
                if fold(known) == fold(value):
                    value = known
            if shown == "DJI" and models and value not in st.ctx.cameras:
                value = ANY_DRONE  # "dji mini 3": a drone's EXIF model is its camera's, "FC3582"
            st.claim(m.start(), m.end(), "atom", {"camera": value}, slot="camera")
        _claim_lenses(st)
        for m in st.unclaimed(_PHONE):  # after the brands: "samsung phone pictures" is the Samsung
            st.claim(m.start(), m.end(), "atom", {"camera": ANY_PHONE}, slot="camera")
        for m in st.unclaimed(_FRONT_CAMERA):  # the selfie camera: a selfie (`resolvers/selfies.py`)
            st.claim(m.start(), m.end(), "atom", {"concept": "selfie"}, slot="concept")
        for kind, pat in _CAMERA_KINDS:
            for m in st.unclaimed(pat):
                st.claim(m.start(), m.end(), "atom", {"camera": kind}, slot="camera")


def _claim_sources(st: ClaimState) -> None:
    """Photos an app saved ("photos from whatsapp": its file names or folder), that were downloaded
    (a Downloads folder) or sent by someone ("photos people sent me": any of them), said in a note so
    the reading can be checked."""
    for m in st.unclaimed(_FROM_APP):
        app = m.group("app") or m.group("app2")
        st.claim(m.start(), m.end(), "atom", copy.deepcopy(APP_SOURCES[app]), slot="folder")
        name = _APP_NAMES.get(app, app.title())
        st.note(f"“{app}” was read as where {name} saves photos: its folder or file names", 0.0)
    for m in st.unclaimed(_DOWNLOADED):
        st.claim(m.start(), m.end(), "atom", {"folder": "Download"}, slot="folder")
    for m in st.unclaimed(_RECEIVED):
        st.claim(m.start(), m.end(), "atom", received_photos(), slot="folder")
        st.note(f"“{m.group(0)}” was read as photos messaging apps saved, or downloaded", 0.0)


def _says_a_camera(m: re.Match) -> bool:
    """Whether the words before a brand that is also a thing say it took the photo: "shot on", or
    "from"/"on"/"using" with "my" ("photos from my apple"), or with "the" for a phone no thing is
    called ("pictures from the pixel"); not an article or a bare "with" ("a girl with an apple")."""
    cue, det = m.group("cue") or "", m.group("det") or ""
    owned = det in ("my", "our", "his", "her") or (det == "the" and m.group("b") == "pixel")
    return " " in cue or cue in ("from", "on", "using", "by") and owned


def _names_a_thing(low: str, m: re.Match) -> bool:
    """Is the brand, with the word before or after it, a noun WordNet knows ("mount fuji",
    "mount olympus", "mt fuji": a place's short forms written out)? Then it names that thing, not a
    camera."""
    before = place_key(low[: m.end("b")]).split()[-2:-1]
    after = low[m.end("b") :].split()[:1]
    brand = m.group("b")
    pairs = [(before[0], brand)] if before else []
    pairs += [(brand, after[0])] if after else []
    return any(names_a_thing(word, nxt) for word, nxt in pairs)


#: A lens by its maker ("taken with my sigma", "the tamron lens"), and a kind of lens by the word its
#: makers write ("macro lens", "fisheye lens"): the lens EXIF names them (`resolvers/filters.resolve_lens`).
_LENS_MAKER = re.compile(
    r"(?:\b(?:(?:taken|shot|captured)\s+(?:with|on|using)|with|using|on)\s+)?(?:(?:my|the|a|an|our)\s+)?"
    rf"\b(?P<b>{'|'.join(sorted(map(re.escape, lx.LENS_BRANDS), key=len, reverse=True))})\b(?:\s+lens(?:es)?\b)?"
)
_LENS_KIND = re.compile(
    r"(?:\b(?:(?:taken|shot|captured)\s+(?:with|on|using)|with|using)\s+)?(?:(?:my|the|a|an|our)\s+)?"
    r"\b(?P<k>macro|fish[- ]?eye)\s+lens(?:es)?\b"
)


def _claim_lenses(st: ClaimState) -> None:
    for m in st.unclaimed(_LENS_MAKER):
        st.claim(m.start(), m.end(), "atom", {"lens": lx.LENS_BRANDS[m.group("b")]}, slot="lens")
    for m in st.unclaimed(_LENS_KIND):
        kind = "macro" if m.group("k") == "macro" else "fisheye"
        st.claim(m.start(), m.end(), "atom", {"lens": kind}, slot="lens")


#: A maker's apps, named after its brand: "google maps" is the app, no photo taken with a Pixel.
_APPS = {
    "google": {"maps", "map", "earth", "docs", "doc", "sheets", "drive", "search", "translate", "calendar"},
    "apple": {"maps", "map", "music", "pay", "watch", "tv", "store", "wallet", "health"},
    "samsung": {"pay", "health", "wallet"},
}


def _an_app_of(low: str, m: re.Match) -> bool:
    """Whether the word after a brand names one of its apps ("google maps", "apple music")."""
    after = low[m.end("b") :].split()[:1]
    return bool(after) and after[0] in _APPS.get(m.group("b"), ())


def _model_word(w: str) -> str:
    if w.isdigit():
        return w
    if any(c.isdigit() for c in w):
        return w.upper()
    if w in ("ii", "iii", "iv", "xl", "se", "zv"):
        return w.upper()
    return w.capitalize()


#: What an album has, as a thing: "album covers", "album art".
_ALBUM_THINGS = frozenset({"cover", "covers", "art", "artwork", "sleeve", "sleeves"})
#: "the album from italy", "albums of the kids": photos from there, of them.
_ALBUM_OF = re.compile(r"\b(?:(?:the|my|our)\s+)?albums?\s+(?=(?:from|of)\b)")
#: "my portugal album", "the wedding album": the words before "album" may name one of the user's.
_BEFORE_ALBUM = re.compile(
    r"\b(?P<v>[\w][\w'-]*(?:\s+[\w][\w'-]*){0,2}?)\s+albums?\b(?!\s+(?:covers?|art|artwork|sleeves?)\b)"
)


def _albums_named_before(st: ClaimState) -> None:
    """An album of the user's named before "album" ("my portugal album") is that album; where none is
    so named, "album" is dropped and the words before it are read as ever ("the wedding album" is
    wedding photos, "photos from the italy album" Italy), not a photo album the object."""
    for m in st.unclaimed(_ALBUM_OF):
        st.claim(m.start(), m.end(), "drop", text="")
    for m in st.unclaimed(_BEFORE_ALBUM):
        words = m.group("v").split()
        for n in range(len(words), 0, -1):
            name = " ".join(words[-n:])
            known = next((a for a in st.ctx.albums if fold(a) == fold(name)), None)
            if known is not None:
                start = m.end("v") - len(name)
                st.claim(start, m.end(), "atom", {"album": known}, slot="album")
                break
        else:
            if words[-1].lower() not in lx.STOP_WORDS and words[-1].lower() != "photo":
                st.claim(m.end("v"), m.end(), "drop", text="")
