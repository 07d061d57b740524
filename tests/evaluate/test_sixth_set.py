"""The sixth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from photosearch.evaluate import sixth_set
from photosearch.evaluate.golden import load_golden

from .rules import relevant_stems

COSMOS_PROPERTIES = """<?xml version="1.0" encoding="UTF-8"?>
<wallpapers>
  <wallpaper deleted="false">
    <!-- Translators: This is the name of a desktop background image that shows outer space images.
         You might want to translate it into the equivalent words of your language  -->
    <name>Cosmos</name>
    <name xml:lang="de">Weltraum</name>
    <filename>/usr/share/backgrounds/cosmos/background-1.xml</filename>
  </wallpaper>
</wallpapers>
"""

COSMOS_SLIDESHOW = """<background>
  <static>
    <duration>1795.0</duration>
    <file>/usr/share/backgrounds/cosmos/comet.jpg</file>
  </static>
  <transition>
    <duration>5.0</duration>
    <from>/usr/share/backgrounds/cosmos/comet.jpg</from>
    <to>/usr/share/backgrounds/cosmos/sombrero.jpg</to>
  </transition>
  <static>
    <file>/usr/share/backgrounds/cosmos/sombrero.jpg</file>
  </static>
  <static>
    <file>/usr/share/backgrounds/cosmos/jupiter.jpg</file>
  </static>
</background>
"""

DLIB_TRAINING = """<?xml version='1.0' encoding='ISO-8859-1'?>
<dataset>
<name>Training faces</name>
<comment>These are images from the PASCAL VOC 2011 dataset.</comment>
<images>
  <image file='2008_001009.jpg' width='360' height='480'>
    <box top='79' left='145' width='76' height='76'/>
    <box top='214' left='125' width='90' height='91'/>
  </image>
  <image file='2008_001322.jpg' width='500' height='375'>
    <box top='162' left='104' width='76' height='76'/>
    <box top='218' left='232' width='63' height='63'/>
    <box top='30' left='20' width='20' height='20' ignore='1'/>
    <box top='100' left='300' width='63' height='63'/>
  </image>
</images>
</dataset>
"""

DLIB_TESTING = """<?xml version='1.0' encoding='ISO-8859-1'?>
<dataset>
<images>
  <image file='2009_004587.jpg' width='400' height='500'>
    <box top='90' left='194' width='37' height='37'/>
  </image>
