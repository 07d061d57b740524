"""Date expressions → ranges, one case per kind of expression the date finder reads (each handler
of its pattern table), relative to a fixed Sunday."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.dates import OPEN_START, finder, written_out
from photosearch.query.parser import parse_request

NOW = date(2025, 6, 15)  # a Sunday
YEARS = (2020, 2025)
BIRTHDAYS = {"Tom": date(2000, 2, 29)}


def _find(text: str):
    return finder().find(text, NOW, years=YEARS, birthdays=BIRTHDAYS, owner="me")


def _one(text: str):
    (match,) = _find(text)
    return match


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("from june to august 2021", "2021-06-01", "2021-08-31"),
        ("between march 2020 and june 2021", "2020-03-01", "2021-06-30"),
        ("2019-2021", "2019-01-01", "2021-12-31"),
        ("since march", "2025-03-01", "2025-06-15"),
        ("after june 2020", "2020-07-01", "2025-06-15"),
        ("before 2010", OPEN_START.isoformat(), "2009-12-31"),
        ("prior to 2012", OPEN_START.isoformat(), "2011-12-31"),
        ("till may 2018", OPEN_START.isoformat(), "2018-05-31"),
        ("7/4/2020", "2020-07-04", "2020-07-04"),
        ("march 5th", "2025-03-05", "2025-03-05"),
        ("5th of may 2019", "2019-05-05", "2019-05-05"),
        ("early summer 2018", "2018-06-01", "2018-06-30"),
        ("late 2019", "2019-09-01", "2019-12-31"),
        ("mid 2017", "2017-05-01", "2017-08-31"),
        ("'80s", "1980-01-01", "1989-12-31"),
        ("this winter", "2024-12-01", "2025-02-28"),
        ("past spring", "2025-03-01", "2025-05-31"),
        ("this june", "2025-06-01", "2025-06-30"),
        ("last june", "2024-06-01", "2024-06-30"),  # the current month's name means last year's
        ("this week", "2025-06-09", "2025-06-15"),
        ("past week", "2025-06-09", "2025-06-15"),
        ("past month", "2025-05-16", "2025-06-15"),
        ("past year", "2024-06-16", "2025-06-15"),
        ("this weekend", "2025-06-14", "2025-06-15"),
        ("last weekend", "2025-06-07", "2025-06-08"),  # today is Sunday: the weekend before
        ("past 3 days", "2025-06-13", "2025-06-15"),
        ("in the last two weeks", "2025-06-02", "2025-06-15"),
        ("over the past few months", "2025-03-16", "2025-06-15"),
        ("3 days ago", "2025-06-12", "2025-06-12"),
        ("a week ago", "2025-06-02", "2025-06-08"),
        ("two months ago", "2025-04-01", "2025-04-30"),
        ("five years ago", "2020-01-01", "2020-12-31"),
        ("this halloween", "2025-10-31", "2025-10-31"),
        ("last christmas", "2024-12-24", "2024-12-26"),
        # days people remember by today's date, and spans said in words
        ("a year ago today", "2024-06-15", "2024-06-15"),
        ("this day last year", "2024-06-15", "2024-06-15"),
        ("on this day 3 years ago", "2022-06-15", "2022-06-15"),
        ("this time last year", "2024-06-01", "2024-06-29"),
        ("the beginning of 2022", "2022-01-01", "2022-04-30"),
        ("the end of last year", "2024-09-01", "2024-12-31"),
        ("the weekend before last", "2025-05-31", "2025-06-01"),  # today is Sunday
        ("the christmas before last", "2023-12-24", "2023-12-26"),
        ("two christmases ago", "2023-12-24", "2023-12-26"),
        ("the eighties", "1980-01-01", "1989-12-31"),
        ("from 2018 until now", "2018-01-01", "2025-06-15"),
        ("winter 2020/21", "2020-12-01", "2021-02-28"),
    ],
)
def test_one_range(text, lo, hi):
    match = _one(text)
    assert [(a.isoformat(), b.isoformat()) for a, b in match.ranges] == [(lo, hi)]
    assert not match.recurring


@pytest.mark.parametrize(
    "text", ["of may", "photos from jan", "between the dog and the cat", "since 13/45/2020"]
)
def test_not_a_date(text):
    assert _find(text) == []


@pytest.mark.parametrize("text", ["falls", "niagara falls", "the falls", "hot springs", "springs"])
def test_falls_and_springs_are_water_not_seasons(text):
    assert _find(text) == []


def test_summers_are_still_seasons():
    assert _one("summers at the lake").months == (6, 7, 8)


def test_next_season_is_not_a_range_but_the_season_word_still_recurs():
    (match,) = _find("next summer")
    assert (match.start, match.months, match.recurring) == (5, (6, 7, 8), True)


def test_month_and_season_words_are_recurring_month_conditions():
    assert _one("from january").months == (1,)
    fall = _one("the fall")
    assert fall.months == (9, 10, 11) and fall.notes == ["“fall” means fall of any year"]
    assert _one("summertime").node() == {"month": [6, 7, 8]}


def test_winter_is_its_months_or_snow_and_a_winter_of_a_year_its_days_only():
    """A snowy photo is a winter photo whatever its date says (the southern hemisphere's, a download's)
    or if it has none; "winter 2020" is a span of days."""
    winter = _one("in winter")
    assert winter.node() == {"or": [{"month": [1, 2, 12]}, {"concept": "snow"}]}
    assert winter.notes == ["“winter” means winter of any year, or snow"]
    assert _one("winter 2020").node() == {"date": {"from": "2020-12-01", "to": "2021-02-28"}}
    assert _one("in summer").node() == {"month": [6, 7, 8]}


def test_holiday_without_year_is_a_recurring_day_of_the_year():
    match = _one("halloween")
    assert match.node() == {"yearly": {"from": "10-31", "to": "10-31"}}
    assert match.recurring and match.notes == ["“halloween” means halloween of any year"]
    assert _one("xmas").node() == {"yearly": {"from": "12-24", "to": "12-26"}}
    assert _one("christmas 2019").node() == {"date": {"from": "2019-12-24", "to": "2019-12-26"}}


def test_more_fixed_holidays_are_their_days_of_any_year():
    assert _one("st patricks day").node() == {"yearly": {"from": "03-17", "to": "03-17"}}
    assert _one("st. patrick's day 2023").node() == {"date": {"from": "2023-03-17", "to": "2023-03-17"}}
    assert _one("bonfire night").node() == {"yearly": {"from": "11-05", "to": "11-05"}}
    assert _one("may day").node() == {"yearly": {"from": "05-01", "to": "05-01"}}
    assert _one("canada day").node() == {"yearly": {"from": "07-01", "to": "07-01"}}


def test_a_holiday_named_like_a_day_of_a_month_is_that_day_of_any_year():
    """ "the 4th of july" was the latest 4 July, and "fourth of july" a concept "fourth" in July."""
    assert _one("4th of july").node() == {"yearly": {"from": "07-04", "to": "07-04"}}
    assert _one("fourth of july").node() == {"yearly": {"from": "07-04", "to": "07-04"}}
    assert _one("4th of july 2020").node() == {"date": {"from": "2020-07-04", "to": "2020-07-04"}}
    # written as a date, it is the holiday still, of any year (was the latest 4 July alone), and a
    # year or "since" makes it one day as before
    assert _one("july 4th").node() == {"yearly": {"from": "07-04", "to": "07-04"}}
    assert _one("july fourth fireworks").node() == {"yearly": {"from": "07-04", "to": "07-04"}}
    assert _one("july 4th 2019").node() == {"date": {"from": "2019-07-04", "to": "2019-07-04"}}
    assert _one("july 14th").node()["date"]["from"].endswith("-07-14")  # another day: the latest one
    assert _one("xmas eve").node() == {"yearly": {"from": "12-24", "to": "12-24"}}  # was a concept


def test_a_list_of_months_is_each_of_them():
    assert _one("in june, july and august").node() == {"month": [6, 7, 8]}
    june_to_august_2019 = _one("in june, july and august 2019").node()
    assert [d["date"]["from"] for d in june_to_august_2019["or"]] == [
        "2019-06-01",
        "2019-07-01",
        "2019-08-01",
    ]


def test_new_year_is_the_night_it_begins_either_side_of_midnight():
    assert _one("new year").node() == {"yearly": {"from": "12-31", "to": "01-01"}}
    assert _one("new year's day").node() == {"yearly": {"from": "01-01", "to": "01-01"}}
    assert _one("new years eve").node() == {"yearly": {"from": "12-31", "to": "12-31"}}
    assert _one("new year 2020").node() == {"date": {"from": "2019-12-31", "to": "2020-01-01"}}  # 2020's


def test_another_calendar_s_new_year_is_its_own_days_not_the_first_of_january():
    """It was no date at all (and "lunar new year 2023" New Year's Eve of 2022); now its own days."""
    assert _one("chinese new year 2024").node() == {"date": {"from": "2024-02-09", "to": "2024-02-12"}}
    assert _one("lunar new year 2023").node() == {"date": {"from": "2023-01-21", "to": "2023-01-24"}}


def test_seasons_ago_count_back_from_the_last_one():
    assert _one("two winters ago").node() == {"date": {"from": "2023-12-01", "to": "2024-02-29"}}
    assert _one("the summer before last").node() == {"date": {"from": "2023-06-01", "to": "2023-08-31"}}
    assert _one("three summers ago").node() == {"date": {"from": "2022-06-01", "to": "2022-08-31"}}


def test_a_holiday_is_not_read_short_of_its_longer_name():
    assert _find("christmas eve party") == []  # a party, not "christmas" and an "eve party"


def test_between_two_holidays_of_no_year_is_those_days_of_every_year():
    between = _one("between christmas and new year")
    assert between.node() == {"yearly": {"from": "12-24", "to": "01-01"}}  # over New Year
    assert between.notes == ["“between christmas and new year” of any year"]
    assert _one("between halloween and christmas").node() == {"yearly": {"from": "10-31", "to": "12-26"}}


def test_a_week_of_a_month():
    first = _one("the first week of january")
    assert first.node() == {"yearly": {"from": "01-01", "to": "01-07"}}
    assert first.notes == ["“first week of january” of any year"]
    assert _one("last week of december").node() == {"yearly": {"from": "12-25", "to": "12-31"}}
    assert _one("the second week of june 2023").node() == {"date": {"from": "2023-06-08", "to": "2023-06-14"}}
    assert _one("the last week of february 2024").node() == {
        "date": {"from": "2024-02-23", "to": "2024-02-29"}
    }


def test_a_29_february_birthday_falls_on_28_february_in_common_years():
    match = _one("tom's birthday")
    assert [a.isoformat() for a, _ in match.ranges][:3] == ["2020-02-29", "2021-02-28", "2022-02-28"]
    assert match.notes == ["birthdays: every year 2020–2025"]


def test_an_unknown_birthday_is_a_marker_without_ranges():
    unknown = _one("grandpa's birthday")
    assert unknown.ranges == [] and unknown.notes == ["no birthday is known for grandpa"]
    # a first name nobody in People has is no date: the parser reads someone and a birthday's look
    assert _find("lisa's birthday") == []
    assert _find("on weekends") == []  # days of the week are the parser's weekday atom


def test_the_day_before_yesterday_is_two_days_ago():
    for text in ("the day before yesterday", "day before yesterday"):
        match = _one(text)
        assert match.ranges == [(date(2025, 6, 13), date(2025, 6, 13))] and (match.start, match.end) == (
            0,
            len(text),
        )


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("easter 2023", "2023-04-07", "2023-04-10"),  # Good Friday to Easter Monday
        ("easter sunday 2024", "2024-03-31", "2024-03-31"),
        ("good friday 2021", "2021-04-02", "2021-04-02"),
        ("last easter", "2025-04-18", "2025-04-21"),
        ("thanksgiving 2022", "2022-11-24", "2022-11-27"),  # the fourth Thursday of November
        ("last thanksgiving", "2024-11-28", "2024-12-01"),
        ("between easter 2023 and june 2023", "2023-04-07", "2023-06-30"),
        ("mother's day 2024", "2024-05-12", "2024-05-12"),  # the second Sunday of May
        ("mothers day 2021", "2021-05-09", "2021-05-09"),
        ("mothering sunday 2024", "2024-03-10", "2024-03-10"),  # three weeks before Easter
        ("father's day 2023", "2023-06-18", "2023-06-18"),  # the third Sunday of June
        ("last father's day", "2024-06-16", "2024-06-16"),  # today is this year's
        ("labor day 2024", "2024-08-31", "2024-09-02"),  # the weekend up to the first Monday of September
        ("memorial day weekend 2023", "2023-05-27", "2023-05-29"),  # to the last Monday of May
        ("black friday 2023", "2023-11-24", "2023-11-24"),  # the day after Thanksgiving (was "black")
        ("cyber monday 2023", "2023-11-27", "2023-11-27"),
    ],
)
def test_a_movable_holiday_is_its_days_that_year(text, lo, hi):
    (match,) = _find(text)
    assert [(a.isoformat(), b.isoformat()) for a, b in match.ranges] == [(lo, hi)]


