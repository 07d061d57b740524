"""The shipped example gallery: real photos bundled offline plus generated variants.

Sources (all inside installed wheels, nothing is downloaded): scikit-image's `data` files
(astronaut, chelsea, coffee, rocket, camera, stereo motorcycle), scikit-learn's sample images
(china, flower) and matplotlib's `grace_hopper.jpg`. Variants: crops, flips, brightness changes,
blur, signs rendered with DejaVu, screenshot-like UI renders; EXIF dates, cameras and GPS written
with piexif; a title, keywords, rating and label in XMP (`EMBEDDED_XMP`, `SIDECAR_KEYWORDS`).
`write_example_gallery(DIR)` also copies `resources/eval/example.yaml` there as
`golden.yaml` (gallery `.`), so `photosearch eval DIR/golden.yaml` works at once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import numpy as np
import piexif
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter, ImageFont

from photosearch.errors import PhotoSearchError

EXAMPLE_GOLDEN = Path(__file__).resolve().parents[2] / "resources" / "eval" / "example.yaml"
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu", "/usr/share/fonts/TTF")


def example_golden_path() -> Path:
    return EXAMPLE_GOLDEN


# ---- sources ---------------------------------------------------------------------------------


def _rgb(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    if a.ndim == 2:
        a = np.stack([a] * 3, axis=-1)
    return np.ascontiguousarray(a[..., :3].astype(np.uint8))


def source_photos() -> dict[str, np.ndarray]:
    """The real photos, as RGB uint8 arrays (from the sample data of scikit-image, scikit-learn and
    matplotlib: the `examples` extra)."""
    try:
        import matplotlib.cbook
        from skimage import data
        from sklearn.datasets import load_sample_images
    except ImportError as exc:  # third-party sample data, not our modules
        raise PhotoSearchError(
            f"the example photos come from scikit-image, scikit-learn and matplotlib ({exc.name} is not "
            "installed): install the examples extra, `bash installer/install.sh models,llm,gui,examples`"
        ) from None

    out = {
        name: _rgb(getattr(data, name)()) for name in ("astronaut", "chelsea", "coffee", "rocket", "camera")
    }
    out["motorcycle"] = _rgb(data.stereo_motorcycle()[0])
    china, flower = load_sample_images().images
    out["china"], out["flower"] = _rgb(china), _rgb(flower)
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as fh:
        out["grace_hopper"] = _rgb(np.asarray(Image.open(fh).convert("RGB")))
    return out


def font(size: int, bold: bool = True) -> ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    for d in FONT_DIRS:
        p = Path(d) / name
        if p.is_file():
            return ImageFont.truetype(str(p), size)
    try:
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size)


# ---- generated images ------------------------------------------------------------------------


def sign(text: str, bg=(0, 122, 51), fg=(255, 255, 255), size=(640, 360)) -> Image.Image:
    """A sign on a wall: a coloured plate with big letters, slight noise so it reads as a photo."""
    rng = np.random.default_rng(len(text))
    wall = np.clip(rng.normal(170, 12, (size[1], size[0], 3)), 0, 255).astype(np.uint8)
    img = Image.fromarray(wall)
    d = ImageDraw.Draw(img)
    w, h = size
    d.rectangle([w * 0.12, h * 0.22, w * 0.88, h * 0.78], fill=bg, outline=(30, 30, 30), width=4)
    f = font(int(h * 0.3))
    box = d.textbbox((0, 0), text, font=f)
    tw, th = box[2] - box[0], box[3] - box[1]
    d.text(((w - tw) / 2 - box[0], (h - th) / 2 - box[1]), text, fill=fg, font=f)
    return img.filter(ImageFilter.GaussianBlur(0.6))


def screenshot(title: str, lines: list[str], size=(1280, 720), accent=(52, 101, 164)) -> Image.Image:
    """A desktop-app screenshot: title bar, sidebar, text rows, buttons; flat colours, screen size."""
    w, h = size
    img = Image.new("RGB", size, (246, 246, 246))
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w, 44], fill=accent)
    d.text((16, 10), title, fill=(255, 255, 255), font=font(22))
    d.rectangle([0, 44, 240, h], fill=(228, 230, 235))
    for i, item in enumerate(("Home", "Photos", "Albums", "People", "Settings")):
        d.text((24, 70 + i * 40), item, fill=(40, 40, 40), font=font(18, bold=False))
    for i, line in enumerate(lines):
        y = 80 + i * 48
        d.text((270, y), line, fill=(20, 20, 20), font=font(20, bold=False))
        d.line([270, y + 36, w - 30, y + 36], fill=(210, 210, 210), width=1)
    d.rounded_rectangle([w - 260, h - 70, w - 150, h - 30], radius=6, fill=accent)
    d.text((w - 240, h - 62), "Save", fill=(255, 255, 255), font=font(18))
    d.rounded_rectangle([w - 140, h - 70, w - 30, h - 30], radius=6, outline=(120, 120, 120), width=2)
    d.text((w - 120, h - 62), "Cancel", fill=(40, 40, 40), font=font(18, bold=False))
    return img


def crop(a: np.ndarray, frac: float = 0.7) -> np.ndarray:
    h, w = a.shape[:2]
    ch, cw = int(h * frac), int(w * frac)
    y, x = (h - ch) // 2, (w - cw) // 2
    return a[y : y + ch, x : x + cw]


def brightness(a: np.ndarray, factor: float) -> Image.Image:
    return ImageEnhance.Brightness(Image.fromarray(a)).enhance(factor)


def blur(a: np.ndarray, radius: float = 6.0) -> Image.Image:
    return Image.fromarray(a).filter(ImageFilter.GaussianBlur(radius))


# ---- EXIF ------------------------------------------------------------------------------------


def exif_bytes(
    taken_at: datetime | None = None,
    make: str | None = None,
    model: str | None = None,
    gps: tuple[float, float] | None = None,
) -> bytes:
    zeroth, exif, gps_ifd = {}, {}, {}
    if make:
        zeroth[piexif.ImageIFD.Make] = make.encode()
    if model:
        zeroth[piexif.ImageIFD.Model] = model.encode()
    if taken_at:
        exif[piexif.ExifIFD.DateTimeOriginal] = taken_at.strftime("%Y:%m:%d %H:%M:%S").encode()
    if gps:

        def dms(v: float):
            v = abs(v)
            d = int(v)
            m = int((v - d) * 60)
            return ((d, 1), (m, 1), (round(((v - d) * 60 - m) * 6000), 100))

        lat, lon = gps
        gps_ifd = {
            piexif.GPSIFD.GPSLatitudeRef: b"N" if lat >= 0 else b"S",
            piexif.GPSIFD.GPSLatitude: dms(lat),
            piexif.GPSIFD.GPSLongitudeRef: b"E" if lon >= 0 else b"W",
            piexif.GPSIFD.GPSLongitude: dms(lon),
        }
    return piexif.dump({"0th": zeroth, "Exif": exif, "GPS": gps_ifd, "1st": {}, "thumbnail": None})


FLORENCE, BEIJING, CAPE_CANAVERAL, PARIS = (
    (43.7696, 11.2558),
    (39.9042, 116.4074),
    (28.3922, -80.6077),
    (48.8566, 2.3522),
)


def _save(path: Path, img: Image.Image | np.ndarray, **exif) -> None:
    if isinstance(img, np.ndarray):
        img = Image.fromarray(img)
    path.parent.mkdir(parents=True, exist_ok=True)
    kwargs: dict = {}
    if exif:
        kwargs["exif"] = exif_bytes(**exif)
    if path.suffix.lower() == ".png":
        img.save(path, "PNG", **kwargs)
    else:
        img.convert("RGB").save(path, "JPEG", quality=90, **kwargs)


def example_items(
    src: dict[str, np.ndarray],
) -> dict[str, tuple[Callable[[], Image.Image | np.ndarray], dict]]:
    """Relative path -> (image factory, EXIF fields). The golden set judges these paths."""
    pixel7 = {"make": "Google", "model": "Pixel 7"}
    iphone = {"make": "Apple", "model": "iPhone 12"}
    canon = {"make": "Canon", "model": "Canon EOS 5D Mark IV"}
    return {
        "cats/chelsea.jpg": (
            lambda: src["chelsea"],
            {"taken_at": datetime(2023, 7, 14, 10, 0), **pixel7, "gps": FLORENCE},
        ),
        "cats/chelsea_crop.jpg": (
            lambda: crop(src["chelsea"], 0.75),
            {"taken_at": datetime(2023, 7, 14, 10, 1), **pixel7},
        ),
        "cats/chelsea_flip.jpg": (
            lambda: src["chelsea"][:, ::-1],
            {"taken_at": datetime(2023, 7, 15, 9, 0), **pixel7},
        ),
        "cats/chelsea_blurry.jpg": (
            lambda: blur(src["chelsea"], 7),
            {"taken_at": datetime(2023, 7, 15, 9, 1), **pixel7},
        ),
        "kitchen/coffee.jpg": (lambda: src["coffee"], {"taken_at": datetime(2021, 3, 2, 8, 30), **iphone}),
        "kitchen/coffee_dark.jpg": (
            lambda: brightness(src["coffee"], 0.55),
            {"taken_at": datetime(2021, 3, 9, 7, 45), **iphone},
        ),
        "kitchen/coffee_blurry.jpg": (
            lambda: blur(src["coffee"], 8),
            {"taken_at": datetime(2021, 3, 9, 7, 46), **iphone},
        ),
        "space/astronaut.jpg": (lambda: src["astronaut"], {}),
        "space/astronaut_crop.jpg": (lambda: crop(src["astronaut"], 0.8), {}),
        "space/rocket.jpg": (
            lambda: src["rocket"],
            {"taken_at": datetime(2019, 2, 21, 16, 0), **canon, "gps": CAPE_CANAVERAL},
        ),
        "space/rocket_bright.jpg": (
            lambda: brightness(src["rocket"], 1.35),
            {"taken_at": datetime(2019, 2, 21, 16, 2), **canon},
        ),
        "people/grace_hopper.jpg": (lambda: src["grace_hopper"], {}),
        "people/cameraman.jpg": (lambda: src["camera"], {}),
        "trips/china.jpg": (
            lambda: src["china"],
            {"taken_at": datetime(2019, 5, 1, 12, 0), **canon, "gps": BEIJING},
        ),
        "trips/flower.jpg": (
            lambda: src["flower"],
            {"taken_at": datetime(2019, 5, 3, 11, 0), **canon, "gps": BEIJING},
        ),
        "trips/motorcycle.jpg": (
            lambda: src["motorcycle"],
            {"taken_at": datetime(2022, 9, 10, 15, 0), **pixel7, "gps": PARIS},
        ),
        "signs/exit_sign.jpg": (
            lambda: sign("EXIT"),
            {"taken_at": datetime(2022, 9, 11, 18, 0), **pixel7, "gps": PARIS},
        ),
        "signs/exit_red.jpg": (
            lambda: sign("EXIT", bg=(200, 20, 20)),
            {"taken_at": datetime(2022, 9, 12, 18, 0), **pixel7},
        ),
        "signs/open_sign.jpg": (
            lambda: sign("OPEN", bg=(20, 60, 160)),
            {"taken_at": datetime(2022, 9, 12, 19, 0), **pixel7},
        ),
        "screenshots/settings.png": (
            lambda: screenshot(
                "Settings",
                ["Account", "Backup: every night at 02:00", "Storage used: 12.4 GB", "Language: English"],
            ),
            {},
        ),
        "screenshots/chat.png": (
            lambda: screenshot(
                "Messages",
                [
                    "Anna: are we still on for Saturday?",
                    "Me: yes, see you at the beach",
                    "Anna: bring the dog!",
                ],
                accent=(0, 128, 96),
            ),
            {},
        ),
    }


#: What photo tools wrote into some example photos (XMP in the file, through libexiv2), so the golden
#: set covers the file's own words: a title, hierarchical keywords, a rating and a colour label.
EMBEDDED_XMP: dict[str, dict] = {
    "trips/motorcycle.jpg": {
        "Xmp.dc.title": {'lang="x-default"': "Rue de Rivoli"},
        "Xmp.lr.hierarchicalSubject": ["Places|France|Paris"],
        "Xmp.xmp.Rating": "5",
        "Xmp.xmp.Label": "Red",
    },
}
#: Keywords in digiKam-named sidecars; chelsea_flip's "dog" contradicts what the models see (a cat):
#: the golden set checks it is still found, as the file's word.
SIDECAR_KEYWORDS: dict[str, list[str]] = {"cats/chelsea_flip.jpg": ["dog"]}


def _write_metadata(root: Path, rel: str) -> None:
    """The example's embedded XMP and sidecar keywords for one photo (the example's own files)."""
    if rel in EMBEDDED_XMP:
        from photosearch.metadata.exiv2 import exiv2

        with exiv2().Image(str(root / rel)) as image:
            image.modify_xmp(EMBEDDED_XMP[rel])
    if rel in SIDECAR_KEYWORDS:
        from photosearch.metadata.writeback import SidecarUpdate, write_sidecar

        write_sidecar(root / rel, SidecarUpdate(keywords=SIDECAR_KEYWORDS[rel]))


def write_example_gallery(
    directory: Path | str, progress: Callable[[int, int, str], None] | None = None, overwrite: bool = False
) -> dict:
    """Write the example photos (and golden.yaml) into `directory`; existing files are kept unless `overwrite`."""
    root = Path(directory).expanduser().resolve()
    root.mkdir(parents=True, exist_ok=True)
    src = source_photos()
    items = example_items(src)
    written = 0
    for i, (rel, (make, exif)) in enumerate(items.items()):
        target = root / rel
        if overwrite or not target.exists():
            _save(target, make(), **exif)
            _write_metadata(root, rel)
            written += 1
        if progress:
            progress(i + 1, len(items), rel)
    golden = root / "golden.yaml"
    if overwrite or not golden.exists():
        text = EXAMPLE_GOLDEN.read_text(encoding="utf-8")
        golden.write_text(text, encoding="utf-8")
    return {"directory": str(root), "photos": len(items), "written": written, "golden": str(golden)}
