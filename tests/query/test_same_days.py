"""Days told by other photos: "the same day as the wedding", "the day after the party" (a days_of
atom, whose own `where` is run first and whose photos' days say which photos it holds)."""

from __future__ import annotations

from datetime import date, datetime

import numpy as np
import pytest

from photosearch.query.parser import parse_request
from photosearch.query.plan import PlanError, make_plan, plan_to_text
from photosearch.query.search import search
from photosearch.query.unmet import describe
from tests.query.gallery import tagged_catalog

NOW = date(2024, 5, 15)
PEOPLE = ["Anna", "Tom"]


def days_of(where: dict, lo: int, hi: int) -> dict:
    return {"days_of": {"where": where, "from": lo, "to": hi}}


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("photos from the same day as the wedding", days_of({"concept": "wedding"}, 0, 0)),
        ("taken the same day as the wedding", days_of({"concept": "wedding"}, 0, 0)),
        ("on the day of the wedding", days_of({"concept": "wedding"}, 0, 0)),
        ("the day after the party", days_of({"concept": "party"}, 1, 1)),
        (
            "the morning after the party",
            {"and": [days_of({"concept": "party"}, 1, 1), {"hour": [5, 6, 7, 8, 9, 10, 11]}]},
        ),
        (
            "the night before the wedding",
            {"and": [days_of({"concept": "wedding"}, -1, -1), {"hour": [18, 19, 20, 21, 22, 23]}]},
        ),
        (
            "the morning of the wedding",
            {"and": [days_of({"concept": "wedding"}, 0, 0), {"hour": [5, 6, 7, 8, 9, 10, 11]}]},
        ),
        ("the week after the wedding", days_of({"concept": "wedding"}, 1, 7)),
        ("in the week before the wedding", days_of({"concept": "wedding"}, -7, -1)),
        ("two days before the trip", days_of({"concept": "trip"}, -2, -2)),
        ("photos around the time of the wedding", days_of({"concept": "wedding"}, -3, 3)),
        ("the week of the move", days_of({"concept": "move"}, -3, 3)),
        ("the weekend of the wedding", days_of({"concept": "wedding"}, -1, 1)),
        ("3 weeks after the surgery", days_of({"concept": "surgery"}, 15, 21)),
        ("a day after the race", days_of({"concept": "race"}, 1, 1)),
        (
            "dogs the day before the wedding",
            {"and": [{"concept": "dog"}, days_of({"concept": "wedding"}, -1, -1)]},
        ),
        (
            "same day as Anna's birthday party",
            days_of({"and": [{"person": "Anna"}, {"concept": "birthday party"}]}, 0, 0),
        ),
        (
            "photos of the day after the concert in paris",
            days_of({"and": [{"concept": "concert"}, {"place": "Paris"}]}, 1, 1),
        ),
        ("taken the same day as IMG_1234.jpg", days_of({"file": "IMG_1234.jpg"}, 0, 0)),
        # what tells the days ends at a comma or a turn to something else
        (
            "Tom on the day after the party, not blurry",
            {
                "and": [
                    {"person": "Tom"},
                    days_of({"concept": "party"}, 1, 1),
                    {"not": {"quality": "blurry"}},
                ]
            },
        ),
        (
            "the day before the wedding but not Tom",
            {"and": [days_of({"concept": "wedding"}, -1, -1), {"not": {"person": "Tom"}}]},
        ),
    ],
)
def test_days_told_by_other_photos_are_read(request_, where):
    plan, confidence, notes = parse_request(request_, now=NOW, people=PEOPLE)
    assert plan["where"] == where, (plan_to_text(plan), notes)
    assert confidence >= 0.7


@pytest.mark.parametrize(
    "request_",
    [
        "the day after thanksgiving",  # dates the date finder knows stay dates
        "the day before yesterday",
        "the week before christmas",
        "a week after new year",
        "the day of the week",  # "day of" only after "on" or "from"
        "the day after",  # nothing tells the day
        "the day after the 4th of july",  # a date tells no day a photo was taken
        "100 weeks after the wedding",  # further than a plan may reach
        "the time of my life",  # "time of" only after "at", "from" or "during"
        "the week of the 4th",  # a number tells no day a photo was taken
    ],
)
def test_dates_and_days_without_photos_are_no_days_of(request_):
    plan, _confidence, _notes = parse_request(request_, now=NOW, people=PEOPLE)
    assert "days_of" not in plan_to_text(plan), plan_to_text(plan)


def test_the_plan_checks_a_days_of():
    plan = make_plan(days_of({"and": [{"concept": "party"}, {"person": "Anna"}]}, 1, 1))
    assert plan_to_text(plan) == 'days_of("party" AND person:"Anna") +1'
    for bad, why in [
        (days_of({"concept": "x"}, 2, 1), "after 'to'"),
        ({"days_of": {"where": {"concept": "x"}, "from": 0}}, "expected"),
        (days_of({"conc": "x"}, 0, 0), "unknown key 'conc'"),
        (days_of({"concept": "x"}, 0, 400), "at most 366"),
        (days_of({"concept": "x"}, 0.5, 1), "integer"),
    ]:
        with pytest.raises(PlanError, match=why):
            make_plan(bad)