def test_a_movable_holiday_without_a_year_is_its_days_in_every_year_of_the_library():
    match = _one("easter")
    assert match.recurring and match.notes == ["“easter”: every year 2020–2025"]
    assert [a.isoformat() for a, _ in match.ranges] == [
        "2020-04-10", "2021-04-02", "2022-04-15", "2023-04-07", "2024-03-29", "2025-04-18"
    ]  # fmt: skip
    assert _find("easter eggs") == [] and _find("thanksgiving turkey") == []  # things in the photo
    assert _one("mother's day").notes == ["“mother's day”: every year 2020–2025, on the second Sunday of May"]


def test_on_this_day_is_today_s_date_in_any_year():
    match = _one("photos from this day")
    assert match.recurring and match.yearly == ("06-15", "06-15")
    assert _one("boxing day").yearly == ("12-26", "12-26")
    assert _one("photos on april fools").yearly == ("04-01", "04-01")  # was April and a concept "fool"


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("during covid", "2020-03-01", "2022-12-31"),  # was a concept "covid"
        ("covid times", "2020-03-01", "2022-12-31"),
        ("before the pandemic", None, "2020-02-29"),
        ("pre-covid", None, "2020-02-29"),
        ("in lockdown", "2020-03-01", "2021-06-30"),
        ("post-lockdown", "2021-07-01", "2025-06-15"),
    ],
)
def test_times_everyone_lived_through_are_their_months(text, lo, hi):
    (match,) = _find(written_out(text, NOW))
    ((a, b),) = match.ranges
    assert (lo is None or a.isoformat() == lo) and b.isoformat() == hi


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("jan-mar 2021", "2021-01-01", "2021-03-31"),  # was a concept "jan-mar" and all of 2021
        ("q1 2022", "2022-01-01", "2022-03-31"),  # was a concept "q1"
        ("Q3 of 2023", "2023-07-01", "2023-09-30"),
        ("h2 2021", "2021-07-01", "2021-12-31"),
        ("the first half of 2021", "2021-01-01", "2021-06-30"),  # was a concept "first half"
        ("2020-05", "2020-05-01", "2020-05-31"),  # was a concept "2020-05"
        ("autumn 22", "2022-09-01", "2022-11-30"),  # was autumn of any year and a concept "22"
    ],
)
def test_runs_of_months_written_short(text, lo, hi):
    (match,) = _find(written_out(text, NOW))
    assert [(a.isoformat(), b.isoformat()) for a, b in match.ranges] == [(lo, hi)]


