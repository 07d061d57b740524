"""Compose claims: the words that shape the result rather than select photos — "one per day",
"no duplicates", "top 10", "newest first", "a mix of" — set the plan's compose block and are dropped."""

from __future__ import annotations

import re

from photosearch.query import lexicon as lx
from photosearch.query.parse_state import ClaimState

#: Words that, as "the first photo" or "my latest picture", ask for one photo by date.
ONE_BY_DATE = {"first", "oldest", "earliest", "last", "latest", "newest", "most recent"}


class ComposeClaims:
    """Claims per-group, de-duplication, limit, sort and diversity phrases (in that order)."""

    def __init__(self):
        n = lx.NUMBER_RE
        units = r"(?:days?|weeks?|months?|years?)"
        self.limit_patterns = [
            (re.compile(rf"\b(?:the\s+)?(?:best|top|greatest|nicest|finest)\s+(?P<n>{n})\b"), "relevance"),
            (re.compile(rf"\b(?P<n>{n})\s+(?:best|top|nicest|greatest|finest)\b"), "relevance"),
            (re.compile(rf"\brandom\s+(?P<n>{n})\b(?!\s*{units})"), None),  # "random 10 photos"
            (
                re.compile(
                    rf"\b(?:the\s+)?(?:latest|newest|most\s+recent|last)\s+(?P<n>{n})\b(?!\s*{units})"
                ),
                "date_desc",
            ),
            (re.compile(rf"\b(?P<n>{n})\s+(?:latest|newest|most\s+recent)\b"), "date_desc"),
            (re.compile(rf"\b(?:the\s+)?(?:oldest|earliest|first)\s+(?P<n>{n})\b(?!\s*{units})"), "date_asc"),
            (re.compile(rf"\b(?P<n>{n})\s+(?:oldest|earliest)\b"), "date_asc"),
            (
                re.compile(
                    rf"\b(?:limit|max(?:imum)?|at\s+most|up\s+to)\s+(?P<n>{n})\s+(?:photos?|pictures?|pics|images?|shots?|results?)\b"
                ),
                None,
            ),
            (
                re.compile(
                    rf"\b(?P<n>\d+|{'|'.join(k for k in lx.NUMBER_WORDS if k != 'one')})\s+"
                    r"(?:(?:random|different|nice|good|great)\s+)?"
                    r"(?:photos|pictures|pics|images|shots|snaps|photographs|results)\b"
                ),
                None,
            ),
            # "the first photo I took", "my latest picture", "first photo of 2020": one photo, by date
            (
                re.compile(
                    r"(?:\b(?:the|my)\s+|^\s*)(?P<n>first|oldest|earliest)\s+(?:photo|picture|pic|image|shot|snap)\b"
                ),
                "date_asc",
            ),
            (
                re.compile(
                    r"(?:\b(?:the|my)\s+|^\s*)(?P<n>last|latest|newest|most\s+recent)\s+(?:photo|picture|pic|image|shot|snap)\b"
                ),
                "date_desc",
            ),
            # "my latest selfie", "the first screenshot": one of them, by date ("selfie" stays to find)
            (
                re.compile(rf"(?:\b(?:the|my)\s+|^\s*)(?P<n>first|oldest|earliest)(?=\s+{_ONE_OF_A_KIND})"),
                "date_asc",
            ),
            (
                re.compile(
                    rf"(?:\b(?:the|my)\s+|^\s*)(?P<n>last|latest|newest|most\s+recent)(?=\s+{_ONE_OF_A_KIND})"
                ),
                "date_desc",
            ),
            (re.compile(r"\blimit\s*(?:to\s*)?(?P<n>\d+)\b"), None),
            # "my 5 favourite beach photos", "10 beach photos": how many, the words between them kept
            # ("favourite" is the tag); not a number after a content word ("route 66 photos")
            (
                re.compile(
                    r"\b(?P<n>\d+)(?:\s+(?:random|different|nice|good|great))?(?=\s+(?:favou?rite\s+)?"
                    rf"(?:(?!{_MEASURE_UNITS}\b)[a-z]+\s+)?(?:photos|pictures|pics|images|shots|snaps|photographs)\b)"
                ),
                None,
            ),
            (re.compile(r"\b(?P<n>a|one)\s+random\s+(?:photo|picture|pic|image|shot|one)\b"), None),
        ]
        group = r"(?P<g>days?|weeks?|months?|years?|places?|locations?|cit(?:y|ies)|countr(?:y|ies)|persons?|people|spots?)"
        self.per_patterns = [
            re.compile(
                rf"\b(?:(?:at\s+most\s+)?(?:one|1|a\s+single)\s+(?:(?:photo|picture|pic|shot|image)s?\s+)?|a\s+(?:photo|picture|pic|shot|image)\s+)(?:per|each|from\s+each|for\s+each|from\s+every|every|a|of\s+each)\s+{group}\b"
            ),
            re.compile(rf"\bper\s+{group}\b"),
            re.compile(rf"\b(?:from|for|of)\s+(?:each|every)\s+{group}\b"),
            re.compile(rf"\b(?:each|every)\s+{group}\s+(?:at\s+least\s+once|once|covered|represented)\b"),
            re.compile(
                r"\b(?:everyone|everybody|each\s+of\s+them|all\s+of\s+them|each\s+one)\s+(?:at\s+least\s+once|once|represented)\b"
            ),
            re.compile(
                r"\b(?P<daily>daily|weekly|monthly|yearly)\b(?!\s+(?:average|basis|total|rate|report|market|meeting|newspaper|paper|magazine|planner|calendar))"
            ),
        ]
        self.dedupe = re.compile(
            r"\b(?:no|without|exclude|excluding|skip|drop|remove|hide|minus|not)\s+(?:the\s+|any\s+)?(?:near[- ]?)?"
            r"(?:duplicates?|dupes?|doubles|repeats|copies|similar\s+ones|near[- ]duplicates?)\b"
            r"|\bde-?dup(?:e|ed|licated|licate)?\b|\b(?:unique|distinct)(?:\s+ones)?\b|\bno\s+near[- ]dups?\b"
        )
        self.sort_desc = re.compile(
            r"\b(?:(?:newest|latest|most\s+recent|recent)\s+(?:ones\s+)?first|newest\s+to\s+oldest|"
            r"reverse\s+chronological(?:ly)?(?:\s+order)?|(?:sorted|ordered|sort)\s+by\s+(?:date|time)\s+(?:descending|desc)|"
            r"(?:sorted|ordered|sort)\s+newest\s+first|most\s+recent|newest|latest|recent(?:ly)?"
            r"|(?:when\s+was\s+)?the\s+last\s+time"  # "the last time we went to the beach"
            r"|(?:the|my)\s+last(?=\s+(?:photos|pictures|pics|images|shots|snaps)\b))\b"  # "the last photos I took"
        )
        self.sort_asc = re.compile(
            r"\b(?:(?:oldest|earliest)\s+(?:ones\s+)?first|oldest\s+to\s+newest|in\s+chronological\s+order|"
            r"chronological(?:ly)?(?:\s+order)?|(?:sorted|ordered|sort)\s+by\s+(?:date|time)(?:\s+ascending)?|"
            r"in\s+date\s+order|by\s+date|in\s+order|oldest|earliest|(?:when\s+was\s+)?the\s+first\s+time"
            r"|first\s+(?:photos|pictures|pics|shots)"  # "first photos of 2024": the earliest first
            # "anna when she was little": her oldest photos first
            r"|(?:(?:back\s+)?when\s+(?:she|he|they|i|we|you)\s+|(?<=kids\s)|(?<=children\s)|(?<=boys\s)|(?<=girls\s))"
            r"(?:was|were)\s+(?:younger|little|small|young))\b"
        )
        # "the biggest photos", "the 10 largest files", "highest resolution first", "sorted by size"
        what = r"(?:files?|photos?|pictures?|pics|images?|videos?|shots?|ones)"
        self.size_sorts = [
            (
                re.compile(
                    rf"\b(?:the\s+)?(?:(?P<n>{n})\s+)?(?P<sup>{sup})\s+(?P<what>{what}|first)\b"
                    rf"|\b(?P<sup2>{sup})\s+to\s+(?:smallest|biggest|largest|tiniest|highest|lowest)\b"
                ),
                sort,
            )
            for sup, sort in (
                (r"biggest|largest|heaviest", "size_desc"),
                (r"smallest|tiniest|lightest", "size_asc"),
                (r"(?:highest|best|biggest|largest)[\s-]+res(?:olution)?|most\s+megapixels", "pixels_desc"),
                (r"(?:lowest|worst|smallest)[\s-]+res(?:olution)?|fewest\s+megapixels", "pixels_asc"),
            )
        ]
        self.size_sorts.append(
            (
                re.compile(
                    r"\b(?:sorted|ordered|sort|order)\s+by\s+(?:file\s+)?size\b(?:\s+desc(?:ending)?)?"
                ),
                "size_desc",
            )
        )
        self.size_sorts.append(
            (
                re.compile(
                    r"\b(?:tak(?:e|es|ing)|us(?:e|es|ing)|eat(?:s|ing)?|hog(?:s|ging)?)\s+(?:up\s+)?"
                    r"(?:the\s+)?most\s+(?:disk\s+|storage\s+)?(?:space|storage|room)\b"
                ),
                "size_desc",
            )
        )
        self.size_sorts.append(
            (
                re.compile(
                    r"\b(?:sorted|ordered|sort|order)\s+by\s+(?:resolution|megapixels|pixels)\b"
                    r"|\b(?:with\s+)?(?:the\s+)?most\s+(?:megapixels|pixels)\b"
                ),
                "pixels_desc",
            )
        )
        self.diverse = re.compile(
            r"\b(?:diverse|diversity|variety|varied|various|a\s+mix|mix\s+of|mixed|different\s+ones|assorted|"
            r"a\s+range\s+of|all\s+different|random(?:ly)?|a\s+random\s+selection(?:\s+of)?)\b"
        )

    def __call__(self, st: ClaimState) -> None:
        for pat in self.per_patterns:
            for m in pat.finditer(st.low):
                if not st.free(m.start(), m.end()):
                    continue
                g = m.groupdict().get("g") or m.groupdict().get("daily") or "person"
                per = {"daily": "day", "weekly": "week", "monthly": "month", "yearly": "year"}.get(
                    g
                ) or _per_value(g)
                st.compose["per"] = per
                st.claim(m.start(), m.end(), "drop", text=f"<per:{per}>")
        for m in st.unclaimed(self.dedupe):
            st.compose["exclude_near_duplicates"] = True
            st.claim(m.start(), m.end(), "drop", text="<nodup>")
        for pat, sort in self.limit_patterns:
            for m in pat.finditer(st.low):
                if not st.free(m.start(), m.end()) or _after_a_camera(st, m.start("n")):
                    continue
                if m.start("n") == m.start() and _a_names_number(st, m.start()):
                    continue  # "route 66 photos", "apollo 11 pictures": the number is a name's
                n = " ".join(m.group("n").split())
                st.compose["limit"] = 1 if n in ONE_BY_DATE or n == "a" else _count(n)
                if "random" in m.group(0):  # "20 random photos": a spread, not the 20 best
                    st.compose["diverse"] = True
                if sort and sort != "relevance":
                    st.compose["sort"] = sort
                st.claim(m.start(), m.end(), "drop", text="<limit>" + (f"<{sort}>" if sort else ""))
        self._claim_sorts(st)
        for m in st.unclaimed(self.diverse):
            st.compose["diverse"] = True
            st.claim(m.start(), m.end(), "drop", text="<diverse>")

    def _claim_sorts(self, st: ClaimState) -> None:
        """Size orders ("the biggest photos"), then date orders ("newest first")."""
        for pat, sort in self.size_sorts:
            for m in st.unclaimed(pat):
                _sort_by_size(st, m, sort)
        for pat, sort in ((self.sort_asc, "date_asc"), (self.sort_desc, "date_desc")):
            for m in st.unclaimed(pat):
                st.compose["sort"] = sort
                st.claim(m.start(), m.end(), "drop", text=f"<{sort}>")


