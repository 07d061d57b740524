"""Holidays without a year are a recurring day-of-year condition (`yearly`), not a list of fixed
past ranges: every year the catalog holds matches, however old; a holiday with a year stays fixed."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.search import search
from tests.query.gallery import dated_catalog

NOW = date(2024, 5, 15)
TAKEN = {
    "xmas1998.jpg": datetime(1998, 12, 25, 9),  # older than any ten-year expansion
    "xmas2015.jpg": datetime(2015, 12, 24, 20),
    "xmas2023.jpg": datetime(2023, 12, 26, 23, 30),
    "after2023.jpg": datetime(2023, 12, 27, 0, 10),
    "nye2019.jpg": datetime(2019, 12, 31, 23),
    "newyear2020.jpg": datetime(2020, 1, 1, 0, 30),
    "summer2021.jpg": datetime(2021, 6, 1, 12),
    "leap2020.jpg": datetime(2020, 2, 29, 12),
    "undated.jpg": None,
}


@pytest.fixture
def catalog(store):
    return dated_catalog(store, TAKEN, "/photos/Family")


def names(res) -> list[str]:
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"])


def test_at_christmas_matches_every_year(catalog, settings):
    res = search(catalog, settings, "at Christmas", now=NOW, signals=[])
    assert res["plan"]["where"] == {"yearly": {"from": "12-24", "to": "12-26"}}
    assert names(res) == ["xmas1998.jpg", "xmas2015.jpg", "xmas2023.jpg"]
    assert res["results"][0]["why"][0]["atom"] == "yearly"
    every = search(catalog, settings, "every Christmas", now=NOW, signals=[])
    assert names(every) == names(res)


def test_not_on_christmas_keeps_every_other_day(catalog, settings):
    res = search(catalog, settings, "not on Christmas", now=NOW, signals=[])
    assert res["plan"]["where"] == {"not": {"yearly": {"from": "12-24", "to": "12-26"}}}
    got = names(res)
    assert not {"xmas1998.jpg", "xmas2015.jpg", "xmas2023.jpg"} & set(got)
    assert {"after2023.jpg", "summer2021.jpg", "nye2019.jpg"} <= set(got)


def test_a_holiday_with_a_year_stays_a_fixed_range(catalog, settings):
    res = search(catalog, settings, "Christmas 2015", now=NOW, signals=[])
    assert res["plan"]["where"] == {"date": {"from": "2015-12-24", "to": "2015-12-26"}}
    assert names(res) == ["xmas2015.jpg"]


@pytest.mark.parametrize(
    "days,expected",
    [
        (("12-31", "01-01"), ["newyear2020.jpg", "nye2019.jpg"]),  # wraps over New Year
        (("02-29", "02-29"), ["leap2020.jpg"]),
        (("06-01", "06-01"), ["summer2021.jpg"]),
    ],
)
def test_yearly_atom_resolves_days_of_any_year(catalog, settings, days, expected):
    plan = {"version": 1, "where": {"yearly": {"from": days[0], "to": days[1]}}}
    assert names(search(catalog, settings, plan=plan, signals=[])) == expected


def test_yearly_atom_is_validated_and_shown():
    plan = validate_plan({"version": 1, "where": {"yearly": {"from": "12-24", "to": "12-26"}}})
    assert plan_to_text(plan).startswith("taken between 24 and 26 December of any year")
    new_year = validate_plan({"version": 1, "where": {"yearly": {"from": "12-31", "to": "01-01"}}})
    assert plan_to_text(new_year).startswith("taken between 31 December and 1 January of any year")
    halloween = validate_plan({"version": 1, "where": {"yearly": {"from": "10-31", "to": "10-31"}}})
    assert plan_to_text(halloween).startswith("taken on 31 October of any year")
    for bad in (
        {"from": "02-30", "to": "03-01"},
        {"from": "13-01", "to": "01-01"},
        {"from": "12-24"},
        "12-24",
    ):
        with pytest.raises(PlanError, match="MM-DD"):
            validate_plan({"version": 1, "where": {"yearly": bad}})