def test_part_of_a_season_without_a_year_is_its_month_and_quarters_need_a_year():
    assert written_out("early summer", NOW) == "in june" and written_out("late autumn", NOW) == "in november"
    # March and May are verbs too: the bare month word was read as a thing ("early spring" was "march")
    for text, month in (("early spring", 3), ("late spring", 5), ("flowers in early spring", 3)):
        plan, _confidence, _notes = parse_request(text, now=NOW)
        assert {"month": [month]} in [plan["where"], *plan["where"].get("and", [])], (text, plan["where"])
    assert written_out("late summer 2020", NOW) == "late summer 2020"  # the finder reads it: August 2020
    assert (
        written_out("route q1", NOW) == "route q1"
        and written_out("a mar-a-lago photo", NOW) == "a mar-a-lago photo"
    )


def test_a_thing_of_those_times_stays_a_thing():
    assert written_out("a covid test", NOW) == "a covid test" and written_out("pandemic", NOW) == "pandemic"


def test_days_beside_a_holiday_are_before_or_after_its_own_day():
    """ "the week before christmas" was Christmas beside a concept "week"; "the day after
    thanksgiving" was Thanksgiving (Thursday to Sunday) beside a concept "day"."""
    before = _one("the week before christmas")
    assert before.node() == {"yearly": {"from": "12-18", "to": "12-24"}}  # up to Christmas Eve
    assert before.notes == ["“the week before christmas” of any year"] and before.start == 0
    assert _one("the day after christmas").node() == {"yearly": {"from": "12-26", "to": "12-26"}}
    assert _one("a few days after christmas").node() == {"yearly": {"from": "12-26", "to": "12-28"}}
    assert _one("the month before halloween").node() == {"yearly": {"from": "10-01", "to": "10-30"}}
    black_friday = _one("the day after thanksgiving")
    assert (date(2024, 11, 29), date(2024, 11, 29)) in black_friday.ranges  # Thanksgiving: 28 Nov
    assert (date(2020, 11, 27), date(2020, 11, 27)) in black_friday.ranges
    assert (date(2024, 4, 1), date(2024, 4, 7)) in _one("the week after easter").ranges  # Easter: 31 Mar
    assert _one("the weekend before easter 2023").ranges == [(date(2023, 4, 1), date(2023, 4, 2))]
    assert _one("the weekend after easter 2023").ranges == [(date(2023, 4, 15), date(2023, 4, 16))]
    assert _one("the two weeks before christmas 2022").ranges == [(date(2022, 12, 11), date(2022, 12, 24))]
    assert _one("the week before last").ranges == [(date(2025, 5, 26), date(2025, 6, 1))]
    assert _one("the new year before last").ranges == [(date(2023, 12, 31), date(2024, 1, 1))]
    # "before X" alone is still everything up to X; a unit beside no date is no date
    assert _one("before christmas 2022").ranges == [(OPEN_START, date(2022, 12, 23))]
    assert _find("the week after the wedding") == [] and _find("a day at the beach") == []


