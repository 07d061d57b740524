"""Festivals of other calendars (Chinese, Korean, Hindu, Islamic, Hebrew, Buddhist) in a year, from
the `holidays` package's country calendars: "chinese new year", "diwali", "eid", "hanukkah".

Each festival is read from one country whose calendar has it over the most years (the package's
names, with its "(estimated)" and "(observed)" marks dropped). A year the calendar does not reach
has no day (None): the date finder leaves that year out.
"""

from __future__ import annotations

import functools
import re
import warnings
from collections.abc import Callable
from datetime import date

#: The festival's day in a year: (country, the calendar's name of the day, and any other name it has
#: had in another version of the package).
_CHINESE_NEW_YEAR = ("China", "Chinese New Year (Spring Festival)")
_MID_AUTUMN = ("SouthKorea", "Chuseok")  # the 15th of the 8th lunar month, in a calendar of 1950-2070
_DIWALI = ("Singapore", "Diwali", "Deepavali")
_EID_AL_FITR = ("Turkey", "Eid al-Fitr")
_EID_AL_ADHA = ("Turkey", "Eid al-Adha")

#: Request words -> (the day, days before it the span starts, days long): a span holds the eve
#: people celebrate ("chinese new year": the eve to the third day; "hanukkah": eight nights).
FESTIVALS: dict[str, tuple[tuple[str, ...], int, int]] = {
    **dict.fromkeys(("chinese new year", "lunar new year", "spring festival"), (_CHINESE_NEW_YEAR, -1, 4)),
    "seollal": (("SouthKorea", "Korean New Year"), -1, 3),
    **dict.fromkeys(
        ("mid-autumn festival", "mid autumn festival", "moon festival", "mooncake festival"),
        (_MID_AUTUMN, 0, 1),
    ),
    "chuseok": (_MID_AUTUMN, -1, 3),
    "dragon boat festival": (("China", "Dragon Boat Festival"), 0, 1),
    **dict.fromkeys(("diwali", "deepavali", "divali"), (_DIWALI, -1, 3)),
    "holi": (("India", "Holi"), -1, 2),
    **dict.fromkeys(("dussehra", "dasara", "vijayadashami"), (("India", "Dussehra"), 0, 1)),
    "navratri": (("India", "Dussehra"), -9, 9),
    **dict.fromkeys(
        ("eid", "eid al-fitr", "eid al fitr", "eid ul-fitr", "eid ul fitr", "eid-ul-fitr"),
        (_EID_AL_FITR, -1, 4),
    ),
    **dict.fromkeys(
        ("eid al-adha", "eid al adha", "eid ul-adha", "eid ul adha", "eid-ul-adha", "bakrid", "bakri eid"),
        (_EID_AL_ADHA, -1, 4),
    ),
    **dict.fromkeys(("ramadan", "ramzan"), (_EID_AL_FITR, -30, 30)),  # the month the Eid ends
    **dict.fromkeys(("hanukkah", "chanukah", "hanukah"), (("Israel", "Hanukkah"), -1, 9)),
    **dict.fromkeys(("passover", "pesach"), (("Israel", "Pesach"), -1, 8)),
    **dict.fromkeys(
        ("rosh hashanah", "rosh hashana", "jewish new year"), (("Israel", "Rosh Hashanah"), -1, 3)
    ),
    "yom kippur": (("Israel", "Yom Kippur"), -1, 2),
    "sukkot": (("Israel", "Sukkot"), 0, 7),
    "purim": (("Israel", "Purim"), 0, 1),
    **dict.fromkeys(("vesak", "wesak"), (("Singapore", "Vesak Day"), 0, 1)),
}

_MARKS = re.compile(r"\s*\((?:estimated|observed)[^)]*\)")


def festival_day(name: str) -> Callable[[int], date | None]:
    """The day a festival of the request's words falls on in a year (None: its calendar does not
    reach that year). A festival that began in the year before and goes on into January is that
    year's (Hanukkah 2024 ends on 2 January 2025); the year's own is the one that begins in it."""
    (country, *day_names), _before, _days = FESTIVALS[name]

    def named(year: int) -> list[date]:
        found = _days_named(country, year)
        return next((found[n] for n in day_names if n in found), [])

    def day_of(year: int) -> date | None:
        days = named(year)
        if days and days[0] == date(year, 1, 1) and date(year - 1, 12, 31) in named(year - 1):
            days = [d for d, before in zip(days[1:], days, strict=False) if (d - before).days > 1]
        return days[0] if days else None

    return day_of


@functools.lru_cache(maxsize=1024)
def _days_named(country: str, year: int) -> dict[str, list[date]]:
    """The days of each name in a country's calendar of one year (every category of days)."""
    import holidays

    calendar = getattr(holidays, country)
    with warnings.catch_warnings():  # "available only from 2001 to 2035": such a year has none
        warnings.simplefilter("ignore")
        days = calendar(years=year, categories=calendar.supported_categories, language="en_US")
    named: dict[str, list[date]] = {}
    for day, names in sorted(days.items()):
        for label in names.split("; "):
            named.setdefault(_MARKS.sub("", label).strip(), []).append(day)
    return named
