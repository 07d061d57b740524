"""Shared fixtures: real photos (scikit-image, scikit-learn, matplotlib), galleries, the CLI."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import numpy as np
import piexif
import pytest
from PIL import Image

from photosearch.config import Settings

os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _real_photos() -> dict[str, np.ndarray]:
    import matplotlib.cbook
    from skimage import data
    from sklearn.datasets import load_sample_images

    photos = {
        "chelsea": data.chelsea(),
        "coffee": data.coffee(),
        "astronaut": data.astronaut(),
        "rocket": data.rocket(),
    }
    china, flower = load_sample_images().images
    photos["china"], photos["flower"] = china, flower
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as fh:
        photos["grace_hopper"] = np.asarray(Image.open(fh).convert("RGB"))
    return photos


@pytest.fixture(scope="session")
def real_photos() -> dict[str, np.ndarray]:
    return _real_photos()


def exif_bytes(
    taken_at: datetime | None = None,
    make: str | None = None,
    model: str | None = None,
    gps: tuple[float, float] | None = None,
    orientation: int | None = None,
    lens: str | None = None,
) -> bytes:
    """EXIF written with piexif, as a camera would."""
    zeroth, exif, gps_ifd = {}, {}, {}
    if make:
        zeroth[piexif.ImageIFD.Make] = make.encode()
    if model:
        zeroth[piexif.ImageIFD.Model] = model.encode()
    if orientation:
        zeroth[piexif.ImageIFD.Orientation] = orientation
    if taken_at:
        exif[piexif.ExifIFD.DateTimeOriginal] = taken_at.strftime("%Y:%m:%d %H:%M:%S").encode()
    if lens:
        exif[piexif.ExifIFD.LensModel] = lens.encode()
    if gps:

        def dms(value: float):
            value = abs(value)
            d = int(value)
            m = int((value - d) * 60)
            s = round(((value - d) * 60 - m) * 60 * 100)
            return ((d, 1), (m, 1), (s, 100))

        lat, lon = gps
        gps_ifd = {
            piexif.GPSIFD.GPSLatitudeRef: b"N" if lat >= 0 else b"S",
            piexif.GPSIFD.GPSLatitude: dms(lat),
            piexif.GPSIFD.GPSLongitudeRef: b"E" if lon >= 0 else b"W",
            piexif.GPSIFD.GPSLongitude: dms(lon),
        }
    return piexif.dump({"0th": zeroth, "Exif": exif, "GPS": gps_ifd, "1st": {}, "thumbnail": None})


def save_photo(path: Path, rgb: np.ndarray, fmt: str | None = None, **exif) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    img = Image.fromarray(rgb)
    kwargs = {}
    if exif:
        kwargs["exif"] = exif_bytes(**exif)
    fmt = (
        fmt
        or {".jpg": "JPEG", ".jpeg": "JPEG", ".png": "PNG", ".webp": "WEBP", ".tif": "TIFF", ".gif": "GIF"}[
            path.suffix.lower()
        ]
    )
    if fmt == "JPEG":
        kwargs["quality"] = 90
    img.save(path, fmt, **kwargs)
    return path


@pytest.fixture
def gallery(tmp_path, real_photos) -> Path:
    """A small real gallery: nested folders, EXIF dates/cameras/GPS, several formats."""
    root = tmp_path / "Pictures"
    save_photo(
        root / "cats" / "chelsea.jpg",
        real_photos["chelsea"],
        taken_at=datetime(2023, 7, 14, 10, 0),
        make="Google",
        model="Pixel 7",
        gps=(43.7696, 11.2558),
    )
    save_photo(root / "cats" / "chelsea_small.png", real_photos["chelsea"][::2, ::2])
    save_photo(
        root / "kitchen" / "coffee.jpg",
        real_photos["coffee"],
        taken_at=datetime(2021, 3, 2, 8, 30),
        make="Apple",
        model="iPhone 12",
    )
    save_photo(root / "space" / "astronaut.webp", real_photos["astronaut"])
    save_photo(root / "space" / "rocket.tif", real_photos["rocket"])
    save_photo(
        root / "trips" / "china.jpg",
        real_photos["china"],
        taken_at=datetime(2019, 5, 1, 12, 0),
        gps=(39.9042, 116.4074),
    )
    save_photo(root / "people" / "grace.gif", real_photos["grace_hopper"])
    return root


def index_with(tmp_path: Path, gallery: Path, make_analyzers):
    """A new catalog in `tmp_path/data` of `gallery`, indexed by the analyzers `make_analyzers(settings)`
    gives: (store, settings, the index report)."""
    from photosearch.catalog import Store
    from photosearch.ingest.indexer import Indexer

    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    return store, settings, Indexer(store, settings, make_analyzers(settings)).run()


def run_cli(data_dir: Path, *args: str, check: bool = True, env: dict | None = None, timeout: float = 300):
    """Run `python -m photosearch --data-dir DATA ARGS` as a user would; returns CompletedProcess."""
    inherited = {
        k: v for k, v in os.environ.items() if k not in ("PHOTOSEARCH_DB_URL", "PHOTOSEARCH_DATA_DIR")
    }
    full_env = {**inherited, "PYTHONIOENCODING": "utf-8", **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-m", "photosearch", "--data-dir", str(data_dir), *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )
    if check and proc.returncode != 0:
        raise AssertionError(
            f"photosearch {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


def run_cli_json(data_dir: Path, *args: str, **kwargs):
    proc = run_cli(data_dir, "--json", *args, **kwargs)
    return json.loads(proc.stdout)


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def cli_json():
    return run_cli_json


@contextlib.contextmanager
def tmpfs(mount_point: Path, size: str = "4m"):
    """A real, small tmpfs at `mount_point` (for disk-full and unplugged-drive tests); needs root
    (CI and the dev machine run as root); elsewhere the test is skipped and says why."""
    mount_point.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
    try:
        yield mount_point
    finally:
        unmount(mount_point)


def fill_disk(directory: Path) -> None:
    """Write `directory/filler` until the file system says ENOSPC (unbuffered: closing flushes nothing)."""
    with open(directory / "filler", "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(b"\0" * 65536)
        except OSError:
            pass


def unmount(mount_point: Path) -> None:
    """Unmount if mounted (a test may unplug the drive itself)."""
    if os.path.ismount(mount_point):
        subprocess.run(["umount", "-l", str(mount_point)], check=True)


@pytest.fixture(scope="session")
def example_gallery(tmp_path_factory) -> Path:
    from photosearch.evaluate.example import write_example_gallery

    root = tmp_path_factory.mktemp("example") / "gallery"
    write_example_gallery(root)
    return root


@pytest.fixture(scope="session")
def vsettings(tmp_path_factory) -> Settings:
    s = Settings(data_dir=tmp_path_factory.mktemp("model_data"), threads=2, gpu=False)
    s.ensure_dirs()
    return s


@pytest.fixture(autouse=True)
def _no_cache_problems_from_earlier_tests():
    """Cache problems are remembered per process (said once): each test starts with none."""
    from photosearch.cache_problems import forget_cache_problems

    forget_cache_problems()
    yield