def test_the_week_of_a_holiday_is_the_seven_days_around_its_own_day():
    """ "the week of christmas" and "christmas week" were Christmas Eve to Boxing Day beside a concept
    "week"; "christmas week 2023" also any year's Christmas in 2023 (and so, 2023's)."""
    for text in ("the week of christmas", "christmas week", "during the week of christmas"):
        week = _one(text)
        assert week.node() == {"yearly": {"from": "12-22", "to": "12-28"}}, text
        assert week.notes == [f"“{text.removeprefix('during ')}” of any year"]
    assert _one("christmas week 2023").ranges == [(date(2023, 12, 22), date(2023, 12, 28))]
    assert _one("the week of christmas 2019").ranges == [(date(2019, 12, 22), date(2019, 12, 28))]
    thanksgiving = _one("thanksgiving week")  # Thanksgiving 2024: Thursday 28 November
    assert (date(2024, 11, 25), date(2024, 12, 1)) in thanksgiving.ranges and thanksgiving.recurring
    assert _one("thanksgiving week 2022").ranges == [(date(2022, 11, 21), date(2022, 11, 27))]
    assert (date(2024, 3, 28), date(2024, 4, 3)) in _one("the week of easter").ranges  # Easter: 31 Mar
    # a day that is no holiday: the Monday to Sunday of its week
    assert _one("the week of june 5, 2024").ranges == [(date(2024, 6, 3), date(2024, 6, 9))]
    # left as they were: a week beside ("the week before christmas"), a weekday, the 4th alone
    assert _one("the week before christmas").node() == {"yearly": {"from": "12-18", "to": "12-24"}}
    assert _one("christmas week day").node() == {"yearly": {"from": "12-24", "to": "12-26"}}
    assert _find("the week of the 4th") == []
    assert _one("june 5 week").ranges == [(date(2025, 6, 5), date(2025, 6, 5))]


