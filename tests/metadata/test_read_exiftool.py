"""What exiftool writes into photos and sidecars, PhotoSearch reads right: every field of issue 23,
several formats (JPEG, PNG, WebP, TIFF, HEIC, AVIF, JPEG XL, DNG), non-ASCII text, both sidecar names."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from PIL import Image

from photosearch.metadata.analyzer import to_result
from photosearch.metadata.model import SOURCE_FILE
from photosearch.metadata.reader import read_metadata
from tests.ingest.dng import write_dng
from tests.metadata import exiftool
from tests.required import require_file

TITLE = "Grandma’s 80th — café"
CAPTION = "Avó e os netos em Zürich, 東京"

#: Tags every format's EXIF and XMP hold.
XMP_AND_EXIF = (
    "-XMP-dc:Title=" + TITLE,
    "-XMP-dc:Description=" + CAPTION,
    "-XMP-dc:Subject=Lisbon",
    "-XMP-dc:Subject=Família",
    "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon",
    "-XMP-digiKam:TagsList=Events/Birthday",
    "-XMP-photoshop:City=Lisboa",
    "-XMP-photoshop:Country=Portugal",
    "-XMP-photoshop:Headline=Party",
    "-XMP-iptcCore:Location=Alfama",
    "-XMP-xmp:Rating=4",
    "-XMP-xmp:Label=Red",
    "-EXIF:ImageDescription=Bolo de anos",
    "-EXIF:UserComment=Velas acesas",
    "-EXIF:Artist=Ana Sá",
    "-EXIF:Copyright=© Ana Sá",
    "-EXIF:XPTitle=Título XP",
    "-EXIF:XPComment=Comentário XP",
    "-EXIF:XPKeywords=xp-one;xp-two",
    "-EXIF:XPSubject=Assunto XP",
    "-RegionType=Face",
    "-RegionName=Anna",
    "-RegionAreaX=0.5",
    "-RegionAreaY=0.4",
    "-RegionAreaW=0.2",
    "-RegionAreaH=0.3",
    "-RegionAreaUnit=normalized",
    "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Tom,Rectangle=0.1|, 0.1|, 0.2|, 0.25}]}",
)
IPTC = (
    "-IPTC:Keywords=iptc-kw",
    "-IPTC:Caption-Abstract=Legenda IPTC",
    "-IPTC:Headline=Cabeçalho",
    "-IPTC:Sub-location=Belém",
    "-IPTC:City=Lisboa",
    "-IPTC:Province-State=Lisboa",
    "-IPTC:Country-PrimaryLocationName=Portugal",
    "-IPTC:CodedCharacterSet=UTF8",
)


def _photo(tmp_path, suffix: str, rgb: np.ndarray):
    path = tmp_path / f"photo{suffix}"
    if suffix == ".dng":
        return write_dng(path, rgb)
    if (
        suffix == ".jxl"
    ):  # libjxl's encoder (Debian's libjxl-tools): no Pillow plugin is needed to read metadata
        png = tmp_path / "source.png"
        Image.fromarray(rgb).save(png)
        cjxl = require_file("/usr/bin/cjxl", "libjxl-tools")
        subprocess.run([str(cjxl), str(png), str(path), "-q", "90"], check=True, capture_output=True)
        return path
    Image.fromarray(rgb).save(path)
    return path


FORMATS = [".jpg", ".png", ".webp", ".tif", ".heic", ".avif", ".jxl", ".dng"]


@pytest.mark.parametrize("suffix", FORMATS)
def test_every_field_exiftool_writes_is_read(tmp_path, real_photos, suffix):
    path = _photo(tmp_path, suffix, real_photos["coffee"][:200, :300])
    with_iptc = suffix in (".jpg", ".tif", ".dng")
    exiftool.write(path, *XMP_AND_EXIF, *(IPTC if with_iptc else ()))
    got = read_metadata(str(path))
    assert got.issues == []
    keywords = {k.label: k for k in got.keywords}
    assert {"Lisbon", "Família", "Places", "Portugal", "Events", "Birthday", "xp-one", "xp-two"} <= set(
        keywords
    )
    assert keywords["Portugal"].path == "Places|Portugal|Lisbon"
    assert keywords["Lisbon"].path == "Places|Portugal|Lisbon"  # the flat copy knows where it sits
    assert all(k.source == SOURCE_FILE for k in got.keywords)
    texts = {(t.kind, t.label) for t in got.texts}
    assert {
        ("title", TITLE),
        ("title", "Party"),
        ("title", "Título XP"),
        ("title", "Assunto XP"),
        ("description", CAPTION),
        ("description", "Bolo de anos"),
        ("description", "Velas acesas"),
        ("description", "Comentário XP"),
        ("credit", "Ana Sá"),
        ("credit", "© Ana Sá"),
    } <= texts
    assert (got.rating, got.label) == (4, "Red")
    assert (got.place.city, got.place.country, got.place.sublocation) == ("Lisboa", "Portugal", "Alfama")
    regions = {r.name: r for r in got.regions}
    assert set(regions) == {"Anna", "Tom"}
    assert regions["Anna"].box == pytest.approx((0.4, 0.25, 0.6, 0.55))
    assert regions["Tom"].box == pytest.approx((0.1, 0.1, 0.3, 0.35))
    if with_iptc:
        assert "iptc-kw" in keywords
        assert {("description", "Legenda IPTC"), ("title", "Cabeçalho")} <= texts


def test_both_sidecar_names_are_read_and_a_sidecar_wins_for_single_values(tmp_path, real_photos):
    path = _photo(tmp_path, ".jpg", real_photos["coffee"][:100, :100])
    exiftool.write(path, "-XMP-xmp:Rating=2", "-XMP-dc:Subject=from-file")
    exiftool.make_sidecar(tmp_path / "photo.jpg.xmp", "-XMP-dc:Subject=darktable-word", "-XMP-xmp:Rating=5")
    exiftool.make_sidecar(tmp_path / "photo.xmp", "-XMP-lr:HierarchicalSubject=Trips|Lightroom-word")
    got = read_metadata(str(path))
    sources = {k.label: k.source for k in got.keywords}
    assert sources == {
        "from-file": SOURCE_FILE,
        "darktable-word": "photo.jpg.xmp",
        "Trips": "photo.xmp",
        "Lightroom-word": "photo.xmp",
    }
    assert (got.rating, got.rating_source) == (5, "photo.jpg.xmp")
    assert got.sidecars == ["photo.jpg.xmp", "photo.xmp"]
    assert got.sidecar_signature and "photo.jpg.xmp:" in got.sidecar_signature


def test_region_of_a_rotated_photo_is_turned_into_the_frame_the_photo_is_shown_in(tmp_path, real_photos):
    """MWG regions are relative to the stored image; EXIF orientation 6 shows it turned 90° clockwise."""
    path = _photo(tmp_path, ".jpg", real_photos["coffee"][:100, :200])
    exiftool.write(
        path,
        "-EXIF:Orientation#=6",
        "-RegionName=Anna",
        "-RegionType=Face",
        "-RegionAreaX=0.2",
        "-RegionAreaY=0.3",
        "-RegionAreaW=0.2",
        "-RegionAreaH=0.2",
        "-RegionAreaUnit=normalized",
    )
    (region,) = read_metadata(str(path)).regions
    # stored box x 0.1..0.3, y 0.2..0.4 -> shown x = 1 - y: 0.6..0.8, y = x: 0.1..0.3
    assert region.box == pytest.approx((0.6, 0.1, 0.8, 0.3))


def test_facts_of_what_was_read(tmp_path, real_photos):
    path = _photo(tmp_path, ".jpg", real_photos["coffee"][:100, :100])
    exiftool.write(
        path, "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon", "-XMP-xmp:Label=red", "-XMP-xmp:Rating=3"
    )
    result = to_result(read_metadata(str(path)))
    facts = {(f.kind, f.label): f.data for f in result.facts}
    assert facts[("keyword", "Portugal")] == {"source": SOURCE_FILE, "path": "Places|Portugal|Lisbon"}
    assert ("color_label", "Red") in facts  # "red" and "Red" are one label
    assert ("rating", "3") in facts


@pytest.mark.parametrize("suffix", [".jpg", ".tif"])
def test_iptc_place_names_alone_are_read(tmp_path, real_photos, suffix):
    path = _photo(tmp_path, suffix, real_photos["coffee"][:100, :100])
    exiftool.write(path, *IPTC)
    got = read_metadata(str(path))
    place = got.place
    assert (place.sublocation, place.city, place.state, place.country) == (
        "Belém",
        "Lisboa",
        "Lisboa",
        "Portugal",
    )
    assert [k.label for k in got.keywords] == ["iptc-kw"]
    facts = {f.kind: f for f in to_result(got).facts}
    assert facts["place"].label == "Belém, Lisboa, Lisboa, Portugal"
    assert facts["place"].data["cc"] == "PT" and facts["place"].data["city"] == "Lisboa"


#: Camera settings as a camera writes them (EXIF), read back in every format.
SETTINGS = (
    "-EXIF:FNumber=2.8",
    "-EXIF:ExposureTime=1/125",
    "-EXIF:ISO=640",
    "-EXIF:FocalLength=35",
    "-EXIF:Flash#=1",
)


@pytest.mark.parametrize("suffix", FORMATS)
def test_camera_settings_are_read_in_every_format(tmp_path, real_photos, suffix):
    path = _photo(tmp_path, suffix, real_photos["chelsea"])
    exiftool.write(path, *SETTINGS)
    got = read_metadata(str(path)).exposure
    ref = exiftool.read(path, "-FNumber", "-ExposureTime", "-ISO", "-FocalLength", "-Flash")
    assert (got.aperture, got.iso, got.focal, got.flash) == (
        ref["FNumber"],
        ref["ISO"],
        ref["FocalLength"],
        True,
    )
    assert got.shutter == pytest.approx(ref["ExposureTime"])
