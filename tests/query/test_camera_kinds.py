""" "Photos from my phone", "drone shots", "dslr photos": the camera atom's kinds of camera, read from
the EXIF make and model as phones, drones, action cameras and dedicated cameras write them; a maker of
cameras too counts by its phones' model names only."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.parser import parse_request
from photosearch.query.resolvers.camera_kinds import camera_kind, is_phone
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
        ("taken with my camera phone", {"camera": "phone"}),
        # a drone's, an action camera's, a dedicated camera's photos; the thing itself in the photo
        ("drone shots of the beach", {"and": [{"camera": "drone"}, {"concept": "beach"}]}),
        ("photos taken with my drone", {"camera": "drone"}),
        ("filmed by drone over the lake", {"and": [{"camera": "drone"}, {"concept": "lake"}]}),
        ("mavic shots", {"camera": "drone"}),
        ("dji mini 3 photos", {"camera": "drone"}),  # its EXIF model is the camera's, "FC3582"
        ("a photo of a drone", {"concept": "drone"}),
        ("kids flying a drone", {"and": [{"concept": "kid"}, {"concept": "drone"}]}),
        ("action cam footage", {"camera": "action camera"}),
        ("gopro footage", {"and": [{"camera": "GoPro"}, {"concept": "footage"}]}),  # the brand first
        ("pictures from my dslr", {"camera": "dedicated camera"}),
        ("slr photos", {"camera": "dedicated camera"}),
        ("mirrorless camera photos", {"camera": "dedicated camera"}),
        ("point and shoot photos", {"camera": "dedicated camera"}),
        ("photos from my camera", {"camera": "dedicated camera"}),
        ("taken with a real camera", {"camera": "dedicated camera"}),
        ("photos from my canon camera", {"camera": "Canon"}),
        ("a photo of my camera", {"concept": "camera"}),
        ("photos taken by a camera trap", {"concept": "camera trap"}),
        ("photos from my camera bag", {"concept": "camera bag"}),
        # the whole library said as a place is every photo; a library in a town is a library
        ("beach photos in my library", {"concept": "beach"}),
        ("photos from my camera roll", {"and": []}),
        ("sunsets in my entire collection", {"concept": "sunset"}),
        ("the library in oxford", {"and": [{"concept": "library"}, {"place": "Oxford"}]}),
    ],
)
def test_camera_words_read_a_kind_of_camera(request_text, where):
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


@pytest.mark.parametrize(
    "camera,kind",
    [
        ("apple iphone 13", "phone"),
        ("dji fc3582", "drone"),  # a Mini 3 Pro
        ("hasselblad l1d-20c", "drone"),  # a Mavic 2 Pro's camera
        ("parrot anafi", "drone"),
        ("dji osmoaction", "action camera"),
        ("dji osmo pocket", "action camera"),
        ("gopro hero9 black", "action camera"),
        ("arashi vision insta360 one x2", "action camera"),
        ("canon eos 80d", "dedicated camera"),
        ("sony ilce-7m3", "dedicated camera"),
        ("hasselblad x1d ii 50c", "dedicated camera"),  # Hasselblad's own camera
        ("fujifilm x100v", "dedicated camera"),
        ("nikon super coolscan 5000 ed", None),  # a film scanner took no photo
        ("epson perfection v600", None),
        ("hp photosmart r967", "dedicated camera"),  # a maker of scanners made cameras too
        ("", None),
    ],
)
def test_the_kind_of_camera_by_its_make_and_model(camera, kind):
    assert camera_kind(camera) == kind


def _cameras(store, cameras: dict[str, tuple[str, str]]) -> None:
    """One photo per name, taken with that make and model ("" for none)."""
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, camera in cameras.items():
            add_photo(s, folder, name, camera=camera)


def test_photos_by_the_kind_of_camera(store, settings):
    _cameras(
        store,
        {
            "mini.jpg": ("DJI", "FC3582"),
            "mavic.jpg": ("Hasselblad", "L1D-20c"),
            "hero.jpg": ("GoPro", "HERO9 Black"),
            "eos.jpg": ("Canon", "Canon EOS 80D"),
            "iphone.jpg": ("Apple", "iPhone 13"),
            "film.jpg": ("Nikon", "Nikon SUPER COOLSCAN 5000 ED"),
            "unknown.jpg": ("", ""),
        },
    )
    assert sure_names(search(store, settings, "drone shots", signals=[])) == ["mavic.jpg", "mini.jpg"]
    assert sure_names(search(store, settings, "action cam footage", signals=[])) == ["hero.jpg"]
    assert sure_names(search(store, settings, "pictures from my dslr", signals=[])) == ["eos.jpg"]
    assert describe({"camera": "drone"}) == "taken with a drone"
    assert describe({"camera": "dedicated camera"}) == "taken with a camera, not a phone"


def test_photos_from_a_phone_and_the_others(store, settings):
    _cameras(
        store,
        {
            "iphone.jpg": ("Apple", "iPhone 13"),
            "galaxy.jpg": ("samsung", "SM-G991B"),
            "alpha.jpg": ("SONY", "ILCE-7M3"),
            "scan.jpg": ("", ""),
        },
    )
    assert sure_names(search(store, settings, "photos from my phone", signals=[])) == [
        "galaxy.jpg",
        "iphone.jpg",
    ]
    assert sure_names(search(store, settings, "not taken with a phone", signals=[])) == [
        "alpha.jpg",
        "scan.jpg",
    ]
    assert describe({"camera": "phone"}) == "taken with a phone"