def test_a_part_of_a_holiday_is_its_own_day_then():
    """ "christmas morning" was Christmas Eve to Boxing Day, and any morning of them."""
    morning = _one("christmas morning")
    assert morning.node() == {
        "and": [{"yearly": {"from": "12-25", "to": "12-25"}}, {"hour": list(range(5, 12))}]
    }
    assert _one("halloween night").node()["and"][1] == {"hour": list(range(18, 24))}
    thanksgiving = _one("thanksgiving evening")  # the Thursday, not its weekend
    assert (date(2024, 11, 28), date(2024, 11, 28)) in thanksgiving.ranges
    assert thanksgiving.hours == list(range(17, 22))
    assert _one("last christmas morning").ranges == [(date(2024, 12, 25), date(2024, 12, 25))]
    assert _one("christmas night market").end == len("christmas")  # a market, not the night


def test_a_month_s_name_alone_is_that_month_of_any_year():
    """ "july photos" and "december snow" were concepts "july" and "december"; "may and june" a
    concept "june"."""
    assert _one("july photos").months == (7,) and _one("july photos").recurring
    assert [m.months for m in _find("december snow")] == [(12,)]
    assert _one("may and june").months == (5, 6)
    assert _one("june and july").months == (6, 7)
    assert _one("march and april 2021").ranges == [
        (date(2021, 3, 1), date(2021, 3, 31)),
        (date(2021, 4, 1), date(2021, 4, 30)),
    ]
    # "may" and "march" alone are more often a verb or a thing; a june bug is a beetle
    assert _find("may") == [] and _find("the march") == [] and _find("a june bug") == []
    assert _one("july 4th").ranges == [(date(2024, 7, 4), date(2024, 7, 4))]  # the latest


