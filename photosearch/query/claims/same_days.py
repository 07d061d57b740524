"""Days told by other photos: "the same day as the wedding", "the day after the party", "dogs in the
week before the move". What follows the relation is read as a request of its own; the days its
photos were taken on are the days asked for (a days_of atom)."""

from __future__ import annotations

from collections.abc import Callable

from photosearch.query.claims.entities import dates_found
from photosearch.query.parse_state import ClaimState, ParseResult
from photosearch.query.plan import MAX_DAYS_AWAY, atoms
from photosearch.query.same_days import INNER_END, RELATION, RELATION_HOURS, RELATION_PICKS, relation_days

#: Atoms that say only when a photo was taken: "the day after christmas" is the date finder's, and a
#: day after a date is no day a photo tells.
_TIME_ONLY = frozenset({"date", "month", "yearly", "weekday", "hour", "added"})
#: The relation that needs "on" or "from" before it: "on the day of the wedding", not "the day of the
#: week".
_NEEDS_PREPOSITION = {"day of": ("on", "from"), "time of": ("at", "from", "during")}


class SameDayClaims:
    """The claim pass; `read` reads what tells the days as a request of its own."""

    def __init__(self, read: Callable[[str, ClaimState], ParseResult]):
        self.read = read

    def __call__(self, st: ClaimState) -> None:
        for m in st.unclaimed(RELATION):
            words = " ".join(m.group("rel").split())
            if words in _NEEDS_PREPOSITION and m.group("pre") not in _NEEDS_PREPOSITION[words]:
                continue
            stop = INNER_END.search(st.low, m.end())
            end = stop.start() if stop else len(st.low)
            if not st.free(m.start(), end) or _a_date(st, m.start("rel"), m.end("rel")):
                continue
            told = self.read(st.text[m.end() : end], st)
            found = atoms(told.plan["where"])
            if not found or all(next(iter(a)) in _TIME_ONLY or _a_number(a) or _a_time(a) for a in found):
                continue
            lo, hi = relation_days(m)
            if max(-lo, hi) > MAX_DAYS_AWAY:
                continue
            for note in told.notes:
                st.note(note, 0.0)
            st.penalty += 1.0 - told.confidence
            spec = {"where": told.plan["where"], "from": lo, "to": hi}
            if words in RELATION_PICKS:  # "the first day of our trip to rome": each visit's first
                if any(a.get("concept") in _ROUTINES for a in found):
                    continue  # "the first day of school": a day of its own, whose photos show no school
                spec["pick"] = RELATION_PICKS[words]
            node: dict = {"days_of": spec}
            if words in RELATION_HOURS:  # "the morning after the party": that day's morning
                node = {"and": [node, {"hour": RELATION_HOURS[words]}]}
            st.claim(m.start(), end, "atom", node, slot="days_of")


#: Concepts that are times, no things a photo shows: "the first day of the month".
_TIME_WORDS = frozenset({"day", "week", "weekend", "month", "year", "time", "season", "decade", "century"})


#: What people go to day after day: its first or last day is a day of its own ("the first day of
#: school", "my last day at work"), no first day of the photos that look like it.
_ROUTINES = frozenset(
    {"school", "work", "job", "office", "college", "university", "uni", "kindergarten", "nursery", "class"}
)


def _a_time(atom: dict) -> bool:
    return str(atom.get("concept", "")) in _TIME_WORDS


def _a_number(atom: dict) -> bool:
    """A concept that is a number, no thing a photo shows ("the week of the 4th")."""
    return str(atom.get("concept", "x"))[:1].isdigit()


def _a_date(st: ClaimState, start: int, end: int) -> bool:
    """Whether the date finder reads the relation's words as part of a date ("the day after
    thanksgiving", "the day before yesterday", "the week after my birthday")."""
    return any(d.start < end and start < d.end for d in dates_found(st))
