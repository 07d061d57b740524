"""Times of day as hours of the photo's clock: what "in the morning" or "at lunchtime" asks for.

The `hour` atom holds the hours (0-23) a photo may have been taken at. Night is not here: "at night"
is the `night` attribute measured from the pixels, which also holds for photos without a time; the
clock only overrules it, and the sky's other times of day, where it says they cannot be
(`hours_ruled_out`: no night in broad daylight, no sunrise after noon, no sunset before it).
"""

from __future__ import annotations

from datetime import date

from photosearch.query.weekdays import DAY_NAMES

#: Time-of-day words → the hours they cover (start inclusive, end exclusive).
TIMES_OF_DAY: dict[str, tuple[int, int]] = {
    "early morning": (4, 8),
    "late morning": (9, 12),
    "morning": (5, 12),
    "noon": (11, 14),
    "midday": (11, 14),
    "lunchtime": (11, 14),
    "lunch time": (11, 14),
    "breakfast time": (6, 10),
    "dinner time": (18, 22),
    "dinnertime": (18, 22),
    "early afternoon": (12, 15),
    "late afternoon": (15, 18),
    "afternoon": (12, 18),
    "early evening": (17, 20),
    "late evening": (20, 23),
    "evening": (17, 22),
    "small hours": (0, 5),  # the night's first hours by the clock (night alone is the look, below)
}
#: Other words for a time of day above.
TIME_ALIASES: dict[str, str] = {
    "after midnight": "small hours",
    "middle of the night": "small hours",
    "wee hours": "small hours",
    "small hours of the morning": "small hours",
    "wee hours of the morning": "small hours",
}


#: The hours of a given day's night (its evening to midnight): "the night before the wedding". Night
#: alone is the night look, measured from the pixels.
NIGHT_OF_A_DAY = (18, 24)

#: Hours of broad daylight wherever people live most of the year (10:00-15:59): a photo taken then
#: was not taken at night, however dark its pixels (a cat on black velvet, a stage, a cellar).
DAYLIGHT_HOURS = tuple(range(10, 16))
NIGHT_WORDS = frozenset({"night", "nighttime", "midnight"})
#: The sun rises before noon and sets after it, on any clock within a zone or two of the sun's.
MORNING_HOURS, AFTERNOON_HOURS = tuple(range(0, 12)), tuple(range(12, 24))
#: Words of the sky's times of day -> the hours at which a photo cannot show them.
RULED_OUT_HOURS: dict[str, tuple[int, ...]] = {
    **dict.fromkeys(NIGHT_WORDS, DAYLIGHT_HOURS),
    **dict.fromkeys(("sunrise", "dawn", "daybreak", "sunup"), AFTERNOON_HOURS),
    **dict.fromkeys(("sunset", "dusk", "sundown", "nightfall"), MORNING_HOURS),
}


def names_night(concept: str) -> bool:
    """Whether a concept asks for photos taken at night ("night", "night sky", "city at night")."""
    return any(w in NIGHT_WORDS for w in concept.lower().split())


def hours_ruled_out(concept: str) -> tuple[int, ...]:
    """The clock hours at which a photo cannot show what the concept asks for ("sunset at the beach"
    -> the morning's), or () where the clock has no say."""
    return tuple(sorted({h for w in concept.lower().split() for h in RULED_OUT_HOURS.get(w, ())}))


def hours_of(name: str) -> list[int]:
    """The hours a time-of-day word covers ("morning" → 5..11); "night" beside a day is its evening to
    midnight, 18..23 ("the night before the wedding")."""
    lo, hi = NIGHT_OF_A_DAY if name == "night" else TIMES_OF_DAY[TIME_ALIASES.get(name, name)]
    return list(range(lo, hi))


#: What the app's chip offers to pick (its words, and the hours they mean).
CHOICES: dict[str, list[int]] = {f"in the {name}": hours_of(name) for name in TIMES_OF_DAY}


def taken_words(when: str, atom: str = "") -> str:
    """When a photo was taken, in the words of the atom that found it: "taken 2021-03-09", with the
    clock time for a time of day (`hour`: "taken 2021-03-09 07:46"), the day's name for a day of the
    week (`weekday`: "taken Sunday 2024-05-12")."""
    day = ""
    if atom == "weekday":
        try:
            day = DAY_NAMES[date.fromisoformat(when[:10]).isoweekday() - 1] + " "
        except ValueError:  # not a date: said as it is
            day = ""
    return f"taken {day}{when[:10]}" + (f" {when[11:16]}" if atom == "hour" else "")


def hours_text(hours: list[int]) -> str:
    """Hours as clock ranges, in the words of the time of day they are where one fits:
    "in the morning (05:00–11:59)", "at 14:00–15:59, 20:00–20:59"."""
    hours = sorted(set(hours))
    spans: list[list[int]] = []
    for h in hours:
        if spans and h == spans[-1][1] + 1:
            spans[-1][1] = h
        else:
            spans.append([h, h])
    if len(spans) > 1 and spans[0][0] == 0 and spans[-1][1] == 23:  # wraps over midnight
        spans[0][0] = spans.pop()[0]
    clock = ", ".join(f"{a:02d}:00–{b:02d}:59" for a, b in spans)
    name = next((n for n in TIMES_OF_DAY if hours_of(n) == hours), None)
    return f"in the {name} ({clock})" if name else f"at {clock}"
