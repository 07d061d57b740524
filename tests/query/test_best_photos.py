""" "Best photos", "top rated": no model judges merit, so the photos the user marked: a heart or four
stars or more in the file; the request says so, and the chip says it in words."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.parser import parse_request
from photosearch.query.search import search
from photosearch.query.unmet import node_words
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo, sure_names

NOW = date(2024, 5, 15)
BEST = {"or": [{"tag": "favourite"}, {"rating": {"min": 4, "max": None}}]}


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("best photos", BEST),
        ("top rated pictures", BEST),
        ("my best shots of dogs", {"and": [BEST, {"concept": "dog"}]}),
        ("best friends", {"faces": {"min": 2, "max": None}}),  # people, not photos: two or more
        ("the best man", {"concept": "man"}),
        ("nice photos", BEST),  # a taste alone: what the user likes
        ("my really good pictures", BEST),
        ("nice beach", {"concept": "beach"}),  # a taste beside a thing is dropped
        ("beautiful photos of the beach", {"concept": "beach"}),
        ("cool pictures of dogs", {"concept": "dog"}),
        ("great white shark", {"concept": "great white shark"}),  # one noun: kept
        ("great dane", {"concept": "great dane"}),
        ("beach near Nice", {"and": [{"concept": "beach"}, {"place": "Nice"}]}),  # a name
        ("a nice day at the beach", {"concept": "beach"}),  # the outing is where it went
    ],
)
def test_best_reads_the_photos_the_user_marked(request_text, where):
    plan, _conf, notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where
    marked = any("was read as your favourites and the photos rated four stars or more" in n for n in notes)
    assert marked == ("or" in str(plan["where"]))


def test_best_photos_are_the_hearted_and_the_highly_rated(store, settings):
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, facts in (
            ("hearted.jpg", [FactRecord("user_tag", "favourite", 1.0)]),
            ("five_stars.jpg", [FactRecord("rating", "5", 1.0)]),
            ("two_stars.jpg", [FactRecord("rating", "2", 1.0)]),
            ("plain.jpg", []),
        ):
            photo = add_photo(s, folder, name)
            store.write_analysis(s, photo.id, "embedded", 1, AnalysisResult(facts=facts))
    res = search(store, settings, "best photos", signals=[])
    assert sure_names(res) == ["five_stars.jpg", "hearted.jpg"]
    assert any("“best” was read as" in r for r in res["explain"]["remarks"])
    assert node_words(BEST) == "tagged favourite or rated four stars or more"
