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


def _banner(w: int, h: int) -> np.ndarray:
    """A panorama in three colour bands across: left red, middle green, right blue."""
    rgb = np.empty((h, w, 3), np.uint8)
    rgb[:, : w // 3], rgb[:, w // 3 : 2 * w // 3], rgb[:, 2 * w // 3 :] = (
        QUADRANTS[0],
        QUADRANTS[1],
        QUADRANTS[2],
    )
    return rgb


@pytest.mark.parametrize("suffix", [".webp", ".heic"])  # Qt's reader, and the indexer's decoder
def test_a_panorama_s_thumbnail_shows_a_sharp_middle_window_in_the_grid(tmp_path, suffix):
    """A 6.4:1 panorama fitted into the grid's square was a strip 25 px high. Its thumbnail is now
    long enough (short side half the thumbnail size) for the grid to show its middle 2:1 window."""
    from photosearch.gui.thumbs import PANORAMA_WINDOW
    from photosearch.ingest.thumbnails import make_thumbnail

    if suffix == ".heic" and not heif_available():
        pytest.fail("pillow-heif is not installed", pytrace=False)
    thumb = make_thumbnail(Image.fromarray(_banner(1920, 298)), 256)
    assert (thumb.width, thumb.height) == (825, 128)
    path = tmp_path / f"thumb{suffix}"
    thumb.save(path)
    image = load_image(str(path), QSize(160, 160), PANORAMA_WINDOW)
    assert (image.width(), image.height()) == (160, 80)
    assert max(abs(a - b) for a, b in zip(colour_at(image, 0.5, 0.5), QUADRANTS[1], strict=True)) < 40
    whole = load_image(str(path), QSize(160, 160))  # the viewer, and anything that asks for no window
    assert whole.width() == 160 and whole.height() < 30


def test_an_old_strip_thumbnail_stays_whole_rather_than_blurred(tmp_path):
    strip = Image.fromarray(_banner(1920, 298))
    strip.thumbnail((256, 256))  # what thumbnails were before panoramas got longer ones
    path = tmp_path / "old.webp"
    strip.save(path)
    image = load_image(str(path), QSize(160, 160), 2.0)
    assert image.width() == 160 and image.height() < 30  # all three bands, not an enlarged middle
    assert colour_at(image, 0.1, 0.5) != colour_at(image, 0.9, 0.5)


def test_an_ordinary_photo_is_never_cut(tmp_path):
    path = tmp_path / "q.webp"
    Image.fromarray(quadrants()).save(path)
    assert_quadrants(load_image(str(path), QSize(160, 160), 2.0))
