"""Deterministic request parser: natural language → plan, with a confidence and notes.

The parser claims spans of the request in a fixed order (quotes and `key:value` syntax, compose
words, similar/folder/camera, kinds/quality/tags, face counts, people, dates, places, connectives)
and reads what is left as concept phrases. Then it builds the boolean tree: OR binds tighter than
AND; NOT takes the following OR-chain (and following same-type operands joined by "and").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from photosearch.query import lexicon as lx
from photosearch.query.dates import DateMatch, finder, intersect, weekend_ranges
from photosearch.query.places import AMBIGUOUS_COUNTRY_WORDS, FAMOUS_CITIES, canonical_name, fold, gazetteer
from photosearch.query.plan import default_compose, make_plan

LOW_CONFIDENCE = 0.7
_N = lx.NUMBER_RE
_QUOTE_RE = re.compile(r"(?:(?<=^)|(?<=[\s(:=,]))([\"“”'‘’])(.+?)([\"“”'‘’])(?=$|[\s),.;:!?])")
_LEAD_IN_CHARS = 64  # longest lead-in ("in the folder called", "that says") with room for spaces
_IMG_EXT = r"(?:jpe?g|png|heic|heif|webp|tiff?|gif|bmp|dng|cr2|nef|arw|raf|orf)"
_PLACE_PREPS = ("in", "at", "near", "around", "from", "to", "visiting", "outside", "across")
_SHOW_VERBS = {"show", "give", "find", "get", "tell", "send", "let", "bring", "fetch", "help"}


@dataclass
class PlanContext:
    """What the parser knows beyond the request: the catalog's people, owner, birthdays, years..."""

    people: list[str] = field(default_factory=list)
    owner: str | None = None  # the person "me" refers to
    birthdays: dict[str, date] = field(default_factory=dict)  # person name → birthday
    years: tuple[int, int] | None = None  # first and last year with photos
    cameras: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)


@dataclass
class Slot:
    """One recognised value in the request (used for golden pattern matching)."""

    type: str
    node: dict
    start: int
    end: int


@dataclass
class ParseResult:
    plan: dict
    confidence: float
    notes: list[str]
    slots: list[Slot]
    skeleton: str


@dataclass
class _Tok:
    start: int
    end: int
    kind: str  # atom | word | and | or | not | sep | only | drop
    node: dict | None = None
    text: str = ""
    slot: str = ""


# --------------------------------------------------------------------------- the parser


