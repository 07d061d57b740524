"""Date expressions in requests → inclusive date ranges, relative to a fixed `now`.

Ranges are exact calendar periods (meteorological seasons, northern hemisphere: spring = Mar–May,
summer = Jun–Aug, autumn = Sep–Nov, winter = Dec–Feb, named by the year of its December).
Open ends use ``OPEN_START`` (1900-01-01) and `now`.

Recurring dates ("summer" without a year, "christmas", "on my birthday") have no single range:
months and days of the year are the plan's `month` and `yearly` atoms, and a birthday expands to an
``or`` of its days inside a bounded window (the years of the catalog, ``years``, or the last ten
years). Days of the week ("weekends", "on Sundays") are the `weekday` atom (`query/weekdays.py`).
"""

from __future__ import annotations

import calendar
import dataclasses
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from photosearch.query.festivals import FESTIVALS, festival_day
from photosearch.query.first_names import first_names
from photosearch.query.lexicon import NUMBER_WORDS as COUNT_WORDS
from photosearch.query.lexicon import RELATION_WORDS
from photosearch.query.times_of_day import hours_of

OPEN_START = date(1900, 1, 1)

MONTHS = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sep": 9,
    "sept": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
#: A season a photo shows as well as the months it was taken in: a snowy photo is a winter photo,
#: whatever its date says (the southern hemisphere's, a download's) or if it has none. The other
#: seasons have no look the bundled models can tell.
SEASON_LOOKS = {"winter": "snow"}
#: Amounts in date phrases ("two weeks ago", "a few years ago"): the count words, articles, "few".
NUMBER_WORDS = {**COUNT_WORDS, "a": 1, "an": 1, "couple of": 2, "few": 3}
# (month, day, days-long) of fixed-date holidays
HOLIDAYS = {
    "christmas eve": (12, 24, 1),
    "christmas day": (12, 25, 1),
    "boxing day": (12, 26, 1),
    "christmas": (12, 24, 3),
    "xmas": (12, 24, 3),
    "xmas eve": (12, 24, 1),
    "xmas day": (12, 25, 1),
    "new year's eve": (12, 31, 1),
    "new years eve": (12, 31, 1),
    "nye": (12, 31, 1),
    "new year's day": (1, 1, 1),
    # the night it begins, either side of midnight ("new year fireworks")
    "new year": (12, 31, 2),
    "new years": (12, 31, 2),
    "new year's": (12, 31, 2),
    "new years day": (1, 1, 1),
    "halloween": (10, 31, 1),
    # the children's round of the doors on Halloween night
    "trick or treating": (10, 31, 1),
    "trick-or-treating": (10, 31, 1),
    "trick or treat": (10, 31, 1),
    "trick-or-treat": (10, 31, 1),
    "valentine's day": (2, 14, 1),
    "valentines day": (2, 14, 1),
    "valentine's": (2, 14, 1),
    "independence day": (7, 4, 1),
    "fourth of july": (7, 4, 1),
    "4th of july": (7, 4, 1),
    # written as a date, the holiday still ("july 4th fireworks": any year's, as "4th of july" is)
    "july 4th": (7, 4, 1),
    "july fourth": (7, 4, 1),
    **{
        f"{saint} {patrick} day": (3, 17, 1)
        for saint in ("st", "st.", "saint")
        for patrick in ("patrick's", "patricks")
    },
    "paddy's day": (3, 17, 1),
    "bonfire night": (11, 5, 1),
    "guy fawkes night": (11, 5, 1),
    "canada day": (7, 1, 1),
    "bastille day": (7, 14, 1),
    "australia day": (1, 26, 1),
    "cinco de mayo": (5, 5, 1),
    **dict.fromkeys(("april fools", "april fools' day", "april fool's day", "april fools day"), (4, 1, 1)),
    "may day": (5, 1, 1),
    # the season of Christmas and New Year, to Twelfth Night (`SEASONS_OF_HOLIDAYS` says so)
    **dict.fromkeys(
        ("the holidays", "holiday season", "the festive season", "festive season", "the festive period"),
        (12, 20, 18),
    ),
}
#: Holiday names that are a season of several holidays, in words for the note that says how it was read.
SEASONS_OF_HOLIDAYS = {
    name: "the Christmas and New Year season, 20 December to 6 January"
    for name, days in HOLIDAYS.items()
    if days == (12, 20, 18)
}


def thanksgiving(year: int) -> date:
    """US Thanksgiving: the fourth Thursday of November."""
    first = date(year, 11, 1)
    return first + timedelta(days=(3 - first.weekday()) % 7 + 21)


def _easter(year: int) -> date:
    from dateutil.easter import easter

    return easter(year)


def _nth_sunday(month: int, n: int) -> Callable[[int], date]:
    """The n-th Sunday of a month, as a function of the year."""

    def day_of(year: int) -> date:
        first = date(year, month, 1)
        return first + timedelta(days=(6 - first.weekday()) % 7 + 7 * (n - 1))

    return day_of


def _first_monday_of(month: int) -> Callable[[int], date]:
    """The first Monday of a month, as a function of the year."""

    def day_of(year: int) -> date:
        first = date(year, month, 1)
        return first + timedelta(days=(7 - first.weekday()) % 7)

    return day_of


def _last_monday_of(month: int) -> Callable[[int], date]:
    """The last Monday of a month, as a function of the year."""

    def day_of(year: int) -> date:
        last = date(year, month, calendar.monthrange(year, month)[1])
        return last - timedelta(days=last.weekday())

    return day_of


def _orthodox_easter(year: int) -> date:
    from dateutil.easter import EASTER_ORTHODOX, easter

    return easter(year, EASTER_ORTHODOX)


def _mothering_sunday(year: int) -> date:
    """The UK's and Ireland's Mothering Sunday: the fourth Sunday of Lent, three weeks before Easter."""
    return _easter(year) - timedelta(days=21)


#: Holidays whose day moves from year to year: (the holiday's day in a year, None where its calendar
#: does not reach the year; days before it the span starts; days long). Easter is Good Friday to
#: Easter Monday; Thanksgiving Thursday to Sunday. Festivals of other calendars: `festivals.py`.
MOVABLE_HOLIDAYS: dict[str, tuple[Callable[[int], date | None], int, int]] = {
    "easter": (_easter, -2, 4),
    "easter weekend": (_easter, -2, 4),
    "easter sunday": (_easter, 0, 1),
    "easter monday": (_easter, 1, 1),
    "good friday": (_easter, -2, 1),
    "palm sunday": (_easter, -7, 1),
    **dict.fromkeys(("mardi gras", "shrove tuesday", "pancake day"), (_easter, -47, 1)),
    "ash wednesday": (_easter, -46, 1),
    "ascension day": (_easter, 39, 1),
    **dict.fromkeys(("pentecost", "whitsun", "whit sunday"), (_easter, 49, 1)),
    **dict.fromkeys(("orthodox easter", "greek easter"), (_orthodox_easter, -2, 4)),
    "thanksgiving": (thanksgiving, 0, 4),
    "thanksgiving weekend": (thanksgiving, 0, 4),
    "black friday": (thanksgiving, 1, 1),
    "cyber monday": (thanksgiving, 4, 1),
    # the second Sunday of May (the US, Canada, Germany, Italy, Australia, Japan...); the UK's is
    # "mothering sunday"
    "mother's day": (_nth_sunday(5, 2), 0, 1),
    "mothers day": (_nth_sunday(5, 2), 0, 1),
    "mothering sunday": (_mothering_sunday, 0, 1),
    # the third Sunday of June (the US, the UK, Canada, France, Japan...)
    "father's day": (_nth_sunday(6, 3), 0, 1),
    "fathers day": (_nth_sunday(6, 3), 0, 1),
    # the long weekends of the US: Saturday to Monday
    **{
        f"{name}{weekend}": (day, -2, 3)
        for name, day in (
            ("labor day", _first_monday_of(9)),  # the US and Canada's Labor Day
            ("labour day", _first_monday_of(9)),
            ("memorial day", _last_monday_of(5)),
        )
        for weekend in ("", " weekend")
    },
    # England's and Wales's bank holidays on a Monday, each a long weekend, Saturday to Monday
    **{
        f"{name}{weekend}": (day, -2, 3)
        for name, day in (
            ("may bank holiday", _first_monday_of(5)),
            ("early may bank holiday", _first_monday_of(5)),
            ("may day bank holiday", _first_monday_of(5)),
            ("spring bank holiday", _last_monday_of(5)),
            ("whitsun bank holiday", _last_monday_of(5)),
            ("august bank holiday", _last_monday_of(8)),
            ("summer bank holiday", _last_monday_of(8)),
            ("late summer bank holiday", _last_monday_of(8)),
        )
        for weekend in ("", " weekend")
    },
    **{name: (festival_day(name), before, days) for name, (_day, before, days) in FESTIVALS.items()},
}
#: How a holiday kept on different days in different countries is read, said with its dates.
HOLIDAY_CONVENTIONS = {
    "mother's day": "the second Sunday of May",
    "mothers day": "the second Sunday of May",
    "father's day": "the third Sunday of June",
    "fathers day": "the third Sunday of June",
}


#: Fixed holidays whose span starts before their own day (Christmas Eve): (days from the start, days).
_OWN_DAYS = {"christmas": (1, 1), "xmas": (1, 1)}