</images>
</dataset>
"""

COPYRIGHT = """Files: lemonldap-ng-portal/site/htdocs/static/common/backgrounds/*
Copyright: Various artists
License: CC-BY-NC-ND-3.0 or GFDL-1.3
Comment: downloaded from https://commons.wikimedia.org
"""


def _shape(label: str, group: int | None = None) -> dict:
    return {
        "label": label,
        "points": [[0, 0], [1, 1]],
        "group_id": group,
        "shape_type": "polygon",
        "flags": {},
    }


#: labelme annotations as its examples write them: one person drawn as two shapes of one group.
ANNOTATIONS = {
    "instance_segmentation/data_annotated/2011_000003.json": {
        "shapes": [
            _shape("person", 0),
            _shape("person", 0),
            _shape("person"),
            _shape("bottle"),
            _shape("__ignore__"),
        ],
        "flags": {},
    },
    "instance_segmentation/data_annotated/2011_000006.json": {
        "shapes": [_shape("person"), _shape("person"), _shape("person"), _shape("sofa", 0), _shape("chair")],
        "flags": {},
    },
    "instance_segmentation/data_annotated/2011_000025.json": {
        "shapes": [_shape("bus"), _shape("bus"), _shape("car")],
        "flags": {},
    },
    "classification/data_annotated/0001.json": {
        "shapes": [],
        "flags": {"__ignore__": False, "cat": True, "dog": False},
    },
    "classification/data_annotated/0002.json": {
        "shapes": [],
        "flags": {"__ignore__": False, "cat": False, "dog": True},
    },
    "video_annotation/data_annotated/00000100.json": {
        "shapes": [_shape("car", 1), _shape("track")],
        "flags": {},
    },
    "tutorial/apc2016_obj3.json": {
        "shapes": [_shape("shelf"), _shape("kong_air_dog_squeakair_tennis_ball"), _shape("mead_index_cards")],
        "flags": {},
    },
}


def test_file_names_and_titles_say_what_a_photo_shows():
    assert sixth_set.name_words("coffee2") == "coffee 2"
    assert sixth_set.name_words("Hot_Air_Balloons_H") == "hot air balloons h"
    assert sixth_set.name_words("galaxy-ngc3370") == "galaxy ngc 3370"
    assert sixth_set.name_words("BrockenSnowedTrees") == "brocken snowed trees"
    assert sixth_set.commons_title("1280px-Parry_Peak_from_Winter_Park") == "parry peak from winter park"
    assert (
        sixth_set.commons_title("1280px-Anse_Source_d'Argent_2-La_Digue") == "anse source d'argent 2 la digue"
    )
    assert (
        sixth_set.commons_title("Aletschgletscher_mit_Pinus_cembra1") == "aletschgletscher mit pinus cembra 1"
    )
    assert (
        sixth_set.gallery_stem("1280px-Anse_Source_d'Argent_2-La_Digue") == "anse_source_d_argent_2_la_digue"
    )
    assert sixth_set.is_big_enough((512, 512)) and sixth_set.is_big_enough((167, 250))
    assert not sixth_set.is_big_enough((96, 96))


def test_the_slideshow_and_its_note_say_what_its_photos_show():
    assert sixth_set.slideshow_files(COSMOS_SLIDESHOW) == ["comet.jpg", "sombrero.jpg", "jupiter.jpg"]
    assert sixth_set.translator_shows(COSMOS_PROPERTIES) == "outer space images"
    assert sixth_set.translator_shows("<wallpapers/>") == ""


def test_the_annotations_count_faces_and_things():
    assert sixth_set.face_boxes(DLIB_TRAINING) == {"2008_001009.jpg": 2, "2008_001322.jpg": 3}
    labels = sixth_set.labelme_labels(ANNOTATIONS["instance_segmentation/data_annotated/2011_000003.json"])
    assert labels == {"person": 2, "bottle": 1}  # one person in two shapes, no "__ignore__"
    assert sixth_set.labelme_labels(ANNOTATIONS["classification/data_annotated/0001.json"]) == {"cat": 1}
    apc = sixth_set.labelme_labels(ANNOTATIONS["tutorial/apc2016_obj3.json"])
    assert "kong air dog squeakair tennis ball" in apc
    about = sixth_set.counts_text({"person": 2, "tennis ball": 1})
    assert about == "person=2 tennis_ball=1"
    assert sixth_set.count_of(about, "person") == 2 and sixth_set.count_of(about, "tennis ball") == 1
    assert sixth_set.count_of(about, "bus") == 0


def _jpeg(path: Path, size: tuple[int, int] = (320, 240), colour: str = "grey") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def _fake_cache(root: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    deb = root / "root"
    for stem in ("cat", "mountain", "tree", "bicycle"):
        _jpeg(deb / sixth_set.GNOME_FACES / f"{stem}.jpg", (512, 512))
    _jpeg(deb / sixth_set.GNOME_FACES / "puppy.jpg", (96, 96))  # too small
    _jpeg(deb / sixth_set.GNOME_FACES / "legacy" / "sunset.jpg", (512, 512))  # not in the folder taken
    for stem in ("snow", "fog", "trams"):
        _jpeg(deb / sixth_set.LIFEOGRAPH / f"{stem}.jpg")
    for stem in (
        "1280px-BrockenSnowedTrees",
        "1280px-Parry_Peak_from_Winter_Park",
        "Aletschgletscher_mit_Pinus_cembra1",
    ):
        _jpeg(deb / sixth_set.LEMONLDAP / f"{stem}.jpg")
    (deb / sixth_set.LEMONLDAP_COPYRIGHT).parent.mkdir(parents=True)
    (deb / sixth_set.LEMONLDAP_COPYRIGHT).write_text(COPYRIGHT, encoding="utf-8")
    for member in sixth_set.TAGUA_PHOTOS:
        _jpeg(deb / member)
    slideshow = deb / sixth_set.COSMOS_SLIDESHOW
    slideshow.parent.mkdir(parents=True)
    slideshow.write_text(COSMOS_SLIDESHOW, encoding="utf-8")
    for name in ("comet", "sombrero", "jupiter"):
        _jpeg(slideshow.parent / f"{name}.jpg", colour="black")
    (deb / sixth_set.COSMOS_PROPERTIES).parent.mkdir(parents=True)
    (deb / sixth_set.COSMOS_PROPERTIES).write_text(COSMOS_PROPERTIES, encoding="utf-8")
    for name in sixth_set.RMAGICK_PHOTOS:
        _jpeg(deb / sixth_set.RMAGICK / name, (167, 250))
    faces = deb / sixth_set.DLIB_FACES
    for name, text in zip(sixth_set.DLIB_BOXES, (DLIB_TRAINING, DLIB_TESTING), strict=True):
        faces.mkdir(parents=True, exist_ok=True)
        (faces / name).write_text(text, encoding="latin-1")
    for name in ("2008_001009.jpg", "2008_001322.jpg", "2009_004587.jpg", *sixth_set.DLIB_NAMED):
        _jpeg(faces / name)
    for photo, annotation in sixth_set.LABELME_PHOTOS:
        _jpeg(deb / sixth_set.LABELME / photo)
        (deb / sixth_set.LABELME / annotation).write_text(
            json.dumps(ANNOTATIONS[annotation]), encoding="utf-8"
        )
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = sixth_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    assert counts["photos"] == 4 + 3 + 3 + 1 + 3 + len(sixth_set.RMAGICK_PHOTOS) + 4 + len(
        sixth_set.LABELME_PHOTOS
    )
    assert counts["sources"] == [
        "dlib", "gnome", "labelme", "lemonldap-ng", "lifeograph", "mate-cosmos", "rmagick", "tagua",
    ]  # fmt: skip
    gallery = tmp_path / "set" / sixth_set.PART
    snow = next((gallery / "pictures").glob("brocken_snowed_trees.*"))
    with Image.open(snow) as im:
        assert im.size == (320, 240)
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    stems = relevant_stems({q.id: q.relevant for q in gold.queries})

    assert stems["mountain"] == ["mont_blanc", "mountain", "parry_peak_from_winter_park"]
    assert stems["winter"] == ["brocken_snowed_trees", "snow"]  # not Winter Park
    assert stems["tree"] == ["aletschgletscher_mit_pinus_cembra1", "brocken_snowed_trees", "tree"]
    assert stems["outer space"] == ["comet", "jupiter", "sombrero"]
    assert stems["galaxy"] == ["sombrero"]
    assert stems["space photos but not planets"] == ["comet", "sombrero"]
    assert stems["cat"] == ["0001", "cat"]
    assert stems["dog"] == ["0002"]  # not the dog's toy on the shelf
    assert stems["two people"] == ["2008_001009", "2011_000003"]
    assert stems["group of people"] == ["2008_001322", "2011_000006"]
    assert stems["two buses"] == ["2011_000025"]
    assert stems["cars, not buses"] == ["00000100"]
    assert len(by_id["people"].relevant) == 4 + 2 + 2  # faces, persons, ballerinas
    assert "glacier" in by_id and "absent: giraffe" in by_id and "puppy" not in by_id
    assert not any(Path(p).stem in ("puppy", "sunset") for q in gold.queries for p in q.relevant)