class RequestParser:
    """Stateless apart from compiled patterns; `parse` is thread-safe."""

    def __init__(self):
        n = _N
        units = r"(?:days?|weeks?|months?|years?)"
        self.limit_patterns = [
            (re.compile(rf"\b(?:the\s+)?(?:best|top|greatest|nicest|finest)\s+(?P<n>{n})\b"), "relevance"),
            (re.compile(rf"\b(?P<n>{n})\s+(?:best|top|nicest|greatest|finest)\b"), "relevance"),
            (re.compile(rf"\b(?:the\s+)?(?:latest|newest|most\s+recent|last)\s+(?P<n>{n})\b(?!\s*{units})"), "date_desc"),
            (re.compile(rf"\b(?P<n>{n})\s+(?:latest|newest|most\s+recent)\b"), "date_desc"),
            (re.compile(rf"\b(?:the\s+)?(?:oldest|earliest|first)\s+(?P<n>{n})\b(?!\s*{units})"), "date_asc"),
            (re.compile(rf"\b(?:limit|max(?:imum)?|at\s+most|up\s+to)\s+(?P<n>{n})\s+(?:photos?|pictures?|pics|images?|shots?|results?)\b"), None),
            (re.compile(rf"\b(?P<n>\d+|{'|'.join(k for k in lx.NUMBER_WORDS if k != 'one')})\s+(?:photos|pictures|pics|images|shots|snaps|photographs|results)\b"), None),
            (re.compile(r"\blimit\s*(?:to\s*)?(?P<n>\d+)\b"), None),
        ]
        group = r"(?P<g>days?|months?|places?|locations?|cit(?:y|ies)|countr(?:y|ies)|persons?|people|spots?)"
        self.per_patterns = [
            re.compile(rf"\b(?:(?:at\s+most\s+)?(?:one|1|a\s+single)\s+(?:(?:photo|picture|pic|shot|image)s?\s+)?|a\s+(?:photo|picture|pic|shot|image)\s+)(?:per|each|from\s+each|for\s+each|from\s+every|every|a|of\s+each)\s+{group}\b"),
            re.compile(rf"\bper\s+{group}\b"),
            re.compile(rf"\b(?:from|for|of)\s+(?:each|every)\s+{group}\b"),
            re.compile(rf"\b(?:each|every)\s+{group}\s+(?:at\s+least\s+once|once|covered|represented)\b"),
            re.compile(r"\b(?:everyone|everybody|each\s+of\s+them|all\s+of\s+them|each\s+one)\s+(?:at\s+least\s+once|once|represented)\b"),
            re.compile(r"\b(?P<daily>daily|monthly)\b"),
        ]
        self.dedupe = re.compile(
            r"\b(?:no|without|exclude|excluding|skip|drop|remove|hide|minus|not)\s+(?:the\s+|any\s+)?(?:near[- ]?)?"
            r"(?:duplicates?|dupes?|doubles|repeats|copies|similar\s+ones|near[- ]duplicates?)\b"
            r"|\bde-?dup(?:e|ed|licated|licate)?\b|\b(?:unique|distinct)(?:\s+ones)?\b|\bno\s+near[- ]dups?\b"
        )
        self.sort_desc = re.compile(
            r"\b(?:(?:newest|latest|most\s+recent|recent)\s+(?:ones\s+)?first|newest\s+to\s+oldest|"
            r"reverse\s+chronological(?:ly)?(?:\s+order)?|(?:sorted|ordered|sort)\s+by\s+(?:date|time)\s+(?:descending|desc)|"
            r"(?:sorted|ordered|sort)\s+newest\s+first|most\s+recent|newest|latest|recent(?:ly)?)\b"
        )
        self.sort_asc = re.compile(
            r"\b(?:(?:oldest|earliest)\s+(?:ones\s+)?first|oldest\s+to\s+newest|in\s+chronological\s+order|"
            r"chronological(?:ly)?(?:\s+order)?|(?:sorted|ordered|sort)\s+by\s+(?:date|time)(?:\s+ascending)?|"
            r"in\s+date\s+order|by\s+date|in\s+order|oldest|earliest)\b"
        )
        self.diverse = re.compile(
            r"\b(?:diverse|diversity|variety|varied|various|a\s+mix|mix\s+of|mixed|different\s+ones|assorted|"
            r"a\s+range\s+of|all\s+different)\b"
        )
        self.similar = re.compile(
            rf"\b(?:similar\s+to|look(?:s|ing)?\s+like|like|resembling|same\s+as|close\s+to)\s+(?:the\s+)?"
            rf"(?:(?:photo|picture|image|pic|shot)\s+)?(?:(?:number|no\.?|id|#)\s*)?#?"
            rf"(?P<v>\d+\b|[~/.][^\s,;]+|[^\s,;]+\.{_IMG_EXT}\b)"
        )
        self.folder_patterns = [
            re.compile(r"\b(?:in|from|inside|within)?\s*(?:the\s+|my\s+)?(?:folder|album|directory|dir)\s+(?:called\s+|named\s+)?(?P<v>[\w][\w-]*(?:\s+\d{4})?)"),
            re.compile(r"\b(?:in|from|inside|within)\s+(?:the\s+|my\s+)?(?P<v>[\w][\w-]*(?:\s+[\w][\w-]*){0,2}?)\s+(?:folder|album|directory)\b"),
        ]
        brands = "|".join(re.escape(b) for b in sorted({**lx.CAMERA_BRANDS, "google pixel": 1, "apple iphone": 1,
                                                         "samsung galaxy": 1}, key=len, reverse=True))
        model_words = "|".join(sorted(lx.CAMERA_MODEL_WORDS, key=len, reverse=True))
        self.camera = re.compile(
            rf"(?:\b(?:(?:taken|shot|captured|made|photographed)\s+(?:with|on|by|using)|with|on|using|from|by)\s+)?"
            rf"(?:(?:my|the|a|an|our|his|her)\s+(?:old\s+|new\s+)?)?\b(?P<b>{brands})\b"
            rf"(?P<m>(?:\s+(?:[a-z]*\d[\w]*|(?:{model_words})\b))*)"
        )
        self.knowledge = re.compile(
            r"\b(?:learned|knowledge|web|learnt)\s*:\s*(?P<v>[^,;]+?)(?=$|[,;]|\s+(?:and|or|not|but|with|without)\b)"
        )
        self.prefix = re.compile(
            r"\b(?P<k>concept|person|place|text|camera|folder|album|similar|tag|kind|quality)\s*:\s*(?P<v>[^\s,;]+)"
        )
        self.tagged = re.compile(
            r"(?:\b(?:tagged(?:\s+as|\s+with)?|with\s+(?:the\s+)?tag|labell?ed(?:\s+as)?|tag)\s+(?P<v>[\w][\w-]*)|(?<![\w&])#(?P<h>[a-z][\w-]*))"
        )
        self.word_text = re.compile(r"\b(?:with\s+)?(?:the\s+)?(?:word|text|writing)\s+(?P<v>[\w-]+)")
        # lower-case words count as text only after an explicit introduction
        self.says_text = re.compile(
            r"\b(?:with\s+(?:the\s+)?(?:words?|text|writing)|(?:that|which)\s+(?:says?|reads?)|saying)"
            r"\s+(?P<v>[\w-]+)"
        )
        self.favourite = re.compile(rf"\b(?:my\s+)?(?:{'|'.join(lx.FAVOURITE_WORDS)})\b")
        self.kind = re.compile(rf"\b(?:{'|'.join(sorted((re.escape(k) for k in lx.KIND_WORDS), key=len, reverse=True))})\b")
        self.quality = re.compile(
            rf"\b(?:{'|'.join(sorted((re.escape(k) for k in lx.QUALITY_WORDS), key=len, reverse=True))})(?![\w-])"
        )
        people_w = r"(?:people|persons|faces|humans|friends|kids|children|adults|of\s+us|of\s+them|folks|guys)"
        self.counts: list[tuple[re.Pattern, Any]] = [
            (re.compile(r"\bgroup(?:s)?(?:\s+(?:photos?|pictures?|pics|shots?|selfies?|portraits?|images?))?\b|\bgroups?\s+of\s+(?:people|friends)\b"), (3, None)),
            (re.compile(r"\b(?:no\s+(?:people|persons|faces|humans|one|body)|nobody|no-one|without\s+(?:any\s+)?(?:people|persons|faces|humans|anyone|anybody)|empty(?:\s+scenes?)?|unpeopled|deserted|no\s+one\s+in\s+(?:it|them))\b"), (0, 0)),
            (re.compile(r"\bportraits?\b"), (1, 1)),
            (re.compile(rf"\b(?:at\s+least|min(?:imum)?(?:\s+of)?|no\s+fewer\s+than|not\s+less\s+than)\s+(?P<n>{n})\s+{people_w}"), "min"),
            (re.compile(rf"\b(?P<n>{n})\s*(?:\+|or\s+more)\s+{people_w}"), "min"),
            (re.compile(rf"\b{people_w}\s*:?\s*(?:at\s+least|min(?:imum)?(?:\s+of)?|no\s+fewer\s+than|not\s+less\s+than)\s+(?P<n>{n})\b"), "min"),
            (re.compile(rf"\b{people_w}\s*:?\s*(?P<n>{n})\s*(?:\+|or\s+more)(?!\w)"), "min"),
            (re.compile(rf"\b{people_w}\s*:?\s*more\s+than\s+(?P<n>{n})\b"), "gt"),
            (re.compile(rf"\b{people_w}\s*:?\s*(?:at\s+most|up\s+to|no\s+more\s+than|max(?:imum)?(?:\s+of)?|not\s+more\s+than)\s+(?P<n>{n})\b"), "max"),
            (re.compile(rf"\b{people_w}\s*:?\s*(?:fewer|less)\s+than\s+(?P<n>{n})\b"), "lt"),
            (re.compile(rf"\bmore\s+than\s+(?P<n>{n})\s+{people_w}"), "gt"),
            (re.compile(rf"\b(?:at\s+most|up\s+to|no\s+more\s+than|max(?:imum)?(?:\s+of)?|not\s+more\s+than)\s+(?P<n>{n})\s+{people_w}"), "max"),
            (re.compile(rf"\b(?:fewer|less)\s+than\s+(?P<n>{n})\s+{people_w}"), "lt"),
            (re.compile(rf"\b(?:the|all)\s+(?P<n>{n})\s+of\s+(?:us|them)\b"), "eq"),
            (re.compile(r"\bboth\s+of\s+(?:us|them)\b"), (2, 2)),
            (re.compile(rf"\b(?:exactly\s+|just\s+|only\s+)?(?P<n>{n})\s+(?:people|persons|faces|humans|friends|kids|children|adults|folks)\b"), "eq"),
            (re.compile(r"\b(?:alone|solo|by\s+(?:him|her|my|your|them|our)sel(?:f|ves)|on\s+(?:his|her|my|their)\s+own)\b"), (0, 1)),
            (re.compile(r"\b(?:with\s+)?(?:people|persons|faces|humans|someone|somebody|anyone|anybody)\b(?:\s+in\s+(?:it|them))?"), (1, None)),
        ]
        self.not_re = re.compile(
            r"\b(?:" + "|".join(re.escape(p) for p in sorted(lx.NOT_PHRASES, key=len, reverse=True)) + r")\b"
        )

    # ------------------------------------------------------------------ entry point

    def parse(self, text: str, *, now: date, context: PlanContext | None = None) -> ParseResult:
        ctx = context or PlanContext()
        st = _State(text, now, ctx)
        self._quotes(st)
        self._prefix(st)
        self._compose(st)
        self._similar(st)
        self._folders(st)
        self._cameras(st)
        self._kinds(st)
        self._counts(st)
        self._people(st)
        self._dates(st)
        self._places(st)
        self._connectives(st)
        self._words(st)
        return st.build()

    # ------------------------------------------------------------------ recognisers

    def _quotes(self, st: _State) -> None:
        for m in _QUOTE_RE.finditer(st.text):
            open_q, value, close_q = m.group(1), m.group(2).strip(), m.group(3)
            if (open_q in "'‘") != (close_q in "'’"):
                continue
            if not value:
                continue
            # Lead-in words sit just before the quote and trailing ones just after: bounded windows
            # keep parsing linear in the request (whole-prefix searches made it quadratic).
            before = st.low[max(0, m.start() - _LEAD_IN_CHARS): m.start()]
            after = st.low[m.end(): m.end() + _LEAD_IN_CHARS]
            start = m.start()
            end = m.end()
            kind = "text"
            for key, pat in (
                ("folder", r"(?:in\s+|from\s+)?(?:the\s+|my\s+)?(?:folder|album|directory)\s*(?:called\s+|named\s+|:\s*)?$"),
                ("tag", r"(?:tagged(?:\s+as|\s+with)?|with\s+(?:the\s+)?tag|tag\s*:?)\s*$"),
                ("knowledge", r"(?:learned|learnt|knowledge|web)\s*:?\s*(?:about\s+)?$"),
                ("camera", r"(?:taken\s+with|shot\s+on|camera\s*:?)\s*(?:the\s+|my\s+)?$"),
                ("person", r"person\s*:?\s*$"),
                ("place", r"place\s*:?\s*$"),
                ("concept", r"concept\s*:?\s*$"),
                ("similar", r"(?:similar\s+to|like)\s*$"),
                ("text", r"(?:(?:that\s+|which\s+)?(?:says?|saying|reads?|reading)|written|with\s+(?:the\s+)?(?:words?|text)|text\s*:?)\s*$"),
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
            st.claim(start, end, "atom", {kind: value}, slot=kind)

    def _prefix(self, st: _State) -> None:
        for m in self.knowledge.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.claim(m.start(), m.end(), "atom", {"knowledge": st.orig(m, "v")}, slot="knowledge")
        for m in self.prefix.finditer(st.low):
            if not st.free(m.start(), m.end()):
                continue
            key = "folder" if m.group("k") == "album" else m.group("k")
            value = st.orig(m, "v")
            if key in ("kind", "quality"):
                value = value.lower().rstrip("s") if key == "kind" else lx.QUALITY_WORDS.get(value.lower(), value.lower())
            st.claim(m.start(), m.end(), "atom", {key: value}, slot=key)

    def _compose(self, st: _State) -> None:
        for pat in self.per_patterns:
            for m in pat.finditer(st.low):
                if not st.free(m.start(), m.end()):
                    continue
                g = (m.groupdict().get("g") or m.groupdict().get("daily") or "person")
                per = {"daily": "day", "monthly": "month"}.get(g) or _per_value(g)
                st.compose["per"] = per
                st.claim(m.start(), m.end(), "drop", text=f"<per:{per}>")
        for m in self.dedupe.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.compose["exclude_near_duplicates"] = True
                st.claim(m.start(), m.end(), "drop", text="<nodup>")
        for pat, sort in self.limit_patterns:
            for m in pat.finditer(st.low):
                if not st.free(m.start(), m.end()):
                    continue
                st.compose["limit"] = lx.to_int(m.group("n").replace("a dozen", "dozen"))
                if sort and sort != "relevance":
                    st.compose["sort"] = sort
                st.claim(m.start(), m.end(), "drop", text="<limit>" + (f"<{sort}>" if sort else ""))
        for pat, sort in ((self.sort_asc, "date_asc"), (self.sort_desc, "date_desc")):
            for m in pat.finditer(st.low):
                if st.free(m.start(), m.end()):
                    st.compose["sort"] = sort
                    st.claim(m.start(), m.end(), "drop", text=f"<{sort}>")
        for m in self.diverse.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.compose["diverse"] = True
                st.claim(m.start(), m.end(), "drop", text="<diverse>")

    def _similar(self, st: _State) -> None:
        for m in self.similar.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.claim(m.start(), m.end(), "atom", {"similar": st.orig(m, "v")}, slot="similar")

    def _folders(self, st: _State) -> None:
        for pat in self.folder_patterns:
            for m in pat.finditer(st.low):
                s = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
                if not st.free(s, m.end()):
                    continue
                value = st.orig(m, "v")
                if value.lower() in lx.STOP_WORDS:
                    continue
                for known in st.ctx.folders:
                    if fold(known) == fold(value) or fold(known).endswith("/" + fold(value)):
                        value = known.rsplit("/", 1)[-1]
                        break
                st.claim(s, m.end(), "atom", {"folder": value}, slot="folder")

    def _cameras(self, st: _State) -> None:
        for m in self.camera.finditer(st.low):
            if not st.free(m.start(), m.end()):
                continue
            brand = m.group("b")
            shown = lx.CAMERA_BRANDS.get(brand) or lx.CAMERA_BRANDS[brand.split()[-1]]
            models = [_model_word(w) for w in m.group("m").split()]
            if brand in AMBIGUOUS_BRANDS and not models and m.start("b") == m.start() \
                    and not any(w in fold(c) for c in st.ctx.cameras for w in AMBIGUOUS_BRANDS[brand]):
                continue  # "apple" alone is the fruit unless the catalog has such a camera
            value = " ".join([shown, *models])
            for known in st.ctx.cameras:
                if fold(known) == fold(value):
                    value = known
            st.claim(m.start(), m.end(), "atom", {"camera": value}, slot="camera")

    def _kinds(self, st: _State) -> None:
        for m in self.word_text.finditer(st.text):
            if st.free(m.start(), m.end()) and m.group("v").isupper():
                st.claim(m.start(), m.end(), "atom", {"text": m.group("v")}, slot="text")
        for m in self.says_text.finditer(st.low):
            v = m.group("v")
            if not st.free(m.start(), m.end()) or v in lx.STOP_WORDS or v in lx.AND_WORDS or v in lx.OR_WORDS \
                    or v in lx.NOT_PHRASES or v in _PLACE_PREPS or v in ("on", "of", "over", "under", "about"):
                continue
            st.claim(m.start(), m.end(), "atom", {"text": st.orig(m, "v")}, slot="text")
        for m in self.tagged.finditer(st.low):
            if st.free(m.start(), m.end()):
                value = m.group("v") or m.group("h")
                if value in ("favourite", "favorite", "favourites", "favorites"):
                    value = "favourite"
                st.claim(m.start(), m.end(), "atom", {"tag": value}, slot="tag")
        for m in self.favourite.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.claim(m.start(), m.end(), "atom", {"tag": "favourite"}, slot="tag")
        for m in self.kind.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.claim(m.start(), m.end(), "atom", {"kind": lx.KIND_WORDS[m.group(0)]}, slot="kind")
        for m in self.quality.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.claim(m.start(), m.end(), "atom", {"quality": lx.QUALITY_WORDS[m.group(0)]}, slot="quality")

    def _counts(self, st: _State) -> None:
        for pat, spec in self.counts:
            for m in pat.finditer(st.low):
                s = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
                if not st.free(s, m.end()):
                    continue
                if isinstance(spec, tuple):
                    lo, hi = spec
                else:
                    k = lx.to_int(m.group("n").replace("a dozen", "dozen"))
                    lo, hi = {"min": (k, None), "gt": (k + 1, None), "max": (0, k), "lt": (0, max(k - 1, 0)),
                              "eq": (k, k)}[spec]
                st.claim(s, m.end(), "atom", {"faces": {"min": lo, "max": hi}}, slot="faces")

    def _people(self, st: _State) -> None:
        names: dict[str, str] = {}
        firsts: dict[str, list[str]] = {}
        for name in st.ctx.people:
            if not name or not name.strip():
                continue
            names[fold(name)] = name
            first = fold(name).split()[0]
            firsts.setdefault(first, []).append(name)
        for first, full in firsts.items():
            if len(full) == 1:
                names.setdefault(first, full[0])
        for key in sorted(names, key=len, reverse=True):
            if key in ("me", "myself"):
                continue
            pat = re.compile(rf"(?<![\w@#]){re.escape(key)}(?:'s|’s|s')?(?![\w])")
            for m in pat.finditer(st.fold):
                if not st.free(m.start(), m.end()):
                    continue
                if re.match(r"\s*birthdays?\b", st.low[m.end():]) and m.group(0).endswith(("'s", "’s")):
                    if _birthday_of(names[key], st.ctx) is not None:
                        continue  # "Anna's birthday" with her birthday known: a date, read in _dates
                    # unknown birthday: keep the person; "birthday" stays a concept
                    st.note(f"no birthday known for {names[key]}; searching photos of {names[key]} "
                            "that look like a birthday", 0.0)
                st.claim(m.start(), m.end(), "atom", {"person": names[key]}, slot="person")
        for m in re.finditer(r"\b(?:me|myself)\b", st.low):
            if not st.free(m.start(), m.end()):
                continue
            prev = re.findall(r"[a-z]+", st.low[: m.start()])
            if prev and prev[-1] in _SHOW_VERBS:
                continue
            if st.ctx.owner:
                st.claim(m.start(), m.end(), "atom", {"person": st.ctx.owner}, slot="person")
            else:
                st.note("'me' is not a person in the catalog (name a person 'me' or set the owner); ignored", 0.4)
                st.claim(m.start(), m.end(), "drop", text="<me?>")

    def _dates(self, st: _State) -> None:
        owner = st.ctx.owner
        bdays = dict(st.ctx.birthdays)
        if owner and owner in bdays:
            bdays.setdefault("me", bdays[owner])
        found = finder().find(st.low, st.now, years=st.ctx.years, birthdays=bdays, owner=owner or "me")
        weekend: DateMatch | None = None
        plain: list[DateMatch] = []
        for dm in found:
            if not st.free(dm.start, dm.end):
                continue
            for note in dm.notes:
                st.note(note, 0.35 if "no birthday" in note else 0.0)
            if dm.weekend:
                weekend = dm
                st.claim(dm.start, dm.end, "drop", text="<weekend>")
                continue
            if not dm.ranges:
                st.claim(dm.start, dm.end, "atom", {"concept": "birthday"}, slot="concept")
                continue
            if not dm.recurring:
                plain.append(dm)
            st.claim(dm.start, dm.end, "atom", dm.node(), slot="date")
        if weekend is not None:
            window = intersect(r for dm in plain for r in dm.ranges) if plain else None
            if plain and window:
                tok = st.token_at(plain[0].start)
                ranges = weekend_ranges(*window)
                node = {"or": [{"date": {"from": a.isoformat(), "to": b.isoformat()}} for a, b in ranges]}
                if tok is not None and ranges:
                    tok.node = node if len(ranges) > 1 else node["or"][0]
            else:
                lo = st.now - timedelta(days=364)
                ranges = weekend_ranges(lo, st.now)
                st.note("weekends: the plan has no weekday filter, so this lists the weekends of the last "
                        "12 months; add a date range to look elsewhere", 0.0)
                tok = st.token_at(weekend.start)
                node = {"or": [{"date": {"from": a.isoformat(), "to": b.isoformat()}} for a, b in ranges]}
                if tok is not None:
                    tok.kind, tok.node, tok.slot = "atom", node, "date"

    def _places(self, st: _State) -> None:
        gaz = gazetteer()
        words = [(m.start(), m.end()) for m in re.finditer(r"[\w][\w'’.-]*", st.low)]
        i = 0
        while i < len(words):
            matched = False
            for n in range(min(4, len(words) - i), 0, -1):
                s, e = words[i][0], words[i + n - 1][1]
                if not st.free(s, e):
                    continue
                phrase = st.low[s:e].rstrip(".")
                e = s + len(phrase)
                places = [] if phrase in lx.STOP_WORDS else gaz.lookup(phrase)
                if not places:
                    continue
                orig = st.text[s:e]
                prev = st.low[: s].split()[-1:] or [""]
                after_prep = prev[0] in _PLACE_PREPS
                capital = orig[:1].isupper() and not _sentence_start(st.text, s)
                is_country = places[0].kind == "country"
                common = phrase in lx.COMMON_WORDS or phrase in lx.SEPARATORS or phrase in lx.AND_WORDS
                ok = False
                if is_country and any(fold(alias) == phrase for alias in _aliases(places[0].cc)):
                    ok = phrase not in AMBIGUOUS_COUNTRY_WORDS or capital or after_prep
                    if phrase == "us" and not orig.isupper():
                        ok = False
                elif phrase in FAMOUS_CITIES and not common or (orig[:1].isupper() and _sentence_start(st.text, s) and places[0].kind in ("region", "country")
                      and not common and len(phrase) >= 4):
                    ok = True
                elif capital and (n > 1 or not common or after_prep):
                    ok = len(phrase) >= 3 and (not _looks_like_name(orig) or after_prep)
                elif after_prep and not common and len(phrase) >= 4 and n >= 1 and places[0].kind != "city" or after_prep and phrase in FAMOUS_CITIES:
                    ok = True
                if not ok:
                    continue
                qualifier = ""
                rest = st.low[e:]
                mq = re.match(r",\s*([\w][\w .'-]*?)(?=$|[,;]|\s+(?:and|or|with|not|but|in|at|on|from|last|this)\b)", rest)
                qual_places = gaz.lookup(mq.group(1)) if mq and places[0].kind == "city" else []
                if qual_places and qual_places[0].kind in ("country", "region"):
                    qualifier = ", " + qual_places[0].name
                    e += mq.end()
                value = canonical_name(places, orig) + qualifier
                st.claim(s, e, "atom", {"place": value}, slot="place")
                i += n
                matched = True
                break
            if not matched:
                i += 1

    def _connectives(self, st: _State) -> None:
        for m in self.not_re.finditer(st.low):
            if st.free(m.start(), m.end()):
                st.claim(m.start(), m.end(), "not", text=m.group(0))

    def _words(self, st: _State) -> None:
        for m in re.finditer(r"[\w][\w'’.-]*[\w]|[\w]|[,;&+/]|\bw/o\b", st.low):
            s, e = m.start(), m.end()
            if not st.free(s, e):
                continue
            w = m.group(0)
            if w in (",", ";"):
                st.claim(s, e, "sep", text=w)
            elif w in lx.AND_WORDS or w in ("but", "&", "+"):
                st.claim(s, e, "and", text=w)
            elif w in lx.OR_WORDS or w == "/":
                st.claim(s, e, "or", text=w)
            elif w in lx.ONLY_WORDS:
                st.claim(s, e, "only", text=w)
            elif w in lx.SEPARATORS:
                st.claim(s, e, "and", text=w)
            elif w in lx.STOP_WORDS or w.rstrip("'s") in lx.STOP_WORDS and w.endswith("'s"):
                st.claim(s, e, "drop", text="")
            else:
                st.claim(s, e, "word", text=st.text[s:e])


# --------------------------------------------------------------------------- state and tree building


class _State:
    def __init__(self, text: str, now: date, ctx: PlanContext):
        self.text = " ".join(text.split()) if len(text.lower()) != len(text) else text
        low = self.text.lower()
        if len(low) != len(self.text):  # rare Unicode case changes length; keep offsets aligned
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.text)
        self.low = low.replace("’", "'").replace("‘", "'")
        self.fold = "".join(fold(c) or c if len(fold(c) or c) == 1 else c for c in self.low)
        self.now = now
        self.ctx = ctx
        self.toks: list[_Tok] = []
        self.mask = bytearray(len(self.text))
        self.compose = default_compose()
        self.notes: list[str] = []
        self.penalty = 0.0

    def free(self, s: int, e: int) -> bool:
        return s < e and not any(self.mask[s:e])

    def claim(self, s: int, e: int, kind: str, node: dict | None = None, *, text: str = "", slot: str = "") -> None:
        for i in range(s, e):
            self.mask[i] = 1
        self.toks.append(_Tok(s, e, kind, node, text, slot))

    def orig(self, m: re.Match, group: str) -> str:
        return self.text[m.start(group): m.end(group)].strip()

    def token_at(self, start: int) -> _Tok | None:
        return next((t for t in self.toks if t.start == start), None)

    def note(self, text: str, penalty: float) -> None:
        if text not in self.notes:
            self.notes.append(text)
        self.penalty += penalty

    # -------------------------------------------------------------- building

    def build(self) -> ParseResult:
        toks = sorted(self.toks, key=lambda t: t.start)
        seq = self._phrases(toks)
        seq = self._lists(seq)
        where = _build_clauses(seq, self)
        if self.compose["per"] == "person" and "and" in where and len(where["and"]) > 1 \
                and all("person" in t for t in where["and"]):
            where = {"or": where["and"]}  # "Anna, Tom and Lisa, each at least once": any of them, all covered
        plan = make_plan(where, self.compose)
        slots = [Slot(t.slot, t.node, t.start, t.end) for t in seq if t.kind == "atom" and t.node is not None]
        skeleton = self._skeleton(toks, seq)
        has_atoms = bool(slots)
        conf = 1.0 - self.penalty
        if not has_atoms and self.compose == default_compose():
            self.note("nothing in the request was understood", 0.8)
            conf = 1.0 - self.penalty
        return ParseResult(plan, round(max(0.0, min(1.0, conf)), 3), self.notes, slots, skeleton)

    def _phrases(self, toks: list[_Tok]) -> list[_Tok]:
        """Merge adjacent content words into concept phrases (drops do not split them)."""
        out: list[_Tok] = []
        run: list[_Tok] = []

        def flush():
            if not run:
                return
            words = [t.text for t in run]
            self._check_words(run)
            head = lx.singular(words[-1])
            phrase = " ".join([*(w.lower() for w in words[:-1]), head.lower()]).strip(" .'-")
            phrase = re.sub(r"'s$", "", phrase)
            if len(words) > 3:
                self.note(f"long phrase '{phrase}' searched as one concept", 0.2)
            out.append(_Tok(run[0].start, run[-1].end, "atom", {"concept": phrase}, phrase, "concept"))
            run.clear()

        for t in toks:
            if t.kind == "word":
                run.append(t)
            elif t.kind == "drop":
                continue
            else:
                flush()
                out.append(t)
        flush()
        return out

    def _check_words(self, run: list[_Tok]) -> None:
        for t in run:
            w = t.text
            if w[:1].isupper() and not _sentence_start(self.text, t.start) and w.lower() not in lx.COMMON_WORDS:
                self.note(f"'{w}' is not a known person or place; searched as a concept", 0.35)

    def _lists(self, seq: list[_Tok]) -> list[_Tok]:
        """"Anna, Tom or Lisa": commas in a same-type list that ends with 'or' become 'or'."""
        out = list(seq)
        i = 0
        while i < len(out):
            if out[i].kind != "or":
                i += 1
                continue
            j = i - 1
            if j < 0 or out[j].kind != "atom":
                i += 1
                continue
            typ = out[j].slot
            k = j
            while k - 2 >= 0 and out[k - 1].kind == "sep" and out[k - 2].kind == "atom" and out[k - 2].slot == typ:
                out[k - 1] = _Tok(out[k - 1].start, out[k - 1].end, "or", text=",")
                k -= 2
            if i - 1 >= 0 and out[i - 1].kind == "sep":
                out.pop(i - 1)
                i -= 1
            i += 1
        return out

    def _skeleton(self, toks: list[_Tok], seq: list[_Tok]) -> str:
        parts = []
        for t in seq:
            if t.kind == "atom":
                parts.append(f"<{t.slot}>")
            elif t.kind in ("and", "or", "not", "only"):
                parts.append(t.text or t.kind)
            elif t.kind == "sep":
                parts.append(",")
        for t in toks:
            if t.kind == "drop" and t.text.startswith("<"):
                parts.append(t.text)
        return " ".join(parts)


