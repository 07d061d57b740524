"""Review findings 2.3–2.8 (each also has golden pairs): the neighbours of each fix keep working."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.dates import month_span
from photosearch.query.parser import PlanContext, parse_detailed

from .conftest import NOW

PEOPLE = ["Anna", "Tom", "Lisa", "Mark Smith"]


def where(request: str, ctx: PlanContext | None = None, now: date = NOW) -> dict:
    return parse_detailed(request, now=now, context=ctx or PlanContext(people=list(PEOPLE))).plan["where"]


def test_known_birthday_is_still_a_date_and_unknown_keeps_the_person():
    ctx = PlanContext(people=list(PEOPLE), birthdays={"Anna": date(1990, 3, 5)}, years=(2022, 2024))
    assert where("Anna's birthday", ctx) == {
        "or": [{"date": {"from": f"{y}-03-05", "to": f"{y}-03-05"}} for y in (2022, 2023, 2024)]
    }
    r = parse_detailed("Tom's birthday", now=NOW, context=ctx)
    assert r.plan["where"] == {"and": [{"person": "Tom"}, {"concept": "birthday"}]}
    assert any("no birthday is known for Tom" in n for n in r.notes)


@pytest.mark.parametrize(
    "request_, expected",
    [
        ("nice beach", {"concept": "beach"}),  # a taste, dropped: no model judges it
        ("a nice sunset in Nice", {"and": [{"concept": "sunset"}, {"place": "Nice"}]}),
        ("the promenade in nice", {"and": [{"concept": "promenade"}, {"place": "Nice"}]}),
    ],
)
def test_nice_is_a_place_only_as_a_place(request_, expected):
    assert where(request_) == expected


@pytest.mark.parametrize(
    "request_, expected",
    [
        ("a sign saying welcome", {"and": [{"concept": "sign"}, {"text": "welcome"}]}),
        ("photos with the word hello", {"text": "hello"}),
        ("with text in red", {"and": [{"text": "*"}, {"color": "red"}]}),  # any words; "in" is not the text
        ("people reading books", {"and": [{"faces": {"min": 1, "max": None}}, {"concept": "book"}]}),
        ("the sign says 'EXIT'", {"and": [{"concept": "sign"}, {"text": "EXIT"}]}),
    ],
)
def test_text_needs_an_explicit_introduction(request_, expected):
    assert where(request_) == expected


@pytest.mark.parametrize(
    "request_, expected",
    [
        ("people 3 or more", {"faces": {"min": 3, "max": None}}),
        ("faces at most 2", {"faces": {"min": 0, "max": 2}}),
        ("people more than 4", {"faces": {"min": 5, "max": None}}),
        ("people fewer than 3", {"faces": {"min": 0, "max": 2}}),
    ],
)
def test_counts_after_the_people_word(request_, expected):
    assert where(request_) == expected


def test_month_spans():
    assert month_span(NOW, 6, 8, 2023) == (date(2023, 6, 1), date(2023, 8, 31))
    assert month_span(NOW, 11, 2, 2023) == (date(2022, 11, 1), date(2023, 2, 28))
    assert month_span(NOW, 6, 8, None) == (
        date(2023, 6, 1),
        date(2023, 8, 31),
    )  # the latest begun by May 2024
    assert month_span(NOW, 3, 6, None) == (date(2024, 3, 1), date(2024, 6, 30))  # ongoing
    assert month_span(NOW, 12, 2, None) == (date(2023, 12, 1), date(2024, 2, 29))
    assert where("beach from may to september 2022") == {
        "and": [{"concept": "beach"}, {"date": {"from": "2022-05-01", "to": "2022-09-30"}}]
    }
    assert where("from june 2022 to august 2023") == {"date": {"from": "2022-06-01", "to": "2023-08-31"}}


def test_bare_months_and_times_of_day():
    # a month without a year is that month of any year (issue 12); "last December" is one range
    assert where("in December") == {"month": [12]}
    assert where("photos from May") == {"month": [5]}
    assert where("last December") == {"date": {"from": "2023-12-01", "to": "2023-12-31"}}
    assert "date" not in str(where("photos from Jan"))  # an abbreviation after "from": more likely a name
    assert where("this afternoon") == {
        "and": [{"date": {"from": "2024-05-15", "to": "2024-05-15"}}, {"hour": [12, 13, 14, 15, 16, 17]}]
    }
    assert where("in the morning") == {"hour": [5, 6, 7, 8, 9, 10, 11]}
    assert where("morning glory") == {"concept": "morning glory"}  # a flower, not a time
    jan1 = date(2024, 1, 1)
    assert where("last night", now=jan1) == {"date": {"from": "2023-12-31", "to": "2023-12-31"}}
