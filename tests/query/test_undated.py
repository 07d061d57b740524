""" "Undated photos", "without a date": organising by whether a photo has a date taken at all (the
`yearly` atom over every day of the year, negated)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from photosearch.query.months import ANY_DAY
from photosearch.query.parser import parse_request
from photosearch.query.search import search
from photosearch.query.unmet import describe, node_words

from .gallery import dated_catalog, sure_names

NOW = date(2024, 5, 15)
KNOWN = {"yearly": ANY_DAY}


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("undated photos", {"not": KNOWN}),
        ("photos without a date", {"not": KNOWN}),
        ("pictures with no date", {"not": KNOWN}),
        ("dated photos", KNOWN),
        ("date night", {"concept": "date night"}),  # an evening out, not the photo's date
    ],
)
def test_date_words_read_whether_a_photo_has_a_date(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


def test_undated_photos_are_the_ones_without_a_date_taken(store, settings):
    dated_catalog(
        store,
        {"new_year.jpg": datetime(2021, 1, 1, 10), "eve.jpg": datetime(2020, 12, 31, 23), "scan.jpg": None},
    )
    assert sure_names(search(store, settings, "undated photos", signals=[])) == ["scan.jpg"]
    assert sure_names(search(store, settings, "dated photos", signals=[])) == ["eve.jpg", "new_year.jpg"]
    assert describe(KNOWN) == "taken on a known date"
    assert node_words({"not": KNOWN}) == "not taken on a known date"
