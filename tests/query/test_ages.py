"""How old someone was, from their birthday: "anna at 3", "when i was 25", "my twenties", "baby
photos of anna", "anna's 5th birthday", "the summer i turned 21" (`query.ages`)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from photosearch.query.parser import PlanContext, parse_request
from photosearch.query.plan import plan_to_text
from photosearch.query.search import search
from tests.query.gallery import dated_catalog

NOW = date(2026, 6, 15)
BIRTHDAYS = {"Anna": date(2019, 3, 4), "Tom": date(1990, 6, 1), "Mark Smith": date(1980, 1, 10)}
CONTEXT = PlanContext(people=["Anna", "Tom", "Mark Smith", "Lisa"], owner="Tom", birthdays=BIRTHDAYS)


def days(lo: str, hi: str) -> dict:
    return {"date": {"from": lo, "to": hi}}


ANNA, TOM, MARK = {"person": "Anna"}, {"person": "Tom"}, {"person": "Mark Smith"}


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("anna at 3", {"and": [ANNA, days("2022-03-04", "2023-03-03")]}),
        ("anna aged 3", {"and": [ANNA, days("2022-03-04", "2023-03-03")]}),
        ("anna at age 3", {"and": [ANNA, days("2022-03-04", "2023-03-03")]}),
        ("anna at the age of 4", {"and": [ANNA, days("2023-03-04", "2024-03-03")]}),
        ("anna at 3 years old", {"and": [ANNA, days("2022-03-04", "2023-03-03")]}),
        ("anna when she was 2", {"and": [ANNA, days("2021-03-04", "2022-03-03")]}),
        ("when anna was 3", {"and": [ANNA, days("2022-03-04", "2023-03-03")]}),
        ("mark smith at 40", {"and": [MARK, days("2020-01-10", "2021-01-09")]}),
        # stages of life
        ("anna as a baby", {"and": [ANNA, days("2019-03-04", "2021-03-03")]}),
        ("anna when she was a baby", {"and": [ANNA, days("2019-03-04", "2021-03-03")]}),
        ("baby photos of anna", {"and": [days("2019-03-04", "2021-03-03"), ANNA]}),
        ("anna as a toddler", {"and": [ANNA, days("2020-03-04", "2023-03-03")]}),
        ("every photo of anna from her first year", {"and": [ANNA, days("2019-03-04", "2020-03-03")]}),
        ("anna's first year", {"and": [ANNA, days("2019-03-04", "2020-03-03")]}),
        ("photos of me as a kid", {"and": [TOM, days("1990-06-01", "2003-05-31")]}),
        ("when i was little", days("1990-06-01", "1998-05-31")),  # no longer "oldest first"
        # the owner's decades and ages ("in my 30s" is no 1930s; today ends what has not ended)
        ("my twenties", days("2010-06-01", "2020-05-31")),
        ("photos from my twenties", days("2010-06-01", "2020-05-31")),
        ("me in my 30s", {"and": [TOM, days("2020-06-01", "2026-06-15")]}),
        ("tom in his early twenties", {"and": [TOM, days("2010-06-01", "2014-05-31")]}),
        ("when i was 25", days("2015-06-01", "2016-05-31")),
        # birthdays by number, and the year someone turned an age
        ("anna's first birthday", {"and": [ANNA, days("2020-03-04", "2020-03-04")]}),
        ("anna's 5th birthday", {"and": [ANNA, days("2024-03-04", "2024-03-04")]}),
        ("my 30th birthday", days("2020-06-01", "2020-06-01")),
        # a numbered birthday needs no "birthday"; a name of two words has its possessive too
        ("anna's 5th", {"and": [ANNA, days("2024-03-04", "2024-03-04")]}),
        ("my 30th party", {"and": [days("2020-06-01", "2020-06-01"), {"concept": "party"}]}),
        ("mark smith's 40th", {"and": [MARK, days("2020-01-10", "2020-01-10")]}),
        ("photos of mark smith's 40th birthday", {"and": [MARK, days("2020-01-10", "2020-01-10")]}),
        ("in mark smith's twenties", {"and": [MARK, days("2000-01-10", "2010-01-09")]}),
        ("anna turning 5", {"and": [ANNA, days("2024-01-01", "2024-12-31")]}),
        ("the summer i turned 21", {"and": [{"month": [6, 7, 8]}, days("2011-01-01", "2011-12-31")]}),
        # before or since someone was born: no photo of them is asked for (was a concept "anna born")
        (
            "beach photos before anna was born",
            {"and": [{"concept": "beach"}, days("1900-01-01", "2019-03-03")]},
        ),
        ("since anna was born", days("2019-03-04", "2026-06-15")),
        ("before i was born", days("1900-01-01", "1990-05-31")),
    ],
)
def test_ages_are_the_days_of_that_age(request_, where):
    plan, confidence, notes = parse_request(request_, now=NOW, context=CONTEXT)
    assert plan["where"] == where, (plan_to_text(plan), notes)
    assert confidence >= 0.7 and any(
        "was read as" in n and ("(born " in n or "in People" in n) for n in notes
    )


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("dinner at 8", {"and": [{"concept": "dinner"}, {"concept": "8"}]}),  # no one's age
        ("the dog at 3", {"and": [{"concept": "dog"}, {"concept": "3"}]}),
        ("anna at 3pm", {"and": [ANNA, {"hour": [15]}]}),  # a clock time
        ("the 30s", days("1930-01-01", "1939-12-31")),  # a decade, no one's
        ("lisa's birthday", {"and": [{"person": "Lisa"}, {"concept": "birthday"}]}),
        ("anna's 2nd car", {"and": [ANNA, {"concept": "2nd car"}]}),  # a numbered thing, no birthday
        ("anna's 5th grade", {"and": [ANNA, {"concept": "5th grade"}]}),
        # someone not in People: the words stay, which a file's title may hold ("Grandma's 90th")
        ("grandma's 90th", {"and": [{"concept": "grandma"}, {"concept": "90th"}]}),
    ],
)
def test_what_is_no_age_stays_as_it_was(request_, where):
    plan, _confidence, notes = parse_request(request_, now=NOW, context=CONTEXT)
    assert plan["where"] == where, (plan_to_text(plan), notes)


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("lisa as a baby", {"and": [{"person": "Lisa"}, {"concept": "baby"}]}),  # a baby's look
        ("lisa at 3", {"person": "Lisa"}),
        ("lisa's 5th birthday", {"and": [{"person": "Lisa"}, {"concept": "birthday"}]}),
    ],
)
def test_an_age_with_no_birthday_known_says_so(request_, where):
    plan, confidence, notes = parse_request(request_, now=NOW, context=CONTEXT)
    assert plan["where"] == where, (plan_to_text(plan), notes)
    assert "no birthday is known for Lisa" in notes and confidence < 0.7


def test_a_first_year_of_something_else_is_no_age():
    plan, _confidence, notes = parse_request("my first year at university", now=NOW, context=CONTEXT)
    assert "date" not in plan_to_text(plan) and not any("was read as" in n for n in notes)


def test_the_note_says_how_an_age_was_read():
    _plan, _confidence, notes = parse_request("Anna at 3", now=NOW, context=CONTEXT)
    assert "“Anna at 3” was read as 2022-03-04 to 2023-03-03 (born 2019-03-04)" in notes
    _plan, _confidence, notes = parse_request("my 30th birthday", now=NOW, context=CONTEXT)
    assert "“my 30th birthday” was read as 2020-06-01 (born 1990-06-01)" in notes
    _plan, _confidence, notes = parse_request("photos of Anna's 5th birthday", now=NOW, context=CONTEXT)
    assert notes == ["“Anna's 5th birthday” was read as 2024-03-04 (born 2019-03-04)"]  # not "of Anna's"


def test_little_with_no_birthday_known_is_the_oldest_first():
    plan, _confidence, notes = parse_request("lisa when she was little", now=NOW, context=CONTEXT)
    assert plan["where"] == {"person": "Lisa"} and plan["compose"]["sort"] == "date_asc", notes


def test_my_twenties_with_no_birthday_of_mine_says_so():
    plan, _confidence, notes = parse_request("my twenties", now=NOW, context=PlanContext(people=["Anna"]))
    assert plan["where"] == {"and": []} and "no birthday is known for you" in notes


def test_an_age_finds_the_photos_of_that_age(store, settings):
    taken = {
        "newborn.jpg": datetime(2019, 3, 10, 9),
        "first_steps.jpg": datetime(2020, 4, 1, 12),
        "age3.jpg": datetime(2022, 7, 1, 12),
        "age3_last_day.jpg": datetime(2023, 3, 3, 20),
        "age4.jpg": datetime(2023, 3, 4, 8),
        "undated.jpg": None,
    }
    dated_catalog(store, taken)
    for request_, expected in [
        ("when i was 3", ["age3.jpg", "age3_last_day.jpg"]),
        ("when i was a baby", ["first_steps.jpg", "newborn.jpg"]),
        ("my 1st birthday", []),
    ]:
        plan, _c, _n = parse_request(
            request_, now=NOW, context=PlanContext(owner="Anna", birthdays={"Anna": date(2019, 3, 4)})
        )
        got = search(store, settings, plan=plan, now=NOW, signals=[])
        sure = sorted(r["path"].rsplit("/", 1)[-1] for r in got["results"] if not r["below_cutoff"])
        assert sure == expected, (request_, plan_to_text(plan))


def test_before_someone_unknown_was_born_is_left_out_and_says_so():
    plan, _confidence, notes = parse_request("before the kids were born", now=NOW, context=CONTEXT)
    assert plan["where"] == {"and": []}  # was a concept "kids born"
    assert "“before the kids were born” was left out: no birthday is known for them" in notes
    _plan, _confidence, notes = parse_request("since anna was born", now=NOW, context=CONTEXT)
    assert notes == ["“since anna was born” was read as from 2019-03-04, the birthday in People"]