def test_a_days_of_is_said_in_words():
    assert (
        describe(days_of({"concept": "wedding"}, 0, 0))
        == "taken the same day as a photo that looks like “wedding”"
    )
    assert (
        describe(days_of({"and": [{"person": "Anna"}, {"concept": "party"}]}, 1, 1))
        == "taken the day after a photo of Anna and that looks like “party”"
    )
    assert describe(days_of({"file": "IMG_1.jpg"}, -7, -1)) == (
        "taken in the week before a photo whose file name has “IMG_1.jpg”"
    )
    assert describe(days_of({"concept": "x"}, -2, 2)).startswith("taken within 2 days of")


# a wedding on 2023-06-10 (one photo late at night, one undated), a party on 2023-08-01
TAKEN = {
    "wedding.jpg": (datetime(2023, 6, 10, 15), "wedding"),
    "wedding_late.jpg": (datetime(2023, 6, 10, 23, 50), "wedding"),
    "wedding_undated.jpg": (None, "wedding"),
    "cake.jpg": (datetime(2023, 6, 10, 9), "cake"),
    "dog_before.jpg": (datetime(2023, 6, 9, 18), "dog"),
    "dog_after.jpg": (datetime(2023, 6, 11, 8), "dog"),
    "dog_week_after.jpg": (datetime(2023, 6, 16, 12), "dog"),
    "party.jpg": (datetime(2023, 8, 1, 21), "party"),
    "hangover.jpg": (datetime(2023, 8, 2, 11), "sofa"),
    "later.jpg": (datetime(2023, 9, 1, 12), "dog"),
    "undated_dog.jpg": (None, "dog"),
    "faint_parade.jpg": (datetime(2023, 6, 10, 12), "parade"),  # a tagger's faint guess only
}
FAINT = {"faint_parade.jpg": 0.12}


@pytest.fixture
def catalog(store):
    return tagged_catalog(store, TAKEN, "/photos", FAINT)


def sure(res: dict) -> list[str]:
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])


def test_photos_of_the_same_day_as_another_are_found(catalog, settings):
    res = search(catalog, settings, "photos from the same day as the wedding", now=NOW, signals=[])
    assert sure(res) == ["cake.jpg", "faint_parade.jpg", "wedding.jpg", "wedding_late.jpg"]
    hit = next(r for r in res["results"] if r["path"].endswith("cake.jpg"))
    why = next(w for w in hit["why"] if w["atom"] == "days_of")
    assert why["day_of"].startswith("2023-06-10") and why["photo"].startswith("wedding")
    assert why["text"] == f"taken 2023-06-10, the same day as {why['photo']}"


def test_days_after_and_before_reach_the_days_asked_for(catalog, settings):
    after = search(catalog, settings, "dogs the day after the wedding", now=NOW, signals=[])
    assert sure(after) == ["dog_after.jpg"]
    said = [w.get("text") for w in after["results"][0]["why"] if w["atom"] == "days_of"]
    assert said in (
        ["taken 2023-06-11, the day after wedding.jpg"],
        ["taken 2023-06-11, the day after wedding_late.jpg"],
    )
    before = search(catalog, settings, "dogs the day before the wedding", now=NOW, signals=[])
    assert sure(before) == ["dog_before.jpg"]
    week = search(catalog, settings, "dogs in the week after the wedding", now=NOW, signals=[])
    assert sure(week) == ["dog_after.jpg", "dog_week_after.jpg"]
    morning = search(catalog, settings, "the morning after the party", now=NOW, signals=[])
    assert sure(morning) == ["hangover.jpg"]
    morning_of = search(catalog, settings, "the morning of the wedding", now=NOW, signals=[])
    assert sure(morning_of) == ["cake.jpg"]  # 09:00; the wedding's own photos are of the afternoon


def test_a_days_of_can_be_left_out_and_run_as_a_plan(catalog, settings):
    res = search(
        catalog, settings, "dogs, not on the same day as the party or the wedding", now=NOW, signals=[]
    )
    got = sure(res)
    assert "later.jpg" in got and "dog_after.jpg" in got
    plan = make_plan({"and": [{"concept": "dog"}, {"not": days_of({"concept": "wedding"}, -1, 1)}]})
    kept = sure(search(catalog, settings, plan=plan, now=NOW, signals=[]))
    assert "dog_before.jpg" not in kept and "dog_after.jpg" not in kept and "later.jpg" in kept
    assert "undated_dog.jpg" in kept  # no day, so no day near the wedding


def test_nothing_to_tell_the_day_says_so(catalog, settings):
    res = search(catalog, settings, "the day after the graduation", now=NOW, signals=[])
    assert sure(res) == []
    said = " ".join(res["explain"]["unmet"])
    assert "taken the day after a photo that looks like “graduation”" in said