def own_days(name: str) -> tuple[int, int] | None:
    """Where a holiday's own day(s) lie in its span, when the span is wider (`DateMatch.own`): the
    day itself, a festival's days without its eve."""
    if name in _OWN_DAYS:
        return _OWN_DAYS[name]
    if name not in MOVABLE_HOLIDAYS:
        return None
    _day_of, before, days = MOVABLE_HOLIDAYS[name]
    if before > 0 or (before == 0 and days == 1):
        return None
    return (-before, days + before) if name in FESTIVALS else (-before, 1)


def movable_range(name: str, year: int) -> tuple[date, date] | None:
    """A movable holiday's days in a year ("easter", 2023 → Good Friday to Easter Monday); None when
    its calendar does not reach the year."""
    day_of, before, days = MOVABLE_HOLIDAYS[name]
    day = day_of(year)
    if day is None:
        return None
    lo = day + timedelta(days=before)
    return lo, lo + timedelta(days=days - 1)


# holiday words followed by one of these are things in the photo, not dates ("christmas tree")
HOLIDAY_NOUNS = {
    "tree",
    "trees",
    "market",
    "markets",
    "lights",
    "decorations",
    "card",
    "cards",
    "party",
    "parties",
    "costume",
    "costumes",
    "pumpkin",
    "pumpkins",
    "sweater",
    "presents",
    "gifts",
    "cookies",
    "ornaments",
    "egg",
    "eggs",
    "bunny",
    "bunnies",
    "basket",
    "baskets",
    "turkey",
    "bonnet",
    # things worn or hung all season, not only on the day: "a christmas jumper"
    "jumper",
    "jumpers",
    "sweaters",
    "hat",
    "hats",
    "stocking",
    "stockings",
    "wreath",
    "pudding",
    "cracker",
    "crackers",
}

_MONTH_RE = "|".join(sorted(MONTHS, key=len, reverse=True))
_FULL_MONTHS = {name for name in MONTHS if len(name) > 4 or name in ("may", "june", "july")}
_FULL_MONTH_RE = "|".join(sorted(_FULL_MONTHS, key=len, reverse=True))
#: Month names that are a month alone, without "in" or a year: "may" and "march" are more often a
#: verb or a thing ("the march", "may be").
_BARE_MONTH_RE = "|".join(sorted(_FULL_MONTHS - {"may", "march"}, key=len, reverse=True))
_SEASON_RE = "|".join(SEASONS)
_HOLIDAY_RE = "|".join(re.escape(h) for h in sorted(HOLIDAYS, key=len, reverse=True))
#: Fixed holidays named like a day of a month ("4th of july"): found before dates of a month are.
_DAY_LIKE_HOLIDAY_RE = "|".join(
    re.escape(h) for h in HOLIDAYS if re.search(r"\d|first|second|third|fourth", h)
)
_MOVABLE_RE = "|".join(re.escape(h) for h in sorted(MOVABLE_HOLIDAYS, key=len, reverse=True))
_NUM_RE = (
    r"\d+|a couple of|couple of|a few|few|an|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
)
_UNIT_RE = r"days?|weeks?|months?|years?"
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:19|20)\d{2}"


@dataclass
class DateMatch:
    start: int
    end: int
    ranges: list[tuple[date, date]]
    recurring: bool = False  # True when `ranges` is an expansion over years
    notes: list[str] = field(default_factory=list)
    months: tuple[int, ...] = ()  # a month-of-year condition ("every July", "in winter")
    yearly: tuple[str, str] | None = None  # days of any year, "MM-DD" ("at Christmas")
    #: What a photo of the season shows, for photos taken in another month or on no known day
    #: ("winter": snow, SEASON_LOOKS)
    looks: str = ""
    #: What to look for when no day is known (`ranges` empty): "birthday" for an unknown birthday, the
    #: festival's name for a year its calendar does not reach.
    instead: str = "birthday"
    #: Where the holiday's own day(s) lie in each span, (days from its start, days long), when the
    #: span is wider: Christmas Day within Christmas Eve to Boxing Day, Thanksgiving Thursday within
    #: its weekend ("the day after thanksgiving" is the Friday).
    own: tuple[int, int] | None = None
    #: The hours of those days it asks for too ("the night before christmas": the evening), or none.
    hours: list[int] = field(default_factory=list)

    def node(self) -> dict:
        days = self._days()
        return {"and": [days, {"hour": self.hours}]} if self.hours else days

    def _days(self) -> dict:
        if self.months and self.looks:
            return {"or": [{"month": list(self.months)}, {"concept": self.looks}]}
        if self.months:
            return {"month": list(self.months)}
        if self.yearly:
            return {"yearly": {"from": self.yearly[0], "to": self.yearly[1]}}
        atoms = [{"date": {"from": a.isoformat(), "to": b.isoformat()}} for a, b in self.ranges]
        return atoms[0] if len(atoms) == 1 else {"or": atoms}


#: "summer '19", "in '98", "the '90s": a year written short.
_SHORT_YEAR = re.compile(r"(?<![\w'’])['’](\d{2})(s?)(?![\w'’])")
#: "2021/05/01": a day written year first with slashes; "15.03.2020": day first with dots.
_YMD_SLASH = re.compile(r"(?<![\w/.])((?:19|20)\d{2})/(\d{1,2})/(\d{1,2})(?![\w/.])")
_DMY_DOT = re.compile(r"(?<![\w/.])(\d{1,2})\.(\d{1,2})\.((?:19|20)\d{2})(?![\w/.])")
#: "since the start of the year": of this year.
_OF_THE_YEAR = re.compile(r"\b(beginning|start|end|middle)\s+of\s+the\s+year\b", re.IGNORECASE)

_MONTH_NAMES = tuple(max((k for k, v in MONTHS.items() if v == n), key=len) for n in range(1, 13))  # in full
_MONTH_WORD = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")"
#: "jan-mar 2021", "june–august": a run of months written with a dash.
_MONTH_DASH = re.compile(rf"\b(?P<a>{_MONTH_WORD})\.?\s*[-–]\s*(?P<b>{_MONTH_WORD})\b\.?", re.IGNORECASE)
#: "q1 2022", "h2 2021", "the first half of 2021": quarters and halves of a year.
_QUARTER = re.compile(r"\b(?:q(?P<q>[1-4])|h(?P<h>[12]))(?:\s+of)?(?=\s+(?:19|20)\d{2}\b)", re.IGNORECASE)
_HALF = re.compile(
    r"\b(?:the\s+)?(?P<which>first|second|1st|2nd)\s+half\s+of\s+(?:(?=(?:19|20)\d{2}\b)|(?P<year>the\s+year\b))",
    re.IGNORECASE,
)
#: "2020-05": a year and a month, ISO style.
_ISO_MONTH = re.compile(r"(?<![\w-])((?:19|20)\d{2})-(0[1-9]|1[0-2])(?![\w-])")
#: "autumn 22": a season and a year written short.
_SEASON_SHORT_YEAR = re.compile(r"\b(spring|summer|autumn|fall|winter)\s+(\d{2})(?![\w'’:.])", re.IGNORECASE)
#: "early summer", "late autumn" without a year: that season's first, middle or last month.
_PART_OF_SEASON = re.compile(
    r"\b(?P<part>early|mid|late)[\s-]+(?P<season>spring|summer|autumn|fall|winter)\b"
    r"(?!\s*(?:of\s+)?['’]?\d|[\s-]+(?:festival|moon))",  # "the mid-autumn festival" is a festival
    re.IGNORECASE,
)


#: "the same week last year", "the same day last year": as the date finder says them.
_SAME_TIME_LAST_YEAR = re.compile(
    r"\bthe\s+same\s+(?P<unit>day|date|week|time|month)\s+last\s+year\b", re.IGNORECASE
)


def _in_full(short: int, now: date) -> int:
    """A year written with two digits, in the century that puts it at most a year ahead ("'19": 2019)."""
    return (2000 if short <= now.year % 100 + 1 else 1900) + short


def _months_written_out(text: str, now: date) -> str:
    """Runs of months written short, as the date finder reads them: "jan-mar 2021" → "january to
    march 2021", "q1 2022" → "january to march 2022", "the second half of 2021" → "july to december
    2021", "2020-05" → "may 2020", "autumn 22" → "autumn 2022", "late summer" → "august"."""

    def dash(m: re.Match) -> str:
        return f"{_MONTH_NAMES[MONTHS[m['a'].lower()] - 1]} to {_MONTH_NAMES[MONTHS[m['b'].lower()] - 1]}"

    def quarter(m: re.Match) -> str:
        first, span = (3 * (int(m["q"]) - 1), 3) if m["q"] else (6 * (int(m["h"]) - 1), 6)
        return f"{_MONTH_NAMES[first]} to {_MONTH_NAMES[first + span - 1]}"

    def half(m: re.Match) -> str:
        months = "january to june" if m["which"].lower() in ("first", "1st") else "july to december"
        return months if m["year"] else f"{months} "

    def short_year(m: re.Match) -> str:
        return f"{m[1]} {_in_full(int(m[2]), now)}"

    def part(m: re.Match) -> str:
        first = SEASONS[m["season"].lower()]  # its first month; "late winter" is February
        month = _MONTH_NAMES[(first - 1 + ("early", "mid", "late").index(m["part"].lower())) % 12]
        return f"in {month}"  # "in march", "in may": the months, not the verbs

    text = _MONTH_DASH.sub(dash, text)
    text = _QUARTER.sub(quarter, text)
    text = _HALF.sub(half, text)
    text = _ISO_MONTH.sub(lambda m: f"{_MONTH_NAMES[int(m[2]) - 1]} {m[1]}", text)
    text = _SEASON_SHORT_YEAR.sub(short_year, text)
    text = _SAME_TIME_LAST_YEAR.sub(
        lambda m: "a year ago today" if m["unit"].lower() in ("day", "date") else "this time last year", text
    )
    return _PART_OF_SEASON.sub(part, text)


