"""Photos of pages of text and receipts are documents; natural photos, signs and objects on white
are not (QualityAnalyzer's `kind`, measured on real and rendered photos)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from photosearch.vision.quality import QualityAnalyzer, text_layout
from tests.required import require_file

from .conftest import photo

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
OPENCV = Path("/usr/share/doc/opencv-doc/examples/data")


def _font(name: str, size: int):
    path = DEJAVU / name
    if not path.is_file():
        pytest.fail("DejaVu fonts not installed (fonts-dejavu-core)")
    return ImageFont.truetype(str(path), size)


def receipt_photo(seed: int, angle: float) -> np.ndarray:
    """A till receipt on a wooden-brown table, photographed: noise, a tilt, uneven light."""
    rng = np.random.default_rng(seed)
    paper = Image.new("RGB", (380, 760), (238, 236, 228))
    d = ImageDraw.Draw(paper)
    d.text((60, 30), "SUPERMARKET", font=_font("DejaVuSansMono-Bold.ttf", 28), fill=(30, 30, 30))
    for i, item in enumerate(
        ["MILK 1L", "BREAD", "APPLES 1KG", "COFFEE", "BUTTER", "EGGS x12", "CHEESE", "RICE"]
    ):
        d.text(
            (20, 90 + 40 * i),
            f"{item:<14}{rng.integers(1, 20)}.{rng.integers(0, 99):02d}",
            font=_font("DejaVuSansMono.ttf", 20),
            fill=(40, 40, 40),
        )
    d.text((20, 440), "TOTAL        42.17", font=_font("DejaVuSansMono.ttf", 20), fill=(20, 20, 20))
    table = Image.new("RGB", (1200, 900), (110, 80, 50))
    table.paste(paper.rotate(angle, expand=True, fillcolor=(110, 80, 50)), (400, 60))
    a = np.asarray(table).astype(np.float32) * np.linspace(0.8, 1.05, 1200)[None, :, None]
    return np.clip(a + rng.normal(0, 6, a.shape), 0, 255).astype(np.uint8)


def page_photo(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    img = Image.new("RGB", (1000, 1300), (225, 222, 215))
    d = ImageDraw.Draw(img)
    words = [
        "the",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "the",
        "lazy",
        "dog",
        "while",
        "more",
        "words",
        "follow",
        "here",
    ]
    for i in range(30):
        d.text(
            (80, 80 + 38 * i),
            " ".join(rng.choice(words, 9)),
            font=_font("DejaVuSerif.ttf", 24),
            fill=(35, 35, 35),
        )
    a = np.asarray(img).astype(np.float32) * np.linspace(0.75, 1.0, 1300)[:, None, None]
    return np.clip(a + rng.normal(0, 6, a.shape), 0, 255).astype(np.uint8)


def kind_of(rgb: np.ndarray, path: str = "IMG_0001.jpg") -> str:
    facts = QualityAnalyzer().analyze(photo(rgb, path)).facts
    return next(f.label for f in facts if f.kind == "kind")


@pytest.mark.parametrize("seed,angle", [(0, 0.0), (1, 4.0), (2, -7.0)])
def test_receipts_are_documents(seed, angle):
    assert kind_of(receipt_photo(seed, angle)) == "document"


def test_photographed_and_scanned_pages_are_documents(real_photos):
    from skimage import data

    assert kind_of(page_photo(0)) == "document"
    assert kind_of(np.stack([data.page()] * 3, axis=-1)) == "document"
    for name in ("imageTextN.png", "imageTextR.png"):  # real pages of printed text (opencv-doc)
        page = Image.open(require_file(OPENCV / name, "opencv-doc")).convert("RGB")
        assert kind_of(np.asarray(page), "scan.jpg") == "document", name


def test_natural_photos_and_objects_on_white_are_not_documents(real_photos):
    for name, rgb in real_photos.items():
        assert kind_of(rgb) == "photo", name
    # an object cut out on a plain white background (a product shot): no lines of text
    canvas = np.full((600, 800, 3), 245, np.uint8)
    canvas[150:450, 200:600] = real_photos["chelsea"][:300, :400]
    assert kind_of(canvas) != "document"
    from skimage import data

    rows, share = text_layout(np.stack([data.camera()] * 3, axis=-1))  # grass: many marks, no lines
    assert rows < 5 or share < 0.6