def test_what_tells_the_days_is_loaded_like_any_request(catalog, settings):
    """A days_of's own atoms are the plan's too: its concepts get the text encoders a concept needs
    (without them, any photo a label faintly names would tell a day)."""
    from photosearch.query.plan import atoms
    from photosearch.query.search import make_context
    from tests.query.gallery import FakeEmbedder

    plan = make_plan({"and": [{"person": "Tom"}, days_of({"concept": "wedding"}, 1, 1)]})
    assert {"concept": "wedding"} in atoms(plan)
    ctx = make_context(catalog, settings, plan=plan, text_embedder=FakeEmbedder())
    assert ctx.signals, "a concept inside a days_of needs its encoders"


def test_none_on_those_days_shows_the_nearest_in_time(catalog, settings):
    """No dog the day after the party: the dogs, the nearest in time to that day first, each saying
    when it was taken."""
    res = search(catalog, settings, "dogs the day after the party", now=NOW, signals=[])
    assert sure(res) == []
    shown = [r["path"].rsplit("/", 1)[-1] for r in res["results"]]
    assert shown[:3] == ["later.jpg", "dog_week_after.jpg", "dog_after.jpg"], shown
    said = [w["text"] for w in res["results"][0]["why"] if w.get("atom") == "days_of"]
    assert said == ["taken 2023-09-01, the nearest"]


def test_what_tells_the_day_unsure_says_so_and_orders_by_its_closest(catalog, settings):
    """No photo surely shows a parade (one faint guess): nothing is sure, the page says why, and the
    closest matches are the photos nearest the day after the faint guess's day."""
    res = search(catalog, settings, "the day after the parade", now=NOW, signals=[])
    assert sure(res) == []
    assert (
        "there is no day to go by: a photo that looks like “parade” was not found"
        in res["explain"]["remarks"]
    )
    first = res["results"][0]
    assert first["path"].endswith("dog_after.jpg"), [r["path"] for r in res["results"]]


def test_what_tells_the_day_without_a_date_says_so(catalog, settings):
    res = search(catalog, settings, "the day after the wedding_undated.jpg", now=NOW, signals=[])
    assert sure(res) == []
    assert (
        "there is no day to go by: no photo whose file name has “wedding_undated.jpg” has a date"
        in (res["explain"]["remarks"])
    )


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        (
            "the first day of our trip to rome",
            {"days_of": {"where": {"place": "Rome"}, "from": 0, "to": 0, "pick": "first"}},
        ),
        (
            "our last day in paris",
            {"days_of": {"where": {"place": "Paris"}, "from": 0, "to": 0, "pick": "last"}},
        ),
        (
            "first night in tokyo",
            {
                "and": [
                    {"days_of": {"where": {"place": "Tokyo"}, "from": 0, "to": 0, "pick": "first"}},
                    {"hour": [18, 19, 20, 21, 22, 23]},
                ]
            },
        ),
        ("the first day of spring", {"month": [3, 4, 5]}),  # a date the date finder knows
        ("the first day of the month", {"concept": "month"}),  # a time, no day a photo tells
        ("the first day of school", {"concept": "school"}),  # a day of its own: no school in its photos
        ("my last day at work", {"concept": "work"}),
    ],
)
def test_the_first_or_last_day_of_each_visit_is_read(request_, where):
    plan, _confidence, notes = parse_request(request_, now=NOW, people=PEOPLE)
    assert plan["where"] == where, (plan_to_text(plan), notes)


def test_a_pick_is_checked_and_said():
    plan = make_plan({"days_of": {"where": {"place": "Rome"}, "from": 0, "to": 0, "pick": "first"}})
    assert plan_to_text(plan) == 'days_of(first day of place:"Rome") +0'
    assert describe(plan["where"]) == "taken on the first day with a photo taken in Rome"
    with pytest.raises(PlanError, match="pick"):
        make_plan({"days_of": {"where": {"place": "Rome"}, "from": 0, "to": 0, "pick": "middle"}})


def test_the_first_and_last_day_are_of_each_run_of_days(store, settings):
    """Carnival two years running (three days, then two): "the first day" is each year's first."""
    from photosearch.query.resolvers.same_days import picked

    taken = {
        "c1.jpg": (datetime(2022, 2, 26, 20), "carnival"),
        "c2.jpg": (datetime(2022, 2, 27, 20), "carnival"),
        "c3.jpg": (datetime(2022, 2, 28, 20), "carnival"),
        "street_first.jpg": (datetime(2022, 2, 26, 9), "street"),
        "d1.jpg": (datetime(2023, 2, 18, 21), "carnival"),
        "d2.jpg": (datetime(2023, 2, 19, 21), "carnival"),
    }
    tagged_catalog(store, taken, "/carnival")
    for pick, expected in [
        ("first", ["c1.jpg", "d1.jpg", "street_first.jpg"]),
        ("last", ["c3.jpg", "d2.jpg"]),
    ]:
        plan = make_plan({"days_of": {"where": {"concept": "carnival"}, "from": 0, "to": 0, "pick": pick}})
        assert sure(search(store, settings, plan=plan, now=NOW, signals=[])) == expected, pick
    assert picked(np.array([1, 2, 3, 10, 12, 20]), "first").tolist() == [1, 10, 20]  # 10 and 12: two apart
    assert picked(np.array([1, 2, 3, 10, 12, 20]), "last").tolist() == [3, 12, 20]
