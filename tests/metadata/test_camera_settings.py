"""Camera settings are read and searchable: exiftool writes aperture, shutter, ISO, focal lengths and
the flash into real photos (and a sidecar); the real `embedded` analyzer indexes them; requests in a
photographer's words find them, a photo's details say them, and a catalog indexed before settings
were read gets them at its next index."""

from __future__ import annotations

import pytest
from sqlalchemy import delete, update

from photosearch.catalog.models import Analysis, Fact, Photo
from photosearch.cli.search import _why_text
from photosearch.core import Core
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from photosearch.metadata.exposure import KINDS
from photosearch.query.search import search
from tests.metadata import exiftool
from tests.metadata.galleries import embedded_gallery

#: name -> (photo, exiftool arguments): a prime at f/1.8, a landscape at f/8, a phone, a sidecar's
#: long exposure, and a photo that says nothing of how it was taken.
PHOTOS = {
    "portrait.jpg": (
        "astronaut",
        ("-FNumber=1.8", "-ExposureTime=1/250", "-ISO=3200", "-FocalLength=50", "-FocalLengthIn35mmFormat=75")
        + ("-Flash#=25",),
    ),
    "landscape.jpg": (
        "rocket",
        ("-FNumber=8", "-ExposureTime=1/1000", "-ISO=100", "-FocalLength=24", "-FocalLengthIn35mmFormat=24")
        + ("-Flash#=16",),
    ),
    "phone.jpg": (
        "coffee",
        ("-FNumber=1.6", "-ExposureTime=1/60", "-ISO=800", "-FocalLength=4.2", "-FocalLengthIn35mmFormat=26"),
    ),
    "night.png": ("chelsea", ()),  # its settings are in night.png.xmp
    "scan.jpg": ("flower", ()),
}
SIDECAR = (
    "-XMP-exif:FNumber=2.8",
    "-XMP-exif:ExposureTime=2",
    "-XMP-exif:ISO=200",
    "-XMP-exif:FocalLength=200",
)


@pytest.fixture
def catalog(tmp_path, real_photos):
    return embedded_gallery(tmp_path, real_photos, PHOTOS, {"night.png.xmp": SIDECAR})


def _found(store, settings, request: str) -> list[str]:
    res = search(store, settings, request, signals=[])
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("f/1.8", ["portrait.jpg"]),
        ("photos at f8", ["landscape.jpg"]),
        ("f/2.8 or wider", ["phone.jpg", "night.png", "portrait.jpg"]),
        ("iso 3200", ["portrait.jpg"]),
        ("high iso", ["portrait.jpg"]),
        ("iso 200 or lower", ["landscape.jpg", "night.png"]),
        ("iso 100-800", ["landscape.jpg", "night.png", "phone.jpg"]),
        ("1/250s", ["portrait.jpg"]),
        ("shutter faster than 1/500", ["landscape.jpg"]),
        ("long exposure", ["night.png"]),
        ("50mm", ["portrait.jpg"]),
        ("26mm", ["phone.jpg"]),  # a phone's lens is named by its equivalent...
        ("4.2mm", ["phone.jpg"]),  # ...and by its own
        ("telephoto", ["night.png", "portrait.jpg"]),  # 200 mm with no equivalent: a full frame's
        ("wide angle", ["landscape.jpg", "phone.jpg"]),
        ("photos taken with flash", ["portrait.jpg"]),
        ("photos without flash", ["landscape.jpg", "night.png", "phone.jpg", "scan.jpg"]),
        ("f/1.8 with flash at iso 3200", ["portrait.jpg"]),
    ],
)
def test_requests_in_a_photographers_words_find_the_photos_taken_so(catalog, request_text, expected):
    store, settings, _, _ = catalog
    assert _found(store, settings, request_text) == sorted(expected)


def test_what_the_analyzer_stored_agrees_with_exiftool(catalog):
    store, _, gallery, _ = catalog
    with store.session() as s:
        facts = {(f.photo_id, f.kind): f.label for f in s.query(Fact).filter(Fact.kind.in_(KINDS.values()))}
        ids = {p.path.rsplit("/", 1)[-1]: p.id for p in s.query(Photo)}
    for name in ("portrait.jpg", "landscape.jpg", "phone.jpg"):
        ref = exiftool.read(gallery / name, "-FNumber", "-ExposureTime", "-ISO", "-FocalLength", "-Flash")
        pid = ids[name]
        assert float(facts[(pid, "aperture")]) == pytest.approx(ref["FNumber"], abs=0.05)
        assert float(facts[(pid, "shutter")]) == pytest.approx(ref["ExposureTime"], rel=0.001)
        assert float(facts[(pid, "iso")]) == ref["ISO"]
        assert float(facts[(pid, "focal_length")]) == pytest.approx(ref["FocalLength"], abs=0.05)
        if "Flash" in ref:
            assert facts[(pid, "flash")] == ("fired" if ref["Flash"] & 1 else "not fired")
    assert (ids["scan.jpg"], "iso") not in facts
    assert float(facts[(ids["night.png"], "shutter")]) == 2.0  # from the sidecar


def test_a_setting_nobody_used_shows_the_nearest_and_says_so(catalog):
    store, settings, _, _ = catalog
    res = search(store, settings, "iso 6400", signals=[])
    assert res["explain"]["unmet"] == ["no photo taken at ISO 6400"]
    first = res["results"][0]
    assert first["below_cutoff"] and first["path"].endswith("portrait.jpg")  # one stop away
    assert "ISO 3200, the nearest" in _why_text(first["why"])
    assert [r["path"].rsplit("/", 1)[-1] for r in res["results"][:3]] == [
        "portrait.jpg",
        "phone.jpg",
        "night.png",
    ]


def test_a_photos_details_say_its_settings(catalog):
    store, settings, gallery, _ = catalog
    core = Core(settings, store=store)
    by_name = {d.name: d for d in (core.details(pid) for pid in _ids(store))}
    assert by_name["portrait.jpg"].exif["Settings"] == (
        "f/1.8 · 1/250 s · ISO 3200 · 50 mm (75 mm in 35 mm terms) · flash fired"
    )
    assert by_name["night.png"].exif["Settings"] == "f/2.8 · 2 s · ISO 200 · 200 mm"
    assert "Settings" not in by_name["scan.jpg"].exif


def test_a_catalog_indexed_before_settings_were_read_gets_them_at_its_next_index(catalog):
    store, settings, _, indexer = catalog
    with store.session() as s:  # as version 1 of the analyzer left it: no settings
        s.execute(delete(Fact).where(Fact.kind.in_(KINDS.values())))
        s.execute(update(Analysis).where(Analysis.analyzer == "embedded").values(version=1))
        s.commit()
    assert _found(store, settings, "f/1.8") == []
    Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)]).run()
    assert _found(store, settings, "f/1.8") == ["portrait.jpg"]
    assert _found(store, settings, "wide angle") == ["landscape.jpg", "phone.jpg"]


def _ids(store) -> list[int]:
    with store.session() as s:
        return [p.id for p in s.query(Photo)]


def test_a_camera_is_named_once_when_its_model_repeats_the_maker():
    from photosearch.core import camera_name

    assert camera_name("Canon", "Canon EOS R6") == "Canon EOS R6"
    assert camera_name("NIKON CORPORATION", "NIKON D500") == "NIKON D500"
    assert camera_name("Apple", "iPhone 13") == "Apple iPhone 13"
    assert camera_name(None, "X100V") == "X100V" and camera_name("FUJIFILM", None) == "FUJIFILM"
