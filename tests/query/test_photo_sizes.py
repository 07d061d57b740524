"""A photo's size as a request: "high resolution", "4k", "12mp", "low-res", "small images" (pixels),
"large files", "bigger than 10mb", "files under 500kb" (bytes). Before, "small images" was every
photo, "large files" a concept "file" and "photos bigger than 10mb" a concept "10mb"."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.parser import parse_request
from photosearch.query.photo_sizes import read_size, size_text
from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.search import search
from photosearch.query.unmet import describe

from .gallery import add_photo, sure_names

NOW = date(2024, 5, 15)


def _mp(lo=None, hi=None) -> dict:
    return {"size": {"of": "megapixels", "min": lo, "max": hi}}


def _mb(lo=None, hi=None) -> dict:
    return {"size": {"of": "megabytes", "min": lo, "max": hi}}


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("high resolution photos", _mp(12)),
        ("hi-res", _mp(12)),
        ("low resolution photos", _mp(None, 1)),
        ("4k photos", _mp(8)),
        ("photos in 8k", _mp(33)),
        ("photos over 20 megapixels", _mp(20)),
        ("12mp photos", _mp(12, 12)),
        ("5 to 10 megapixels", _mp(5, 10)),
        ("small images", _mp(None, 1)),
        ("large photos", _mp(12)),  # as "small images" are few pixels (was every photo)
        ("huge photos", _mp(12)),
        ("large files", _mb(10)),
        ("photos bigger than 10mb", _mb(10)),
        ("files under 500kb", _mb(None, 0.5)),
        ("10mb files", _mb(10, 10)),
        ("1-2 mb files", _mb(1, 2)),
        ("high resolution photos of dogs", {"and": [_mp(12), {"concept": "dog"}]}),
        # not sizes
        ("a large file cabinet", {"concept": "file cabinet"}),
        ("a big dog", {"concept": "dog"}),
        ("a small house", {"concept": "house"}),
    ],
)
def test_which_words_are_a_size(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


@pytest.mark.parametrize(
    "value,words",
    [
        (_mp(12)["size"], "12 megapixels or more"),
        (_mp(None, 1)["size"], "1 megapixel or less"),
        (_mp(12, 12)["size"], "12 megapixels"),
        (_mp(5, 10)["size"], "5 to 10 megapixels"),
        (_mb(10)["size"], "10 MB or more"),
        (_mb(None, 0.5)["size"], "500 KB or less"),
        (_mb(1, 2)["size"], "1 MB to 2 MB"),
    ],
)
def test_a_sizes_words_read_back_as_the_same_size(value, words):
    assert size_text(value) == words
    assert read_size(words) == {"size": value}


def test_the_size_atom_validates():
    plan = validate_plan({"where": {"size": {"of": "megapixels", "min": 12.0}}})
    assert plan["where"] == {"size": {"of": "megapixels", "min": 12, "max": None}}
    assert plan_to_text(plan).startswith("size 12 megapixels or more")
    assert describe({"size": {"of": "megabytes", "min": 10, "max": None}}) == "of 10 MB or more"
    for bad in (
        {"of": "flash"},
        {"of": "pixels", "min": 1},
        {"of": "megapixels"},
        {"of": "megabytes", "max": 0},
    ):
        with pytest.raises(PlanError):
            validate_plan({"where": {"size": bad}})


@pytest.fixture
def sized(store):
    """A 24 MP RAW-sized file, a 12 MP phone photo, an 8.3 MP 4K frame, a 0.3 MP web image."""
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, (w, h, size) in {
            "big.dng": (6000, 4000, 25_000_000),
            "phone.jpg": (4000, 3000, 3_000_000),
            "frame.png": (3840, 2160, 12_000_000),
            "web.jpg": (640, 480, 40_000),
        }.items():
            photo = add_photo(s, folder, name)
            photo.width, photo.height, photo.size = w, h, size
        s.commit()
    return store


def test_sizes_find_the_photos_and_the_nearest_when_none(sized, settings):
    assert sure_names(search(sized, settings, "high resolution", signals=[])) == ["big.dng", "phone.jpg"]
    assert sure_names(search(sized, settings, "4k photos", signals=[])) == [
        "big.dng",
        "frame.png",
        "phone.jpg",
    ]
    assert sure_names(search(sized, settings, "12mp", signals=[])) == ["phone.jpg"]
    assert sure_names(search(sized, settings, "low-res", signals=[])) == ["web.jpg"]
    assert sure_names(search(sized, settings, "large files", signals=[])) == ["big.dng", "frame.png"]
    assert sure_names(search(sized, settings, "files under 100kb", signals=[])) == ["web.jpg"]
    res = search(sized, settings, "photos over 50 megapixels", signals=[])
    assert res["explain"]["unmet"] == ["no photo of 50 megapixels or more"]
    first = res["results"][0]
    assert first["below_cutoff"] and first["path"].endswith("big.dng")  # 24 MP: the nearest
    assert any(w.get("text") == "24 megapixels, the nearest" for w in first["why"])


@pytest.mark.parametrize(
    "request_text,where,compose",
    [
        ("the biggest photos", {"and": []}, {"sort": "size_desc"}),
        ("largest files", {"and": []}, {"sort": "size_desc"}),
        ("what takes up the most space", {"and": []}, {"sort": "size_desc"}),
        ("sorted by file size", {"and": []}, {"sort": "size_desc"}),
        ("largest to smallest", {"and": []}, {"sort": "size_desc"}),
        ("the 10 largest files", {"and": []}, {"sort": "size_desc", "limit": 10}),
        ("the biggest photo", {"and": []}, {"sort": "size_desc", "limit": 1}),
        ("smallest files first", {"and": []}, {"sort": "size_asc"}),
        ("largest photos of dogs", {"concept": "dog"}, {"sort": "size_desc"}),
        ("highest resolution photos", {"and": []}, {"sort": "pixels_desc"}),
        ("the highest-res pictures", {"and": []}, {"sort": "pixels_desc"}),
        ("most megapixels", {"and": []}, {"sort": "pixels_desc"}),
        ("lowest resolution images", {"and": []}, {"sort": "pixels_asc"}),
        # a superlative of a thing is not an order of the photos
        ("the biggest dog", {"concept": "dog"}, {"sort": "relevance"}),
        ("the smallest cat", {"concept": "cat"}, {"sort": "relevance"}),
        ("high resolution photos", _mp(12), {"sort": "relevance"}),
    ],
)
def test_size_orders_are_sorts(request_text, where, compose):
    """Before, "the biggest photos" and "smallest photos" were every photo in no order, and
    "largest files" a concept "file"."""
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where
    assert {k: plan["compose"][k] for k in compose} == compose
    assert validate_plan(plan)["compose"]["sort"] == compose["sort"]


def test_size_sorts_order_the_photos_by_bytes_or_pixels_unknown_last(sized, settings):
    with sized.session() as s:
        add_photo(s, s.query(Folder).one(), "unknown.jpg").size = 0  # not read
        s.commit()
    res = search(sized, settings, "largest files first", signals=[])
    assert [r["path"].split("/")[-1] for r in res["results"]] == [
        "big.dng",
        "frame.png",
        "phone.jpg",
        "web.jpg",
        "unknown.jpg",
    ]
    assert res["results"][0]["why"] == [{"atom": "size", "text": "25 MB"}]
    smallest = search(sized, settings, "the 2 smallest files", signals=[])["results"]
    assert [r["path"].split("/")[-1] for r in smallest] == ["web.jpg", "phone.jpg"]
    res = search(sized, settings, "the highest resolution photo", signals=[])
    assert [r["path"].split("/")[-1] for r in res["results"]] == ["big.dng"]
    assert res["results"][0]["why"] == [{"atom": "size", "text": "24 megapixels"}]
    lowest = search(sized, settings, "lowest resolution first", signals=[])["results"]
    assert [r["path"].split("/")[-1] for r in lowest][:2] == ["web.jpg", "frame.png"]
    assert plan_to_text(res["plan"]).endswith("highest resolution first")
