"""Organising by location: "photos with location", "geotagged", "without GPS" read the place atom's
"any known place" ("*"): photos with GPS coordinates or a place the file names."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.parser import parse_request
from photosearch.query.search import search
from photosearch.query.unmet import describe

from .gallery import placed_catalog, sure_names

NOW = date(2024, 5, 15)


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("photos with location", {"place": "*"}),
        ("geotagged photos", {"place": "*"}),
        ("photos without location", {"not": {"place": "*"}}),
        ("pictures with no GPS", {"not": {"place": "*"}}),
        ("not geotagged", {"not": {"place": "*"}}),
        ("photos missing location", {"not": {"place": "*"}}),  # was a concept "missing location"
        ("pictures lacking gps data", {"not": {"place": "*"}}),
        ("ungeotagged photos", {"not": {"place": "*"}}),
        ("photos on the map", {"place": "*"}),  # was a concept "map"
        ("the photos not on the map", {"not": {"place": "*"}}),
        ("a map of the trail", {"and": [{"concept": "map"}, {"concept": "trail"}]}),
        ("dogs with gps data", {"and": [{"concept": "dog"}, {"place": "*"}]}),
        ("a new location", {"concept": "location"}),  # a word, not the photo's place
    ],
)
def test_location_words_read_any_known_place(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


def test_photos_with_and_without_a_known_place(store, settings):
    placed_catalog(
        store, {"lisbon.jpg": (38.72, -9.14), "sydney.jpg": (-33.87, 151.21), "scan.jpg": None}, "/pics"
    )
    assert sure_names(search(store, settings, "photos with location", signals=[])) == [
        "lisbon.jpg",
        "sydney.jpg",
    ]
    assert sure_names(search(store, settings, "photos without location", signals=[])) == ["scan.jpg"]
    assert describe({"place": "*"}) == "with a known place"
