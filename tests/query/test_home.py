"""Home: "photos taken abroad", "my home town", "far from home" (`query.home`, `claims/home.py`). Home
is where most of the library's photos with a place were taken, found from their GPS through the
offline geocoder."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.home import Home, home_of
from photosearch.query.parser import PlanContext, parse_request
from photosearch.query.plan import plan_to_text
from photosearch.query.resolvers.snapshot import get_snapshot
from photosearch.query.search import search
from tests.query.gallery import placed_catalog, sure_names

NOW = date(2026, 6, 15)
LISBON = Home("Lisbon", "Portugal")
ABROAD = {"and": [{"place": "*"}, {"not": {"place": "Portugal"}}]}


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("photos taken abroad", ABROAD),
        ("beach photos abroad", {"and": [{"concept": "beach"}, *ABROAD["and"]]}),
        ("overseas trips", ABROAD),
        ("outside my country", ABROAD),
        ("in my home country", {"place": "Portugal"}),
        ("my home town", {"place": "Lisbon"}),
        ("photos from my city", {"place": "Lisbon"}),
        ("near home", {"place": "Lisbon"}),
        ("where we live", {"place": "Lisbon"}),
        ("far from home", {"and": [{"place": "*"}, {"not": {"place": "Lisbon"}}]}),
        ("photos at home", {"concept": "home"}),  # a home's look: GPS tells no house
        ("my country music collection", {"concept": "country music collection"}),
    ],
)
def test_home_words_are_home_s_country_or_town(request_, where):
    plan, _confidence, notes = parse_request(request_, now=NOW, context=PlanContext(find_home=lambda: LISBON))
    assert plan["where"] == where, (plan_to_text(plan), notes)


def test_the_note_says_what_home_was_read_as_and_why():
    _plan, _c, notes = parse_request(
        "photos taken abroad", now=NOW, context=PlanContext(find_home=lambda: LISBON)
    )
    assert notes == [
        "“taken abroad” was read as outside Portugal, where most of your photos with a place were taken"
    ]
    plan, _c, notes = parse_request("photos taken abroad", now=NOW, context=PlanContext())
    assert "abroad" in plan_to_text(plan)
    assert notes == ["“taken abroad” was not read as a place: no photo has a known place yet"]


def test_home_is_not_looked_for_unless_asked():
    asked = []
    parse_request("dogs on the beach", now=NOW, context=PlanContext(find_home=lambda: asked.append(1)))
    assert not asked  # finding home may geocode every photo: only for a request that needs it


@pytest.fixture
def travels(store):
    """Four photos in Portugal (three in Lisbon, one in Porto), two in Paris, one with no GPS."""
    return placed_catalog(
        store,
        {
            "lisbon1.jpg": (38.7223, -9.1393),
            "lisbon2.jpg": (38.7139, -9.1394),
            "lisbon3.jpg": (38.7077, -9.1365),
            "porto.jpg": (41.1579, -8.6291),
            "paris1.jpg": (48.8566, 2.3522),
            "paris2.jpg": (48.8606, 2.3376),
            "scan.jpg": None,
        },
    )


def test_home_is_where_most_photos_with_a_place_were_taken(travels, settings):
    from photosearch.query.planner import library_home

    assert library_home(travels, settings) == LISBON  # the places step had not run: GPS named first
    assert home_of(get_snapshot(travels)) == LISBON


def test_abroad_and_home_town_find_their_photos(travels, settings):
    def found(request_: str) -> list[str]:
        return sure_names(search(travels, settings, request_, now=NOW, signals=[]))

    assert found("photos taken abroad") == ["paris1.jpg", "paris2.jpg"]
    assert found("in my home country") == ["lisbon1.jpg", "lisbon2.jpg", "lisbon3.jpg", "porto.jpg"]
    assert found("my home town") == ["lisbon1.jpg", "lisbon2.jpg", "lisbon3.jpg"]
    assert found("far from home") == ["paris1.jpg", "paris2.jpg", "porto.jpg"]


def test_a_home_set_in_settings_wins_over_the_photos(travels, settings):
    """Home set to Porto: "my home town" is Porto, though most photos were taken in Lisbon; a name
    nobody knows falls back to the photos' home."""
    from photosearch.query.home import chosen_home
    from photosearch.query.planner import library_home

    settings.home = "Porto"
    assert library_home(travels, settings) == Home("Porto", "Portugal", chosen=True)
    res = search(travels, settings, "my home town", now=NOW, signals=[])
    assert sure_names(res) == ["porto.jpg"]
    assert "“my home town” was read as Porto, your home in Settings" in res["explain"]["remarks"]
    assert chosen_home("Springfield, Illinois") == Home("Springfield, Illinois", "United States", chosen=True)
    settings.home = "Nowhereville"
    assert library_home(travels, settings) == LISBON
