"""When photos were added to the library, apart from when they were taken: "photos added today",
"recently added", "the photos I imported since monday" (the `added` atom and the `added_desc` sort)."""

from __future__ import annotations

import time
from datetime import date, datetime

import pytest
from sqlalchemy import text

from photosearch.query.parser import parse_request
from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.resolvers import snapshot
from photosearch.query.search import search
from tests.query.gallery import dated_catalog
from tests.query.gallery import sure_names as names

NOW = date(2024, 5, 15)  # a Wednesday
#: name -> (taken, added in UTC, as the catalog writes it)
PHOTOS = {
    # 23:30 UTC on the 14th is 01:30 on the 15th in Berlin: added today there
    "late_last_night_utc.jpg": (datetime(2019, 8, 1, 12), datetime(2024, 5, 14, 23, 30)),
    "this_morning.jpg": (datetime(2015, 1, 2, 9), datetime(2024, 5, 15, 7, 0)),
    "monday.jpg": (datetime(2024, 5, 15, 8), datetime(2024, 5, 13, 10, 0)),  # taken today, added monday
    "april.jpg": (None, datetime(2024, 4, 20, 10, 0)),
    "last_year.jpg": (datetime(2023, 3, 3, 3), datetime(2023, 3, 4, 10, 0)),
}


@pytest.fixture
def berlin(monkeypatch):
    """This computer's clock in Berlin (CEST in May: UTC+2)."""
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def catalog(store, berlin):
    dated_catalog(store, {name: taken for name, (taken, _added) in PHOTOS.items()}, "/photos")
    with store.begin() as conn:
        for name, (_taken, added) in PHOTOS.items():
            conn.execute(
                text("UPDATE photos SET added_at = :a WHERE path = :p"), {"a": added, "p": f"/photos/{name}"}
            )
    snapshot.invalidate(store)
    return store


def _where(request: str) -> dict:
    return parse_request(request, now=NOW)[0]["where"]


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("photos added today", {"added": {"from": "2024-05-15", "to": "2024-05-15"}}),
        ("the photos i imported last week", {"added": {"from": "2024-05-06", "to": "2024-05-12"}}),
        ("pictures uploaded yesterday", {"added": {"from": "2024-05-14", "to": "2024-05-14"}}),
        ("photos added since monday", {"added": {"from": "2024-05-13", "to": "2024-05-15"}}),
        ("added to my library in april", {"added": {"from": "2024-04-01", "to": "2024-04-30"}}),
        ("photos added on 2024-05-02", {"added": {"from": "2024-05-02", "to": "2024-05-02"}}),
        # a season or a run of months: the latest one, up to today (were the months taken)
        ("photos added in winter", {"added": {"from": "2023-12-01", "to": "2024-02-29"}}),
        ("photos i imported in the spring", {"added": {"from": "2024-03-01", "to": "2024-05-15"}}),
        ("added in february and march", {"added": {"from": "2024-02-01", "to": "2024-03-31"}}),
        ("added in summer", {"added": {"from": "2023-06-01", "to": "2023-08-31"}}),
        # the date taken stays the date taken
        ("photos from today", {"date": {"from": "2024-05-15", "to": "2024-05-15"}}),
        ("photos since monday", {"date": {"from": "2024-05-13", "to": "2024-05-15"}}),
    ],
)
def test_a_date_after_a_word_for_adding_is_when_they_were_added(request_text, where):
    assert _where(request_text) == where


@pytest.mark.parametrize(
    "request_text", ["recently added", "recent imports", "new photos", "the photos i imported", "what's new"]
)
def test_recently_added_sorts_by_when_they_were_added(request_text):
    plan = parse_request(request_text, now=NOW)[0]
    assert plan["where"] == {"and": []} and plan["compose"]["sort"] == "added_desc"
    assert plan_to_text(plan) == "everything | added last first"


def test_new_words_that_are_not_about_adding_stay_what_they_were():
    assert parse_request("new york", now=NOW)[0]["where"] == {"place": "New York"}
    assert parse_request("recent photos", now=NOW)[0]["compose"]["sort"] == "date_desc"  # taken lately


def test_added_today_is_today_on_this_computers_clock(catalog, settings):
    res = search(catalog, settings, "photos added today", now=NOW, signals=[])
    assert names(res) == ["late_last_night_utc.jpg", "this_morning.jpg"]
    why = res["results"][0]["why"][0]
    assert why["atom"] == "added" and why["added_at"].startswith("2024-05-15")
    # taken today is another photo: the one added on monday
    assert names(search(catalog, settings, "photos taken today", now=NOW, signals=[])) == ["monday.jpg"]


def test_added_since_monday_and_in_april(catalog, settings):
    assert names(search(catalog, settings, "imported since monday", now=NOW, signals=[])) == [
        "late_last_night_utc.jpg",
        "monday.jpg",
        "this_morning.jpg",
    ]
    assert names(search(catalog, settings, "photos added in april", now=NOW, signals=[])) == ["april.jpg"]


def test_recently_added_lists_the_last_added_first(catalog, settings):
    res = search(catalog, settings, "recently added", now=NOW, signals=[])
    assert [r["path"].rsplit("/", 1)[-1] for r in res["results"]] == [
        "this_morning.jpg",
        "late_last_night_utc.jpg",
        "monday.jpg",
        "april.jpg",
        "last_year.jpg",
    ]


def test_nothing_added_then_says_so_and_shows_the_nearest_added(catalog, settings):
    res = search(catalog, settings, "photos added in march", now=NOW, signals=[])
    assert names(res) == []
    assert res["explain"]["unmet"] == ["no photo added between 2024-03-01 and 2024-03-31"]
    first = res["results"][0]
    assert first["path"].endswith("april.jpg")  # added nearest to the end of March
    assert {
        "atom": "added",
        "added_at": "2024-04-20T12:00:00",
        "text": "added 2024-04-20, the nearest",
    } in first["why"]


def test_the_added_atom_is_validated_like_a_date():
    assert validate_plan({"version": 1, "where": {"added": {"from": "2024-01-02", "to": "2024-01-03"}}})
    with pytest.raises(PlanError, match="after 'to'"):
        validate_plan({"version": 1, "where": {"added": {"from": "2024-02-01", "to": "2024-01-01"}}})
    with pytest.raises(PlanError, match="sort"):
        validate_plan({"version": 1, "where": {"and": []}, "compose": {"sort": "added_asc"}})
