"""Months of the year in words, for the `month` atom: "in summer", "in July", "in March and
October". The app's chip offers `CHOICES`; plan text and what no photo meets say `months_text`."""

from __future__ import annotations

from photosearch.query.dates import SEASONS

MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
#: The months of each season (meteorological, northern hemisphere, as `dates.SEASONS` reads them).
SEASON_MONTHS: dict[str, list[int]] = {
    name: sorted((first - 1 + k) % 12 + 1 for k in range(3))
    for name, first in SEASONS.items()
    if name != "fall"
}


def months_text(months: list[int]) -> str:
    """The months in words: a season's name where they are one ("in summer"), else their names."""
    months = sorted(set(int(m) for m in months if 1 <= int(m) <= 12))
    season = next((name for name, ms in SEASON_MONTHS.items() if ms == months), None)
    if season:
        return f"in {season}"
    names = [MONTHS[m - 1] for m in months]
    if not names:
        return "in no month"
    return "in " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def day_of_year_text(month_day: str) -> str:
    """ "12-25" in words: "25 December" (as written where it is not a day of a month)."""
    try:
        month, day = (int(part) for part in month_day.split("-"))
        return f"{day} {MONTHS[month - 1]}"
    except (ValueError, IndexError):
        return month_day


#: The `yearly` span of every day of the year: photos with a known date ("undated" is its negation).
ANY_DAY = {"from": "01-01", "to": "12-31"}


def yearly_text(span: dict) -> str:
    """A `yearly` atom in words: "on 31 October of any year", "between 24 and 26 December of any year"."""
    lo, hi = str(span["from"]), str(span["to"])
    if {"from": lo, "to": hi} == ANY_DAY:
        return "on a known date"
    if lo == hi:
        return f"on {day_of_year_text(lo)} of any year"
    first, last = day_of_year_text(lo), day_of_year_text(hi)
    if lo[:2] == hi[:2] and " " in first:  # in one month: "between 24 and 26 December"
        first = first.split()[0]
    return f"between {first} and {last} of any year"


#: What the app's chip offers to pick (its words, and the months they mean).
CHOICES: dict[str, list[int]] = {
    **{months_text(ms): ms for ms in SEASON_MONTHS.values()},
    **{months_text([m]): [m] for m in range(1, 13)},
}