def test_a_person_named_like_a_month_stays_that_person():
    plan, _conf, _notes = parse_request("june at the beach", now=NOW, people=["June"])
    assert plan["where"] == {"and": [{"person": "June"}, {"concept": "beach"}]}
    plan, _conf, _notes = parse_request("june at the beach", now=NOW)
    assert plan["where"] == {"and": [{"month": [6]}, {"concept": "beach"}]}


def test_a_weekend_of_a_month_is_its_saturday_and_sunday():
    """ "the last weekend of june" was last weekend (13-14 June) and any June."""
    last = _one("the last weekend of june")
    assert (date(2024, 6, 29), date(2024, 6, 30)) in last.ranges
    assert (date(2023, 6, 24), date(2023, 6, 25)) in last.ranges
    assert last.notes == ["“last weekend of june”: every year 2020–2025"]
    assert _one("the first weekend of may 2024").ranges == [(date(2024, 5, 4), date(2024, 5, 5))]
    assert _one("the last weekend of september 2018").ranges == [(date(2018, 9, 29), date(2018, 9, 30))]


@pytest.mark.parametrize(
    ("request_text", "where"),
    [
        ("summer '19", {"date": {"from": "2019-06-01", "to": "2019-08-31"}}),  # was summer and a "19"
        ("in '98", {"date": {"from": "1998-01-01", "to": "1998-12-31"}}),
        ("march ’21", {"date": {"from": "2021-03-01", "to": "2021-03-31"}}),
        ("the '90s", {"date": {"from": "1990-01-01", "to": "1999-12-31"}}),
        ("2021/05/01", {"date": {"from": "2021-05-01", "to": "2021-05-01"}}),  # was 2021 or "05" or "01"
        ("15.03.2020", {"date": {"from": "2020-03-15", "to": "2020-03-15"}}),  # was all of 2020
        ("since the start of the year", {"date": {"from": "2025-01-01", "to": "2025-06-15"}}),
        ("so far this year", {"date": {"from": "2025-01-01", "to": "2025-06-15"}}),  # no concept "far"
        ("version 2.0.1", {"concept": "version 2.0.1"}),  # no date
    ],
)
def test_dates_written_short_or_as_other_countries_write_them(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


def test_photos_from_the_future_are_those_dated_after_today(store, settings):
    """A camera's clock set wrong: "photos from the future" finds the photos dated after today."""
    from datetime import datetime

    from photosearch.query.parser import parse_request
    from photosearch.query.search import search
    from photosearch.query.unmet import describe
    from tests.query.gallery import dated_catalog

    now = date(2026, 6, 15)
    for request in ("photos from the future", "future-dated photos", "photos dated in the future"):
        plan, _c, notes = parse_request(request, now=now)
        assert plan["where"] == {"date": {"from": "2026-06-16", "to": "9999-12-31"}}, request
        assert "dated after today: a camera's clock set wrong" in notes
    assert describe(plan["where"]) == "dated 2026-06-16 or later"
    dated_catalog(
        store, {"today.jpg": datetime(2026, 6, 15, 23), "wrong.jpg": datetime(2031, 1, 1), "none.jpg": None}
    )
    got = search(store, settings, "photos from the future", now=now, signals=[])
    assert [r["path"].rsplit("/", 1)[-1] for r in got["results"] if not r["below_cutoff"]] == ["wrong.jpg"]


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        (
            "the night before christmas",
            {"and": [{"yearly": {"from": "12-24", "to": "12-24"}}, {"hour": [18, 19, 20, 21, 22, 23]}]},
        ),
        (
            "the morning after new year's eve",
            {"and": [{"yearly": {"from": "01-01", "to": "01-01"}}, {"hour": [5, 6, 7, 8, 9, 10, 11]}]},
        ),
        (
            "the evening before thanksgiving 2023",
            {"and": [{"date": {"from": "2023-11-22", "to": "2023-11-22"}}, {"hour": [17, 18, 19, 20, 21]}]},
        ),
        ("the day after the 4th of july", {"yearly": {"from": "07-05", "to": "07-05"}}),  # "the" before it
    ],
)
def test_a_part_of_the_day_beside_a_holiday_is_that_day_and_its_hours(request_, where):
    plan, _confidence, notes = parse_request(request_, now=date(2026, 6, 15))
    assert plan["where"] == where, notes


