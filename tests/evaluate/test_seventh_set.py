"""The seventh test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from photosearch.evaluate import seventh_set
from photosearch.evaluate.golden import load_golden

from .rules import relevant_stems

TAQUIN_COPYRIGHT = """Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: gnome-taquin

Files: *
Copyright: 2014-2015 Arnaud Bonatti
License: GPL-3+

Files: data/themes/cats/1-Cat_face_day.jpg
Copyright: Abelard (user:Abelard~commonswiki) on Wikimedia Commons
License: CC-BY-SA-3.0

Files: data/themes/cats/1-Tortoiseshell.jpg
Copyright: Toyah on Wikimedia Commons
License: public-domain

Files: data/themes/numbers/*
Copyright: GNOME
License: GPL-3+
"""

GRAMPS_TREE = """<?xml version="1.0" encoding="UTF-8"?>
<database xmlns="http://gramps-project.org/xml/1.7.1/">
  <people>
    <person handle="_P1" id="I0001">
      <name type="Birth Name"><first>Aksel</first></name>
      <objref hlink="_O1"/>
    </person>
    <person handle="_P2" id="I0002">
      <objref hlink="_O2">
        <region corner1_x="10" corner1_y="10" corner2_x="40" corner2_y="40"/>
      </objref>
    </person>
  </people>
  <families>
    <family handle="_F1" id="F0001">
      <objref hlink="_O3"/>
    </family>
  </families>
  <objects>
    <object handle="_O1" change="1" id="O0008">
      <file src="654px-Aksel_Andersson.jpg" mime="image/jpeg" description="654px-Aksel_Andersson"/>
      <attribute type="Description" value="This seems to be a photo of a relative"/>
    </object>
    <object handle="_O2" change="1" id="O0010">
      <file src="1897_expeditionsmannschaft_rio_a.jpg" mime="image/jpeg" description="expedition"/>
      <dateval val="1897"/>
    </object>
    <object handle="_O3" change="1" id="O0006">
      <file src="Alimehemet.jpg" mime="image/jpeg" description="Alimehemet"/>
    </object>
  </objects>
</database>
"""

PIKEPDF_PAGE = """<html><body>
<img alt="pike fish being released to water" src="../_images/pike-release.jpg" />
<img alt="Image of many species of fish" src="../_images/28fish.jpg" />
</body></html>
"""
PIKEPDF_INDEX = """<html><body>
<img alt="A square of pikemen, carrying pikes" src="_images/pikemen.jpg" />
<img src="_images/logo.png" />
</body></html>
"""

CASTLE_AUTHORS = """Source of images:

main_menu_original.jpg
from http://www.flickr.com/photos/97663393@N00/120973620/
(license: CC Attribution-ShareAlike 2.0)

train_crash_original.jpg
from http://www.flickr.com/photos/dvdmerwe/104898475/
(license: CC Attribution 2.0)

water_ducks_original.jpg
from http://www.flickr.com/photos/cygnusx1/22688395/
(license: CC Attribution 2.0)

human_beach_original.jpg
from http://www.flickr.com/photos/exfordy/386002036/
(license: CC Attribution 2.0)

locations/home/forest.jpg
from http://www.flickr.com/photos/garibaldi/522196113/
(license: CC Attribution-ShareAlike 2.0)

nany textures named lemog_xxx
from http://lemog.fr/
"""


def test_file_names_and_titles_say_what_a_photo_shows():
    assert seventh_set.name_words("river1") == "river 1"
    assert seventh_set.name_words("konijntjes1024x768") == "konijntjes 1024 x 768"
    assert seventh_set.file_title("800px-C_Marchi-GrandCentral-adj") == "c marchi grand central adj"
    assert seventh_set.file_title("1-Cat_face_day") == "cat face day"
    assert seventh_set.file_title("wikimedia_bandedkrait") == "bandedkrait"
    assert seventh_set.file_title("1897_expeditionsmannschaft_rio_a") == "1897 expeditionsmannschaft rio a"
    assert seventh_set.gallery_stem("600px-Tuebingen_Neckarfront_small15") == "tuebingen_neckarfront_small15"
    assert seventh_set.gallery_stem("flower.png.im_q85_444") == "flower_png_im_q85_444"
    assert seventh_set.is_big_enough((300, 200)) and not seventh_set.is_big_enough((200, 174))


def test_the_copyright_file_names_the_credited_photos_one_by_one():
    names = seventh_set.copyright_credits(TAQUIN_COPYRIGHT, "data/themes/cats", "Wikimedia Commons")
    assert names == ["1-Cat_face_day.jpg", "1-Tortoiseshell.jpg"]
    assert seventh_set.copyright_credits(TAQUIN_COPYRIGHT, "data/themes/numbers", "Wikimedia") == []


def test_the_family_tree_takes_only_the_photos_a_person_refers_to():
    people = seventh_set.gramps_people_photos(GRAMPS_TREE)
    assert sorted(people) == ["1897_expeditionsmannschaft_rio_a.jpg", "654px-Aksel_Andersson.jpg"]
    assert "photo of a relative" in people["654px-Aksel_Andersson.jpg"]  # not Alimehemet: a family's


def test_alt_texts_and_credits_describe_the_photos():
    alts = seventh_set.alt_texts(PIKEPDF_PAGE + PIKEPDF_INDEX)
    assert alts["pike-release.jpg"] == "pike fish being released to water"
    assert alts["pikemen.jpg"] == "A square of pikemen, carrying pikes"
    assert "logo.png" not in alts  # no alt text, no description
    credited = seventh_set.credited_photos(CASTLE_AUTHORS, "flickr.com")
    assert credited == [
        "main_menu_original.jpg",
        "train_crash_original.jpg",
        "water_ducks_original.jpg",
        "human_beach_original.jpg",
        "locations/home/forest.jpg",
    ]  # not the textures: credited to a site as a group


def _jpeg(path: Path, size: tuple[int, int] = (320, 240), colour: str = "grey") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, colour).save(path)


def _fake_cache(root: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    deb = root / "root"
    for _, member in seventh_set.NAMED:
        _jpeg(deb / member)
    _jpeg(deb / "usr/share/darknet/data/scream.jpg")  # not named: not taken
    (deb / seventh_set.TAQUIN_COPYRIGHT).parent.mkdir(parents=True)
    (deb / seventh_set.TAQUIN_COPYRIGHT).write_text(TAQUIN_COPYRIGHT, encoding="utf-8")
    for name in ("1-Cat_face_day.jpg", "1-Tortoiseshell.jpg"):
        _jpeg(deb / seventh_set.TAQUIN_CATS / name, (640, 640))
    gramps = deb / seventh_set.GRAMPS
    gramps.mkdir(parents=True)
    (gramps / seventh_set.GRAMPS_TREE).write_text(GRAMPS_TREE, encoding="utf-8")
    _jpeg(gramps / "654px-Aksel_Andersson.jpg")
    _jpeg(gramps / "1897_expeditionsmannschaft_rio_a.jpg", (200, 150))  # too small
    _jpeg(gramps / "Alimehemet.jpg")
    html = deb / seventh_set.PIKEPDF_HTML
    (html / "topics").mkdir(parents=True)
    (html / "topics" / "images.html").write_text(PIKEPDF_PAGE, encoding="utf-8")
    (html / "index.html").write_text(PIKEPDF_INDEX, encoding="utf-8")
    for name in (*seventh_set.PIKEPDF_PHOTOS, "28fish.jpg"):
        _jpeg(html / "_images" / name)
    castle = deb / seventh_set.CASTLE_GAME
    castle.mkdir(parents=True)
    (castle / seventh_set.CASTLE_AUTHORS).write_text(CASTLE_AUTHORS, encoding="utf-8")
    for name in (
        "train_crash_original",
        "water_ducks_original",
        "human_beach_original",
        "main_menu_original",
    ):
        _jpeg(castle / "images" / f"{name}.jpg")
    _jpeg(castle / "locations/home/forest.jpg")
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = seventh_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    assert counts["photos"] == len(seventh_set.NAMED) + 2 + 1 + 2 + 4
    assert "castle" in counts["sources"] and "taquin" in counts["sources"]
    gallery = tmp_path / "set" / seventh_set.PART
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}
    stems = relevant_stems({q.id: q.relevant for q in gold.queries})

    assert stems["cat"] == ["cat", "cat_2", "cat_face_day", "tortoiseshell"]
    assert stems["pike"] == ["pike_release", "pikemen"]  # the fish and the weapon
    assert stems["fish"] == ["pike_release"]  # not the engraving of fish: not taken
    assert stems["snake"] == ["snake", "wikimedia_bandedkrait"]
    assert stems["snakes except the banded krait"] == ["snake"]
    assert stems["bunny"] == ["konijntjes1024x768"]
    assert stems["birds"] == ["eagle", "egret", "owl", "water_ducks_original"]
    assert stems["birds but not the owl"] == ["eagle", "egret", "water_ducks_original"]
    assert stems["group of people"] == ["pikemen", "solvay_conference_1927_version2_1280x881"]
    assert stems["photo of a relative"] == ["aksel_andersson"]
    assert stems["train"] == ["train_crash_original"]
    assert stems["forest"] == ["forest"]
    assert stems["person on a beach"] == ["human_beach_original"]
    assert "crash" not in by_id and "main menu" not in by_id
    assert "absent: elephant" in by_id and by_id["absent: elephant"].absent
    judged = {Path(p).stem for q in gold.queries for p in q.relevant}
    assert not judged & {"alimehemet", "scream", "28fish", "main_menu_original"}
    assert not (gallery / "downloads" / "alimehemet.jpg").exists()
