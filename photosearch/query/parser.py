"""Deterministic request parser: natural language → plan, with a confidence and notes.

The parser claims spans of the request in a fixed order (quotes and `key:value` syntax, days told
by other photos ("the day after the party", read as a request of its own), ages ("anna at 3"),
compose words, similar/folder/camera, camera settings, kinds/quality/tags, face counts, people, dates, times
of day, places, colours, connectives)
and reads what is left as concept phrases; the claim passes live in `query.claims`. Then
`query.parse_tree` builds the boolean tree: OR binds tighter than AND; NOT takes the following
OR-chain (and following same-type operands joined by "and").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date

from photosearch.query.claims.attributes import ColourClaims
from photosearch.query.claims.compose import ComposeClaims
from photosearch.query.claims.cues import CueClaims, claim_quotes
from photosearch.query.claims.editors import claim_editors
from photosearch.query.claims.entities import (
    claim_added,
    claim_ages,
    claim_dates,
    claim_people,
    claim_places,
    claim_times,
    claim_weekdays,
)
from photosearch.query.claims.filters import FilterClaims
from photosearch.query.claims.home import claim_home
from photosearch.query.claims.pets import claim_pets
from photosearch.query.claims.same_days import SameDayClaims
from photosearch.query.claims.settings import claim_settings
from photosearch.query.claims.someone import claim_unnamed_people
from photosearch.query.claims.words import NegationClaims, claim_words
from photosearch.query.dates import written_out
from photosearch.query.emoji_words import emoji_as_words
from photosearch.query.lexicon import superlatives_written_out
from photosearch.query.parse_state import ClaimState, ParseResult, PlanContext, Slot
from photosearch.query.parse_tree import TYPO_PENALTY, build_result, typo_note

__all__ = [
    "LOW_CONFIDENCE",
    "ParseResult",
    "PlanContext",
    "RequestParser",
    "Slot",
    "get_parser",
    "parse_detailed",
    "parse_request",
]

LOW_CONFIDENCE = 0.7


class RequestParser:
    """The claim passes in their order (patterns compiled once); `parse` is thread-safe."""

    def __init__(self):
        cues, filters = CueClaims(), FilterClaims()
        same_days = SameDayClaims(self._told_by)
        self.passes: tuple[Callable[[ClaimState], None], ...] = (
            claim_quotes,
            cues.claim_prefix,
            same_days,
            claim_ages,
            ComposeClaims(),
            cues.claim_similar,
            cues.claim_files,
            cues.claim_folders,
            cues.claim_cameras,
            claim_editors,
            claim_settings,
            filters.claim_ratings,
            filters.claim_filters,
            filters.claim_faces,
            claim_home,
            claim_people,
            claim_dates,
            claim_weekdays,
            claim_times,
            claim_added,
            claim_places,
            claim_pets,
            ColourClaims(),
            claim_unnamed_people,
            NegationClaims(),
            claim_words,
        )

        #: What tells the days of "the day after the party" is read by the others ("the party")
        self.told_by_passes = tuple(p for p in self.passes if p is not same_days)

    def parse(self, text: str, *, now: date, context: PlanContext | None = None) -> ParseResult:
        return self._parse(text, now, context or PlanContext(), self.passes)

    def _told_by(self, text: str, st: ClaimState) -> ParseResult:
        """What tells the days of a request's days_of, read as a request of its own."""
        return self._parse(text, st.now, st.ctx, self.told_by_passes)

    def _parse(
        self, text: str, now: date, ctx: PlanContext, passes: tuple[Callable[[ClaimState], None], ...]
    ) -> ParseResult:
        text = possessives_written_out(
            written_out(superlatives_written_out(emoji_as_words(text)), now), ctx.people
        )
        st = self._claimed(ClaimState(text, now, ctx), passes)
        result = build_result(st)
        if not st.corrections:
            return result
        # a typo read as the word meant is read again with the others: "barcelonna" is then the
        # place Barcelona, "chirstmas" the holiday, not a concept spelled right
        fixed = st.text
        for start, end, _typed, word in sorted(st.corrections, reverse=True):
            fixed = fixed[:start] + word + fixed[end:]
        again = ClaimState(fixed, now, ctx)
        again.spelling_tries = st.spelling_tries  # the words left unread stay so: no new look-ups
        for _start, _end, typed, word in st.corrections:
            again.note(typo_note(typed, word), TYPO_PENALTY)
        return build_result(self._claimed(again, passes))

    @staticmethod
    def _claimed(st: ClaimState, passes: tuple[Callable[[ClaimState], None], ...]) -> ClaimState:
        for claim in passes:
            claim(st)
        return st


#: What is someone's, after a name typed without its apostrophe ("annas birthday", "mums 70th").
_OWNED = (
    r"(?:birthday|bday|party|wedding|graduation|christening|retirement|funeral|anniversary|house|place"
    r"|room|car|dog|cat|baby|kids?|friends?|\d+(?:st|nd|rd|th))"
)


def possessives_written_out(text: str, people: list[str]) -> str:
    """The request with a possessive of someone in People, or of a relation word, written with its
    apostrophe where it was typed without ("annas birthday" → "anna's birthday", "mums 70th"), so
    that the birthday and ages read it as they read "anna's"."""
    names = {word.lower() for name in people for word in name.split()} | {
        "mum",
        "mom",
        "dad",
        "grandma",
        "grandpa",
    }
    names = {n for n in names if len(n) >= 3 and n.isalpha()}
    if not names:
        return text
    pattern = rf"\b({'|'.join(sorted(map(re.escape, names), key=len, reverse=True))})s(?=\s+{_OWNED}\b)"
    return re.sub(pattern, r"\1's", text, flags=re.IGNORECASE)


_PARSER: RequestParser | None = None


def get_parser() -> RequestParser:
    global _PARSER
    if _PARSER is None:
        _PARSER = RequestParser()
    return _PARSER


def parse_detailed(
    text: str, *, now: date, people: list[str] | None = None, context: PlanContext | None = None
) -> ParseResult:
    """Parse with everything the planner needs (slots and the request's skeleton)."""
    ctx = context or PlanContext()
    if people:
        ctx = PlanContext(**{**ctx.__dict__, "people": list(dict.fromkeys([*ctx.people, *people]))})
    return get_parser().parse(text, now=now, context=ctx)


def parse_request(
    text: str, *, now: date, people: list[str] | None = None, context: PlanContext | None = None
) -> tuple[dict, float, list[str]]:
    """Request → (plan, confidence 0..1, notes). Confidence below LOW_CONFIDENCE means "ask for help"."""
    r = parse_detailed(text, now=now, people=people, context=context)
    return r.plan, r.confidence, r.notes