#: Times everyone lived through, said by name: (the words, from, to), as months the date finder reads.
ERAS = (
    (r"covid(?:-?19)?|corona(?:virus)?|(?:the\s+)?pandemic", "march 2020", "december 2022"),
    (r"(?:the\s+)?(?:lockdowns?|quarantine)", "march 2020", "june 2021"),
)
_ERA_SUFFIX = r"(?:times|era|days|years|period)"
_ERA_RES = [
    (
        re.compile(
            rf"\b(?:(?P<p>during|in|through(?:out)?|before|pre|after|post|since)[\s-]+(?:{words})"
            rf"(?:\s+{_ERA_SUFFIX})?|(?:{words})\s+{_ERA_SUFFIX})\b",
            re.IGNORECASE,
        ),
        start,
        end,
    )
    for words, start, end in ERAS
]


def _eras_written_out(text: str) -> str:
    """ "during covid" → "from march 2020 to december 2022", "before the pandemic" → "before march
    2020", "post-lockdown" → "after june 2021"; "covid times" is during; a "covid test" stays one."""
    for pattern, start, end in _ERA_RES:

        def said(m: re.Match, start: str = start, end: str = end) -> str:
            prep = (m.group("p") or "during").lower()
            if prep in ("before", "pre"):
                return f"before {start}"
            if prep in ("after", "post", "since"):
                return f"after {end}"
            return f"from {start} to {end}"

        text = pattern.sub(said, text)
    return text


def written_out(text: str, now: date) -> str:
    """The request with dates written as the patterns read them, before anything is claimed: a short
    year in full ("summer '19" → "summer 2019", the century that puts it at most a year ahead),
    "2021/05/01" and "15.03.2020" as ISO days, "during covid" as its months (`ERAS`), "q1 2022" and
    "jan-mar" as runs of months, "the start of the year" as this year's."""

    def full_year(m: re.Match) -> str:
        return f"{_in_full(int(m.group(1)), now)}{m.group(2)}"

    def iso(year: str, month: str, day: str, written: str) -> str:
        try:
            return date(int(year), int(month), int(day)).isoformat()
        except ValueError:  # no such day: left as written
            return written

    text = _SHORT_YEAR.sub(full_year, text)
    text = _YMD_SLASH.sub(lambda m: iso(m[1], m[2], m[3], m[0]), text)
    text = _DMY_DOT.sub(lambda m: iso(m[3], m[2], m[1], m[0]), text)
    text = _eras_written_out(text)
    text = _months_written_out(text, now)
    text = _years_of_a_period(text)
    return _OF_THE_YEAR.sub(lambda m: f"{m[1]} of this year", text)


#: A month, season or holiday before a list of years: each year is of it ("summer 2019 or 2020" is
#: two summers, not a summer and the whole of 2020).
_PERIOD_OF_YEARS = re.compile(
    rf"\b(?P<p>{_MONTH_WORD}|{_SEASON_RE}|{_HOLIDAY_RE}|{_MOVABLE_RE})(?P<of>\s+of)?\s+(?P<y>(?:19|20)\d\d)"
    r"(?P<rest>(?:\s*,\s*(?:19|20)\d\d)*\s*,?\s*(?:and|or|&)\s+(?:19|20)\d\d)\b",
    re.IGNORECASE,
)


def _years_of_a_period(text: str) -> str:
    """ "summer 2019 or 2020" → "summer 2019 or summer 2020", "christmas 2018, 2019 and 2020" →
    each year's Christmas."""

    def each(m: re.Match) -> str:
        period = m["p"] + (m["of"] or "")
        rest = re.sub(r"\b(?:19|20)\d\d\b", lambda y: f"{period} {y[0]}", m["rest"])
        return f"{period} {m['y']}{rest}"

    return _PERIOD_OF_YEARS.sub(each, text)


def month_range(year: int, month: int) -> tuple[date, date]:
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def year_range(year: int) -> tuple[date, date]:
    return date(year, 1, 1), date(year, 12, 31)


def season_range(year: int, season: str) -> tuple[date, date]:
    """The season of `year`; winter YEAR is December YEAR to February YEAR+1."""
    first = SEASONS[season]
    start = date(year, first, 1)
    end_year, end_month = (year + 1, 2) if first == 12 else (year, first + 2)
    return start, month_range(end_year, end_month)[1]


def last_season(now: date, season: str) -> tuple[date, date]:
    """The most recent season of that name that has ended before `now`."""
    year = now.year
    while True:
        lo, hi = season_range(year, season)
        if hi < now:
            return lo, hi
        year -= 1


def this_season(now: date, season: str) -> tuple[date, date]:
    """The latest season of that name that has begun by `now` (the current one, if it is on)."""
    year = now.year
    while season_range(year, season)[0] > now:
        year -= 1
    return season_range(year, season)


def recent_month(now: date, month: int) -> tuple[date, date]:
    """The latest month of that name that has begun by `now`."""
    year = now.year if month <= now.month else now.year - 1
    return month_range(year, month)


def month_span(now: date, first: int, last: int, year: int | None) -> tuple[date, date]:
    """ "June to August [2023]": from the first month to the end of the last; with a year, the span
    ends in that year ("November to February 2023" starts in November 2022); without one, it is
    the latest such span that has begun by `now`."""
    wraps = last < first
    if year is None:
        start = recent_month(now, first)[0]
        end_year = start.year + 1 if wraps else start.year
    else:
        end_year = year
        start = month_range(year - 1 if wraps else year, first)[0]
    return start, month_range(end_year, last)[1]


def _num(text: str) -> int:
    text = text.strip()
    if text.isdigit():
        return int(text)
    text = text.removeprefix("a ").strip() if text.startswith("a ") and text != "a" else text
    return NUMBER_WORDS.get(text, 1)


def _shift_months(d: date, months: int) -> date:
    m = d.month - 1 - months
    y = d.year + m // 12
    m = m % 12 + 1
    return date(y, m, min(d.day, calendar.monthrange(y, m)[1]))


def period_back(now: date, n: int, unit: str) -> tuple[date, date]:
    """The last n units up to and including today ("past 3 weeks")."""
    unit = unit.rstrip("s")
    if unit == "day":
        return now - timedelta(days=n - 1), now
    if unit == "week":
        return now - timedelta(weeks=n) + timedelta(days=1), now
    if unit == "month":
        return _shift_months(now, n) + timedelta(days=1), now
    return date(now.year - n, now.month, min(now.day, 28)) + timedelta(days=1), now


def ago(now: date, n: int, unit: str) -> tuple[date, date]:
    """ "3 weeks ago": the unit-long period around that point (a day, that week, that month, that year)."""
    unit = unit.rstrip("s")
    if unit == "day":
        d = now - timedelta(days=n)
        return d, d
    if unit == "week":
        d = now - timedelta(weeks=n)
        monday = d - timedelta(days=d.weekday())
        return monday, monday + timedelta(days=6)
    if unit == "month":
        d = _shift_months(now, n)
        return month_range(d.year, d.month)
    return year_range(now.year - n)


def _recurring(now: date, years: tuple[int, int] | None, make) -> tuple[list[tuple[date, date]], str]:
    first, last = years if years else (now.year - 9, now.year)
    last = min(last, now.year)
    out = []
    for y in range(first, last + 1):
        days = make(y)
        if days is None:  # a festival its calendar does not reach that year
            continue
        lo, hi = days
        if lo <= now:
            out.append((lo, min(hi, now) if hi > now else hi))
    return out, f"{first}–{last}"


