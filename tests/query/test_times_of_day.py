"""Times of day: "in the morning" is the `hour` atom over the photo's clock time."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.search import search
from photosearch.query.times_of_day import hours_text
from tests.query.gallery import dated_catalog
from tests.query.gallery import sure_names as names

NOW = date(2024, 5, 15)
TAKEN = {
    "breakfast.jpg": datetime(2023, 7, 2, 8, 30),
    "early.jpg": datetime(2024, 5, 15, 5, 0, 1),
    "lunch.jpg": datetime(2022, 1, 9, 12, 45),
    "party.jpg": datetime(2023, 1, 1, 1, 20),
    "dinner.jpg": datetime(2021, 3, 3, 19, 10),
    "date_only.jpg": datetime(2020, 6, 6, 0, 0),  # a date without a time: no hour
    "undated.jpg": None,
}


@pytest.fixture
def catalog(store):
    return dated_catalog(store, TAKEN, "/photos")


def test_a_time_of_day_finds_the_photos_taken_then(catalog, settings):
    res = search(catalog, settings, "photos taken in the morning", now=NOW, signals=[])
    assert res["plan"]["where"] == {"hour": [5, 6, 7, 8, 9, 10, 11]}
    assert names(res) == ["breakfast.jpg", "early.jpg"]
    assert res["results"][0]["why"][0]["atom"] == "hour"
    assert names(search(catalog, settings, "in the evening", now=NOW, signals=[])) == ["dinner.jpg"]
    assert names(search(catalog, settings, "at lunchtime", now=NOW, signals=[])) == ["lunch.jpg"]


def test_the_small_hours_are_after_midnight(catalog, settings):
    """ "after midnight", "in the middle of the night", "the wee hours" were a concept "midnight", or
    the night's look."""
    for request in ("after midnight", "in the middle of the night", "the small hours of the morning"):
        res = search(catalog, settings, request, now=NOW, signals=[])
        assert res["plan"]["where"] == {"hour": [0, 1, 2, 3, 4]} and names(res) == ["party.jpg"], request
    assert hours_text([0, 1, 2, 3, 4]) == "in the small hours (00:00–04:59)"


def test_this_morning_is_today_in_the_morning(catalog, settings):
    res = search(catalog, settings, "this morning", now=NOW, signals=[])
    assert names(res) == ["early.jpg"]


def test_not_in_the_morning_keeps_the_photos_without_a_time(catalog, settings):
    res = search(catalog, settings, "not in the morning", now=NOW, signals=[])
    assert names(res) == ["date_only.jpg", "dinner.jpg", "lunch.jpg", "party.jpg", "undated.jpg"]


def test_nobody_at_that_hour_is_said_and_the_nearest_in_time_come_first(catalog, settings):
    res = search(catalog, settings, "in the late evening", now=NOW, signals=[])
    assert names(res) == []
    assert res["explain"]["unmet"] and "in the late evening (20:00–22:59)" in res["explain"]["unmet"][0]
    closest = [r["path"].rsplit("/", 1)[-1] for r in res["results"]]
    assert closest[0] == "dinner.jpg"  # 19:10, the nearest to 20:00
    assert {
        "atom": "hour",
        "taken_at": "2021-03-03T19:10:00",
        "text": "taken 2021-03-03 19:10, the nearest",
    } in (res["results"][0]["why"])  # it says when it was taken
    assert closest.index("lunch.jpg") < closest.index("undated.jpg")  # photos without a time last


def test_the_hour_atom_is_validated_and_read_back():
    plan = validate_plan({"version": 1, "where": {"hour": 9}})
    assert plan["where"] == {"hour": [9]}
    assert plan_to_text(plan) == "taken at 09:00–09:59"
    with pytest.raises(PlanError):
        validate_plan({"version": 1, "where": {"hour": [24]}})
    assert hours_text([22, 23, 0, 1]) == "at 22:00–01:59"  # over midnight


@pytest.mark.parametrize(
    ("request_text", "hours"),
    [
        ("photos at 5pm", [17]),
        ("at 3 am", [3]),
        ("5:45 pm", [17]),
        ("17:30", [17]),
        ("around 8 pm", [19, 20, 21]),
        ("after 10pm", [22, 23]),
        ("before 7am", [0, 1, 2, 3, 4, 5, 6]),
        ("until 4:30pm", list(range(17))),
        ("between 2pm and 4pm", [14, 15]),
        ("between 2 and 4pm", [14, 15]),
        ("2-4pm", [14, 15]),
        ("from 10 pm to 2 am", [0, 1, 22, 23]),
        ("6 in the morning", [6]),
        ("8 in the evening", [20]),
        # a range said with its part of the day (was a concept "6" and 08:00 alone)
        ("between 6 and 8 in the morning", [6, 7]),
        ("7-9 in the evening", [19, 20]),
        ("from 10 to 2 at night", [0, 1, 22, 23]),
        ("at noon", [11, 12, 13]),  # a time of day's word, as before
    ],
)
def test_a_clock_time_is_its_hours(request_text, hours):
    """ "photos at 5pm" was a concept "5pm", "after 10pm" a concept "10pm"."""
    from photosearch.query.parser import parse_request

    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert sorted(plan["where"]["hour"]) == hours


@pytest.mark.parametrize("request_text", ["route 66", "3 dogs", "1/250s", "24-70mm", "before 2020", "at 5"])
def test_a_number_without_am_pm_or_a_colon_is_no_time(request_text):
    from photosearch.query.parser import parse_request

    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert "hour" not in str(plan["where"])


def test_a_clock_time_finds_the_photos_taken_then(catalog, settings):
    assert names(search(catalog, settings, "photos taken after 7pm", now=NOW, signals=[])) == ["dinner.jpg"]
    assert names(search(catalog, settings, "between 8am and 1pm", now=NOW, signals=[])) == [
        "breakfast.jpg",
        "lunch.jpg",
    ]
    assert names(search(catalog, settings, "at 5am", now=NOW, signals=[])) == ["early.jpg"]
