"""Library chores as requests: "unnamed faces" and "people I haven't named" (a face nobody named
yet), "named people"; "untagged photos" and "photos I haven't tagged" (no tag of yours nor keyword of
the file; the heart is no tag), "tagged photos". Before, "photos i haven't tagged" was every photo,
"tagged photos" the tag "photos" and "unnamed faces" a concept "unnamed" beside a face."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Face, Folder, Person
from photosearch.query.parser import parse_request
from photosearch.query.search import search
from photosearch.query.unmet import describe
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo, sure_names

NOW = date(2024, 5, 15)
UNTAGGED = {"not": {"tag": "*"}}


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("untagged photos", UNTAGGED),
        ("photos i haven't tagged", UNTAGGED),
        ("photos not tagged yet", UNTAGGED),
        ("photos without tags", UNTAGGED),
        ("tagged photos", {"tag": "*"}),
        ("photos with tags", {"tag": "*"}),
        ("photos tagged beach", {"tag": "beach"}),  # as before
        ("not tagged as beach", {"not": {"tag": "beach"}}),
        ("unnamed faces", {"person": "?"}),
        ("people i haven't named", {"person": "?"}),
        ("faces without a name", {"person": "?"}),
        ("faces to name", {"person": "?"}),  # was a face and a concept "name"
        ("photos with keywords", {"tag": "*"}),  # a keyword of the file is a tag (was a concept)
        ("unrated photos", {"not": {"rating": {"min": 1, "max": None}}}),  # was a concept "unrated"
        ("rated photos", {"rating": {"min": 1, "max": None}}),
        ("photos i haven't rated", {"not": {"rating": {"min": 1, "max": None}}}),  # was every photo
        ("pics we never rated yet", {"not": {"rating": {"min": 1, "max": None}}}),
        ("photos with a rating", {"rating": {"min": 1, "max": None}}),
        ("photos with stars", {"concept": "star"}),  # the night sky's
        ("photos taken with the front camera", {"concept": "selfie"}),  # its lens says so (was "camera")
        # the phone camera's portrait mode is a portrait, not the photo's shape; "portrait format" is
        ("portrait mode photos", {"faces": {"min": 1, "max": 1}}),
        ("photos in portrait format", {"orientation": "portrait"}),
        # a burst's photos are near-duplicates (was a concept "burst")
        ("burst photos", {"similar": "*"}),
        ("bursts of the dog", {"and": [{"similar": "*"}, {"concept": "dog"}]}),
        ("a burst pipe", {"concept": "burst pipe"}),
        # videos are not in the library: what they are of is searched in the photos, and a note says so
        ("videos of the kids", {"concept": "kid"}),  # was one concept "videos kid"
        ("clips of the dog", {"concept": "dog"}),
        ("a 2-minute video of the kids", {"concept": "kid"}),  # its length too (was a concept "2")
        ("a video game", {"concept": "video game"}),
        ("hair clips", {"concept": "hair clip"}),
        ("files ending in .png", {"file": "*.png"}),  # was "files ending" and "png"
        (".png files", {"file": "*.png"}),
        ("img_001.png", {"file": "img_001.png"}),
        ("named people", {"person": "*"}),
        ("photos with no named people", {"not": {"person": "*"}}),
        ("photos from my old phone", {"camera": "phone"}),  # not a concept "phone"
    ],
)
def test_library_chores_read_as_conditions(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


@pytest.fixture
def library(store):
    """Photos with a named face, an unnamed face, both, none; with a tag, a file keyword, a heart only."""
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        anna = Person(name="Anna")
        s.add(anna)
        s.flush()
        faces = {"anna.jpg": [anna.id], "stranger.jpg": [None], "anna_and_stranger.jpg": [anna.id, None]}
        tags = {
            "anna.jpg": [FactRecord("user_tag", "holiday", 1.0)],
            "stranger.jpg": [FactRecord("user_tag", "favourite", 1.0)],  # a heart only: untagged
            "nobody.jpg": [],
        }
        for name in ("anna.jpg", "stranger.jpg", "anna_and_stranger.jpg", "nobody.jpg"):
            photo = add_photo(s, folder, name)
            for person in faces.get(name, []):
                s.add(Face(photo_id=photo.id, analyzer="faces", box=[0.1, 0.1, 0.3, 0.3], person_id=person))
            store.write_analysis(s, photo.id, "user", 1, AnalysisResult(facts=tags.get(name, [])))
        keyword = add_photo(s, folder, "keyword.jpg")
        store.write_analysis(
            s, keyword.id, "embedded", 2, AnalysisResult(facts=[FactRecord("keyword", "Lisbon", 1.0)])
        )
        s.commit()
    return store


def test_unnamed_and_named_faces_are_found(library, settings):
    assert sure_names(search(library, settings, "unnamed faces", signals=[])) == [
        "anna_and_stranger.jpg",
        "stranger.jpg",
    ]
    assert sure_names(search(library, settings, "named people", signals=[])) == [
        "anna.jpg",
        "anna_and_stranger.jpg",
    ]
    assert describe({"person": "?"}) == "of someone not named yet"


def test_a_video_word_is_left_out_and_the_note_says_why():
    _plan, _confidence, notes = parse_request("videos of the kids", now=NOW)
    assert notes == ["Only photos are searched: the library holds no videos, so “videos” was left out"]
    _plan, _confidence, notes = parse_request("a video game", now=NOW)
    assert notes == []


def test_untagged_photos_have_no_tag_nor_keyword_and_a_heart_is_no_tag(library, settings):
    assert sure_names(search(library, settings, "untagged photos", signals=[])) == [
        "anna_and_stranger.jpg",
        "nobody.jpg",
        "stranger.jpg",
    ]
    assert sure_names(search(library, settings, "tagged photos", signals=[])) == ["anna.jpg", "keyword.jpg"]
    assert describe({"tag": "*"}) == "with a tag"
