"""exiv2's flattened blocks (key -> value) into what a photo says: keywords (flat and hierarchical),
titles and captions, authorship, rating, colour label, place names, camera settings, the photo
editors that worked on it and named regions."""

from __future__ import annotations

import re

from photosearch.metadata import regions as region_parse
from photosearch.metadata.editing import read_editors
from photosearch.metadata.exposure import read_exposure
from photosearch.metadata.model import Block, EmbeddedMetadata, Keyword, PlaceNames, Region, Text

#: Text values longer than this are cut (the catalog's label column holds 512 characters).
MAX_TEXT_CHARS = 512
#: At most this many keywords per photo (a keyword list of thousands is a tool gone wrong).
MAX_KEYWORDS = 500
#: Caption text cameras write into ImageDescription by themselves: never the user's words.
CAMERA_BOILERPLATE = frozenset(
    {
        "olympus digital camera",
        "sony dsc",
        "digital camera",
        "default",
        "exif_jpeg_picture",
        "image",
        "picture",
        "untitled",
        "<untitled>",
        "no title",
        "ljpeg",
        "minolta digital camera",
        "kodak digital still camera",
        "samsung digital camera",
        "camera",
    }
)


def clean(value) -> str:
    """Printable, single-spaced text cut to the label size (NULs of XP tags, control bytes dropped)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else " " for ch in str(value))
    return " ".join(text.split())[:MAX_TEXT_CHARS]


def values(value) -> list[str]:
    """Every text of a value: a bag/seq (list), a lang-alt (dict: x-default first), or a string."""
    if value is None:
        return []
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: "x-default" not in str(kv[0]))
        return [v for v in (clean(x) for _, x in items) if v]
    if isinstance(value, (list, tuple)):
        return [v for v in (clean(x) for x in value) if v]
    text = clean(value)
    if text.startswith('type="'):  # a struct or array node, not a value
        return []
    return [text] if text else []


_CHARSET = re.compile(r"^charset=\"?(ascii|unicode|jis|undefined)\"?\s*", re.I)


def _user_comment(value) -> list[str]:
    texts = []
    for v in values(value):
        v = _CHARSET.sub("", v).strip()
        if v and v.strip("\x00 ") and not set(v) <= {"\x00", " "}:
            texts.append(v)
    return texts


def collect(block: Block, out: EmbeddedMetadata, orientation: int) -> None:
    """Add what one source (the file, or a sidecar) says to `out`; later sources win single values."""
    src = block.source
    ex, ip, xm = block.exif, block.iptc, block.xmp
    # keywords (Windows joins its XPKeywords with ";")
    windows = [k for v in values(ex.get("Exif.Image.XPKeywords")) for k in v.split(";")]
    flat = values(xm.get("Xmp.dc.subject")) + values(ip.get("Iptc.Application2.Keywords")) + windows
    for word in flat:
        _add_keyword(out, word, src, None)
    for key, sep in (
        ("Xmp.lr.hierarchicalSubject", "|"),
        ("Xmp.digiKam.TagsList", "/"),
        ("Xmp.MicrosoftPhoto.LastKeywordXMP", "/"),
    ):
        for path in values(xm.get(key)):
            levels = [lv.strip() for lv in path.split(sep) if lv.strip()]
            for lv in levels:
                _add_keyword(out, lv, src, sep.join(levels) if len(levels) > 1 else None)
    # titles, captions, authorship
    fields = [
        ("title", "XMP dc:title", values(xm.get("Xmp.dc.title"))),
        ("title", "XMP photoshop:Headline", values(xm.get("Xmp.photoshop.Headline"))),
        ("title", "IPTC Headline", values(ip.get("Iptc.Application2.Headline"))),
        ("title", "EXIF XPTitle", values(ex.get("Exif.Image.XPTitle"))),
        ("title", "EXIF XPSubject", values(ex.get("Exif.Image.XPSubject"))),
        ("description", "XMP dc:description", values(xm.get("Xmp.dc.description"))),
        ("description", "IPTC Caption-Abstract", values(ip.get("Iptc.Application2.Caption"))),
        ("description", "EXIF ImageDescription", values(ex.get("Exif.Image.ImageDescription"))),
        ("description", "EXIF XPComment", values(ex.get("Exif.Image.XPComment"))),
        ("description", "EXIF UserComment", _user_comment(ex.get("Exif.Photo.UserComment"))),
        ("credit", "EXIF Artist", values(ex.get("Exif.Image.Artist"))),
        ("credit", "XMP dc:creator", values(xm.get("Xmp.dc.creator"))),
        ("credit", "EXIF Copyright", values(ex.get("Exif.Image.Copyright"))),
        ("credit", "XMP dc:rights", values(xm.get("Xmp.dc.rights"))),
    ]
    have = {(t.kind, t.label.casefold()) for t in out.texts}
    for kind, where, texts in fields:
        for text in texts:
            key = (kind, text.casefold())
            if key in have or text.casefold() in CAMERA_BOILERPLATE:
                continue
            have.add(key)
            out.texts.append(Text(kind, text, src, where))
    # rating and colour label (a sidecar read after the file overrides it)
    for value in values(xm.get("Xmp.xmp.Rating")) + values(ex.get("Exif.Image.Rating")):
        rating = _rating(value)
        if rating is not None:
            out.rating, out.rating_source = rating, src
            break
    for value in values(xm.get("Xmp.xmp.Label")):
        out.label, out.label_source = value[:64], src
        break
    # place names
    place = PlaceNames(
        sublocation=_first(xm.get("Xmp.iptc.Location"), ip.get("Iptc.Application2.SubLocation")),
        city=_first(xm.get("Xmp.photoshop.City"), ip.get("Iptc.Application2.City")),
        state=_first(xm.get("Xmp.photoshop.State"), ip.get("Iptc.Application2.ProvinceState")),
        country=_first(xm.get("Xmp.photoshop.Country"), ip.get("Iptc.Application2.CountryName")),
        source=src,
    )
    if not place.empty():
        out.place = place
    # camera settings (aperture, shutter, ISO, focal length, flash)
    out.exposure.update(read_exposure(block))
    # the photo editors that worked on it
    out.editors.extend(e for e in read_editors(block) if e not in out.editors)
    # named face regions
    for name, box, scheme in region_parse.named_regions(xm, orientation):
        out.regions.append(Region(clean(name), box, src, scheme))


def _add_keyword(out: EmbeddedMetadata, word: str, source: str, path: str | None) -> None:
    word = clean(word).strip(" ;,")
    if not word:
        return
    folded = word.casefold()
    known = out.keyword_index.get(folded)
    if known is not None:
        if path and not known.path:
            known.path = path  # the flat copy of a hierarchical keyword: keep where it sits
        return
    if len(out.keywords) >= MAX_KEYWORDS:
        note = f"more than {MAX_KEYWORDS} keywords: the first {MAX_KEYWORDS} kept"
        if note not in out.issues:
            out.issues.append(note)
        return
    out.keyword_index[folded] = keyword = Keyword(word, source, path)
    out.keywords.append(keyword)


def _first(*candidates) -> str:
    for v in candidates:
        got = values(v)
        if got:
            return got[0][:128]
    return ""


def _rating(value: str) -> int | None:
    """xmp:Rating is -1 (rejected) or 0..5, written as an integer or a real."""
    try:
        rating = round(float(value))
    except ValueError:
        return None
    return rating if -1 <= rating <= 5 else None


def orientation_of(block: Block) -> int:
    """EXIF (or tiff:) orientation of the photo, 1..8 (1 when none or odd)."""
    for value in values(block.exif.get("Exif.Image.Orientation")) + values(
        block.xmp.get("Xmp.tiff.Orientation")
    ):
        try:
            o = int(value)
        except ValueError:
            continue
        if 1 <= o <= 8:
            return o
    return 1
