"""Items 5, 13, 14: HEIC without pillow-heif is a retryable reason with the fix; files over the size
ceiling are recorded, never read, and hashing streams; EXIF GPS is range-checked, pairs or nothing."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tracemalloc
from datetime import datetime
from pathlib import Path

import piexif
from PIL import Image

from photosearch.ingest.hashing import read_and_hash
from photosearch.ingest.indexer import Indexer
from tests.conftest import save_photo
from tests.reliability.helpers import issues, make_env, photos

ROOT = Path(__file__).resolve().parents[2]

# Index with pillow-heif made unimportable, as on a machine without it.
NO_HEIF = """
import sys
sys.modules["pillow_heif"] = None
from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
s = Settings.load(sys.argv[1])
r = Indexer(Store(s.database_url), s, []).run()
print(r.failed_by_reason)
"""


def test_heic_without_pillow_heif_is_retried_once_it_is_installed(tmp_path, real_photos):
    import pillow_heif

    folder = tmp_path / "phone"
    folder.mkdir()
    heic = folder / "IMG_1234.HEIC"
    pillow_heif.from_pillow(Image.fromarray(real_photos["coffee"])).save(heic, quality=70)
    settings, store = make_env(tmp_path)
    store.add_folder(folder)
    done = subprocess.run(
        [sys.executable, "-c", NO_HEIF, str(settings.data_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    reason, message = issues(store)[str(heic)]
    assert reason == "needs_pillow_heif" and "pip install pillow-heif" in message
    # pillow-heif present (this process): the next plain run reads it, no --retry-failed needed
    report = Indexer(store, settings, []).run()
    assert report.added == 1 and photos(store)[str(heic)].format in ("HEIF", "HEIC")


def test_a_file_over_the_size_ceiling_is_recorded_not_read(tmp_path, real_photos):
    folder = tmp_path / "scans"
    big = save_photo(folder / "scan.tif", real_photos["china"])  # ~800 KB uncompressed TIFF
    small = save_photo(folder / "small.jpg", real_photos["coffee"][::4, ::4])
    settings, store = make_env(tmp_path, max_file_bytes=200_000)
    store.add_folder(folder)
    report = Indexer(store, settings, []).run()
    assert report.failed_by_reason == {"too_large": 1} and set(photos(store)) == {str(small)}
    reason, message = issues(store)[str(big)]
    assert reason == "too_large" and "max_file_bytes" in message
    settings.max_file_bytes = 10_000_000  # the user raises the ceiling: the next run indexes it
    assert Indexer(store, settings, []).run().added == 1 and str(big) in photos(store)


def test_hashing_streams_big_files(tmp_path):
    big = tmp_path / "big.bin"
    block = os.urandom(1 << 20)
    with open(big, "wb") as fh:
        for _ in range(48):
            fh.write(block)
    tracemalloc.start()
    digest, data = read_and_hash(big, keep_limit=4 << 20)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert data is None and peak < 8 << 20, f"peak {peak} bytes while hashing 48 MiB"
    assert digest == hashlib.blake2b(big.read_bytes(), digest_size=32).hexdigest()


def _jpeg_with_gps(path: Path, rgb, gps: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    exif = piexif.dump(
        {
            "0th": {},
            "Exif": {piexif.ExifIFD.DateTimeOriginal: b"2024:05:01 10:00:00"},
            "GPS": gps,
            "1st": {},
            "thumbnail": None,
        }
    )
    Image.fromarray(rgb).save(path, "JPEG", exif=exif)
    return path


def test_gps_is_range_checked_and_kept_in_pairs(tmp_path, real_photos):
    folder = tmp_path / "gps"
    rgb = real_photos["coffee"][::4, ::4]
    lat = {piexif.GPSIFD.GPSLatitudeRef: b"N", piexif.GPSIFD.GPSLatitude: ((45, 1), (30, 1), (0, 1))}
    lon = {piexif.GPSIFD.GPSLongitudeRef: b"E", piexif.GPSIFD.GPSLongitude: ((9, 1), (10, 1), (0, 1))}
    broken_lat = {piexif.GPSIFD.GPSLatitudeRef: b"N", piexif.GPSIFD.GPSLatitude: ((45, 1), (30, 1))}
    files = {
        "nan_alt": _jpeg_with_gps(
            folder / "nan_alt.jpg", rgb, {**lat, **lon, piexif.GPSIFD.GPSAltitude: (0, 0)}
        ),
        "huge_alt": _jpeg_with_gps(
            folder / "huge_alt.jpg", rgb, {**lat, **lon, piexif.GPSIFD.GPSAltitude: (1_000_000_000, 1)}
        ),
        "lone_lon": _jpeg_with_gps(
            folder / "lone_lon.jpg", rgb, {**broken_lat, **lon, piexif.GPSIFD.GPSAltitude: (1200, 1)}
        ),
        "lat_95": _jpeg_with_gps(
            folder / "lat_95.jpg",
            rgb,
            {**lat, piexif.GPSIFD.GPSLatitude: ((95, 1), (0, 1), (0, 1)), **lon},
        ),
        "bad_ref": _jpeg_with_gps(
            folder / "bad_ref.jpg", rgb, {**lat, **lon, piexif.GPSIFD.GPSLongitudeRef: b"Q"}
        ),
        "good": _jpeg_with_gps(
            folder / "good.jpg", rgb, {**lat, **lon, piexif.GPSIFD.GPSAltitude: (1200, 1)}
        ),
    }
    settings, store = make_env(tmp_path)
    store.add_folder(folder)
    Indexer(store, settings, []).run()
    got = {k: photos(store)[str(p)] for k, p in files.items()}
    assert got["nan_alt"].gps_alt is None and got["huge_alt"].gps_alt is None
    assert got["nan_alt"].gps_lat == 45.5 and got["huge_alt"].gps_lon is not None
    for no_place in ("lone_lon", "lat_95", "bad_ref"):  # no valid pair: no place, no altitude
        assert (got[no_place].gps_lat, got[no_place].gps_lon, got[no_place].gps_alt) == (None, None, None)
    assert (got["good"].gps_lat, round(got["good"].gps_lon, 4), got["good"].gps_alt) == (45.5, 9.1667, 1200.0)
    assert got["good"].taken_at == datetime(2024, 5, 1, 10, 0)
    json.dumps([p.gps_alt for p in got.values()], allow_nan=False)  # nothing NaN reaches the catalog
