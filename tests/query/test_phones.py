""" "Photos from my phone": the camera atom's "phone" is any phone's camera, read from the EXIF make and
model as phones write them; a maker of cameras too counts by its phones' model names only."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.parser import parse_request
from photosearch.query.resolvers.phones import is_phone
from photosearch.query.search import search
from photosearch.query.unmet import describe

from .gallery import add_photo, sure_names

NOW = date(2024, 5, 15)


@pytest.mark.parametrize(
    "request_text,where",
    [
        ("photos from my phone", {"camera": "phone"}),
        ("taken with a phone", {"camera": "phone"}),
        ("phone pictures of the beach", {"and": [{"camera": "phone"}, {"concept": "beach"}]}),
        ("not taken with my phone", {"not": {"camera": "phone"}}),
        ("a photo of my phone", {"concept": "phone"}),  # the phone in the photo
        ("shot on a Pixel 7", {"camera": "Pixel 7"}),
    ],
)
def test_phone_words_read_any_phone(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where


@pytest.mark.parametrize(
    "camera,phone",
    [
        ("apple iphone 13", True),
        ("samsung sm-g991b", True),
        ("samsung nx300", False),  # Samsung's camera
        ("google pixel 7", True),
        ("sony xq-at51", True),  # an Xperia
        ("sony ilce-7m3", False),  # an Alpha
        ("xiaomi 2201123g", True),
        ("canon eos 5d mark iii", False),
        ("", False),
    ],
)
def test_a_camera_is_a_phone_by_its_make_and_model(camera, phone):
    assert is_phone(camera) is phone


def test_photos_from_a_phone_and_the_others(store, settings):
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        add_photo(s, folder, "iphone.jpg", camera=("Apple", "iPhone 13"))
        add_photo(s, folder, "galaxy.jpg", camera=("samsung", "SM-G991B"))
        add_photo(s, folder, "alpha.jpg", camera=("SONY", "ILCE-7M3"))
        add_photo(s, folder, "scan.jpg")
    assert sure_names(search(store, settings, "photos from my phone", signals=[])) == [
        "galaxy.jpg",
        "iphone.jpg",
    ]
    assert sure_names(search(store, settings, "not taken with a phone", signals=[])) == [
        "alpha.jpg",
        "scan.jpg",
    ]
    assert describe({"camera": "phone"}) == "taken with a phone"