class DateFinder:
    """Finds date expressions in a lower-cased request."""

    def __init__(self):
        simple = (
            rf"(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})"
            rf"|(?P<slash>\d{{1,2}}/\d{{1,2}}/\d{{2,4}})"
            rf"|(?P<md>(?:{_MONTH_RE})\.?\s+\d{{1,2}}{_ORD}(?:,?\s+{_YEAR})?)(?![\d:])"
            rf"|(?P<dm>\d{{1,2}}{_ORD}\s+(?:of\s+)?(?:{_MONTH_RE})(?:,?\s+{_YEAR})?)"
            rf"|(?P<my>(?:{_MONTH_RE}),?\s+(?:of\s+)?{_YEAR})"
            rf"|(?P<sy>(?:early\s+|late\s+|mid\s+)?(?:the\s+)?(?:{_SEASON_RE})\s+(?:of\s+)?{_YEAR})"
            rf"|(?P<hy>(?:{_HOLIDAY_RE})\s+{_YEAR})"
            rf"|(?P<mhy>(?:{_MOVABLE_RE})\s+{_YEAR})"
            rf"|(?P<mod>(?:early|late|mid|mid-)\s*{_YEAR})"
            rf"|(?P<decade>(?:the\s+)?(?:(?:early|late|mid)-?\s*)?(?:19|20)?\d0'?s)"
            rf"|(?P<year>{_YEAR})"
        )
        self.simple = re.compile(rf"^(?:{simple})$")
        self.patterns: list[tuple[str, re.Pattern]] = [
            # "on this day", "a year ago today", "this day last year": a day of the calendar
            (
                "thisday",
                re.compile(
                    rf"\b(?:(?P<n>{_NUM_RE})\s+years?\s+ago\s+today"
                    rf"|(?:on\s+)?this\s+(?:day|date)\s+(?:(?P<last>last\s+year)|(?P<m>{_NUM_RE})\s+years?\s+ago)"
                    r"|(?:on\s+)?this\s+day)\b"
                ),
            ),
            ("timelastyear", re.compile(r"\b(?:around\s+)?this\s+time\s+last\s+year\b")),
            # a camera's clock set wrong: "photos from the future", "future-dated", "dated in the future"
            (
                "future",
                re.compile(
                    r"\b(?:(?:from|in)\s+the\s+future|future[\s-]+dat(?:ed|es?)|dated\s+in\s+the\s+future)\b"
                ),
            ),
            ("otherday", re.compile(r"\b(?:on\s+)?the\s+other\s+day\b")),
            (
                "partofyear",
                re.compile(
                    rf"\b(?:the\s+)?(?P<w>beginning|start|end|middle)\s+of\s+(?P<y>{_YEAR}|last\s+year|this\s+year)\b"
                ),
            ),
            (
                "weekendbeforelast",
                re.compile(rf"\b(?:the\s+)?weekend\s+before\s+last\b|\b(?P<n>{_NUM_RE})\s+weekends\s+ago\b"),
            ),
            # "the week before last": two weeks ago ("the new year before last" is a holiday's)
            ("ago", re.compile(r"\b(?<!new\s)(?:the\s+)?(?P<u>week|month|year)\s+before\s+last\b")),
            (
                "holidayago",
                re.compile(
                    rf"\b(?:the\s+)?(?P<h>{_HOLIDAY_RE})\s+before\s+last\b"
                    rf"|\b(?P<n>{_NUM_RE})\s+(?P<hs>christmases|xmases|halloweens)\s+ago\b"
                ),
            ),
            (
                "decadeword",
                re.compile(r"\bthe\s+(?P<d>fifties|sixties|seventies|eighties|nineties|noughties)\b"),
            ),
            (
                "untilnow",
                re.compile(
                    rf"\b(?:from\s+)?(?P<a>{_YEAR}|(?:{_MONTH_RE})\s+{_YEAR})\s+(?:until|till|to|up\s+to)\s+"
                    r"(?:now|today|date|the\s+present)\b"
                ),
            ),
            (
                "wintersplit",
                re.compile(
                    rf"\b(?:the\s+)?winter\s+(?:of\s+)?(?P<y1>{_YEAR})\s*[/–-]\s*(?P<y2>\d{{2}}|{_YEAR})\b"
                ),
            ),
            (
                "monthspan",
                re.compile(
                    rf"\b(?:from\s+|(?P<btw>between\s+))?(?P<a>{_FULL_MONTH_RE})\s*"
                    rf"(?:(?(btw)and|(?:-|–|to|until|till|through|thru)))\s*(?P<b>{_FULL_MONTH_RE})\b"
                    rf"(?:,?\s+(?:of\s+)?(?P<y>{_YEAR}))?(?![\w-])"
                ),
            ),
            (
                "between",
                re.compile(
                    r"\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)(?=$|[,;.]|\s+(?:and|or|with|not|without|but|in|at)\b)"
                ),
            ),
            (
                "fromto",
                re.compile(
                    rf"\b(?:from\s+)?(?P<a>{simple.replace('?P<', '?P<a_')})\s*(?:-|–|to|until|till|through|thru)\s*(?P<b>{simple.replace('?P<', '?P<b_')})(?![\w-])"
                ),
            ),
            (
                "since",
                re.compile(
                    rf"\b(?P<op>since|after|before|until|till|prior to)\s+(?P<a>{simple.replace('?P<', '?P<a_')}|(?:{_MONTH_RE}))(?![\w-])"
                ),
            ),
            (
                "weekendofmonth",
                re.compile(
                    rf"\b(?:the\s+|on\s+the\s+)?(?P<n>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+weekend\s+"
                    rf"(?:of|in)\s+(?P<m>{_FULL_MONTH_RE})(?:,?\s+(?P<y>{_YEAR}))?(?![\w-])"
                ),
            ),
            (
                "weekofmonth",
                re.compile(
                    rf"\b(?:the\s+|in\s+the\s+)?(?P<n>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+week\s+"
                    rf"(?:of|in)\s+(?P<m>{_FULL_MONTH_RE})(?:,?\s+(?P<y>{_YEAR}))?(?![\w-])"
                ),
            ),
            (
                "partofmonth",
                re.compile(
                    rf"\b(?:(?P<part>early|mid|late)[\s-]+|(?:the\s+|at\s+the\s+|in\s+the\s+)?"
                    rf"(?P<where>beginning|start|middle|end)\s+of\s+)(?P<m>{_FULL_MONTH_RE})"
                    rf"(?:,?\s+(?P<y>{_YEAR}))?(?![\w-])"
                ),
            ),
            (
                "bankholidays",
                re.compile(
                    r"(?<!may\s)(?<!spring\s)(?<!august\s)(?<!summer\s)(?<!whitsun\s)(?<!day\s)"
                    rf"\b(?P<rel>(?:the\s+)?last\s+)?(?:the\s+)?bank\s+holidays?(?:\s+weekends?)?(?:\s+(?P<y>{_YEAR}))?(?![\w'])"
                ),
            ),
            (
                "movable",
                re.compile(
                    rf"\b(?P<rel>last\s+|this\s+)?(?P<h>{_MOVABLE_RE})(?:\s+(?P<y>{_YEAR}))?"
                    rf"(?!\s+(?:{'|'.join(HOLIDAY_NOUNS)})\b)(?![\w'])"
                ),
            ),
            # a holiday named like a day of a month, of any year ("fireworks on the 4th of july"), not
            # the latest 4 July (the day-month pattern) nor "fourth" beside July
            (
                "holiday",
                re.compile(
                    rf"\b(?P<rel>last\s+|this\s+)?(?P<h>{_DAY_LIKE_HOLIDAY_RE})(?!,?\s+{_YEAR})(?![\w'])"
                ),
            ),
            (  # "in June and July", "from June, July or August": those months of any year
                "monthlist",
                re.compile(
                    rf"(?:\b(?:in|during|from|every|each)\s+|(?<![\w-]))(?P<ms>(?:{_FULL_MONTH_RE})"
                    rf"(?:(?:\s*,\s*|\s*,?\s+(?:and|or|&)\s+)(?:{_FULL_MONTH_RE}))+)\b"
                    rf"(?:,?\s+(?:of\s+)?(?P<y>{_YEAR}))?(?!\s*\d)"  # "in June and July 2019": of that year
                    rf"(?![\s,]*(?:and|or|&)?\s*(?:{_FULL_MONTH_RE})\b)"  # the whole list, or none of it
                ),
            ),
            ("simple", re.compile(rf"(?<![\w-])(?:{simple})(?![\w-])")),
            ("relseason", re.compile(rf"\b(?P<rel>last|this|past|previous|next)\s+(?P<s>{_SEASON_RE})\b")),
            # "two winters ago", "the summer before last"
            ("seasonago", re.compile(rf"\b(?P<n>{_NUM_RE})\s+(?P<s>{_SEASON_RE})s?\s+ago\b")),
            ("seasonago", re.compile(rf"\b(?:the\s+)?(?P<s>{_SEASON_RE})\s+before\s+last\b")),
            (
                "relmonth",
                re.compile(
                    rf"\b(?P<rel>last|this|past|previous|in|during|of|from|every|each)\s+(?P<m>{_MONTH_RE})\b(?!\s+\d)"
                ),
            ),
            # a month's name alone, of any year ("july photos", "december snow"); not "may" or "march",
            # nor April before its fools (a holiday)
            (
                "relmonth",
                re.compile(
                    rf"(?<![\w'-])(?P<rel>)(?P<m>{_BARE_MONTH_RE})(?![\w'-])(?!\s+(?:\d|bugs?\b|fool))"
                ),
            ),
            (
                "relunit",
                re.compile(
                    r"\b(?P<rel>today|tonight|last night|(?:the\s+)?day\s+before\s+yesterday|yesterday|this week|last week|past week|previous week|this month|last month|past month|previous month|this year|last year|past year|previous year|this weekend|last weekend|last year's)\b"
                ),
            ),
            (
                "back",
                re.compile(
                    rf"\b(?:in\s+the\s+|over\s+the\s+|during\s+the\s+|within\s+the\s+)?(?:past|last|previous)\s+(?P<n>{_NUM_RE})\s+(?P<u>{_UNIT_RE})\b"
                ),
            ),
            ("ago", re.compile(rf"\b(?P<n>{_NUM_RE})\s+(?P<u>{_UNIT_RE})\s+ago\b")),
            (
                "holiday",
                re.compile(
                    rf"\b(?<!lunar\s)(?<!chinese\s)(?P<rel>last\s+|this\s+)?(?P<h>{_HOLIDAY_RE})(?!\s+(?:eve|day|{'|'.join(HOLIDAY_NOUNS)})\b)(?![\w'])"
                ),
            ),
            ("birthday", re.compile(r"\b(?P<who>my|[\w.-]+'s|[\w.-]+s')\s+birthdays?\b")),
            (
                "season",
                re.compile(
                    # "summers" are seasons, "falls" and "springs" water ("Niagara Falls", "hot springs")
                    rf"\b(?:in\s+|during\s+|every\s+|each\s+)?(?:the\s+)?(?P<s>{_SEASON_RE})(?:time|(?<!fall)(?<!spring)s)?\b"
                ),
            ),
        ]

    # ---------------------------------------------------------------- simple expressions

    def simple_range(self, text: str, now: date) -> tuple[date, date] | None:
        """Range of one simple expression ("march 2021", "2019", "july 4th 2020", "the 90s")."""
        m = self.simple.match(text.strip())
        if not m:
            return None
        g = m.lastgroup
        t = m.group(g)
        try:
            if g == "iso":
                d = date.fromisoformat(t)
                return d, d
            if g == "slash":
                import dateparser

                dt = dateparser.parse(t, languages=["en"], settings={"RELATIVE_BASE": _dt(now)})
                return (dt.date(), dt.date()) if dt else None
            if g in ("md", "dm"):
                words = re.findall(r"[a-z]+|\d+", t)
                month = next(MONTHS[w] for w in words if w in MONTHS)
                nums = [int(w) for w in words if w.isdigit()]
                day = nums[0]
                year = nums[1] if len(nums) > 1 else None
                if year is None:
                    year = now.year if (month, day) <= (now.month, now.day) else now.year - 1
                d = date(year, month, day)
                return d, d
            if g == "my":
                words = re.findall(r"[a-z]+|\d+", t)
                return month_range(int(words[-1]), MONTHS[words[0]])
            if g == "sy":
                year = int(re.findall(r"\d{4}", t)[0])
                season = next(s for s in SEASONS if s in t)
                lo, hi = season_range(year, season)
                return _modify(t, lo, hi)
            if g == "hy":
                year = int(re.findall(r"\d{4}", t)[0])
                name = t[: t.rfind(" ")].strip()
                month, day, n = HOLIDAYS[name]
                # "new year 2020" is the night 2020 begins; "the holidays 2022" start in December 2022
                if (month, day + n - 1) > (12, 31) and name not in SEASONS_OF_HOLIDAYS:
                    year -= 1
                lo = date(year, month, day)
                return lo, lo + timedelta(days=n - 1)
            if g == "mhy":
                return movable_range(t[: t.rfind(" ")].strip(), int(re.findall(r"\d{4}", t)[0]))
            if g == "mod":
                lo, hi = year_range(int(re.findall(r"\d{4}", t)[0]))
                return _modify(t, lo, hi)
            if g == "decade":
                digits = re.findall(r"\d+", t)[0]
                start = (
                    int(digits)
                    if len(digits) == 4
                    else (1900 + int(digits) if int(digits) >= 30 else 2000 + int(digits))
                )
                return _modify(t, date(start, 1, 1), date(start + 9, 12, 31))  # "the early 2000s"
            if g == "year":
                return year_range(int(t))
        except (ValueError, StopIteration, IndexError):
            return None
        return None

    # ---------------------------------------------------------------- search

    def find(
        self,
        text: str,
        now: date,
        *,
        years: tuple[int, int] | None = None,
        birthdays: dict[str, date] | None = None,
        owner: str | None = None,
    ) -> list[DateMatch]:
        """All non-overlapping date expressions in `text` (lower case), left to right."""
        found: list[DateMatch] = []
        taken: list[tuple[int, int]] = []
        ask = _Ask(self, now, years, {k.lower(): v for k, v in (birthdays or {}).items()}, owner)

        def free(a: int, b: int) -> bool:
            return all(b <= s or a >= e for s, e in taken)

        for name, pattern in self.patterns:
            for m in pattern.finditer(text):
                if not free(m.start(), m.end()):
                    continue
                try:
                    match = _HANDLERS[name](m, ask)
                except (ValueError, OverflowError):  # a date before year 1 or after 9999
                    match = _outside_calendar(name, m, ask)
                if match is None:
                    continue
                found.append(match)
                taken.append((match.start, match.end))
        grown = sorted(
            (_opened(_part_of_day(_week_of(_beside(d, text), text), text), text, now) for d in found),
            key=lambda d: d.start,
        )
        # a match grown over another's words ("christmas week 2023" over "2023") holds them
        return [
            d
            for d in grown
            if not any(
                o.start <= d.start and d.end <= o.end and o.end - o.start > d.end - d.start for o in grown
            )
        ]


