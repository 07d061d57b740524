"""What the request parser works on: the request's context, the spans claimed so far (tokens),
notes with their confidence penalties, the compose block being filled in; and the parse result."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date

from photosearch.query.home import Home
from photosearch.query.places import fold
from photosearch.query.plan import default_compose


@dataclass
class PlanContext:
    """What the parser knows beyond the request: the catalog's people, owner, birthdays, years..."""

    people: list[str] = field(default_factory=list)
    owner: str | None = None  # the person "me" refers to
    birthdays: dict[str, date] = field(default_factory=dict)  # person name → birthday
    years: tuple[int, int] | None = None  # first and last year with photos
    cameras: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    albums: list[str] = field(default_factory=list)  # the user's album names
    #: words of the library's own labels, text, keywords and places (never read as typos)
    words: frozenset[str] = frozenset()
    #: the folded names of the towns and regions the library's photos were taken in ("in sintra" is a
    #: place though WordNet knows no Sintra)
    places: frozenset[str] = frozenset()
    #: where most photos with a place were taken ("abroad", "my home town": `query.home`), found only
    #: when a request asks (it may geocode the photos' GPS first)
    find_home: Callable[[], Home | None] = lambda: None


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


#: The text of a face-count token read from "alone", "by herself", ...: with two or more named
#: people it means exactly them ("Anna and Tom alone").
ALONE = "alone"
#: The text of the token left for "me" where no owner is set and others are named ("me and Anna"):
#: no one to search for, but one more person in the photo to count ("me and Anna alone": two).
ME_UNNAMED = "<me?>"


@dataclass
class Token:
    """One claimed span of the request."""

    start: int
    end: int
    kind: str  # atom | word | and | or | not | sep | only | drop
    node: dict | None = None
    text: str = ""
    slot: str = ""


class ClaimState:
    """The request (original, lower-case and accent-folded, offsets aligned) and its claimed spans."""

    def __init__(self, text: str, now: date, ctx: PlanContext):
        self.text = " ".join(text.split()) if len(text.lower()) != len(text) else text
        low = self.text.lower()
        if len(low) != len(self.text):  # rare Unicode case changes length; keep offsets aligned
            low = "".join(c.lower() if len(c.lower()) == 1 else c for c in self.text)
        self.low = low.replace("’", "'").replace("‘", "'")
        self.fold = "".join(fold(c) or c if len(fold(c) or c) == 1 else c for c in self.low)
        self.now = now
        self.ctx = ctx
        self.toks: list[Token] = []
        self.mask = bytearray(len(self.text))
        self.compose = default_compose()
        self.notes: list[str] = []
        self.penalty = 0.0
        self.spelling_tries = 0  # unknown words looked up for a typo (query/spelling.py)
        #: Typos read as the word meant: (start, end, as typed, the word), to read the request again
        self.corrections: list[tuple[int, int, str, str]] = []

    def free(self, s: int, e: int) -> bool:
        return s < e and not any(self.mask[s:e])

    def claim(
        self, s: int, e: int, kind: str, node: dict | None = None, *, text: str = "", slot: str = ""
    ) -> None:
        for i in range(s, e):
            self.mask[i] = 1
        self.toks.append(Token(s, e, kind, node, text, slot))

    def unclaimed(self, pattern: re.Pattern) -> Iterator[re.Match]:
        """The pattern's matches in the lower-case request whose whole span is still free when reached
        (a claim made for one match is seen by the next)."""
        return (m for m in pattern.finditer(self.low) if self.free(m.start(), m.end()))

    def orig(self, m: re.Match, group: str) -> str:
        return self.text[m.start(group) : m.end(group)].strip()

    def word_before(self, i: int) -> re.Match | None:
        """The word just before position `i` of the lower-case request (its text and span), or None."""
        words = list(re.finditer(r"[a-z]+", self.low[:i]))
        return words[-1] if words else None

    def word_after(self, i: int) -> str:
        """The word right after position `i` (past spaces or a hyphen), or "" at the end."""
        span = self.word_after_span(i)
        return self.low[span[0] : span[1]] if span else ""

    def word_after_span(self, i: int) -> tuple[int, int] | None:
        """Where the word right after position `i` (past spaces or a hyphen) is, or None at the end."""
        after = re.match(r"[\s-]+([a-z][\w'-]*)", self.low[i:])
        return (i + after.start(1), i + after.end(1)) if after else None

    def token_at(self, start: int) -> Token | None:
        return next((t for t in self.toks if t.start == start), None)

    def note(self, text: str, penalty: float) -> None:
        if text not in self.notes:
            self.notes.append(text)
        self.penalty += penalty


def sentence_start(text: str, i: int) -> bool:
    """True when position `i` of `text` starts a sentence (a capital there says nothing)."""
    before = text[:i].rstrip()
    return not before or before[-1] in ".!?:;\"'(“"