def _build_clauses(seq: list[_Tok], st: _State) -> dict:
    """Comma clauses AND-ed; inside a clause an 'or' between different kinds of things splits it
    ("Tom at the beach or Lisa in the snow" → (Tom AND beach) OR (Lisa AND snow))."""
    clauses: list[list[_Tok]] = [[]]
    for t in seq:
        if t.kind == "sep":
            clauses.append([])
        else:
            clauses[-1].append(t)
    parts: list[dict] = []
    for clause in clauses:
        atoms_at = [i for i, t in enumerate(clause) if t.kind == "atom"]
        cuts = []
        for i, t in enumerate(clause):
            if t.kind != "or" or t.text == ",":
                continue
            prev = [j for j in atoms_at if j < i]
            nxt = [j for j in atoms_at if j > i]
            if prev and nxt and clause[prev[-1]].slot != clause[nxt[0]].slot \
                    and (len(prev) > 1 or len(nxt) > 1) and not any(clause[j].kind == "not" for j in range(i)):
                cuts.append(i)
        if cuts:
            pieces, last = [], 0
            for c in cuts:
                pieces.append(clause[last:c])
                last = c + 1
            pieces.append(clause[last:])
            nodes = [_TreeBuilder(p, st).build() for p in pieces if any(t.kind == "atom" for t in p)]
            parts.append(nodes[0] if len(nodes) == 1 else {"or": nodes})
        elif any(t.kind in ("atom", "only") for t in clause):
            parts.append(_TreeBuilder(clause, st).build())
    flat: list[dict] = []
    for p in parts:
        if "and" in p:
            flat.extend(p["and"])
        else:
            flat.append(p)
    return flat[0] if len(flat) == 1 else {"and": flat}