# ---------------------------------------------------------------- one handler per pattern


@dataclass(frozen=True)
class _Ask:
    """What a handler reads besides its match: the finder (for simple ranges) and the request's
    reference date, catalog years, known birthdays (lower-case names) and owner."""

    finder: DateFinder
    now: date
    years: tuple[int, int] | None
    birthdays: dict[str, date]
    owner: str | None


def _monthspan(m: re.Match, q: _Ask) -> DateMatch | None:
    year = int(m.group("y")) if m.group("y") else None
    return DateMatch(
        m.start(), m.end(), [month_span(q.now, MONTHS[m.group("a")], MONTHS[m.group("b")], year)]
    )


def _two_ends(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "between A and B", "from A to B": from the earlier start to the later end. Between two
    holidays of no year ("between Christmas and New Year") it is those days of every year."""
    span = _between_holidays(m.group("a"), m.group("b"))
    if span is not None:  # those days of every year, a recurring condition (as "at Christmas")
        lo, hi = span
        words = f"between {m.group('a')} and {m.group('b')}"
        yearly = (lo.strftime("%m-%d"), hi.strftime("%m-%d"))
        return DateMatch(
            m.start(), m.end(), [span], recurring=True, yearly=yearly, notes=[f"“{words}” of any year"]
        )
    a = q.finder.simple_range(m.group("a"), q.now)
    b = q.finder.simple_range(m.group("b"), q.now)
    if not a or not b:
        return None
    return DateMatch(m.start(), m.end(), [(min(a[0], b[0]), max(a[1], b[1]))])


#: A holiday named by its day alone at the end of a span ("between Christmas and New Year").
_SPAN_END_HOLIDAYS = {"new year": (1, 1, 1), "new years": (1, 1, 1), "new year's": (1, 1, 1)}


def _between_holidays(a: str, b: str) -> tuple[date, date] | None:
    """From the first day of holiday `a` to the last of holiday `b`, both named without a year, in
    2000 (the end in 2001 where the span goes over New Year); None unless both are fixed-date
    holidays."""
    ends = [HOLIDAYS.get(" ".join(x.lower().removeprefix("the ").split())) for x in (a, b)]
    ends[1] = ends[1] or _SPAN_END_HOLIDAYS.get(" ".join(b.lower().removeprefix("the ").split()))
    if ends[0] is None or ends[1] is None:
        return None
    (m1, d1, _n1), (m2, d2, n2) = ends
    lo, hi = date(2000, m1, d1), date(2000, m2, d2) + timedelta(days=n2 - 1)
    return lo, hi if hi >= lo else date(2001, m2, d2) + timedelta(days=n2 - 1)


def _open_ended(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "since/after/before/until X": X's range extended to `now` or back to OPEN_START."""
    arg, now = m.group("a"), q.now
    r = q.finder.simple_range(arg, now) or (recent_month(now, MONTHS[arg]) if arg in MONTHS else None)
    if not r:
        return None
    unit = BESIDE_UNIT.search(m.string, 0, m.start())  # "the week before easter 2023"
    if unit is not None:
        own = own_days(re.sub(rf"\s+{_YEAR}$", "", arg))
        return _beside(DateMatch(m.end() - len(arg), m.end(), [r], own=own), m.string, unit)
    return DateMatch(m.start(), m.end(), [open_span(m.group("op"), r, now)])


def open_span(op: str, r: tuple[date, date], now: date) -> tuple[date, date]:
    """The days "since", "after", "until" or "before" a range (to `now`, or from OPEN_START)."""
    if op == "since":
        return r[0], max(now, r[0])
    if op == "after":
        day_after = r[1] + timedelta(days=1)
        return day_after, max(now, day_after)
    if op in ("until", "till"):
        return OPEN_START, r[1]
    return OPEN_START, r[0] - timedelta(days=1)  # before, prior to


#: "since", "after", "until" or "before" just before a date expression of another pattern.
OPENED_BY = re.compile(r"\b(?P<op>since|after|until|till|before|prior\s+to)\s+$")


def _opened(d: DateMatch, text: str, now: date) -> DateMatch:
    """ "since last week", "after christmas 2019", "until yesterday": the expression's one range
    opened to now (or from the start), where another pattern than "since X" read the expression."""
    op = OPENED_BY.search(text, 0, d.start)
    if op is None or len(d.ranges) != 1 or d.recurring or d.months or d.yearly:
        return d
    kind = "before" if op.group("op").startswith("prior") else op.group("op")
    return dataclasses.replace(d, start=op.start(), ranges=[open_span(kind, d.ranges[0], now)])


#: "the week", "two days", "the weekend" just before "before X", "after X": the days beside X.
BESIDE_UNIT = re.compile(
    r"\b(?:the\s+|a\s+)?(?P<n>day|week|weekend|fortnight|month|few\s+days|couple\s+(?:of\s+)?days|"
    r"(?:two|2|three|3)\s+(?:days|weeks)|morning|evening|night)\s+$"
)
_SIDE_WORDS = r"before|after|leading\s+up\s+to|prior\s+to|following"
#: The same words and the side, just before a date expression ("the week before christmas", "the day
#: after the 4th of july").
BESIDE = re.compile(BESIDE_UNIT.pattern.removesuffix(r"\s+$") + rf"\s+(?:{_SIDE_WORDS})\s+(?:the\s+)?$")
_BESIDE_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "few days": 3, "couple days": 2}
#: A part of the day beside a date: that day's hours ("the night before christmas": 24 December's evening).
_BESIDE_HOURS = {part: hours_of(part) for part in ("morning", "evening", "night")}
_SIDE = re.compile(rf"\b(?P<side>{_SIDE_WORDS})\s+(?:the\s+)?$")