def _count(n: str) -> int:
    """A number in words or digits, "a dozen" too."""
    return lx.to_int(n.replace("a dozen", "dozen"))


#: Kinds of photo one of which "my latest …" asks for ("my latest selfie": the newest selfie).
_ONE_OF_A_KIND = r"(?:screenshot|selfie|panorama|scan|screen\s+shot)\b(?!s)"

#: "the biggest photo": one photo.
SINGULAR = ("file", "photo", "picture", "pic", "image", "video", "shot")


def _sort_by_size(st: ClaimState, m: re.Match, sort: str) -> None:
    """A size sort; "the 10 largest files" pages 10 of them, "the biggest photo" one. "videos" stays
    for the kind claims to read."""
    st.compose["sort"] = sort
    groups = m.groupdict()
    if groups.get("n"):
        st.compose["limit"] = _count(" ".join(m.group("n").split()))
    elif m.group(0).startswith("the") and groups.get("what") in SINGULAR:
        st.compose["limit"] = 1
    end = m.start("what") if (groups.get("what") or "").startswith("video") else m.end()
    st.claim(m.start(), end, "drop", text=f"<{sort}>")


def _per_value(g: str) -> str:
    g = g.rstrip("s")
    if g.startswith(("day",)):
        return "day"
    if g.startswith("week"):
        return "week"
    if g.startswith("month"):
        return "month"
    if g.startswith("year"):
        return "year"
    if g.startswith(("person", "people")):
        return "person"
    return "place"


