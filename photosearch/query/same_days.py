"""Days told by other photos: "the same day as the wedding", "the day after the party", "the week
before the move". The words that name such days, the days away each names, and how they are said."""

from __future__ import annotations

import re

from photosearch.query.lexicon import NUMBER_RE, NUMBER_WORDS
from photosearch.query.times_of_day import hours_of

#: The words before what the days are told by, and the days away from its days they name (from, to).
RELATIONS: dict[str, tuple[int, int]] = {
    "same day as": (0, 0),
    "same day of": (0, 0),
    "same date as": (0, 0),
    "day of": (0, 0),  # after "on" or "from" only: "on the day of the wedding", not "the day of the week"
    "morning of": (0, 0),
    "afternoon of": (0, 0),
    "evening of": (0, 0),
    "night of": (0, 0),
    "day after": (1, 1),
    "morning after": (1, 1),
    "day before": (-1, -1),
    "night before": (-1, -1),
    "evening before": (-1, -1),
    "first day of": (0, 0),
    "first day in": (0, 0),
    "first day at": (0, 0),
    "last day of": (0, 0),
    "last day in": (0, 0),
    "last day at": (0, 0),
    "first night in": (0, 0),
    "first night of": (0, 0),
    "first night at": (0, 0),
    "around the time of": (-3, 3),
    "time of": (-3, 3),  # after "around", "at" or "from": "from the time of the move"
    "week of": (-3, 3),
    "weekend of": (-1, 1),
    "week after": (1, 7),
    "week before": (-7, -1),
    "days after": (1, 3),
    "days before": (-3, -1),
}

#: The relations that name the first or last day of each run of days ("the first day of our trip to
#: rome": of each visit).
RELATION_PICKS = {words: words.split()[0] for words in RELATIONS if words.startswith(("first ", "last "))}
#: The hours of the day a relation names too ("the morning after the party": its morning).
RELATION_HOURS: dict[str, list[int]] = {
    "first night in": hours_of("night"),
    "first night of": hours_of("night"),
    "first night at": hours_of("night"),
    "morning after": hours_of("morning"),
    "morning of": hours_of("morning"),
    "afternoon of": hours_of("afternoon"),
    "evening of": hours_of("evening"),
    "evening before": hours_of("evening"),
    "night of": hours_of("night"),
    "night before": hours_of("night"),
}

#: A relation with what may come before it ("photos from the day after", "taken on the same day as",
#: "in the week before", "two days before"); group "rel" is the relation, "pre" the preposition
#: before it, and a counted one ("three days after") has its number "n", "unit" and "dir".
RELATION = re.compile(
    r"\b(?:(?:taken|shot)\s+)?(?:(?P<pre>on|from|of|in|during|at)\s+)?(?:the\s+|that\s+)?(?P<rel>"
    + "|".join(r"\s+".join(words.split()) for words in RELATIONS)
    + rf"|(?P<n>a|an|{NUMBER_RE})\s+(?P<unit>days?|weeks?)\s+(?P<dir>after|before)"
    + r")\s+"
)
#: Where what the days are told by ends: a comma or stop, or a word that turns to something else
#: ("the day after the party, without tom", "... but not the blurry ones").
INNER_END = re.compile(r"\s*(?:[,;()]|[.!?](?!\S)|\b(?:but|not|without|except|excluding|sorted)\b)")


def relation_days(m: re.Match) -> tuple[int, int]:
    """The days away a relation of `RELATION` names: "day after" (1, 1), "two days before" (-2, -2),
    "two weeks after" the second week after (8, 14)."""
    if not m.group("n"):
        return RELATIONS[" ".join(m.group("rel").split())]
    n = int(m.group("n")) if m.group("n").isdigit() else NUMBER_WORDS.get(m.group("n"), 1)
    lo, hi = (n, n) if m.group("unit").startswith("day") else (7 * (n - 1) + 1, 7 * n)
    return (lo, hi) if m.group("dir") == "after" else (-hi, -lo)


def days_away_text(lo: int, hi: int) -> str:
    """How a days_of atom's days away are said before what tells the days ("the day after")."""
    if lo == hi:
        if lo == 0:
            return "the same day as"
        if abs(lo) == 1:
            return "the day " + ("after" if lo > 0 else "before")
        return f"{abs(lo)} days " + ("after" if lo > 0 else "before")
    if (lo, hi) == (1, 7):
        return "in the week after"
    if (lo, hi) == (-7, -1):
        return "in the week before"
    if lo >= 0:
        return f"{lo} to {hi} days after"
    if hi <= 0:
        return f"{-hi} to {-lo} days before"
    if lo == -hi:
        return f"within {hi} days of"
    return f"from {-lo} days before to {hi} days after"