def _own_days_in(lo: date, hi: date, own: tuple[int, int] | None) -> tuple[date, date]:
    """A holiday's own day(s) within its span `lo`..`hi` (`DateMatch.own`), or the span where none."""
    if own is None:
        return lo, hi
    return lo + timedelta(days=own[0]), lo + timedelta(days=own[0] + own[1] - 1)


def _yearly_days(yearly: tuple[str, str], year: int = 2001) -> tuple[date, date]:
    """A yearly span's days in `year` ("12-31".."01-01": its end in the next year)."""
    (m1, d1), (m2, d2) = (map(int, md.split("-")) for md in yearly)
    return date(year, m1, d1), date(year if (m2, d2) >= (m1, d1) else year + 1, m2, d2)


def _as_yearly(lo: date, hi: date) -> tuple[str, str]:
    return lo.strftime("%m-%d"), hi.strftime("%m-%d")


def _beside(d: DateMatch, text: str, unit: re.Match | None = None) -> DateMatch:
    """ "the week before christmas", "the day after thanksgiving", "the weekend before easter 2023":
    the days just before (after) each of the expression's spans, of any year when it is of any year.
    `unit`: the unit's words, found before "before X" by the caller."""
    m = unit or BESIDE.search(text, 0, d.start)
    if m is None or d.months or not (d.ranges or d.yearly):
        return d
    words = " ".join(m.group("n").replace(" of ", " ").split())
    count = {"two": 2, "2": 2, "three": 3, "3": 3}.get(words.split()[0])
    hours = _BESIDE_HOURS.get(words, [])
    days = (
        count * (7 if words.endswith("weeks") else 1)
        if count
        else _BESIDE_DAYS.get(words, 1 if hours else None)
    )
    side = _SIDE.search(text, m.start(), d.start)
    before = side is None or side.group("side") not in ("after", "following")

    def shift(lo: date, hi: date) -> tuple[date, date]:
        lo, hi = _own_days_in(lo, hi, d.own)  # beside the holiday's own day, not its eve or its weekend
        if days is None:  # a weekend: the Saturday and Sunday before lo (after hi)
            sunday = lo - timedelta(days=(lo.weekday() + 1) % 7 or 7)
            saturday = hi + timedelta(days=(5 - hi.weekday()) % 7 or 7)
            return (
                (sunday - timedelta(days=1), sunday) if before else (saturday, saturday + timedelta(days=1))
            )
        if before:
            return lo - timedelta(days=days), lo - timedelta(days=1)
        return hi + timedelta(days=1), hi + timedelta(days=days)

    if not d.yearly:
        return dataclasses.replace(d, start=m.start(), ranges=[shift(*r) for r in d.ranges], hours=hours)
    if days is None:  # a weekend falls on other days each year
        return d
    lo, hi = shift(*_yearly_days(d.yearly))
    said = " ".join(text[m.start() : d.end].split())
    return dataclasses.replace(
        d,
        start=m.start(),
        yearly=_as_yearly(lo, hi),
        ranges=[shift(*r) for r in d.ranges],
        notes=[f"“{said}” of any year"],
        own=None,
        hours=hours,
    )


#: "the week of christmas", "during the week of thanksgiving" (the words before a holiday), and
#: "christmas week", "easter week 2023" (the word after it): the seven days around the holiday's own
#: day, in that year where one follows.
_WEEK_OF = re.compile(r"\b(?:the\s+)?week\s+of\s+(?:the\s+)?$")
_WEEK_AFTER = re.compile(
    r"\s+week(?:\s+(?:of\s+|in\s+)?(?P<year>(?:19|20)\d\d))?\b(?!\s*(?:before|after|of|end|day|night)\b)"
)


