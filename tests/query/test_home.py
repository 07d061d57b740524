"""Home: "photos taken abroad", "my home town", "far from home" (`query.home`, `claims/home.py`). Home
is where most of the library's photos with a place were taken, found from their GPS through the
offline geocoder."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.home import Home, HomeSpot, home_of
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


#: A house in Odivelas (north of Lisbon), where photos were taken on four days.
HOUSE = (38.7900, -9.1800)


def _near(point: tuple[float, float], north_m: float, east_m: float = 0.0) -> tuple[float, float]:
    """A point `north_m` metres north and `east_m` east of `point`."""
    from math import cos, radians

    return point[0] + north_m / 111_000, point[1] + east_m / (111_000 * cos(radians(point[0])))


@pytest.fixture
def household(store):
    """Photos at the house on four days (GPS a few tens of metres apart, one undated), a party across
    town (ten photos, one day), the neighbour's garden 500 m away, two days in Paris, a scan."""
    from datetime import datetime

    from tests.query.gallery import catalog_of

    def at(day: int, hour: int = 12) -> datetime:
        return datetime(2025, 3, day, hour)

    photos = {
        "house1.jpg": {"taken": at(1), "gps": _near(HOUSE, 20)},
        "house2.jpg": {"taken": at(8), "gps": _near(HOUSE, -30, 15)},
        "house3.jpg": {"taken": at(15), "gps": _near(HOUSE, 0, -40)},
        "house4.jpg": {"taken": at(22), "gps": _near(HOUSE, 60, 60)},
        "house_undated.jpg": {"gps": _near(HOUSE, 10, 10)},
        "neighbour.jpg": {"taken": at(2), "gps": _near(HOUSE, 500)},
        "paris1.jpg": {"taken": at(10), "gps": (48.8566, 2.3522)},
        "paris2.jpg": {"taken": at(11), "gps": (48.8606, 2.3376)},
        "scan.jpg": {"taken": at(5)},
    }
    photos |= {f"party{i}.jpg": {"taken": at(28, 10 + i), "gps": (38.7223, -9.1393)} for i in range(10)}
    return catalog_of(store, photos)


def test_home_s_spot_is_where_photos_were_taken_on_the_most_days(household, settings):
    """Ten photos of one party are one day; the house has four, though its GPS wanders by tens of
    metres."""
    from photosearch.query.home import HOME_RADIUS_KM
    from photosearch.query.planner import library_home
    from photosearch.query.resolvers.places import haversine_km

    home = library_home(household, settings)
    assert home.spot is not None and home.spot.days == 4
    assert haversine_km(home.spot.lat, home.spot.lon, *HOUSE) < HOME_RADIUS_KM / 2
    assert home.spot.label.startswith("Odivelas")


def test_at_home_finds_the_photos_taken_at_the_house(household, settings):
    def found(request_: str) -> dict:
        return search(household, settings, request_, now=NOW, signals=[])

    res = found("photos at home")
    assert sure_names(res) == ["house1.jpg", "house2.jpg", "house3.jpg", "house4.jpg", "house_undated.jpg"]
    assert res["plan"]["where"] == {"place": "home"}
    assert (
        "“at home” was read as within 200 m of where you took photos on the most days (4 days, in Odivelas)"
        in res["explain"]["remarks"]
    )
    assert sure_names(found("not at home")) == sorted(
        ["neighbour.jpg", "paris1.jpg", "paris2.jpg", "scan.jpg", *(f"party{i}.jpg" for i in range(10))]
    )
    assert sure_names(found("at our place in march 2025")) == [
        "house1.jpg",
        "house2.jpg",
        "house3.jpg",
        "house4.jpg",
    ]
    res = found("photos at home in paris")
    assert sure_names(res) == [] and "taken at home" in " ".join(res["explain"]["unmet"]), res["explain"]


def test_a_home_in_settings_holds_its_spot_near_its_town(household, settings):
    """Home set to Porto: the house near Lisbon is not home, and no spot near Porto has photos."""
    from photosearch.query.planner import library_home

    settings.home = "Porto"
    assert library_home(household, settings).spot is None
    settings.home = "Lisbon"
    assert library_home(household, settings).spot.days == 4
    settings.home = "France"
    assert library_home(household, settings).spot is None  # two days in Paris are no home


SPOT = Home("Lisbon", "Portugal", spot=HomeSpot(*HOUSE, days=12, label="Odivelas, Lisbon, PT"))


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("kids at home", {"and": [{"concept": "kid"}, {"place": "home"}]}),
        ("christmas at home", {"and": [{"yearly": {"from": "12-24", "to": "12-26"}}, {"place": "home"}]}),
        ("anna at our house", {"and": [{"person": "Anna"}, {"place": "home"}]}),
        ("at my place", {"place": "home"}),
        ("in our flat", {"place": "home"}),
        ("at home", {"place": "home"}),
        ("not at home", {"not": {"place": "home"}}),
        ("shopping at the home depot", {"and": [{"concept": "shopping"}, {"concept": "home depot"}]}),
        ("sliding into home plate", {"and": [{"concept": "sliding"}, {"concept": "home plate"}]}),
        ("at anna's house", {"and": [{"person": "Anna"}, {"concept": "house"}]}),
    ],
)
def test_at_home_is_home_s_spot(request_, where):
    context = PlanContext(people=["Anna"], find_home=lambda: SPOT)
    plan, _confidence, notes = parse_request(request_, now=NOW, context=context)
    assert plan["where"] == where, (plan_to_text(plan), notes)


def test_without_a_spot_at_home_stays_a_home_s_look_and_says_why(household, settings):
    plan, _c, notes = parse_request("kids at home", now=NOW, context=PlanContext(find_home=lambda: LISBON))
    assert plan["where"] == {"and": [{"concept": "kid"}, {"concept": "home"}]}
    assert notes == ["“at home” was read as a home's look: no spot has photos from 3 days or more"]
    plan, _c, notes = parse_request("kids at home", now=NOW, context=PlanContext())
    assert plan["where"] == {"and": [{"concept": "kid"}, {"concept": "home"}]} and not notes
    # a plan that asks for home (the LLM's, a kept search) where no spot is known: nothing is sure
    settings.home = "Porto"
    res = search(household, settings, plan={"version": 1, "where": {"place": "home"}}, now=NOW, signals=[])
    assert sure_names(res) == []
    assert any(r.startswith("No home is known") for r in res["explain"]["remarks"]), res["explain"]


def test_a_home_set_from_a_photo_wins_over_the_busiest_spot(household, settings):
    """A photo's "This was taken at home" (`Core.set_home_from_photo`) sets the spot; "at home" then goes by
    it, and the note says so."""
    from photosearch.query.planner import library_home

    settings.home_spot = "48.8566,2.3522"  # the first Paris photo's spot
    home = library_home(household, settings)
    assert home.spot.chosen and (home.spot.lat, home.spot.lon, home.spot.days) == (48.8566, 2.3522, 1)
    res = search(household, settings, "photos at home", now=NOW, signals=[])
    assert sure_names(res) == ["paris1.jpg"]
    assert (
        "“at home” was read as within 200 m of the home you set from a photo, in Paris"
        in res["explain"]["remarks"]
    )


def test_the_planning_context_knows_the_towns_of_the_library(household, settings):
    """The towns the photos were taken in are places to the parser ("sintra" alone, `library_places`)."""
    from photosearch.query.planner import planning_context
    from photosearch.query.resolvers.places import ensure_place_facts

    ensure_place_facts(household)
    places = planning_context(household, settings).places
    assert {"odivelas", "paris", "lisbon"} <= places, places
