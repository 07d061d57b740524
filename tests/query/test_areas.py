"""Areas larger than a country, or a country's part by its regions: "photos in europe", "our trip to
south america", "new england in the fall" find the photos whose place lies there (were a concept
"europe", or a place "New" beside England). A direction before a country is the whole country ("the
south of france" was a place "South"). The areas' countries and regions are checked against the
offline geocoder's."""

from __future__ import annotations

import csv
from datetime import date

import numpy as np
import pytest
import yaml

from photosearch.cli.search import _why_text
from photosearch.query.areas import AREAS_FILE, area, find_areas
from photosearch.query.parser import parse_request
from photosearch.query.places import _default_csv, county_names, fold
from photosearch.query.search import search

from .gallery import catalog_of, placed_catalog, sure_names

NOW = date(2024, 5, 15)
ENTRIES = yaml.safe_load(AREAS_FILE.read_text(encoding="utf-8"))
CONTINENTS = ("Europe", "Asia", "Africa", "North America", "South America", "Oceania", "Antarctica")


def _geocoder_places() -> tuple[set[str], set[tuple[str, str]]]:
    with _default_csv().open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    return {r["cc"] for r in rows}, {(r["cc"], r["admin1"]) for r in rows}


def test_every_country_the_geocoder_knows_is_in_one_continent_and_every_area_is_known():
    countries, regions = _geocoder_places()
    continents = [e for e in ENTRIES if e["name"] in CONTINENTS]
    assert len(continents) == len(CONTINENTS)
    placed = [cc for e in continents for cc in e["countries"]]
    assert sorted(set(placed)) == sorted(countries) and len(placed) == len(set(placed))
    for e in ENTRIES:
        assert set(e.get("countries", ())) <= countries, e["name"]  # "NO" stays Norway, not false
        for cc, names in (e.get("regions") or {}).items():
            assert {(cc, n) for n in names} <= regions, e["name"]


def test_every_county_of_an_area_is_one_the_geocoder_knows_in_its_country():
    """Each county is one the geocoder knows, and a name that counties of several regions share has
    its region ("Orange County, California", not Florida's)."""
    regions_of: dict[tuple[str, str], set[str]] = {}
    with _default_csv().open(encoding="utf-8", newline="") as fh:
        for r in csv.DictReader(fh):
            for name in county_names(r["admin2"]):
                regions_of.setdefault((r["cc"], fold(name)), set()).add(fold(r["admin1"]))
    counted = [e for e in ENTRIES if e.get("counties")]
    assert len(counted) >= 14
    for entry in counted:
        for cc, names in entry["counties"].items():
            for written in names:
                county, _, region = (fold(part) for part in written.partition(","))
                regions = regions_of.get((cc, county), set())
                assert region in regions if region else len(regions) == 1, (entry["name"], written, regions)