@functools.cache
def _holiday_names() -> re.Pattern:
    names = sorted({*HOLIDAYS, *MOVABLE_HOLIDAYS}, key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b")


def _holiday_in(words: str) -> str | None:
    """The holiday's name said in `words` ("christmas" in "last christmas"), or None."""
    m = _holiday_names().search(" ".join(words.lower().split()))
    return m.group(0) if m else None


def _week_of(d: DateMatch, text: str) -> DateMatch:
    """ "the week of christmas", "thanksgiving week 2023": the seven days centred on each of a
    holiday's spans (its own day where the span is wider), of any year when it is of any year; "the
    week of june 5, 2024": the Monday to Sunday of that day."""
    before = _WEEK_OF.search(text, 0, d.start)
    after = None if before is not None else _WEEK_AFTER.match(text, d.end)
    if (before is None and after is None) or d.months or not (d.ranges or d.yearly):
        return d
    holiday = _holiday_in(text[d.start : d.end])
    own = d.own or (own_days(holiday) if holiday else None)
    one_day = not d.yearly and not d.recurring and len(d.ranges) == 1 and d.ranges[0][0] == d.ranges[0][1]
    if not holiday and not (before is not None and one_day):
        return d  # "the week of the 4th" is left to other readings

    def centred(lo: date, hi: date) -> tuple[date, date]:
        if not holiday:  # the calendar week of that day
            return lo - timedelta(days=lo.weekday()), lo + timedelta(days=6 - lo.weekday())
        lo, hi = _own_days_in(lo, hi, own)
        return lo - timedelta(days=3), hi + timedelta(days=3)

    start, end = (before.start(), d.end) if before is not None else (d.start, after.end())
    year = int(after.group("year")) if after is not None and after.group("year") else None
    said = " ".join(text[start:end].split())
    ranges, yearly, notes = [centred(*r) for r in d.ranges], None, d.notes
    if d.yearly:
        lo, hi = centred(*_yearly_days(d.yearly, year or 2001))
        if year:
            ranges = [(lo, hi)]
        else:
            yearly, notes = _as_yearly(lo, hi), [f"“{said}” of any year"]
    elif year:
        ranges = [r for r in ranges if year in (r[0].year, r[1].year)] or ranges
    return dataclasses.replace(
        d,
        start=start,
        end=end,
        ranges=ranges,
        yearly=yearly,
        recurring=d.recurring and not year,
        notes=notes,
        own=None,
    )


#: A part of the day after a holiday: "christmas morning", "halloween night", "thanksgiving evening".
_PART_AFTER = re.compile(
    r"\s+(?P<part>morning|afternoon|evening|night)\b(?!\s+(?:gowns?|markets?|shows?|dress|sky)\b)"
)


def _part_of_day(d: DateMatch, text: str) -> DateMatch:
    """ "christmas morning": the holiday's own day (Christmas Day, not Eve to Boxing Day) and the hours
    of that part of it; "halloween night" its evening."""
    after = _PART_AFTER.match(text, d.end)
    if after is None or d.hours or d.months or not (d.ranges or d.yearly):
        return d
    holiday = _holiday_in(text[d.start : d.end])
    if holiday is None:
        return d
    own = d.own or own_days(holiday)
    yearly = _as_yearly(*_own_days_in(*_yearly_days(d.yearly), own)) if d.yearly else None
    return dataclasses.replace(
        d,
        end=after.end(),
        ranges=[_own_days_in(*r, own) for r in d.ranges],
        yearly=yearly,
        own=None,
        hours=hours_of(after.group("part")),
    )


def _simple(m: re.Match, q: _Ask) -> DateMatch | None:
    r = q.finder.simple_range(m.group(0), q.now)
    return DateMatch(m.start(), m.end(), [r]) if r else None


def _relseason(m: re.Match, q: _Ask) -> DateMatch | None:
    rel, season = m.group("rel"), m.group("s")
    if rel == "next":
        return None
    span = last_season(q.now, season) if rel in ("last", "past", "previous") else this_season(q.now, season)
    return DateMatch(m.start(), m.end(), [span])


def _season_ago(m: re.Match, q: _Ask) -> DateMatch | None:
    """The season that many back: "two winters ago" (and "the winter before last") is the one before
    last winter."""
    season = m.group("s")
    back = _num(m.group("n")) if "n" in m.groupdict() and m.group("n") else 2
    last = last_season(q.now, season)[0].year
    return DateMatch(m.start(), m.end(), [season_range(last - (back - 1), season)])


_SHORT_MONTHS = ("may", "mar", "jan", "jun", "jul", "aug", "sep", "oct", "nov", "dec", "feb", "apr")


def _relmonth(m: re.Match, q: _Ask) -> DateMatch | None:
    rel, word, now = m.group("rel"), m.group("m"), q.now
    month = MONTHS[word]
    if rel == "of" and word in _SHORT_MONTHS:
        return None
    if rel == "from" and word not in _FULL_MONTHS:  # "photos from Jan": more likely a person
        return None
    if rel == "this":
        return DateMatch(m.start(), m.end(), [month_range(now.year, month)])
    if rel in ("last", "past", "previous"):
        lo, hi = recent_month(now, month)
        if lo.month == now.month and lo.year == now.year:
            lo, hi = month_range(now.year - 1, month)
        return DateMatch(m.start(), m.end(), [(lo, hi)])
    # "in July", "every July": July of any year
    return DateMatch(m.start(), m.end(), [recent_month(now, month)], recurring=True, months=(month,))


def _month_list(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "in June and July": each month of any year (one month atom); "in June and July 2019": those
    months of that year."""
    months = tuple(dict.fromkeys(MONTHS[w] for w in re.findall(r"[a-z]+", m.group("ms")) if w in MONTHS))
    if m.group("y"):
        return DateMatch(m.start(), m.end(), [month_range(int(m.group("y")), month) for month in months])
    ranges = [recent_month(q.now, month) for month in months]
    return DateMatch(m.start(), m.end(), ranges, recurring=True, months=months)


def _relative_units(now: date) -> dict[str, tuple[date, date]]:
    """The ranges of "today", "last week", "this year"... relative to `now`."""
    monday = now - timedelta(days=now.weekday())
    day_before = now - timedelta(days=1)
    last_week = (monday - timedelta(days=7), monday - timedelta(days=1))
    last_month = month_range(*_prev_month(now))
    last_year = year_range(now.year - 1)
    return {
        **dict.fromkeys(("today", "tonight"), (now, now)),  # "this morning": claims.entities.claim_times
        "last night": (day_before, day_before),
        "yesterday": (day_before, day_before),
        "day before yesterday": (now - timedelta(days=2), now - timedelta(days=2)),
        "this week": (monday, now),
        "last week": last_week,
        "previous week": last_week,
        "past week": period_back(now, 7, "day"),
        "this month": (now.replace(day=1), now),
        "last month": last_month,
        "previous month": last_month,
        "past month": period_back(now, 1, "month"),
        "this year": (date(now.year, 1, 1), now),
        "last year": last_year,
        "last year's": last_year,
        "previous year": last_year,
        "past year": period_back(now, 1, "year"),
    }


def _relunit(m: re.Match, q: _Ask) -> DateMatch | None:
    rel, now = m.group("rel"), q.now
    if rel in ("this weekend", "last weekend"):
        sat = _last_saturday(now) if rel == "last weekend" else now - timedelta(days=(now.weekday() - 5) % 7)
        return DateMatch(m.start(), m.end(), [(sat, sat + timedelta(days=1))])
    return DateMatch(m.start(), m.end(), [_relative_units(now)[" ".join(rel.removeprefix("the ").split())]])


def _back(m: re.Match, q: _Ask) -> DateMatch | None:
    return DateMatch(m.start(), m.end(), [period_back(q.now, _num(m.group("n")), m.group("u"))])


def _ago(m: re.Match, q: _Ask) -> DateMatch | None:
    n = _num(m.group("n")) if m.groupdict().get("n") else 2  # "the week before last"
    return DateMatch(m.start(), m.end(), [ago(q.now, n, m.group("u"))])


def holiday_days(name: str, year: int) -> tuple[date, date]:
    """A fixed-date holiday's days in a year."""
    month, day, n = HOLIDAYS[name]
    lo = date(year, month, day)
    return lo, lo + timedelta(days=n - 1)


def _year_of_last(name: str, now: date) -> int:
    """The year of the latest such holiday that has ended before `now` ("last christmas")."""
    return now.year if holiday_days(name, now.year)[1] < now else now.year - 1


def _holiday(m: re.Match, q: _Ask) -> DateMatch | None:
    name = m.group("h")
    rel, now = (m.group("rel") or "").strip(), q.now

    def make(y: int) -> tuple[date, date]:
        return holiday_days(name, y)

    own = own_days(name)
    if rel == "this":
        return DateMatch(m.start(), m.end(), [make(now.year)], own=own)
    if rel == "last":
        return DateMatch(m.start(), m.end(), [make(_year_of_last(name, now))], own=own)
    lo, hi = make(2000)  # "at Christmas": those days of every year, a recurring condition
    return DateMatch(
        m.start(),
        m.end(),
        [make(now.year if make(now.year)[0] <= now else now.year - 1)],  # the latest one
        recurring=True,
        yearly=(lo.strftime("%m-%d"), hi.strftime("%m-%d")),
        notes=[
            f"“{name}” was read as {SEASONS_OF_HOLIDAYS[name]}, of any year"
            if name in SEASONS_OF_HOLIDAYS
            else f"“{name}” means {name} of any year"
        ],
        own=own,
    )


def _movable(m: re.Match, q: _Ask) -> DateMatch | None:
    """Easter, Thanksgiving: the span in the year named, the latest one ("last easter"), or every
    year of the library (the catalog's years, else the last ten)."""
    name, rel, now = m.group("h"), (m.group("rel") or "").strip(), q.now

    def make(y: int) -> tuple[date, date] | None:
        return movable_range(name, y)

    def one(days: tuple[date, date] | None, year: int) -> DateMatch:
        if days is None:
            note = f"no date of {name} is known for {year}: photos that look like it"
            return DateMatch(m.start(), m.end(), [], notes=[note], instead=name)
        return DateMatch(m.start(), m.end(), [days], own=own_days(name))

    if m.group("y"):
        return one(make(int(m.group("y"))), int(m.group("y")))
    if rel == "this":
        return one(make(now.year), now.year)
    if rel == "last":
        this_year = make(now.year)
        year = now.year if this_year is not None and this_year[1] < now else now.year - 1
        return one(make(year), year)
    ranges, span = _recurring(now, q.years, make)
    note = f"“{name}”: every year {span}"
    if name in HOLIDAY_CONVENTIONS:
        note += f", on {HOLIDAY_CONVENTIONS[name]}"
    return DateMatch(m.start(), m.end(), ranges, recurring=True, notes=[note], own=own_days(name))


def _birthday(m: re.Match, q: _Ask) -> DateMatch | None:
    who, now, years = m.group("who"), q.now, q.years
    key = (q.owner or "me") if who == "my" else who.rstrip("s").rstrip("'").removesuffix("'")
    if who.endswith("'s"):
        key = who[:-2]
    bday = q.birthdays.get(key.lower())
    if bday is None:
        note = f"no birthday is known for {'you' if who == 'my' else key}"
        if key.lower() in first_names():
            return None  # "emma's birthday party": someone, and what a birthday party looks like
        if key.lower() in PETS_AND_KIN:  # "the dog's birthday": the dog stays to look for
            return DateMatch(m.start() + len(who) + 1, m.end(), [], notes=[note])
        return DateMatch(m.start(), m.end(), [], notes=[note])
    first = max(bday.year, years[0] if years else now.year - 9)

    def make(y: int) -> tuple[date, date]:
        try:
            d = date(y, bday.month, bday.day)
        except ValueError:  # 29 February
            d = date(y, 2, 28)
        return d, d

    ranges, span = _recurring(now, (first, years[1] if years else now.year), make)
    return DateMatch(m.start(), m.end(), ranges, recurring=True, notes=[f"birthdays: every year {span}"])


#: Whose birthday is a look to keep when no birthday is known: a pet or a relative ("the dog's
#: birthday" is the dog and a birthday; "Anna's", a name nobody has in People, only a birthday).
PETS_AND_KIN = (
    frozenset({"dog", "cat", "puppy", "kitten", "pup", "kitty", "horse", "pony", "bunny", "rabbit"})
    | RELATION_WORDS
    | frozenset({"twins", "kids", "children", "baby", "boys", "girls", "grandkids", "cousin", "friend"})
)

_WEEK_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}


def _weekend_of_month(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "the last weekend of June": its Saturday and Sunday (the Sunday may be in the next month), in
    the year named, else in every year of the library (other days each year, as Easter)."""
    month, n = MONTHS[m.group("m")], _WEEK_ORDINALS.get(m.group("n"))

    def make(y: int) -> tuple[date, date] | None:
        length = calendar.monthrange(y, month)[1]
        saturdays = [d for d in range(1, length + 1) if date(y, month, d).weekday() == 5]
        if n is not None and n > len(saturdays):
            return None
        saturday = date(y, month, saturdays[-1 if n is None else n - 1])
        return saturday, saturday + timedelta(days=1)

    if m.group("y"):
        return DateMatch(m.start(), m.end(), [make(int(m.group("y")))])
    ranges, span = _recurring(q.now, q.years, make)
    words = re.sub(r"^(?:on\s+)?the\s+", "", " ".join(m.group(0).split()))
    return DateMatch(m.start(), m.end(), ranges, recurring=True, notes=[f"“{words}”: every year {span}"])


def _week_of_month(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "the first week of January": days 1-7 (the second 8-14, ..., the last the month's last seven
    days), in the year named, else of every year (a recurring condition, as "at Christmas")."""
    month, year = MONTHS[m.group("m")], int(m.group("y")) if m.group("y") else 2001
    length = calendar.monthrange(year, month)[1]
    n = _WEEK_ORDINALS.get(m.group("n"))
    first = length - 6 if n is None else 7 * (n - 1) + 1
    return _days_of_a_month(m, date(year, month, first), date(year, month, min(length, first + 6)))


def _days_of_a_month(m: re.Match, lo: date, hi: date, said: str = "") -> DateMatch:
    """The days lo..hi of a month: of the year the match names (its group "y"), else of every year,
    said in a note (with `said`, how many days that is)."""
    if m.group("y"):
        return DateMatch(m.start(), m.end(), [(lo, hi)])
    words = re.sub(r"^(?:(?:at|in)\s+)?the\s+", "", " ".join(m.group(0).split()))
    return DateMatch(
        m.start(),
        m.end(),
        [(lo, hi)],
        recurring=True,
        yearly=(lo.strftime("%m-%d"), hi.strftime("%m-%d")),
        notes=[f"“{words}” of any year{said}"],
    )


#: A part of a month and its days: "early july" the 1st to the 10th, "mid july" the 11th to the 20th,
#: "late july" the 21st to the last (and "the beginning", "the middle", "the end of july").
_MONTH_PARTS = {"early": 0, "beginning": 0, "start": 0, "mid": 1, "middle": 1, "late": 2, "end": 2}


def _part_of_month(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "early july", "mid-july 2020", "the end of june": a third of the month, in the year named,
    else of every year (as "the first week of january")."""
    month, year = MONTHS[m.group("m")], int(m.group("y")) if m.group("y") else 2000  # a leap year
    third = _MONTH_PARTS[(m.group("part") or m.group("where")).lower()]
    last = calendar.monthrange(year, month)[1]
    lo, hi = date(year, month, 1 + 10 * third), date(year, month, last if third == 2 else 10 * (third + 1))
    return _days_of_a_month(m, lo, hi, f": the {_nth(lo.day)} to the {_nth(hi.day)}")


def _nth(day: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th ... 21st, 31st."""
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


#: England's and Wales's Monday bank holidays, each a long weekend: Easter's (Good Friday to Easter
#: Monday), May's, the spring one and August's.
_BANK_HOLIDAYS = ("easter", "may bank holiday", "spring bank holiday", "august bank holiday")


def _bank_holidays(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "bank holiday", "bank holiday weekends 2023": every Monday bank holiday's long weekend, of the
    year named or of every year of the library."""
    if m.group("y"):
        year = int(m.group("y"))
        days = [movable_range(name, year) for name in _BANK_HOLIDAYS]
        return DateMatch(m.start(), m.end(), [d for d in days if d is not None])
    ranges: list[tuple[date, date]] = []
    for name in _BANK_HOLIDAYS:
        found, span = _recurring(q.now, q.years, lambda y, name=name: movable_range(name, y))
        ranges += found
    if m.group("rel"):  # "the last bank holiday": the latest that has begun
        latest = max(ranges, default=None)
        return DateMatch(m.start(), m.end(), [latest] if latest else [])
    note = f"“bank holiday”: the long weekends of Easter, May, spring and August, every year {span}"
    return DateMatch(m.start(), m.end(), sorted(ranges), recurring=True, notes=[note])


def _season(m: re.Match, q: _Ask) -> DateMatch | None:
    season = m.group("s")
    first = SEASONS[season]
    months = tuple(sorted((first - 1 + i) % 12 + 1 for i in range(3)))
    return DateMatch(
        m.start(),
        m.end(),
        [season_range(q.now.year, season)],
        recurring=True,
        months=months,
        notes=[f"“{season}” means {season} of any year" + (", or snow" if season in SEASON_LOOKS else "")],
        looks=SEASON_LOOKS.get(season, ""),
    )


#: The handler of each DateFinder pattern, by the pattern's name.
def _this_day(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "on this day": today's day of the month in any year; "a year ago today", "this day last
    year", "this day 5 years ago": that one day."""
    now = q.now
    count = m.group("n") or m.group("m")
    back = 1 if m.group("last") else _num(count) if count else 0
    if not back:
        md = now.strftime("%m-%d")
        return DateMatch(m.start(), m.end(), [(now, now)], recurring=True, yearly=(md, md))
    day = _years_back(now, back)
    return DateMatch(m.start(), m.end(), [(day, day)])


def _years_back(d: date, n: int) -> date:
    """The same day n years before (28 February for a 29th in a year without one)."""
    return date(d.year - n, d.month, min(d.day, calendar.monthrange(d.year - n, d.month)[1]))


#: "this time last year": the weeks either side of that day.
TIME_OF_YEAR_DAYS = 14


def _time_last_year(m: re.Match, q: _Ask) -> DateMatch | None:
    day = _years_back(q.now, 1)
    span = timedelta(days=TIME_OF_YEAR_DAYS)
    return DateMatch(m.start(), m.end(), [(day - span, day + span)])


def _part_of_year(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "the beginning of 2022", "the end of last year": early, late or mid that year."""
    which = " ".join(m.group("y").split())
    year = q.now.year - 1 if which == "last year" else q.now.year if which == "this year" else int(which)
    word = {"beginning": "early", "start": "early", "end": "late", "middle": "mid"}[m.group("w")]
    return DateMatch(m.start(), m.end(), [_modify(word, *year_range(year))])


def _last_saturday(now: date) -> date:
    """The Saturday of last weekend: the one before this one, on a Saturday or Sunday."""
    sat = now - timedelta(days=(now.weekday() - 5) % 7)
    return sat - timedelta(days=7) if sat + timedelta(days=1) >= now else sat


#: "the other day": a day of the last two weeks.
OTHER_DAY_BACK = 14


def _other_day(m: re.Match, q: _Ask) -> DateMatch | None:
    return DateMatch(m.start(), m.end(), [(q.now - timedelta(days=OTHER_DAY_BACK), q.now)])


def _weekend_before_last(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "the weekend before last", "three weekends ago": that many weekends back from the last one."""
    back = _num(m.group("n")) if m.group("n") else 2
    sat = _last_saturday(q.now) - timedelta(days=7 * (back - 1))
    return DateMatch(m.start(), m.end(), [(sat, sat + timedelta(days=1))])


def _holiday_ago(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "the christmas before last", "two christmases ago": that many back from the last one."""
    if m.group("h"):
        name, back = m.group("h"), 2
    else:
        name, back = (
            {"christmases": "christmas", "xmases": "xmas", "halloweens": "halloween"}[m.group("hs")],
            _num(m.group("n")),
        )
    return DateMatch(m.start(), m.end(), [holiday_days(name, _year_of_last(name, q.now) - (back - 1))])


_DECADES = {
    "fifties": 1950,
    "sixties": 1960,
    "seventies": 1970,
    "eighties": 1980,
    "nineties": 1990,
    "noughties": 2000,
}


def _decade_word(m: re.Match, q: _Ask) -> DateMatch | None:
    start = _DECADES[m.group("d")]
    return DateMatch(m.start(), m.end(), [(date(start, 1, 1), date(start + 9, 12, 31))])


def _until_now(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "from 2018 until now", "march 2020 to date": from the start of it to today."""
    r = q.finder.simple_range(m.group("a"), q.now)
    return DateMatch(m.start(), m.end(), [(r[0], q.now)]) if r and r[0] <= q.now else None


def _winter_split(m: re.Match, q: _Ask) -> DateMatch | None:
    """ "winter 2020/21": December 2020 to February 2021."""
    y1, y2 = int(m.group("y1")), m.group("y2")
    if (int(y2) if len(y2) == 4 else y1 // 100 * 100 + int(y2)) != y1 + 1:
        return None
    return DateMatch(m.start(), m.end(), [season_range(y1, "winter")])


_HANDLERS: dict[str, Callable[[re.Match, _Ask], DateMatch | None]] = {
    "thisday": _this_day,
    "timelastyear": _time_last_year,
    "partofyear": _part_of_year,
    "weekendbeforelast": _weekend_before_last,
    "otherday": _other_day,
    "holidayago": _holiday_ago,
    "decadeword": _decade_word,
    "untilnow": _until_now,
    "wintersplit": _winter_split,
    "monthspan": _monthspan,
    "between": _two_ends,
    "fromto": _two_ends,
    "since": _open_ended,
    "simple": _simple,
    "relseason": _relseason,
    "seasonago": _season_ago,
    "relmonth": _relmonth,
    "monthlist": _month_list,
    "relunit": _relunit,
    "back": _back,
    "ago": _ago,
    "holiday": _holiday,
    "movable": _movable,
    "weekofmonth": _week_of_month,
    "partofmonth": _part_of_month,
    "bankholidays": _bank_holidays,
    "weekendofmonth": _weekend_of_month,
    "birthday": _birthday,
    "season": _season,
    "future": lambda m, q: DateMatch(
        m.start(),
        m.end(),
        [(q.now + timedelta(days=1), date.max)],
        notes=["dated after today: a camera's clock set wrong"],
    ),
}


def _outside_calendar(name: str, m: re.Match, q: _Ask) -> DateMatch:
    """A date expression that reaches outside years 1..9999 ("the last 5000 years", "last summer"
    in year 1): a span back from today starts at year 1; anything else matches no day, and a note
    says so (the search then shows the closest photos)."""
    text = m.group(0).strip()
    if name == "back":
        return DateMatch(m.start(), m.end(), [(date.min, q.now)], notes=[f"“{text}” starts at year 1"])
    return DateMatch(
        m.start(),
        m.end(),
        [(date.min, date.min)],
        notes=[f"“{text}” falls outside the calendar (years 1 to 9999): no photo can be from then"],
    )


def _modify(text: str, lo: date, hi: date) -> tuple[date, date]:
    """early/mid/late narrow a year to Jan–Apr / May–Aug / Sep–Dec and a season to one month."""
    months = []
    y, m = lo.year, lo.month
    while (y, m) <= (hi.year, hi.month):
        months.append((y, m))
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    k = max(1, len(months) // 3)
    if "early" in text:
        pick = months[:k]
    elif "late" in text:
        pick = months[-k:]
    elif "mid" in text:
        pick = months[k:-k] or months[len(months) // 2 : len(months) // 2 + 1]
    else:
        return lo, hi
    return month_range(*pick[0])[0], month_range(*pick[-1])[1]


def _prev_month(now: date) -> tuple[int, int]:
    return (now.year - 1, 12) if now.month == 1 else (now.year, now.month - 1)


def _dt(d: date) -> datetime:
    return datetime(d.year, d.month, d.day)


_FINDER: DateFinder | None = None


def finder() -> DateFinder:
    global _FINDER
    if _FINDER is None:
        _FINDER = DateFinder()
    return _FINDER
