"""The viewer shows every format the catalog holds, the right way up and with its own colours."""

from __future__ import annotations

import numpy as np
import piexif
import pytest
from PIL import Image
from PySide6.QtCore import QSize

from photosearch.gui.thumbs import load_image
from photosearch.ingest.decode import heif_available
from tests.ingest.dng import write_dng

W, H = 640, 480
#: The four quadrants' colours (top left, top right, bottom left, bottom right).
QUADRANTS = ((220, 30, 30), (30, 200, 40), (30, 40, 220), (240, 230, 40))


def quadrants(w: int = W, h: int = H) -> np.ndarray:
    rgb = np.empty((h, w, 3), np.uint8)
    tl, tr, bl, br = QUADRANTS
    rgb[: h // 2, : w // 2], rgb[: h // 2, w // 2 :] = tl, tr
    rgb[h // 2 :, : w // 2], rgb[h // 2 :, w // 2 :] = bl, br
    return rgb


def colour_at(image, fx: float, fy: float) -> tuple[int, int, int]:
    c = image.pixelColor(int(image.width() * fx), int(image.height() * fy))
    return c.red(), c.green(), c.blue()


def assert_quadrants(image, *, developed: bool = False) -> None:
    """Each quadrant shows its colour: within 40 per channel, or for a RAW developed by LibRaw (its
    camera colour matrix saturates) nearer to its own colour than to any other quadrant's."""
    assert image is not None and not image.isNull()
    assert abs(image.width() / image.height() - W / H) < 0.02, (image.width(), image.height())
    spots = ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75))
    for (fx, fy), want in zip(spots, QUADRANTS, strict=True):
        got = colour_at(image, fx, fy)
        if developed:
            nearest = min(QUADRANTS, key=lambda q: sum((a - b) ** 2 for a, b in zip(got, q, strict=True)))
            assert nearest == want, (got, want)
        else:
            assert max(abs(a - b) for a, b in zip(got, want, strict=True)) < 40, (got, want)


@pytest.mark.parametrize("suffix", [".heic", ".avif", ".jxl", ".webp", ".tiff", ".jp2"])
def test_the_viewer_reads_each_format(tmp_path, suffix):
    assert heif_available()
    path = tmp_path / f"photo{suffix}"
    Image.fromarray(quadrants()).save(path)
    image = load_image(str(path), QSize(320, 320))
    assert_quadrants(image)
    assert image.width() <= 320 and image.height() <= 320


def test_a_raw_photo_shows_the_photo_not_its_first_page_thumbnail(tmp_path):
    # like a camera's DNG: a 160-pixel thumbnail on the first page, the sensor data in a sub-IFD
    path = write_dng(tmp_path / "shot.dng", quadrants(), preview=quadrants(160, 120))
    image = load_image(str(path), QSize(2000, 2000))
    assert_quadrants(image, developed=True)
    assert image.width() >= W // 2  # developed from the sensor data, not the thumbnail


def test_exif_orientation_turns_the_photo(tmp_path):
    # stored sideways (portrait pixels) with "rotate 90° clockwise to view": shown as the landscape original
    stored = np.ascontiguousarray(np.rot90(quadrants(), k=1))  # counter-clockwise, as a camera held sideways
    exif = piexif.dump({"0th": {piexif.ImageIFD.Orientation: 6}})
    for name in ("turned.jpg", "turned.heic"):
        path = tmp_path / name
        Image.fromarray(stored).save(path, exif=exif)
        assert_quadrants(load_image(str(path), QSize(400, 400)))


def test_an_unreadable_file_is_no_image_and_no_crash(tmp_path):
    path = tmp_path / "broken.heic"
    path.write_bytes(b"\x00\x00\x00\x18ftypheic" + b"\x00" * 100)
    assert load_image(str(path), QSize(200, 200)) is None