def test_the_holidays_are_the_christmas_and_new_year_season():
    """ "the holidays", "the festive season" were a concept "holiday": now 20 December to 6 January of
    any year, said in a note; with a year, the season that starts in it ("new year 2020" stays the
    night 2020 begins)."""
    for text in ("the holidays", "over the holidays", "holiday season", "the festive season"):
        assert _one(text).node() == {"yearly": {"from": "12-20", "to": "01-06"}}, text
    assert _one("the holidays").notes == [
        "“the holidays” was read as the Christmas and New Year season, 20 December to 6 January, of any year"
    ]
    assert _one("the holidays 2022").node() == {"date": {"from": "2022-12-20", "to": "2023-01-06"}}
    assert _one("new year 2020").node() == {"date": {"from": "2019-12-31", "to": "2020-01-01"}}
    assert _find("our holidays in spain") == [] and _find("summer holidays")[0].node() == {"month": [6, 7, 8]}


@pytest.mark.parametrize(
    ("text", "node"),
    [
        # a third of a month: of every year, or of the year named (was a concept "mid" beside July)
        ("mid july", {"yearly": {"from": "07-11", "to": "07-20"}}),
        ("mid-july", {"yearly": {"from": "07-11", "to": "07-20"}}),
        ("early march", {"yearly": {"from": "03-01", "to": "03-10"}}),
        ("late february", {"yearly": {"from": "02-21", "to": "02-29"}}),  # a leap year's last day too
        ("the end of june", {"yearly": {"from": "06-21", "to": "06-30"}}),
        ("the beginning of may", {"yearly": {"from": "05-01", "to": "05-10"}}),
        ("early july 2020", {"date": {"from": "2020-07-01", "to": "2020-07-10"}}),
        ("the end of february 2023", {"date": {"from": "2023-02-21", "to": "2023-02-28"}}),
    ],
)
def test_a_part_of_a_month_is_its_third(text, node):
    assert _one(text).node() == node
    assert parse_request(text, now=NOW)[0]["where"] == node


