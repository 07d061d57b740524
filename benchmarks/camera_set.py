"""Camera-like photos for the indexing benchmark: real photos enlarged to a camera's pixel count, with
sensor-like noise (so JPEG file sizes are a camera's: 3-8 MB at 12 MP) and a camera's EXIF.

    python -m benchmarks.camera_set DIR [--megapixels 12] [--count 60]

Sources (nothing is downloaded): the example gallery's photos (real photos, their variants, signs and
screen pages) and, where the `dev` extra installed opencv-doc, the real set's OpenCV photos (street
signs with text, a footballer, buildings, fruit, documents). Each photo keeps its source's aspect
ratio and is enlarged (bicubic) to the asked pixel count; noise is a sensor's: shot noise growing
with brightness plus read noise, per channel, at full resolution. Every fourth photo is stored as a
phone stores a portrait shot: pixels turned, EXIF Orientation 6. EXIF carries make, model, date and,
for some, GPS. Deterministic for a given (megapixels, count): a second run reuses the files.
"""

from __future__ import annotations

import argparse
import io
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import piexif
from PIL import Image

#: Noise of a phone sensor at base ISO after its processing, in 8-bit levels: sigma^2 = SHOT * I + READ^2.
SHOT = 0.08
READ = 2.0
JPEG_QUALITY = 96
CAMERAS = (("Google", "Pixel 7"), ("Apple", "iPhone 14 Pro"), ("Samsung", "SM-S918B"), ("Canon", "EOS R6"))
PLACES = ((43.7696, 11.2558), (48.8566, 2.3522), (39.9042, 116.4074), None)


def source_images() -> list[tuple[str, Image.Image]]:
    """(name, RGB image) of every source photo, in a fixed order."""
    from photosearch.evaluate.example import example_items, source_photos
    from photosearch.evaluate.realset import OPENCV, OPENCV_PHOTOS

    out = []
    for rel, (make, _exif) in example_items(source_photos()).items():
        img = make()
        img = Image.fromarray(img) if isinstance(img, np.ndarray) else img
        out.append((Path(rel).stem, img.convert("RGB")))
    for rel, src, _text in OPENCV_PHOTOS:
        if (OPENCV / src).is_file():
            with Image.open(OPENCV / src) as im:
                out.append((Path(rel).stem, im.convert("RGB")))
    return out


def enlarge(img: Image.Image, megapixels: float) -> Image.Image:
    """The image at `megapixels` million pixels, its aspect ratio kept (bicubic)."""
    aspect = img.width / img.height
    h = int(round((megapixels * 1e6 / aspect) ** 0.5))
    w = int(round(h * aspect))
    return img.resize((w, h), Image.Resampling.BICUBIC)


def add_sensor_noise(img: Image.Image, rng: np.random.Generator, rows: int = 512) -> Image.Image:
    """Shot + read noise per pixel and channel, added in strips (bounded memory at 48 MP)."""
    a = np.asarray(img, dtype=np.uint8).copy()
    for y in range(0, a.shape[0], rows):
        strip = a[y : y + rows].astype(np.float32)
        sigma = np.sqrt(SHOT * strip + READ * READ)
        strip += sigma * rng.standard_normal(strip.shape, dtype=np.float32)
        a[y : y + rows] = np.clip(strip + 0.5, 0, 255).astype(np.uint8)
    return Image.fromarray(a)


def camera_exif(i: int, width: int, height: int, orientation: int) -> bytes:
    make, model = CAMERAS[i % len(CAMERAS)]
    taken = datetime(2024, 5, 1, 9, 0) + timedelta(hours=7 * i)
    stamp = taken.strftime("%Y:%m:%d %H:%M:%S").encode()
    gps: dict = {}
    place = PLACES[i % len(PLACES)]
    if place:
        lat, lon = place

        def dms(v: float):
            v = abs(v)
            d, m = int(v), int((abs(v) - int(v)) * 60)
            return ((d, 1), (m, 1), (round(((v - d) * 60 - m) * 6000), 100))

        gps = {
            piexif.GPSIFD.GPSLatitudeRef: b"N" if lat >= 0 else b"S",
            piexif.GPSIFD.GPSLatitude: dms(lat),
            piexif.GPSIFD.GPSLongitudeRef: b"E" if lon >= 0 else b"W",
            piexif.GPSIFD.GPSLongitude: dms(lon),
        }
    zeroth = {
        piexif.ImageIFD.Make: make.encode(),
        piexif.ImageIFD.Model: model.encode(),
        piexif.ImageIFD.Orientation: orientation,
        piexif.ImageIFD.Software: b"benchmarks.camera_set",
    }
    exif = {
        piexif.ExifIFD.DateTimeOriginal: stamp,
        piexif.ExifIFD.PixelXDimension: width,
        piexif.ExifIFD.PixelYDimension: height,
        piexif.ExifIFD.FNumber: (18, 10),
        piexif.ExifIFD.ExposureTime: (1, 120),
        piexif.ExifIFD.ISOSpeedRatings: 100,
    }
    return piexif.dump({"0th": zeroth, "Exif": exif, "GPS": gps, "1st": {}, "thumbnail": None})


def camera_photo(img: Image.Image, i: int, megapixels: float) -> bytes:
    """One camera-like JPEG (bytes) of a source image."""
    rng = np.random.default_rng(1000 * int(megapixels) + i)
    big = add_sensor_noise(enlarge(img, megapixels), rng)
    orientation = 6 if i % 4 == 3 else 1
    if orientation == 6:  # a portrait shot: the sensor's pixels are turned; the viewer turns them back
        big = big.transpose(Image.Transpose.ROTATE_90)
    buf = io.BytesIO()
    big.save(
        buf,
        "JPEG",
        quality=JPEG_QUALITY,
        exif=camera_exif(i, big.width, big.height, orientation),
        subsampling="4:2:0",
    )
    return buf.getvalue()


def write_camera_set(dest: Path | str, megapixels: float, count: int, progress=None) -> list[Path]:
    """Write `count` camera-like photos of `megapixels` into `dest` (existing files are kept)."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    sources = source_images()
    paths = []
    for i in range(count):
        name, img = sources[i % len(sources)]
        path = dest / f"IMG_{i:04d}_{name}.jpg"
        if not path.exists():
            tmp = path.with_suffix(".part")
            tmp.write_bytes(camera_photo(img, i, megapixels))
            tmp.replace(path)
        paths.append(path)
        if progress:
            progress(i + 1, count, path)
    return paths


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dest", type=Path)
    ap.add_argument("--megapixels", type=float, default=12)
    ap.add_argument("--count", type=int, default=60)
    args = ap.parse_args(argv)
    paths = write_camera_set(args.dest, args.megapixels, args.count)
    sizes = [p.stat().st_size for p in paths]
    print(
        f"{len(paths)} photos of {args.megapixels:g} MP in {args.dest}: "
        f"{np.mean(sizes) / 2**20:.1f} MB mean, {min(sizes) / 2**20:.1f}-{max(sizes) / 2**20:.1f} MB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
