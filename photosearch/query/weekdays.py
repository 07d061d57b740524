"""Days of the week in requests ("at weekends", "on Sundays", "weekdays") and in words for people.

Days are ISO numbers: 1 = Monday ... 7 = Sunday (`date.isoweekday`). The plan's `weekday` atom lists
them; a photo matches by the day its date falls on.
"""

from __future__ import annotations

import re

DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
WEEKEND = [6, 7]
WORKDAYS = [1, 2, 3, 4, 5]

#: Request words -> days; a day's name also in the plural ("on Sundays"; not "sat", "wed": words too).
DAY_WORDS: dict[str, list[int]] = {
    **{name.lower(): [i] for i, name in enumerate(DAY_NAMES, start=1)},
    "weekend": WEEKEND,
    "weekday": WORKDAYS,
    "workday": WORKDAYS,
    "working day": WORKDAYS,
    "work day": WORKDAYS,
}

#: How a request says "on these days" ("on Sundays", "every Monday", "at the weekend", "weekdays").
DAYS_RE = re.compile(
    r"\b(?P<pre>(?:on|at|during|over|every|each|all)\s+(?:the\s+)?)?"
    r"(?P<d>" + "|".join(sorted((re.escape(w) for w in DAY_WORDS), key=len, reverse=True)) + r")s?\b"
)


def days_text(days: list[int]) -> str:
    """The days in words: "at the weekend", "on weekdays", "on Sundays", "on Mondays and Fridays"."""
    days = sorted(set(int(d) for d in days))
    if days == WEEKEND:
        return "at the weekend"
    if days == WORKDAYS:
        return "on weekdays"
    names = [f"{DAY_NAMES[d - 1]}s" for d in days if 1 <= d <= 7]
    return "on " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


#: What the app's chip offers to pick (its words, and the days they mean).
CHOICES: dict[str, list[int]] = {
    days_text(WEEKEND): WEEKEND,
    days_text(WORKDAYS): WORKDAYS,
    **{days_text([i]): [i] for i in range(1, 8)},
}