def test_a_part_of_a_month_says_its_days():
    assert _one("late july").notes == ["“late july” of any year: the 21st to the 31st"]
    assert _one("mid august").notes == ["“mid august” of any year: the 11th to the 20th"]


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        # England's bank holidays on a Monday: each a long weekend (were a concept "bank holiday")
        ("may bank holiday 2024", "2024-05-04", "2024-05-06"),
        ("the spring bank holiday 2024", "2024-05-25", "2024-05-27"),
        ("august bank holiday weekend 2023", "2023-08-26", "2023-08-28"),
    ],
)
def test_a_bank_holiday_is_its_long_weekend(text, lo, hi):
    (match,) = [m for m in _find(text) if m.ranges]
    assert [(a.isoformat(), b.isoformat()) for a, b in match.ranges] == [(lo, hi)]


def test_a_bank_holiday_without_a_year_is_every_year_of_the_library():
    match = _one("august bank holiday")
    assert [a.isoformat() for a, _ in match.ranges] == [
        "2020-08-29",
        "2021-08-28",
        "2022-08-27",
        "2023-08-26",
        "2024-08-24",
    ]  # not this year's: it is still to come


def test_bank_holidays_are_every_monday_bank_holidays_long_weekend():
    """ "bank holiday weekend 2023": Easter's, May's, the spring one and August's (was a concept)."""
    match = _one("bank holiday weekend 2023")
    assert [(a.isoformat(), b.isoformat()) for a, b in match.ranges] == [
        ("2023-04-07", "2023-04-10"),
        ("2023-04-29", "2023-05-01"),
        ("2023-05-27", "2023-05-29"),
        ("2023-08-26", "2023-08-28"),
    ]
    every = _one("bank holidays")
    assert len(every.ranges) == 4 * 5 + 3  # 2020-2024, and the three of 2025 before 15 June
    assert every.notes == [
        "“bank holiday”: the long weekends of Easter, May, spring and August, every year 2020–2025"
    ]
    assert _one("may bank holiday 2024").ranges == [(date(2024, 5, 4), date(2024, 5, 6))]  # that one alone
    assert _one("the last bank holiday").ranges == [(date(2025, 5, 24), date(2025, 5, 26))]
