"""Which photo editor worked on a photo is read and searchable: exiftool writes what Lightroom, GIMP
and Snapseed write (EXIF Software, XMP CreatorTool, the edit history) into real photos and a sidecar;
the real `embedded` analyzer indexes it; "edited photos", "photos edited in lightroom" and "unedited
photos" find them. A phone's system version and a metadata tool are no edit; a copy named
"-edited" is one."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, update

from photosearch.catalog.models import Analysis, Fact, Photo
from photosearch.cli.search import _why_text
from photosearch.core import Core
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from photosearch.metadata.editing import edited_by_name, editor_name, read_editors
from photosearch.metadata.model import Block
from photosearch.query.search import search
from tests.metadata.galleries import embedded_gallery

#: name -> (photo, exiftool arguments)
PHOTOS = {
    "lightroom.jpg": ("astronaut", ("-Software=Adobe Photoshop Lightroom Classic 12.0 (Windows)",)),
    "gimp.jpg": ("rocket", ("-XMP-xmp:CreatorTool=GIMP 2.10.34",)),
    "snapseed.jpg": (
        "coffee",
        ("-XMP-xmpMM:HistorySoftwareAgent=Snapseed 2.0", "-XMP-xmpMM:HistoryAction=saved"),
    ),
    "phone.jpg": ("chelsea", ("-Software=16.4", "-Make=Apple", "-Model=iPhone 14")),  # the system's version
    "tagged.jpg": ("flower", ("-Software=digiKam-8.2.0",)),  # a metadata tool wrote it
    "IMG_0042-edited.jpg": ("astronaut", ()),  # an edited copy, by its name
    "develop.png": ("rocket", ()),  # develop settings in develop.png.xmp
}


@pytest.fixture
def catalog(tmp_path, real_photos):
    sidecar = {"develop.png.xmp": ("-XMP-crs:HasSettings=True", "-XMP-crs:Exposure2012=+0.50")}
    store, settings, _gallery, _indexer = embedded_gallery(tmp_path, real_photos, PHOTOS, sidecar)
    return store, settings


def _found(store, settings, request: str) -> list[str]:
    res = search(store, settings, request, signals=[])
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])


EDITED = ["IMG_0042-edited.jpg", "develop.png", "gimp.jpg", "lightroom.jpg", "snapseed.jpg"]


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("edited photos", EDITED),
        ("photos i edited", EDITED),
        ("photos edited in lightroom", ["lightroom.jpg"]),
        ("lightroom edits", ["lightroom.jpg"]),
        ("snapseed photos", ["snapseed.jpg"]),
        ("pictures edited with gimp", ["gimp.jpg"]),
        ("photos edited in camera raw", ["develop.png"]),  # develop settings in a sidecar
        ("unedited photos", ["phone.jpg", "tagged.jpg"]),
        ("photos straight out of camera", ["phone.jpg", "tagged.jpg"]),
    ],
)
def test_edits_are_found_by_the_editor_or_by_any(catalog, request_text, expected):
    """Before, "edited photos" was a concept "edited", "lightroom edits" a concept "lightroom edit"."""
    store, settings = catalog
    assert _found(store, settings, request_text) == expected


def test_each_photo_says_what_edited_it(catalog):
    store, settings = catalog
    res = search(store, settings, "edited photos", signals=[])
    said = {r["path"].rsplit("/", 1)[-1]: _why_text(r["why"]) for r in res["results"]}
    assert said["lightroom.jpg"] == "edited in Lightroom"
    assert said["IMG_0042-edited.jpg"] == "an edited copy, by its file name"


def test_an_editor_nobody_used_is_said(catalog):
    store, settings = catalog
    res = search(store, settings, "photos edited in capture one", signals=[])
    assert res["explain"]["unmet"] == ["no photo edited in Capture One"]
    assert not [r for r in res["results"] if not r["below_cutoff"]]


def test_a_photos_details_say_what_edited_it(catalog):
    store, settings = catalog
    core = Core(settings, store=store)
    with store.session() as s:
        ids = {p.path.rsplit("/", 1)[-1]: p.id for p in s.query(Photo)}
    assert core.details(ids["lightroom.jpg"]).exif["Edited"] == "Lightroom"
    assert core.details(ids["IMG_0042-edited.jpg"]).exif["Edited"] == "yes, by its file name"
    assert "Edited" not in core.details(ids["phone.jpg"]).exif


def test_a_catalog_indexed_before_editors_were_read_gets_them_at_its_next_index(catalog):
    store, settings = catalog
    with store.session() as s:  # as version 2 of the analyzer left it
        s.execute(delete(Fact).where(Fact.kind == "editor"))
        s.execute(update(Analysis).where(Analysis.analyzer == "embedded").values(version=2))
        s.commit()
    assert _found(store, settings, "edited photos") == []
    Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)]).run()
    assert _found(store, settings, "edited photos") == EDITED


@pytest.mark.parametrize(
    ("software", "editor"),
    [
        ("Adobe Photoshop Lightroom Classic 12.0 (Windows)", "Lightroom"),
        ("Adobe Photoshop 24.0 (Macintosh)", "Photoshop"),
        ("darktable 4.6.1", "darktable"),
        ("Capture One 23 Macintosh", "Capture One"),
        ("Ver.1.01", None),  # firmware
        ("HDR+ 1.0.540104767zd", None),  # a phone's camera
        ("ExifTool", None),
        ("Picasa", None),  # an organizer's metadata
    ],
)
def test_only_photo_editors_are_editors(software, editor):
    assert editor_name(software) == editor


def test_darktable_s_history_in_a_sidecar_is_an_edit():
    block = Block("x.xmp", xmp={"Xmp.darktable.history": 'type="Seq"', "Xmp.xmp.CreatorTool": "ExifTool"})
    assert read_editors(block) == ["darktable"]
    assert read_editors(Block("x.jpg", exif={"Exif.Image.Software": "16.4"})) == []


@pytest.mark.parametrize(
    ("name", "edited"),
    [
        ("IMG_1234-edited.jpg", True),
        ("IMG_1234 (Edited).jpg", True),
        ("DSC_0042-Edit-2.tif", True),
        ("photo_edit.jpg", True),
        ("editorial.jpg", False),
        ("credit-card.jpg", False),
        ("IMG_1234.jpg", False),
    ],
)
def test_a_copy_named_as_edited_is_one(name, edited):
    assert edited_by_name(name) is edited
