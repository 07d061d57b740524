"""The twelfth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import twelfth_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import judged

#: (source, words) of every photo the set takes.
PHOTOS = (
    ("thumbor", "christophe henner june 2016"), ("thumbor", "giunchedi filippo january 2015 01"),
    ("thumbor", "katherine maher"), ("thumbor", "guido portrait 2014"),
    ("face_recognition", "obama"), ("face_recognition", "obama2"), ("face_recognition", "obama3"),
    ("face_recognition", "biden"), ("castle-game-engine-src", "tigers"),
    ("sddm-theme-maldives", "maldives"),
)  # fmt: skip


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, sha256) in twelfth_set.SDISTS.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version) and re.fullmatch(r"[0-9a-f]{64}", sha256), name
    for name, version in twelfth_set.DEBS.items():
        assert re.fullmatch(r"[\w.~+:-]+-\d+", version), name
    assert {s for s, _ in twelfth_set.SDIST_PHOTOS} <= set(twelfth_set.SDISTS)


def test_descriptions_come_from_the_packages_own_words():
    assert (
        twelfth_set.photo_title("a/Giunchedi%2C_Filippo_January_2015_01.jpg")
        == "giunchedi filippo january 2015 01"
    )
    assert (
        twelfth_set.photo_title("thumbor/fixtures/filters/800px-Guido-portrait-2014.jpg")
        == "guido portrait 2014"
    )
    assert twelfth_set.photo_title("x/Christophe_Henner_-_June_2016.jpg") == "christophe henner june 2016"
    assert twelfth_set.photo_title("tests/test_images/obama2.jpg") == "obama 2"
    assert twelfth_set.is_big_enough((300, 250)) and not twelfth_set.is_big_enough((100, 68))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(twelfth_set.photo_title(text + ".jpg")), source, "test")


def _judge(request: str, source: str, text: str) -> bool:
    return judged(twelfth_set.QUERIES, request, _photo(source, text).text, source)


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("obama", "face_recognition", "obama2") and _judge(
        "barack obama", "face_recognition", "obama3"
    )
    assert _judge("joe biden", "face_recognition", "biden") and not _judge(
        "joe biden", "face_recognition", "obama"
    )
    assert _judge("filippo giunchedi", "thumbor", "giunchedi filippo january 2015 01")
    assert _judge("person", "thumbor", "katherine maher") and not _judge(
        "person", "castle-game-engine-src", "tigers"
    )
    assert _judge("people but not obama", "face_recognition", "biden")
    assert not _judge("people but not obama", "face_recognition", "obama")
    assert _judge("big cat", "castle-game-engine-src", "tigers") and _judge(
        "tiger", "castle-game-engine-src", "tigers"
    )
    assert not _judge("animals", "sddm-theme-maldives", "maldives")
    requests = [q for q, _, _ in twelfth_set.QUERIES]
    assert len(requests) == len(set(requests)) and len(requests) >= 25


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(twelfth_set.ABSENT) == 20
    for request, rule in twelfth_set.ABSENT:
        assert not any(rule(p) for p in photos), request
    for _, member in twelfth_set.SDIST_PHOTOS:
        assert "partial" not in Path(member).stem  # crops of another photo, left out
