"""Famous sights are places and looks: "photos at the eiffel tower" finds the photos taken within the
sight's reach by their GPS (and those that look like it, the sight kept as a concept too). Before,
"the eiffel tower" was a concept only: a geotagged photo taken under it was not found for where it
was taken. The sights' coordinates are checked against the offline geocoder's country."""

from __future__ import annotations

from datetime import date

import pytest
import yaml

from photosearch.catalog.models import Folder
from photosearch.cli.search import _why_text
from photosearch.query.landmarks import LANDMARKS_FILE, find_landmarks, landmark
from photosearch.query.parser import parse_request
from photosearch.query.places import fold
from photosearch.query.resolvers.places import reverse_geocode
from photosearch.query.search import search
from photosearch.query.unmet import describe

from .gallery import add_photo, placed_catalog, sure_names, tagged_catalog

NOW = date(2024, 5, 15)
ENTRIES = yaml.safe_load(LANDMARKS_FILE.read_text(encoding="utf-8"))


def test_every_sight_is_where_its_country_is():
    """The offline geocoder (GeoNames) puts each sight's coordinates in the country the file says."""
    assert len(ENTRIES) >= 50
    found = reverse_geocode([(e["lat"], e["lon"]) for e in ENTRIES])
    wrong = [(e["name"], e["cc"], g["cc"]) for e, g in zip(ENTRIES, found, strict=True) if e["cc"] != g["cc"]]
    assert wrong == []
    assert all(0 < e["km"] <= 50 for e in ENTRIES)


def test_every_sight_is_known_by_name_or_says_what_it_looks_like():
    """The concept beside the place is the sight's name where WordNet knows it ("Eiffel Tower": a
    tower), else what the models see ("Trevi Fountain": a fountain, not a "trevi" too)."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    for e in ENTRIES:
        names = [e["name"], *e.get("also", ())]
        known = any(wn.lookup(n.lower().replace(" ", "_")) for n in names)
        assert e.get("looks") or e.get("alike") or known, e["name"]
    plan, _conf, _notes = parse_request("trevi fountain at night", now=NOW)
    assert plan["where"] == {
        "and": [{"or": [{"place": "Trevi Fountain"}, {"concept": "fountain"}]}, {"concept": "night"}]
    }


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["name"])
def test_every_name_of_a_sight_is_read_as_it(entry):
    for name in (entry["name"], *entry.get("also", ())):
        (hit,) = find_landmarks(fold(f"photos at the {name} last summer"))
        assert hit[2].name == entry["name"], name
        assert landmark(name) is hit[2]


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("the eiffel tower", {"or": [{"place": "Eiffel Tower"}, {"concept": "eiffel tower"}]}),
        (
            "anna at the taj mahal",
            {"and": [{"person": "Anna"}, {"or": [{"place": "Taj Mahal"}, {"concept": "taj mahal"}]}]},
        ),
        (
            "big ben at night",
            {"and": [{"or": [{"place": "Big Ben"}, {"concept": "big ben"}]}, {"concept": "night"}]},
        ),
        ("a tower", {"concept": "tower"}),  # no sight named
        ("paris", {"place": "Paris"}),
    ],
)
def test_a_sight_is_its_place_or_its_look(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW, people=["Anna"])
    assert plan["where"] == where


@pytest.fixture
def trip(store):
    with store.session() as s:
        folder = Folder(path="/trip")
        s.add(folder)
        s.flush()
        add_photo(s, folder, "under_the_tower.jpg", gps=(48.8577, 2.2950))  # the Champ de Mars
        add_photo(s, folder, "notre_dame.jpg", gps=(48.8530, 2.3499))  # Paris, 4 km from the tower
        add_photo(s, folder, "westminster.jpg", gps=(51.5008, -0.1243))
        add_photo(s, folder, "scan.jpg")
    return store


def test_a_sight_finds_the_photos_taken_within_its_reach(trip, settings):
    res = search(trip, settings, "photos at the eiffel tower", now=NOW, signals=[])
    assert sure_names(res) == ["under_the_tower.jpg"]
    assert _why_text(res["results"][0]["why"]).startswith("taken near the Eiffel Tower (")
    assert sure_names(search(trip, settings, "big ben", now=NOW, signals=[])) == ["westminster.jpg"]
    assert sure_names(search(trip, settings, "paris", now=NOW, signals=[])) == [
        "notre_dame.jpg",
        "under_the_tower.jpg",
    ]


def test_a_sight_nobody_went_to_is_said(trip, settings):
    res = search(trip, settings, "the colosseum", now=NOW, signals=[])
    assert sure_names(res) == []
    assert "no photo taken at the Colosseum" in " ".join(res["explain"]["unmet"])
    assert describe({"place": "Big Ben"}) == "taken at Big Ben"


def test_a_sight_that_looks_like_many_places_is_sure_only_where_it_was_taken(store, settings):
    """A lake is no proof of Lake Como, nor a cliff of the Cliffs of Moher (was: any cliff, sure): the
    photos taken there are sure; where none was, the lakes are its closest matches."""
    tagged_catalog(store, {"lake_at_home.jpg": (None, "lakeside"), "cliff.jpg": (None, "cliff")})
    placed_catalog(store, {"varenna.jpg": (46.0104, 9.2836)}, folder_path="/trip")  # on Lake Como
    plan, _conf, _notes = parse_request("lake como in summer", now=NOW)
    assert plan["where"] == {"and": [{"place": "Lake Como"}, {"month": [6, 7, 8]}]}
    assert sure_names(search(store, settings, "lake como", now=NOW, signals=[])) == ["varenna.jpg"]
    res = search(store, settings, "the cliffs of moher", now=NOW, signals=[])
    assert sure_names(res) == []
    assert res["results"][0]["path"].endswith("cliff.jpg")  # the closest match: it looks like one
    assert "no photo taken at the Cliffs of Moher" in " ".join(res["explain"]["unmet"])
