"""EXIF GPS through `read_exif`: a place is a valid latitude/longitude pair with its N/S and E/W
references, or nothing; an altitude is kept only with such a place."""

from __future__ import annotations

import piexif
import pytest
from PIL import Image

from photosearch.ingest.exif import read_exif

LAT = {piexif.GPSIFD.GPSLatitudeRef: b"N", piexif.GPSIFD.GPSLatitude: ((45, 1), (30, 1), (0, 1))}
LON = {piexif.GPSIFD.GPSLongitudeRef: b"W", piexif.GPSIFD.GPSLongitude: ((9, 1), (10, 1), (0, 1))}
ALT = {piexif.GPSIFD.GPSAltitude: (1200, 1)}


def _exif(gps: dict) -> Image.Exif:
    exif = Image.Exif()
    exif.load(piexif.dump({"0th": {}, "Exif": {}, "GPS": gps, "1st": {}, "thumbnail": None}))
    return exif


def test_a_valid_pair_keeps_its_signs_and_altitude():
    info = read_exif(_exif({**LAT, **LON, **ALT}))
    assert (info.gps_lat, round(info.gps_lon, 4), info.gps_alt) == (45.5, -9.1667, 1200.0)
    south = read_exif(_exif({**LAT, piexif.GPSIFD.GPSLatitudeRef: b"S", **LON}))
    assert south.gps_lat == -45.5


@pytest.mark.parametrize(
    "gps",
    [
        pytest.param(
            {**LAT, piexif.GPSIFD.GPSLatitude: ((95, 1), (0, 1), (0, 1)), **LON, **ALT}, id="lat 95"
        ),
        pytest.param(
            {**LAT, **LON, piexif.GPSIFD.GPSLongitude: ((181, 1), (0, 1), (0, 1)), **ALT}, id="lon 181"
        ),
        pytest.param({**LAT, piexif.GPSIFD.GPSLatitudeRef: b"X", **LON, **ALT}, id="lat ref X"),
        pytest.param({**LAT, piexif.GPSIFD.GPSLatitudeRef: b"E", **LON, **ALT}, id="lat ref E"),
        pytest.param({**LAT, **LON, piexif.GPSIFD.GPSLongitudeRef: b"N", **ALT}, id="lon ref N"),
        pytest.param(
            {piexif.GPSIFD.GPSLatitude: LAT[piexif.GPSIFD.GPSLatitude], **LON, **ALT}, id="no lat ref"
        ),
        pytest.param({**LON, **ALT}, id="lone longitude"),
        pytest.param({**ALT}, id="altitude alone"),
    ],
)
def test_no_valid_pair_means_no_place_and_no_altitude(gps):
    info = read_exif(_exif(gps))
    assert (info.gps_lat, info.gps_lon, info.gps_alt) == (None, None, None)