#: Words after a number that make it a measure, not how many photos: "5 star photos", "12 mp photos".
_MEASURE_UNITS = (
    r"(?:stars?|mp|mb|gb|kb|megapixels?|mm|k|seconds?|minutes?|hours?|days?|weeks?|months?|years?)"
)
#: Words a count of photos follows: "my favourite 5 photos", "the best 3".
_BEFORE_A_COUNT = frozenset({"favourite", "favorite", "best", "top", "nicest", "greatest", "finest", "first"})


def _a_names_number(st: ClaimState, i: int) -> bool:
    """Whether the number at `i` is part of a name, after a content word ("route 66 photos", "apollo 11
    pictures"); not after a stop word, a possessive ("anna's 5 best") or a word a count follows."""
    before = st.word_before(i)
    if before is None or not st.low[i].isdigit():
        return False
    word = before.group(0)
    possessive = word == "s" and st.low[before.start() - 1 : before.start()] in ("'", "’")
    return not possessive and word not in lx.STOP_WORDS and word not in _BEFORE_A_COUNT


def _after_a_camera(st: ClaimState, i: int) -> bool:
    """Whether the number at `i` follows a camera's name: "iphone 12 photos" is the model, not a count."""
    before = st.word_before(i)
    return before is not None and (
        before.group(0) in lx.CAMERA_BRANDS or before.group(0) in lx.CAMERA_MODEL_WORDS
    )
