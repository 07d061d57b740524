"""Days of the week: "at weekends", "on Sundays", "weekdays" are the `weekday` atom, in any year."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.search import search
from photosearch.query.weekdays import CHOICES, days_text
from tests.query.gallery import dated_catalog
from tests.query.gallery import sure_names as names

NOW = date(2024, 5, 15)  # a Wednesday
TAKEN = {
    "saturday_2019.jpg": datetime(2019, 3, 2, 10, 0),  # a Saturday, years before the last twelve months
    "sunday.jpg": datetime(2024, 5, 12, 9, 0),
    "monday.jpg": datetime(2024, 5, 13, 9, 0),
    "friday.jpg": datetime(2023, 12, 29, 18, 0),
    "undated.jpg": None,
}


@pytest.fixture
def catalog(store):
    return dated_catalog(store, TAKEN, "/photos")


def test_weekends_are_saturdays_and_sundays_of_any_year(catalog, settings):
    res = search(catalog, settings, "photos at the weekend", now=NOW, signals=[])
    assert res["plan"]["where"] == {"weekday": [6, 7]}
    assert names(res) == ["saturday_2019.jpg", "sunday.jpg"]
    assert res["results"][0]["why"][0]["atom"] == "weekday"
    assert names(search(catalog, settings, "on weekdays", now=NOW, signals=[])) == [
        "friday.jpg",
        "monday.jpg",
    ]
    assert names(search(catalog, settings, "on fridays", now=NOW, signals=[])) == ["friday.jpg"]
    assert names(search(catalog, settings, "not at the weekend", now=NOW, signals=[])) == [
        "friday.jpg",
        "monday.jpg",
        "undated.jpg",
    ]


def test_last_sunday_is_one_day(catalog, settings):
    res = search(catalog, settings, "last sunday", now=NOW, signals=[])
    assert res["plan"]["where"] == {"date": {"from": "2024-05-12", "to": "2024-05-12"}}
    assert names(res) == ["sunday.jpg"]


def test_a_day_nobody_took_photos_on_is_said_and_the_nearest_days_come_first(catalog, settings):
    res = search(catalog, settings, "on tuesdays", now=NOW, signals=[])
    assert names(res) == []
    assert res["explain"]["unmet"] == ["no photo taken on Tuesdays"]
    closest = [r["path"].rsplit("/", 1)[-1] for r in res["results"]]
    assert closest[0] == "monday.jpg" and closest[-1] == "undated.jpg"  # a day from Tuesday; undated last
    assert {
        "atom": "weekday",
        "taken_at": "2024-05-13T09:00:00",
        "text": "taken Monday 2024-05-13, the nearest",
    } in res["results"][0]["why"]


def test_the_atom_is_validated_and_said_in_words():
    assert validate_plan({"where": {"weekday": [7, 6, 6]}})["where"] == {"weekday": [6, 7]}
    assert plan_to_text(validate_plan({"where": {"weekday": [6, 7]}})) == "taken at the weekend"
    for bad in ([0], [8], [], ["sunday"], [True]):
        with pytest.raises(PlanError):
            validate_plan({"where": {"weekday": bad}})
    assert days_text([1, 5]) == "on Mondays and Fridays"
    assert CHOICES["at the weekend"] == [6, 7] and CHOICES["on Sundays"] == [7]


def test_the_cli_says_which_day_a_photo_was_taken(catalog, settings):
    from photosearch.cli.search import _results_text

    res = search(catalog, settings, "on sundays", now=NOW, signals=[])
    assert any(
        line.endswith("/sunday.jpg  [taken Sunday 2024-05-12]") for line in _results_text(res).splitlines()
    )
