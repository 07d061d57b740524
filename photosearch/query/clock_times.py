"""Clock times as hours of the photo's clock: "at 5pm", "around 8 pm", "after 10pm", "before 7am",
"between 2pm and 4pm", "2-4pm", "17:30", "6 in the morning", "between 6 and 8 in the morning" → the
`hour` atom's hours.

A time needs "am"/"pm", a colon ("17:30") or "in the morning/afternoon/evening" to be one: a bare
number is a count, a year or a word in the photo. "At 5pm" is the hour from 17:00 to 17:59;
"around" one hour either side; "after" to midnight and "before" from it; a range up to its end
("between 2pm and 4pm": 14:00 to 15:59; "until 4:30pm" takes in 16:00 too).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_AMPM = r"(?:a\.?m\.?|p\.?m\.?)(?![\w.])"
#: One time: "5pm", "5 pm", "5:30pm", "17:30", "noon" ("midnight" is the night attribute's word).
_TIME = rf"(?:\d{{1,2}}(?::[0-5]\d)?\s*{_AMPM}|(?:[01]?\d|2[0-3]):[0-5]\d|noon)"
#: "2-4pm", "2 to 4 pm": the first time takes the second's am or pm.
_BARE = r"\d{1,2}(?::[0-5]\d)?"
_PART_OF_DAY = r"in\s+the\s+(?P<part>morning|afternoon|evening)|at\s+night"

_PATTERNS = (
    (
        "range_part",  # "between 6 and 8 in the morning", "7-9 in the evening"
        re.compile(
            r"\b(?:(?:between|from)\s+)?(?P<a>\d{1,2})\s*(?:and|to|until|till|-|–)\s*(?P<b>\d{1,2})\s+"
            rf"(?:o'?clock\s+)?(?:{_PART_OF_DAY})"
        ),
    ),
    (
        "range",
        re.compile(
            rf"\b(?:between|from)\s+(?P<a>{_TIME}|{_BARE})\s+(?:and|to|until|till|-|–)\s+(?P<b>{_TIME})"
            rf"|\b(?P<a2>{_TIME}|{_BARE})\s*(?:-|–|to)\s*(?P<b2>{_TIME})"
        ),
    ),
    ("after", re.compile(rf"\b(?:after|since|past|later\s+than)\s+(?P<t>{_TIME})")),
    ("before", re.compile(rf"\b(?:before|until|till|earlier\s+than)\s+(?P<t>{_TIME})")),
    ("around", re.compile(rf"\b(?:around|about|approximately|roughly|circa)\s+(?P<t>{_TIME})")),
    (
        "part",
        re.compile(rf"\b(?:at\s+)?(?P<h>\d{{1,2}})(?::(?P<m>[0-5]\d))?\s+(?:o'?clock\s+)?(?:{_PART_OF_DAY})"),
    ),
    ("at", re.compile(rf"(?:\bat\s+)?(?<![\w/:.])(?P<t>{_TIME})")),
)


@dataclass(frozen=True)
class ClockTime:
    """Where the words are in the request, and the hours they mean."""

    start: int
    end: int
    hours: list[int]


def _parse(text: str, ampm: str = "") -> tuple[int, int] | None:
    """(hour 0-23, minute) of one time; `ampm` from the other end of a range ("2" of "2-4pm")."""
    text = " ".join(text.split())
    if text == "noon":
        return 12, 0
    m = re.fullmatch(r"(\d{1,2})(?::(\d\d))?\s*(a\.?m\.?|p\.?m\.?)?", text)
    if m is None:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    half = (m.group(3) or ampm).replace(".", "")[:2]
    if half:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if half == "pm" else 0)
    elif m.group(2) is None or hour > 23:  # a bare number: no time
        return None
    return hour, minute


def _part_hour(hour: int, part: str | None) -> int | None:
    """The hour of "6 in the morning", "7 in the evening", "11 at night" ("2 at night": 02:00)."""
    if not 1 <= hour <= 12:
        return None
    part = part or "night"
    if part == "morning":
        return hour % 12
    return hour % 12 + 12 if part != "night" or hour >= 6 else hour % 12


def _span(lo: int, hi: int) -> list[int]:
    """Hours from lo to hi inclusive, over midnight when hi < lo."""
    return list(range(lo, hi + 1)) if hi >= lo else [*range(lo, 24), *range(0, hi + 1)]


def _ampm_of(text: str) -> str:
    m = re.search(r"(a|p)\.?m", text)
    return f"{m.group(1)}m" if m else ""


def _hours(kind: str, m: re.Match) -> list[int] | None:
    if kind == "range":
        a, b = m.group("a") or m.group("a2"), m.group("b") or m.group("b2")
        end = _parse(b)
        start = _parse(a, _ampm_of(b) if _parse(a) is None else "")
        if start is None or end is None:
            return None
        last = end[0] if end[1] else end[0] - 1  # "until 4pm" ends at 15:59, "until 4:30pm" at 16:29
        return _span(start[0], last % 24)
    if kind == "range_part":  # "between 6 and 8 in the morning": 06:00 to 07:59, as "6-8am"
        start, end = (_part_hour(int(m.group(g)), m.group("part")) for g in ("a", "b"))
        return _span(start, (end - 1) % 24) if start is not None and end is not None else None
    if kind == "part":
        hour = _part_hour(int(m.group("h")), m.group("part"))
        return None if hour is None else [hour]
    at = _parse(m.group("t"))
    if at is None or (kind == "at" and m.group("t") == "noon"):  # "at noon" is a time of day's
        return None
    hour = at[0]
    if kind == "after":
        return _span(hour, 23)
    if kind == "before":  # "before 7am" ends at 06:59, "until 4:30pm" at 16:29
        last = hour if at[1] else hour - 1
        return _span(0, last) if last >= 0 else None
    if kind == "around":
        return sorted({(hour - 1) % 24, hour, (hour + 1) % 24})
    return [hour]


def find_clock_times(low: str) -> list[ClockTime]:
    """Every clock time in a lower-cased request, left to right, none overlapping."""
    found: list[ClockTime] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(low):
            if any(m.start() < f.end and f.start < m.end() for f in found):
                continue
            hours = _hours(kind, m)
            if hours:
                found.append(ClockTime(m.start(), m.end(), hours))
    return sorted(found, key=lambda f: f.start)