def _looks_like_name(word: str) -> bool:
    return word[:1].isupper() and word[1:].islower() and len(word) <= 8 and word.lower() not in FAMOUS_CITIES


class _TreeBuilder:
    """OR binds tighter than AND; NOT takes the following OR-chain (and same-type 'and' followers)."""

    def __init__(self, seq: list[_Tok], st: _State):
        self.seq = [t for t in seq if t.kind in ("atom", "and", "or", "not", "sep", "only")]
        self.st = st
        self.i = 0

    def peek(self, k: int = 0) -> _Tok | None:
        j = self.i + k
        return self.seq[j] if j < len(self.seq) else None

    def build(self) -> dict:
        terms: list[dict] = []
        explicit_and = False
        saw_or_after_and = False
        while self.peek() is not None:
            t = self.peek()
            if t.kind in ("and", "sep"):
                explicit_and = explicit_and or t.kind == "and" and t.text in ("and", "&", "+", "plus")
                self.i += 1
                continue
            if t.kind == "or":  # dangling 'or' / 'either'
                self.i += 1
                continue
            before = len(terms)
            self._unit(terms)
            if len(terms) > before and self._last_was_or and explicit_and:
                saw_or_after_and = True
        if saw_or_after_and:
            self._check_mixed()
        if len(terms) == 1:
            return terms[0]
        return {"and": terms}

    _last_was_or = False

    def _check_mixed(self) -> None:
        seq = self.seq
        for i, t in enumerate(seq):
            if t.kind == "or" and t.text != ",":
                prev = [x for x in seq[:i] if x.kind == "atom"]
                nxt = [x for x in seq[i + 1:] if x.kind == "atom"]
                if len(prev) >= 2 and nxt and prev[-1].slot == prev[-2].slot == nxt[0].slot:
                    between = [x for x in seq[seq.index(prev[-2]) + 1: i] if x.kind == "and"]
                    if between:
                        self.st.note("'and' and 'or' mixed: read as A and (B or C)", 0.35)
                        return

    def _unit(self, terms: list[dict]) -> None:
        t = self.peek()
        self._last_was_or = False
        if t.kind == "only":
            self.i += 1
            if self.peek() is None or self.peek().kind != "atom":
                return
            start = len(terms)
            self._unit(terms)
            people = [x for x in terms[start:] if "person" in x]
            while self.peek() is not None and self.peek().kind in ("and", "sep") and self.peek(1) is not None \
                    and self.peek(1).kind == "atom" and self.peek(1).slot == "person":
                self.i += 1
                self._unit(terms)
                people = [x for x in terms[start:] if "person" in x]
            if people and not any("faces" in x for x in terms):  # "only Anna and Tom": exactly them
                terms.append({"faces": {"min": len(people), "max": len(people)}})
            return
        if t.kind == "not":
            self.i += 1
            while self.peek() is not None and self.peek().kind in ("not", "and") and (
                    self.peek().text != "with" or self.peek(1) is not None and self.peek(1).kind == "atom"):
                self.i += 1
            if self.peek() is None or self.peek().kind != "atom":
                self.st.note(f"'{t.text}' is not followed by anything to exclude; ignored", 0.3)
                return
            first_slot = self.peek().slot
            terms.append({"not": self._or_chain(nor=True)})
            while self.peek() is not None and self.peek().kind == "and" and self.peek().text in ("and", "or", "nor") \
                    and self.peek(1) is not None and self.peek(1).kind == "atom" and self.peek(1).slot == first_slot:
                self.i += 1
                terms.append({"not": self._or_chain(nor=True)})
            return
        if t.kind != "atom":
            self.i += 1
            return
        node = self._or_chain()
        terms.append(node)

    def _or_chain(self, nor: bool = False) -> dict:
        items = [self.peek().node]
        self.i += 1
        while self.peek() is not None and (self.peek().kind == "or" or nor and self.peek().text == "nor"):
            nxt = self.peek(1)
            if nxt is None:
                self.i += 1
                break
            if nxt.kind == "not":  # "or not X" → leave for the caller
                break
            if nxt.kind != "atom":
                self.i += 1
                continue
            self.i += 2
            items.append(nxt.node)
            self._last_was_or = True
        return items[0] if len(items) == 1 else {"or": items}


