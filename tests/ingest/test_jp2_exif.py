"""JPEG 2000 photos keep their EXIF: when and where they were taken. Pillow leaves a JP2's EXIF box
unread, so a JP2 with GPS had no place and no date ("at home" lost such a photo). exiftool, the
independent reference, writes the box; a box made by hand checks the "Exif\\0\\0" lead; a box that
runs past the file's end is no EXIF, and the photo still decodes."""

from __future__ import annotations

import struct
from datetime import datetime

import numpy as np
import piexif
import pytest
from PIL import Image

from photosearch.ingest.decode import open_image
from photosearch.ingest.exif import read_exif
from photosearch.ingest.jp2_exif import EXIF_UUID
from tests.metadata import exiftool


@pytest.fixture
def jp2(tmp_path):
    path = tmp_path / "photos" / "garden.jp2"
    path.parent.mkdir()
    pixels = np.random.default_rng(7).integers(0, 255, (240, 320, 3), dtype=np.uint8)
    Image.fromarray(pixels).save(path)
    return path


def test_the_gps_and_date_exiftool_writes_are_read(jp2):
    assert not Image.open(jp2).getexif()  # Pillow alone reads none
    exiftool.write(
        jp2,
        "-GPSLatitude=38.79",
        "-GPSLatitudeRef=N",
        "-GPSLongitude=9.18",
        "-GPSLongitudeRef=W",
        "-DateTimeOriginal=2024:05:14 18:30:00",
        "-Make=Nikon",
    )
    ref = exiftool.read(jp2, "-GPSLatitude", "-GPSLongitude")
    decoded = open_image(jp2, max_side=128)
    info = read_exif(decoded.exif)
    assert decoded.format == "JPEG2000" and max(decoded.image.size) == 128
    assert (round(info.gps_lat, 4), round(info.gps_lon, 4)) == (
        round(ref["GPSLatitude"], 4),
        round(ref["GPSLongitude"], 4),
    )
    assert info.gps_lon < 0 and info.taken_at == datetime(2024, 5, 14, 18, 30) and info.camera_make == "Nikon"


def _with_box(path, payload: bytes, length: int | None = None) -> None:
    """Append a top-level uuid box holding the EXIF UUID and `payload` (its length as given)."""
    body = EXIF_UUID + payload
    with path.open("ab") as fh:
        fh.write(struct.pack(">I4s", length or 8 + len(body), b"uuid") + body)


def test_a_box_with_the_exif_lead_is_read_and_a_box_past_the_end_is_none(jp2, tmp_path):
    gps = {
        piexif.GPSIFD.GPSLatitudeRef: b"S",
        piexif.GPSIFD.GPSLatitude: ((33, 1), (51, 1), (0, 1)),
        piexif.GPSIFD.GPSLongitudeRef: b"E",
        piexif.GPSIFD.GPSLongitude: ((151, 1), (12, 1), (0, 1)),
    }
    payload = piexif.dump({"0th": {}, "Exif": {}, "GPS": gps, "1st": {}, "thumbnail": None})
    assert payload.startswith(b"Exif\x00\x00")
    led = tmp_path / "sydney.jp2"
    led.write_bytes(jp2.read_bytes())
    _with_box(led, payload)
    info = read_exif(open_image(led, max_side=128).exif)
    assert (round(info.gps_lat, 2), round(info.gps_lon, 2)) == (-33.85, 151.2)
    # read from bytes already in memory, as the indexer does
    info = read_exif(open_image(led, max_side=128, data=led.read_bytes()).exif)
    assert round(info.gps_lat, 2) == -33.85

    broken = tmp_path / "broken.jp2"
    broken.write_bytes(jp2.read_bytes())
    _with_box(broken, payload, length=1 << 30)  # says a GiB, holds a few bytes
    decoded = open_image(broken, max_side=128)
    assert decoded.image.size == (128, 96) and read_exif(decoded.exif).gps_lat is None


def test_a_catalog_from_before_reads_its_jpeg2000_photos_again_and_keeps_their_analyses(tmp_path, jp2):
    """Migration 9: a JP2 photo an earlier build catalogued without place or date is read again on the
    next scan; it keeps its id and its analyses (no model runs again), and a JPEG is not read again."""
    from sqlalchemy import update

    from photosearch.catalog import Store
    from photosearch.catalog.migrations import _jpeg2000_exif_read_again
    from photosearch.catalog.models import Photo
    from photosearch.config import Settings
    from photosearch.ingest.indexer import Indexer
    from tests.fakes import MeanColourAnalyzer

    exiftool.write(jp2, "-GPSLatitude=38.79", "-GPSLatitudeRef=N", "-GPSLongitude=9.18", "-GPSLongitudeRef=W")
    Image.open(jp2).convert("RGB").save(jp2.with_name("plain.jpg"))
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(jp2.parent)
    analyzer = MeanColourAnalyzer()
    Indexer(store, settings, [analyzer]).run()
    with store.session() as s:  # as an earlier build left it
        s.execute(update(Photo).values(gps_lat=None, gps_lon=None))
        before = {p.format: p.id for p in s.query(Photo)}
    with store.engine.begin() as conn:
        _jpeg2000_exif_read_again(conn)
    analyzer.calls.clear()
    report = Indexer(store, settings, [analyzer]).run()
    assert analyzer.calls == [] and report.unchanged == 1
    with store.session() as s:
        photos = {p.format: p for p in s.query(Photo)}
        assert {f: p.id for f, p in photos.items()} == before
        assert round(photos["JPEG2000"].gps_lon, 2) == -9.18 and photos["JPEG"].gps_lon is None
