"""Embedded metadata: ms per photo at 12 MP for the parsing choices of issue 23.

    python -m benchmarks.metadata [--photos 20] [--formats jpg,heic,png]

Writes `--photos` 12 MP photos (4000x3000, noise so they compress like real ones: ~4-8 MB) per
format, each with the metadata a Lightroom/digiKam user has (EXIF from the camera, 25 keywords, 3
hierarchical ones, title, caption, rating, label, place, 3 named MWG face regions) written by exiftool,
and a digiKam sidecar beside every other photo. Then, per format, times (median of 3 passes, ms per
photo, the OS cache warm):

* `photosearch` — `metadata.reader.read_metadata`: what the `embedded` analyzer runs (pyexiv2 /
  libexiv2 on the file's bytes, the sidecar, every field turned into keywords, texts, regions);
* `pyexiv2 path` — pyexiv2 reading EXIF+IPTC+XMP from the path (libexiv2 maps the file);
* `pyexiv2 bytes` — the same from the bytes read in Python (what read_metadata does);
* `exiftool -stay_open` — one persistent exiftool process answering `-j -struct` per photo (what
  PyExifTool does), the independent reference;
* `exiftool per photo` — a new exiftool process per photo.

Prints figures only; never asserts times.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

TAGS = (
    "-EXIF:Make=Canon",
    "-EXIF:Model=Canon EOS R6",
    "-EXIF:DateTimeOriginal=2023:07:14 10:00:00",
    "-EXIF:LensModel=RF24-105mm F4 L IS USM",
    "-EXIF:ImageDescription=Grandma's 80th birthday in Lisbon",
    "-EXIF:Artist=Ana Sá",
    "-XMP-dc:Title=Grandma’s 80th",
    "-XMP-dc:Description=The whole family at Alfama, candles on the cake",
    "-XMP-xmp:Rating=4",
    "-XMP-xmp:Label=Red",
    "-XMP-photoshop:City=Lisboa",
    "-XMP-photoshop:Country=Portugal",
    "-XMP-iptcCore:Location=Alfama",
    *[f"-XMP-dc:Subject=keyword {i}" for i in range(25)],
    "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon",
    "-XMP-lr:HierarchicalSubject=Events|Birthday",
    "-XMP-lr:HierarchicalSubject=People|Family|Grandma",
    *[
        arg
        for name, x in (("Anna", 0.2), ("Tom", 0.5), ("Grandma", 0.8))
        for arg in (
            f"-RegionName+={name}",
            "-RegionType+=Face",
            f"-RegionAreaX+={x}",
            "-RegionAreaY+=0.3",
            "-RegionAreaW+=0.1",
            "-RegionAreaH+=0.15",
            "-RegionAreaUnit+=normalized",
        )
    ],
)


def _photos(root: Path, fmt: str, count: int) -> list[Path]:
    rng = np.random.default_rng(7)
    base = (rng.random((3000, 4000, 3)) * 40).astype(np.uint8) + np.linspace(0, 200, 4000, dtype=np.uint8)[
        None, :, None
    ]
    first = root / f"photo0.{fmt}"
    if fmt == "heic":
        import pillow_heif

        pillow_heif.register_heif_opener()
    Image.fromarray(base).save(first, **({"quality": 90} if fmt == "jpg" else {}))
    subprocess.run(["exiftool", "-q", "-q", "-m", "-overwrite_original", *TAGS, str(first)], check=True)
    out = [first]
    for i in range(1, count):
        target = root / f"photo{i}.{fmt}"
        shutil.copyfile(first, target)
        out.append(target)
    for p in out[::2]:  # a digiKam sidecar beside every other photo
        sidecar = ["exiftool", "-q", "-q", "-m", "-XMP-dc:Subject=from the sidecar", "-o", f"{p}.xmp"]
        subprocess.run(sidecar, check=True)
    return out


def _time(fn, paths: list[Path], passes: int = 3) -> float:
    runs = []
    for _ in range(passes):
        t0 = time.perf_counter()
        for p in paths:
            fn(p)
        runs.append((time.perf_counter() - t0) * 1000 / len(paths))
    return statistics.median(runs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--formats", default="jpg,heic,png")
    args = ap.parse_args()
    if shutil.which("exiftool") is None:
        raise SystemExit("exiftool is needed to write the photos: apt-get install libimage-exiftool-perl")
    import pyexiv2

    from photosearch.metadata.reader import read_metadata

    pyexiv2.set_log_level(4)

    def exiv2_path(p: Path) -> None:
        with pyexiv2.Image(str(p)) as im:
            im.read_exif(), im.read_iptc(), im.read_xmp()

    def exiv2_bytes(p: Path) -> None:
        with pyexiv2.ImageData(p.read_bytes()) as im:
            im.read_exif(), im.read_iptc(), im.read_xmp()

    def exiftool_once(p: Path) -> None:
        subprocess.run(["exiftool", "-j", "-struct", str(p)], check=True, capture_output=True)

    stay = subprocess.Popen(
        ["exiftool", "-stay_open", "True", "-@", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )

    def exiftool_stay_open(p: Path) -> None:
        assert stay.stdin is not None and stay.stdout is not None
        stay.stdin.write(f"-j\n-struct\n{p}\n-execute\n".encode())
        stay.stdin.flush()
        buf = b""
        while not buf.endswith(b"{ready}\n"):
            buf += os.read(stay.stdout.fileno(), 65536)
        json.loads(buf[: -len(b"{ready}\n")])

    print(f"pyexiv2 {pyexiv2.__version__} (libexiv2 {pyexiv2.__exiv2_version__}), exiftool", end=" ")
    print(subprocess.run(["exiftool", "-ver"], capture_output=True, text=True).stdout.strip(), end="")
    print(f"; load average {os.getloadavg()[0]:.1f}; {args.photos} photos per format, 4000x3000")
    print(
        f"{'format':<6} {'MB':>5} {'photosearch':>12} {'pyexiv2 path':>13} {'pyexiv2 bytes':>14} "
        f"{'exiftool -stay_open':>20} {'exiftool per photo':>19}   ms/photo"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for fmt in args.formats.split(","):
            root = Path(tmp) / fmt
            root.mkdir()
            paths = _photos(root, fmt, args.photos)
            got = read_metadata(str(paths[0]))
            assert len(got.keywords) >= 28 and len(got.regions) == 3 and not got.issues, got
            mb = paths[0].stat().st_size / 2**20
            cols = [
                _time(lambda p: read_metadata(str(p)), paths),
                _time(exiv2_path, paths),
                _time(exiv2_bytes, paths),
                _time(exiftool_stay_open, paths),
                _time(exiftool_once, paths[: max(3, len(paths) // 4)], passes=1),
            ]
            print(
                f"{fmt:<6} {mb:>5.1f} "
                + " ".join(f"{c:>{w}.2f}" for c, w in zip(cols, (12, 13, 14, 20, 19), strict=True))
            )
    assert stay.stdin is not None
    stay.stdin.write(b"-stay_open\nFalse\n")
    stay.stdin.flush()
    stay.wait(timeout=10)


if __name__ == "__main__":
    main()
