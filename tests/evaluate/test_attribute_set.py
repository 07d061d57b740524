"""The attribute set's labels come from what a photo's source says (and its file's channel count),
never from its pixels; generated copies carry their transform's labels; the held-out TEST part is
never read."""

from __future__ import annotations

from datetime import datetime

import numpy as np
from PIL import Image

from photosearch.evaluate import attribute_set, heldout
from photosearch.evaluate.attribute_set import Labelled, from_files, generated, labels_from
from tests.required import require_file


def test_labels_come_from_the_words():
    assert labels_from("a red apple") == {"monochrome": False, "sepia": False}
    assert labels_from('gray-level "camera" image')["monochrome"] is True
    assert labels_from("color image of the astronaut eileen collins")["monochrome"] is False
    # the subject's colours and habits are not the photo's
    assert "monochrome" not in labels_from("the panda is black and white")
    assert "night" not in labels_from("owls are nocturnal birds with excellent hearing at night")
    assert labels_from("hubble extreme deep field") == {"night": True, "dark": True}
    assert labels_from("a birch at winter")["white scene"] is True
    assert labels_from("palace building towers birds sky") == {"sky": True}
    assert labels_from("a cow") == {}
    assert labels_from("A rainbow lorikeet.")["colourful"] is True  # what the source says, not the pixels
    assert labels_from("A colorful rooster.")["colourful"] is True
    cutout = labels_from("a cow", cutout=True)
    assert cutout == {"sky": False, "sunset": False, "night": False, "dark": False}


def test_files_are_labelled_by_description_and_channels_not_pixels(tmp_path):
    grey_pixels = np.full((40, 60, 3), 128, np.uint8)
    vivid_pixels = np.zeros((40, 60, 3), np.uint8)
    vivid_pixels[..., 0] = 255
    Image.fromarray(grey_pixels).save(tmp_path / "apple.png")  # colourless pixels, a red apple said
    Image.fromarray(vivid_pixels).save(tmp_path / "scan.png")  # vivid pixels, a greyscale image said
    Image.fromarray(vivid_pixels[..., 0]).save(tmp_path / "one_channel.png")  # mode L
    photos = from_files(
        [
            ("x/apple", "opencv", tmp_path / "apple.png", "A red apple"),
            ("x/scan", "opencv", tmp_path / "scan.png", "Grayscale scan"),
            ("x/one_channel", "skimage", tmp_path / "one_channel.png", "Brick wall"),
        ]
    )
    labels = {p.name: p.labels for p in photos}
    assert labels["x/apple"]["monochrome"] is False
    assert labels["x/scan"]["monochrome"] is True
    assert labels["x/one_channel"] == {"monochrome": True, "sepia": False, "colourful": False}
    assert [p.part for p in photos] == ["fit", "fit", "check"]
    assert photos[0].load().shape == (40, 60, 3)


def test_generated_copies_carry_their_transform_and_part():
    rgb = np.zeros((8, 8, 3), np.uint8)
    rgb[..., 0] = 200
    real = [
        Labelled(f"skimage/p{i}", "skimage", "a red thing", labels_from("a red thing"), lambda: rgb)
        for i in range(4)
    ]
    real.append(Labelled("skimage/grey", "skimage", "gray-level", labels_from("gray-level"), lambda: rgb))
    copies = generated(real, every=3)
    assert {c.name.split(":", 1)[1] for c in copies} == {"skimage/p0", "skimage/p3"}  # every 3rd, no grey one
    assert len(copies) == 2 * len(attribute_set.TRANSFORMS)
    by = {c.transform: c for c in copies if c.name.endswith("p0")}
    assert by["sepia"].labels == {"sepia": True, "monochrome": False, "colourful": False}
    assert by["sepia"].part == "check"
    grey = by["desaturated"].load()
    assert grey.shape == rgb.shape and (grey[..., 0] == grey[..., 2]).all()
    # -4 EV and +2 EV in linear light: sRGB 200 -> 53 and -> 255 (clipped)
    assert by["underexposed"].load()[0, 0, 0] == 53 and by["overexposed"].load()[0, 0, 0] == 255


def test_only_the_held_out_dev_part_is_read(monkeypatch):
    def never() -> Image.Image:
        raise AssertionError("a TEST photo was decoded")

    def dev() -> Image.Image:
        return Image.new("RGB", (4, 4), (10, 200, 10))

    photos = [
        heldout.Photo("farm/cow.jpg", "cow green meadow", "gcompris/explore_farm_animals", "dev", dev),
        heldout.Photo(
            "nature/x.jpg", "snow at sunset", "mate-backgrounds", "test", never, datetime(2020, 1, 1)
        ),
    ]
    monkeypatch.setattr(heldout, "all_photos", lambda: photos)
    got = attribute_set.gcompris_dev_photos()
    assert [p.name for p in got] == ["gcompris-dev/farm/cow.jpg"]
    assert got[0].labels == {"monochrome": False, "sepia": False} and got[0].part == "check"
    assert got[0].load().shape == (4, 4, 3)


def test_the_installed_sources_make_both_parts():
    from photosearch.evaluate import realset

    require_file(realset.STAMPS, "tuxpaint-stamps-default")
    require_file(realset.OPENCV, "opencv-doc")
    require_file(heldout.GCOMPRIS_RCC, "gcompris-qt-data")
    photos = attribute_set.build(with_generated=False)
    parts = {part: [p for p in photos if p.part == part] for part in attribute_set.PARTS}
    for part, mine in parts.items():  # greyscale sources on both sides of the split
        assert sum(p.labels.get("monochrome") is True for p in mine) >= 5, part
        assert sum(p.labels.get("monochrome") is False for p in mine) >= 5, part
    dev_folders = {f.gallery for f in heldout.GCOMPRIS_FOLDERS if f.part == "dev"}
    gcompris = [p.name.split("/")[1] for p in photos if p.source == "gcompris-dev"]
    assert gcompris and set(gcompris) <= dev_folders
    by_name = {p.name: p for p in photos}
    assert by_name["skimage/camera"].labels["monochrome"] is True
    assert by_name["skimage/hubble_deep_field"].labels == {"night": True, "dark": True}
    assert by_name["tuxpaint/plants/trees/birch"].labels["sky"] is False  # a cut-out
