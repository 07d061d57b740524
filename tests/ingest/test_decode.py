"""Decoding real photos in every supported format, and every kind of bad file."""

from __future__ import annotations

import io
from datetime import datetime

import numpy as np
import pillow_heif
import pytest
from PIL import Image

from photosearch.errors import DecodeError
from photosearch.ingest.decode import load_rgb, open_image
from photosearch.ingest.exif import read_exif
from tests.conftest import save_photo


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp", ".tif", ".gif"])
def test_formats_decode_to_rgb(tmp_path, real_photos, suffix):
    path = save_photo(tmp_path / f"coffee{suffix}", real_photos["coffee"])
    d = open_image(path)
    assert d.image.mode == "RGB"
    assert (d.width, d.height) == (600, 400)


def test_heic_decodes(tmp_path, real_photos):
    path = tmp_path / "cat.heic"
    pillow_heif.from_pillow(Image.fromarray(real_photos["chelsea"])).save(path, quality=80)
    d = open_image(path)
    assert d.format in ("HEIF", "HEIC") and (d.width, d.height) == (451, 300)
    assert np.asarray(d.image).mean() > 20


def test_gif_first_frame(tmp_path):
    frames = [Image.new("RGB", (20, 10), c) for c in ((255, 0, 0), (0, 0, 255))]
    path = tmp_path / "anim.gif"
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=100, loop=0)
    rgb = np.asarray(open_image(path).image)
    assert rgb[5, 5, 0] > 200 and rgb[5, 5, 2] < 50


def test_draft_mode_downscales_big_jpeg(tmp_path, real_photos):
    big = np.tile(real_photos["astronaut"], (4, 4, 1))  # 2048x2048
    path = save_photo(tmp_path / "big.jpg", big)
    d = open_image(path, max_side=512)
    assert max(d.image.size) == 512
    assert (d.width, d.height) == (2048, 2048)
    assert load_rgb(path, 300).shape[:2] == (300, 300)


@pytest.mark.parametrize("orientation", [None, 6])
def test_a_panorama_keeps_half_the_analysis_size_on_its_short_side(tmp_path, real_photos, orientation):
    """Fitted into 1280 px, a 6:1 panorama was 213 px high and its people's faces too small to find.
    The indexer's loader reads it 640 px high (at most three times 1280 long); the photo turned by its
    EXIF orientation is a tall panorama, read 640 px wide."""
    from photosearch.ingest.loader import LoadOptions, load_for_analysis

    strip = np.tile(real_photos["astronaut"][:320], (4, 12, 1))  # 1280 x 6144 stored
    path = save_photo(tmp_path / "pano.jpg", strip, orientation=orientation)
    rgb = load_for_analysis(1, str(path), LoadOptions(thumbs_dir=str(tmp_path))).rgb
    assert rgb.shape[:2] == ((640, 3072) if orientation is None else (3072, 640))
    assert open_image(path, max_side=1280).image.size in ((1280, 267), (267, 1280))  # others: as before
    photo = save_photo(tmp_path / "photo.jpg", np.tile(real_photos["astronaut"], (3, 4, 1)))  # 2048 x 1536
    assert load_for_analysis(2, str(photo), LoadOptions(thumbs_dir=str(tmp_path))).rgb.shape[:2] == (
        960,
        1280,
    )


def test_exif_orientation_applied_and_read(tmp_path, real_photos):
    # Stored landscape 451x300 with orientation 6 (rotate 90 CW): shown as portrait 300x451.
    path = save_photo(
        tmp_path / "o.jpg",
        real_photos["chelsea"],
        orientation=6,
        taken_at=datetime(2022, 8, 1, 9, 30),
        make="Google",
        model="Pixel 7",
        gps=(48.8584, -2.2945),
        lens="wide",
    )
    d = open_image(path)
    assert d.image.size == (300, 451) and (d.width, d.height) == (300, 451)
    info = read_exif(d.exif)
    assert info.taken_at == datetime(2022, 8, 1, 9, 30)
    assert (info.camera_make, info.camera_model, info.lens) == ("Google", "Pixel 7", "wide")
    assert info.gps_lat == pytest.approx(48.8584, abs=1e-3)
    assert info.gps_lon == pytest.approx(-2.2945, abs=1e-3)
    assert info.orientation == 6


def test_alpha_and_16bit_become_rgb(tmp_path):
    rgba = Image.new("RGBA", (8, 8), (255, 0, 0, 0))
    rgba.save(tmp_path / "a.png")
    assert open_image(tmp_path / "a.png").image.getpixel((1, 1)) == (255, 255, 255)
    Image.fromarray(np.full((8, 8), 40000, np.uint16)).save(tmp_path / "g16.png")
    assert open_image(tmp_path / "g16.png").image.mode == "RGB"


def test_one_pixel_image_is_fine(tmp_path):
    Image.new("RGB", (1, 1), (1, 2, 3)).save(tmp_path / "one.png")
    assert open_image(tmp_path / "one.png").image.size == (1, 1)


@pytest.mark.parametrize(
    "name,content,reason",
    [
        ("empty.jpg", b"", "empty_file"),
        ("text.jpg", b"hello, I am not a photo\n" * 20, "not_an_image"),
        ("html.png", b"<html><body>nope</body></html>", "not_an_image"),
    ],
)
def test_bad_files_have_reasons(tmp_path, name, content, reason):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(DecodeError) as err:
        open_image(path)
    assert err.value.reason == reason
    assert name in str(err.value)


def test_truncated_jpeg(tmp_path, real_photos):
    buf = io.BytesIO()
    Image.fromarray(real_photos["astronaut"]).save(buf, "JPEG", quality=95)
    path = tmp_path / "cut.jpg"
    path.write_bytes(buf.getvalue()[: len(buf.getvalue()) // 3])
    with pytest.raises(DecodeError) as err:
        open_image(path)
    assert err.value.reason == "truncated"


def test_decompression_bomb_is_refused_by_pixel_cap(tmp_path):
    Image.new("L", (4000, 4000)).save(tmp_path / "bomb.png", optimize=True)
    assert (tmp_path / "bomb.png").stat().st_size < 100_000
    with pytest.raises(DecodeError) as err:
        open_image(tmp_path / "bomb.png", max_pixels=1_000_000)
    assert err.value.reason == "too_many_pixels"


def test_mislabelled_png_named_jpg_still_decodes(tmp_path, real_photos):
    path = save_photo(tmp_path / "really_png.jpg", real_photos["coffee"], fmt="PNG")
    assert open_image(path).format == "PNG"


def test_vanished_and_unreadable(tmp_path, monkeypatch):
    with pytest.raises(DecodeError) as err:
        open_image(tmp_path / "nope.jpg")
    assert err.value.reason == "vanished"
    path = tmp_path / "secret.jpg"
    path.write_bytes(b"x" * 10)

    def deny(*a, **k):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Image, "open", deny)
    with pytest.raises(DecodeError) as err:
        open_image(path)
    assert err.value.reason == "permission_denied"