def _birthday_of(name: str, ctx: PlanContext) -> date | None:
    folded = fold(name)
    return next((d for n, d in ctx.birthdays.items() if fold(n) == folded), None)


def _per_value(g: str) -> str:
    g = g.rstrip("s")
    if g.startswith(("day",)):
        return "day"
    if g.startswith("month"):
        return "month"
    if g.startswith(("person", "people")):
        return "person"
    return "place"


#: Brand words that are everyday nouns: a camera only with a model, a cue ("shot on"), or when the
#: catalog has that camera (the words its model names contain).
AMBIGUOUS_BRANDS = {"apple": ("iphone", "ipad", "apple"), "galaxy": ("galaxy",), "pixel": ("pixel",)}


def _model_word(w: str) -> str:
    if w.isdigit():
        return w
    if any(c.isdigit() for c in w):
        return w.upper()
    if w in ("ii", "iii", "iv", "xl", "se", "zv"):
        return w.upper()
    return w.capitalize()


def _sentence_start(text: str, i: int) -> bool:
    before = text[:i].rstrip()
    return not before or before[-1] in ".!?:;\"'(“"


def _aliases(cc: str) -> tuple[str, ...]:
    from photosearch.query.places import COUNTRIES

    return COUNTRIES.get(cc, ())


_PARSER: RequestParser | None = None


def get_parser() -> RequestParser:
    global _PARSER
    if _PARSER is None:
        _PARSER = RequestParser()
    return _PARSER


def parse_detailed(text: str, *, now: date, people: list[str] | None = None,
                   context: PlanContext | None = None) -> ParseResult:
    """Parse with everything the planner needs (slots and the request's skeleton)."""
    ctx = context or PlanContext()
    if people:
        ctx = PlanContext(**{**ctx.__dict__, "people": list(dict.fromkeys([*ctx.people, *people]))})
    return get_parser().parse(text, now=now, context=ctx)


def parse_request(text: str, *, now: date, people: list[str] | None = None,
                  context: PlanContext | None = None) -> tuple[dict, float, list[str]]:
    """Request → (plan, confidence 0..1, notes). Confidence below LOW_CONFIDENCE means "ask for help"."""
    r = parse_detailed(text, now=now, people=people, context=context)
    return r.plan, r.confidence, r.notes