def test_every_box_of_an_area_has_its_middle_in_its_country():
    with _default_csv().open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    lat, lon = (np.array([float(r[k]) for r in rows]) for k in ("lat", "lon"))
    boxed = [e for e in ENTRIES if e.get("boxes")]
    assert len(boxed) >= 30
    for entry in boxed:
        for cc, boxes in entry["boxes"].items():
            for south, west, north, east in boxes:
                assert south < north and west < east, entry["name"]
                mid_lat, mid_lon = (south + north) / 2, (west + east) / 2
                nearest = np.argmin(
                    (lat - mid_lat) ** 2 + ((lon - mid_lon) * np.cos(np.radians(mid_lat))) ** 2
                )
                assert rows[nearest]["cc"] == cc, (entry["name"], rows[nearest]["name"])


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["name"])
def test_every_name_of_an_area_is_read_as_it(entry):
    for name in (entry["name"], *entry.get("also", ())):
        (hit,) = find_areas(fold(f"photos from {name} last summer"))
        assert hit[2].name == entry["name"], name
        assert area(name) is hit[2]


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("photos in europe", {"place": "Europe"}),  # was a concept "europe"
        ("our trip to south america", {"place": "South America"}),
        ("africa safari", {"and": [{"place": "Africa"}, {"concept": "safari"}]}),
        ("new england in the fall", {"and": [{"place": "New England"}, {"month": [9, 10, 11]}]}),
        ("the middle east", {"place": "the Middle East"}),
        ("south africa", {"place": "South Africa"}),  # a country of its own, not Africa and "south"
        ("central america", {"place": "Central America"}),
        # a direction before a country or an area is all of it (was a place "South", a concept "northern")
        ("the south of france", {"place": "France"}),
        ("northern italy", {"place": "Italy"}),
        ("eastern europe", {"place": "Europe"}),
        ("west wales", {"place": "Wales"}),  # a bare direction too (was a concept "west" beside Wales)
        ("south wales", {"place": "South Wales"}),  # an area of its own: its counties
        (
            "north wales coast",
            {"and": [{"place": "North Wales"}, {"concept": "coast"}]},
        ),  # was "north" and Wales
        ("walks in west yorkshire", {"and": [{"concept": "walk"}, {"place": "West Yorkshire"}]}),
        ("the yorkshire dales", {"or": [{"place": "the Yorkshire Dales"}, {"concept": "yorkshire dales"}]}),
        ("yorkshire pudding", {"concept": "yorkshire pudding"}),  # a thing named after it
        ("black forest cake", {"concept": "black forest cake"}),  # a thing its entry lists
        ("long island iced tea", {"concept": "long island iced tea"}),
        ("santorini wine", {"and": [{"place": "Santorini"}, {"concept": "wine"}]}),
        ("hiking in the black forest", {"and": [{"concept": "hiking"}, {"place": "the Black Forest"}]}),
        ("the bay area", {"place": "the Bay Area"}),  # was a concept "bay area"
        ("socal beaches", {"and": [{"place": "Southern California"}, {"concept": "beach"}]}),
        ("long island", {"place": "Long Island"}),  # New York's: was the Bahamas' island
        ("the midlands", {"place": "the Midlands"}),
        ("upstate new york", {"place": "New York"}),
        ("south korea", {"place": "South Korea"}),  # a country of its own
        # where the words name a place themselves, they stay it
        ("western australia", {"place": "Western Australia"}),
        ("north carolina", {"place": "North Carolina"}),
        ("northern ireland", {"place": "Northern Ireland"}),
        ("central station", {"concept": "central station"}),
        # an area a photo shows is also its look, as a famous sight's is
        (
            "penguin in antarctica",
            {"and": [{"concept": "penguin"}, {"or": [{"place": "Antarctica"}, {"concept": "antarctica"}]}]},
        ),
        ("notre dame", {"concept": "notre dame"}),  # no typo for "note dame"
        ("cinque terre", {"place": "Cinque Terre"}),  # nor "cinque terry"; was a concept
        # parts of countries no region of the geocoder names (were concepts "algarve", "santorini sunset")
        ("beaches in the algarve", {"and": [{"concept": "beach"}, {"place": "the Algarve"}]}),
        ("santorini sunset", {"and": [{"place": "Santorini"}, {"concept": "sunset"}]}),
        ("provence lavender", {"and": [{"place": "Provence"}, {"concept": "lavender"}]}),
        ("cote d'azur", {"place": "the French Riviera"}),
        ("lake tahoe skiing", {"and": [{"place": "Lake Tahoe"}, {"concept": "skiing"}]}),
        (
            "the scottish highlands in autumn",
            {"and": [{"place": "the Scottish Highlands"}, {"month": [9, 10, 11]}]},
        ),
        # a nationality before an area is that country, in the area (was a concept "swiss")
        (
            "the swiss alps",
            {"and": [{"place": "Switzerland"}, {"or": [{"place": "the Alps"}, {"concept": "alp"}]}]},
        ),
        # a thing named after the place stays the thing, unless it is said to be there
        ("madeira cake", {"concept": "madeira cake"}),
        # a national park is its boxes, or its name's look, as a famous sight is (were concepts alone)
        (
            "hiking in zion",
            {"and": [{"concept": "hiking"}, {"or": [{"place": "Zion"}, {"concept": "zion"}]}]},
        ),
        (
            "the grand tetons",
            {"or": [{"place": "Grand Teton National Park"}, {"concept": "grand teton"}]},
        ),
        ("arches", {"concept": "arch"}),  # the park needs its "national park"
        ("cake in madeira", {"and": [{"concept": "cake"}, {"place": "Madeira"}]}),
    ],
)
def test_areas_and_directions_are_read(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


@pytest.fixture
def travels(store):
    return placed_catalog(
        store,
        {
            "lisbon.jpg": (38.7223, -9.1393),
            "kyoto.jpg": (35.0116, 135.7681),
            "boston.jpg": (42.3601, -71.0589),  # Massachusetts: New England
            "austin.jpg": (30.2672, -97.7431),  # Texas: not New England
            "cusco.jpg": (-13.5320, -71.9675),
            "scan.jpg": None,
        },
    )


def test_an_area_finds_the_photos_whose_country_or_region_lies_in_it(travels, settings):
    res = search(travels, settings, "photos in europe", now=NOW, signals=[])
    assert sure_names(res) == ["lisbon.jpg"]
    assert _why_text(res["results"][0]["why"]).startswith("taken in Europe (")
    assert sure_names(search(travels, settings, "new england", now=NOW, signals=[])) == ["boston.jpg"]
    assert sure_names(search(travels, settings, "north america", now=NOW, signals=[])) == [
        "austin.jpg",
        "boston.jpg",
    ]
    assert sure_names(search(travels, settings, "our trip to south america", now=NOW, signals=[])) == [
        "cusco.jpg"
    ]
    res = search(travels, settings, "photos from africa", now=NOW, signals=[])
    assert sure_names(res) == [] and "no photo taken in Africa" in " ".join(res["explain"]["unmet"])
    # outside an area: taken somewhere known, not there (a scan with no place is not known to be)
    assert sure_names(search(travels, settings, "photos outside of europe", now=NOW, signals=[])) == [
        "austin.jpg",
        "boston.jpg",
        "cusco.jpg",
        "kyoto.jpg",
    ]


def test_an_area_no_region_names_finds_the_photos_taken_in_its_boxes(store, settings):
    placed_catalog(
        store,
        {
            "oia.jpg": (36.4618, 25.3753),  # the geocoder names Oia, in the South Aegean
            "fira.jpg": (36.4167, 25.4322),
            "mykonos.jpg": (37.4467, 25.3289),  # the same region, another island
            "faro.jpg": (37.0194, -7.9322),  # the district of Faro: the Algarve
            "lisbon.jpg": (38.7223, -9.1393),
            "nice.jpg": (43.7102, 7.2620),
            "monaco.jpg": (43.7384, 7.4246),  # another country, in a box of its own
            "marseille.jpg": (43.2965, 5.3698),  # Provence, not the Riviera
        },
    )
    res = search(store, settings, "santorini", now=NOW, signals=[])
    assert sure_names(res) == ["fira.jpg", "oia.jpg"]
    assert _why_text(res["results"][0]["why"]).startswith("taken in Santorini (")
    assert sure_names(search(store, settings, "the algarve", now=NOW, signals=[])) == ["faro.jpg"]
    assert sure_names(search(store, settings, "french riviera", now=NOW, signals=[])) == [
        "monaco.jpg",
        "nice.jpg",
    ]
    assert sure_names(search(store, settings, "provence", now=NOW, signals=[])) == [
        "marseille.jpg",
        "nice.jpg",
    ]


@pytest.mark.parametrize(
    "request_text,where",
    [
        (
            "dogs in paris and cats in london",  # were dogs, cats, Paris and London at once: no photo
            {
                "or": [
                    {"and": [{"concept": "dog"}, {"place": "Paris"}]},
                    {"and": [{"concept": "cat"}, {"place": "London"}]},
                ]
            },
        ),
        ("photos in paris and london", {"or": [{"place": "Paris"}, {"place": "London"}]}),
        ("dogs and cats in paris", {"and": [{"concept": "dog"}, {"concept": "cat"}, {"place": "Paris"}]}),
    ],
)
def test_clauses_that_each_name_a_place_are_either(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


def test_two_trips_in_one_request_find_each(store, settings):
    from datetime import datetime

    lisbon, kyoto = (38.7223, -9.1393), (35.0116, 135.7681)
    catalog_of(
        store,
        {
            "lisbon_2019.jpg": {"gps": lisbon, "taken": datetime(2019, 5, 1, 12)},
            "lisbon_2020.jpg": {"gps": lisbon, "taken": datetime(2020, 5, 1, 12)},
            "kyoto_2020.jpg": {"gps": kyoto, "taken": datetime(2020, 6, 1, 12)},
            "kyoto_2019.jpg": {"gps": kyoto, "taken": datetime(2019, 6, 1, 12)},
        },
        "/trips",
    )
    res = search(store, settings, "lisbon in 2019 and kyoto in 2020", now=NOW, signals=[])
    assert sure_names(res) == ["kyoto_2020.jpg", "lisbon_2019.jpg"]  # was none: both places at once


def test_a_county_and_an_area_of_counties_find_the_photos_taken_there(store, settings):
    placed_catalog(
        store,
        {
            "exeter.jpg": (50.7184, -3.5339),  # the geocoder's county Devon, England
            "devon_alberta.jpg": (53.3668, -113.7353),  # a town called Devon
            "canterbury.jpg": (51.2802, 1.0789),  # Kent
            "anaheim.jpg": (33.8366, -117.9143),  # Orange County, California: Southern California
            "palo_alto.jpg": (37.4419, -122.1430),  # Santa Clara County: the Bay Area, Silicon Valley
            "halifax.jpg": (53.7248, -1.8658),  # Calderdale: West Yorkshire, Yorkshire
            "bangor.jpg": (53.2274, -4.1293),  # Gwynedd: North Wales
            "montauk.jpg": (41.0359, -71.9545),  # Suffolk County, New York: Long Island
        },
    )

    def sure(request_text: str) -> list[str]:
        return sure_names(search(store, settings, request_text, now=NOW, signals=[]))

    # "devon" names a county and towns: each is read (was the towns alone, in Alberta and Pennsylvania)
    res = search(store, settings, "photos in devon", now=NOW, signals=[])
    assert sure_names(res) == ["devon_alberta.jpg", "exeter.jpg"]
    exeter = next(r for r in res["results"] if r["path"].endswith("exeter.jpg"))
    assert _why_text(exeter["why"]).startswith("taken in Devon (")
    assert sure("devon, england") == ["exeter.jpg"]
    assert sure("photos in kent") == ["canterbury.jpg"]  # no town called Kent is in the library
    assert sure("orange county") == ["anaheim.jpg"]  # was the colour orange and a concept "county"
    assert sure("socal") == ["anaheim.jpg"]
    assert sure("the bay area") == ["palo_alto.jpg"]
    assert sure("silicon valley") == ["palo_alto.jpg"]
    assert sure("west yorkshire") == ["halifax.jpg"]
    assert sure("yorkshire") == ["halifax.jpg"]
    assert sure("north wales") == ["bangor.jpg"]
    assert sure("long island") == ["montauk.jpg"]  # was the Bahamas' Long Island
    res = search(store, settings, "the bay area", now=NOW, signals=[])
    assert _why_text(res["results"][0]["why"]).startswith("taken in the Bay Area (")
