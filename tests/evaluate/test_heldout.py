"""The held-out real set: descriptions read from the packages, judgements from them, split by source."""

from __future__ import annotations

import pytest

from photosearch.evaluate import heldout
from photosearch.evaluate.golden import parse_golden
from photosearch.evaluate.qt_resources import QtResourceFile, ResourceFileError
from tests.required import require, require_file

README = """Copyright: Djambalawa
License: Public Domain
Source: https://commons.wikimedia.org/wiki/File:Saltwater_Crocodile_on_a_river_bank_(cropped).jpg
Files:
crocodile.webp

Copyright: Video Girl
Source: https://publicdomainpictures.net/en/view-image.php?image=266857&picture=heavy-sledgehammer
License: CC0-1.0
Files: hammer3.webp
"""

BOARD = """    property var tab: [
        {
            "image": "qrc:/gcompris/src/activities/explore_world_animals/resource/animals/question.svg",
            "title": qsTr("Giraffe"),
            "text": qsTr("The giraffe lives in Africa and is the tallest mammal in the world."),
            "image2": "qrc:/gcompris/src/activities/explore_world_animals/resource/animals/giraffe.webp",
            "text2": qsTr("Giraffe"),
        }]"""

XML = """<wallpapers><wallpaper deleted="false">
    <!-- Translators: This is the name of a desktop background image that shows an orange/red flower.
        You might want to translate it -->
    <name>Fresh Flower</name><name xml:lang="sv">Friskblomma</name>
    <filename>/usr/share/backgrounds/mate/nature/FreshFlower.jpg</filename>
</wallpaper></wallpapers>"""


def test_descriptions_come_from_the_sources_own_words():
    assert heldout.readme_titles(README) == {
        "crocodile.webp": "Saltwater Crocodile on a river bank cropped",
        "hammer3.webp": "heavy sledgehammer",
    }
    assert heldout.board_texts(BOARD) == {
        "giraffe.webp": ("Giraffe", "The giraffe lives in Africa and is the tallest mammal in the world.")
    }
    assert heldout.mate_names(XML) == {"FreshFlower.jpg": "Fresh Flower an orange/red flower"}
    assert heldout.split_name("greatPyramidOfGiza2") == "great pyramid of giza"
    assert heldout.file_stem("greatPyramidOfGiza2") == "great_pyramid_of_giza2"


def test_rules_judge_by_description_and_leave_absent_concepts_out():
    croc = heldout.Photo(
        "wildlife/crocodile.jpg", "crocodile saltwater crocodile on a river bank", "g", "dev"
    )
    lizard = heldout.Photo("wildlife/dragon.jpg", "komodo dragon", "g", "dev", about="largest living lizard")
    gold = heldout.golden([croc, lizard], "dev")
    by_id = {q["id"]: q for q in gold["queries"]}
    assert by_id["crocodile by the river"]["relevant"] == ["wildlife/crocodile.jpg"]
    assert by_id["reptile"]["relevant"] == ["wildlife/crocodile.jpg", "wildlife/dragon.jpg"]
    assert by_id["animals but not birds"]["relevant"] == ["wildlife/crocodile.jpg", "wildlife/dragon.jpg"]
    absent = [q for q in gold["queries"] if q.get("absent")]
    assert absent and all(q["relevant"] == [] for q in absent)
    assert "absent: zebra" in by_id and "absent: pyramid" in by_id
    # a concept a photo's description names is never asked for as absent in that part
    pyramid = heldout.Photo("travel/red_pyramid.jpg", "red pyramid egypt", "g", "dev")
    ids = {q["id"] for q in heldout.golden([croc, pyramid], "dev")["queries"]}
    assert "absent: pyramid" not in ids and "pyramid" in ids
    parsed = parse_golden(gold, heldout.Path("."))  # the golden loader reads what the builder wrote
    assert sum(q.absent for q in parsed.queries) == len(absent)


@pytest.fixture(scope="module")
def photos():
    require_file(heldout.GCOMPRIS_RCC, "gcompris-qt-data")
    require_file(heldout.MATE_NATURE, "mate-backgrounds")
    return heldout.all_photos()


def test_the_set_is_split_by_source_and_judged_within_each_part(photos):
    parts = {part: [p for p in photos if p.part == part] for part in heldout.PARTS}
    assert len(parts["dev"]) >= 80 and len(parts["test"]) >= 80
    folders = {part: {p.rel.split("/", 1)[0] for p in ps} for part, ps in parts.items()}
    assert not folders["dev"] & folders["test"]  # no source folder in both parts
    assert {p.source for p in parts["test"]} >= {"gcompris/erase", "mate-backgrounds"}
    assert "mate-backgrounds" not in {p.source for p in parts["dev"]}
    formats = {p.rel.rsplit(".", 1)[-1] for p in photos}
    assert {"jpg", "heic", "webp", "avif", "png", "tif"} <= formats
    for part, mine in parts.items():
        gold = heldout.golden(photos, part)
        rels = {p.rel for p in mine}
        judged = [q for q in gold["queries"] if not q.get("absent")]
        assert len(judged) >= 60 and all(set(q["relevant"]) <= rels for q in judged)
        assert {q["notes"] for q in judged} >= {"word", "synonym", "category", "colour", "count", "scene"}
        assert sum(bool(q.get("absent")) for q in gold["queries"]) >= 10
    by_rel = {p.rel: p for p in parts["test"]}
    assert "taj mahal" in by_rel["travel/wonders/taj_mahal.jpg"].text  # the game's own title
    assert "white marble" in by_rel["travel/wonders/taj_mahal.jpg"].about


def test_writes_a_gallery_a_photo_folder_would_hold(photos, tmp_path):
    pillow_heif = require("pillow_heif")
    pillow_heif.register_heif_opener()
    from PIL import Image

    some = [next(p for p in photos if p.rel.endswith(ext)) for ext in (".jpg", ".heic", ".avif")]
    heldout.write_gallery(tmp_path, some)
    for p in some:
        with Image.open(tmp_path / p.part / p.rel) as im:
            assert min(im.size) >= 200
            assert im.format in {"JPEG", "HEIF", "AVIF"}


def test_qt_resource_reader_matches_qt(tmp_path):
    """Every file of a real GCompris resource file reads as Qt itself reads it."""
    rcc = require_file(heldout.GCOMPRIS_RCC / "explore_farm_animals.rcc", "gcompris-qt-data")
    qtcore = require("PySide6.QtCore")
    ours = QtResourceFile.open(rcc)
    assert qtcore.QResource.registerResource(str(rcc), "/heldout_test")
    try:
        paths = [p for p in ours.paths() if p.startswith("/gcompris/")]
        assert len(paths) >= 20
        for path in paths:
            f = qtcore.QFile(":/heldout_test" + path)
            assert f.open(qtcore.QIODevice.OpenModeFlag.ReadOnly), path
            assert bytes(f.readAll().data()) == ours.read(path), path
            f.close()
    finally:
        qtcore.QResource.unregisterResource(str(rcc), "/heldout_test")
    with pytest.raises(ResourceFileError, match="not a Qt resource"):
        QtResourceFile(b"PK\x03\x04 not qres at all", "x.rcc")
    with pytest.raises(KeyError, match="no file"):
        ours.read("/nope")
