"""Nationality words before scenery (`query/demonyms.py`): "spanish beaches" are beaches in Spain;
before anything else a nationality is a style ("italian food") and stays part of one concept."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.areas import area
from photosearch.query.demonyms import demonym_places, scenery_words
from photosearch.query.parser import parse_request
from photosearch.query.places import resolve_place
from photosearch.query.senses import NATIONALITY_WORDS

NOW = date(2026, 6, 15)


def test_every_nationality_names_a_place_the_search_knows():
    for word, place in demonym_places().items():
        known = resolve_place(place)
        assert area(place) is not None or (known and known[0].name == place), (word, place)
        assert word in NATIONALITY_WORDS or " " in word, word  # an attribute, never read as a person
    assert "beach" in scenery_words() and "food" not in scenery_words()


@pytest.mark.parametrize(
    ("request_", "where"),
    [
        ("spanish beaches", {"and": [{"place": "Spain"}, {"concept": "beach"}]}),
        # the scenery an area names is that area too, in the country
        (
            "the swiss alps",
            {"and": [{"place": "Switzerland"}, {"or": [{"place": "the Alps"}, {"concept": "alp"}]}]},
        ),
        ("the scottish highlands", {"place": "the Scottish Highlands"}),  # an area of its own
        (
            "greek islands in summer",
            {"and": [{"place": "Greece"}, {"concept": "island"}, {"month": [6, 7, 8]}]},
        ),
        ("costa rican rainforest", {"and": [{"place": "Costa Rica"}, {"concept": "rainforest"}]}),
        ("african safari", {"and": [{"place": "Africa"}, {"concept": "safari"}]}),
        # a style that travels stays one concept
        ("italian food", {"concept": "italian food"}),
        ("an irish pub", {"concept": "irish pub"}),
        ("japanese garden", {"concept": "japanese garden"}),
    ],
)
def test_a_nationality_before_scenery_is_that_place(request_, where):
    plan, _confidence, notes = parse_request(request_, now=NOW)
    assert plan["where"] == where, notes


def test_the_note_says_where_the_scenery_was_read():
    _plan, _confidence, notes = parse_request("spanish beaches", now=NOW)
    assert notes == ["“spanish beaches” was read as beaches in Spain"]
