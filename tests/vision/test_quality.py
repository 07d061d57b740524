"""Blur, photo/screenshot/document and dominant colours."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from photosearch.evaluate.blur_check import blurred
from photosearch.vision.quality import QualityAnalyzer, blur_score, dominant_colors
from tests.vision.conftest import photo


def facts(result, kind):
    return [f for f in result.facts if f.kind == kind]


#: (ground, title bar, sidebar, text, body text, button) of a light and a dark-mode window.
LIGHT_UI = ((245, 245, 245), (50, 60, 80), (230, 232, 236), (20, 20, 20), (30, 30, 30), (40, 120, 220))
DARK_UI = ((24, 24, 28), (40, 42, 48), (32, 33, 38), (225, 225, 230), (210, 210, 215), (60, 90, 160))


def render_screenshot(w=1280, h=800, dark: bool = False) -> np.ndarray:
    """A desktop app's window: title bar, sidebar, rows of text, a button; `dark`: light text on
    near-black panels, no light ground anywhere."""
    ground, bar, side, text, body, button = DARK_UI if dark else LIGHT_UI
    im = Image.new("RGB", (w, h), ground)
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, w, 40], fill=bar)
    d.rectangle([0, 40, 220, h], fill=side)
    for i in range(12):
        d.text((20, 60 + i * 30), f"Menu item {i}", fill=text)
    for i in range(20):
        d.text((250, 60 + i * 24), "Lorem ipsum dolor sit amet, consectetur adipiscing elit " * 2, fill=body)
    d.rectangle([w - 200, h - 70, w - 40, h - 30], fill=button)
    return np.asarray(im)


def render_document() -> np.ndarray:
    im = Image.new("RGB", (900, 1200), (250, 248, 240))
    d = ImageDraw.Draw(im)
    for i in range(40):
        d.text((60, 60 + i * 26), "The quick brown fox jumps over the lazy dog. " * 2, fill=(20, 20, 20))
    noisy = np.asarray(im).astype(np.float32) + np.random.default_rng(0).normal(0, 4, (1200, 900, 3))
    return cv2.GaussianBlur(np.clip(noisy, 0, 255).astype(np.uint8), (0, 0), 0.7)


@pytest.mark.parametrize("name", ["chelsea", "coffee", "astronaut", "grace_hopper"])
def test_original_is_sharp_and_blurred_copy_is_blurry(real_photos, name):
    qa = QualityAnalyzer()
    sharp = facts(qa.analyze(photo(real_photos[name])), "quality")[0]
    soft = facts(qa.analyze(photo(blurred(real_photos[name], 2.0))), "quality")[0]
    assert sharp.label == "sharp" and soft.label == "blurry"
    assert soft.data["blur"] < sharp.data["blur"] / 3


def small_on_plain_ground(rgb: np.ndarray, share: float = 0.1) -> np.ndarray:
    """The photo shrunk to `share` of each side on a plain light ground: a bird against the sky."""
    h, w = rgb.shape[:2]
    ground = np.full((h, w, 3), 236, np.uint8)
    sh, sw = int(h * share), int(w * share)
    ground[h // 3 : h // 3 + sh, w // 3 : w // 3 + sw] = cv2.resize(
        rgb, (sw, sh), interpolation=cv2.INTER_AREA
    )
    return ground


@pytest.mark.parametrize("name", ["chelsea", "coffee", "rocket"])
def test_a_small_sharp_subject_on_a_plain_ground_is_sharp(real_photos, name):
    """The plain ground has no detail to judge: it once diluted the subject's tiles into "blurry"."""
    qa = QualityAnalyzer()
    small = small_on_plain_ground(real_photos[name])
    assert facts(qa.analyze(photo(small)), "quality")[0].label == "sharp"
    assert facts(qa.analyze(photo(blurred(small, 2.0))), "quality")[0].label == "blurry"


def test_blur_score_is_resolution_independent(real_photos):
    rgb = real_photos["coffee"]
    big = cv2.resize(rgb, (rgb.shape[1] * 2, rgb.shape[0] * 2), interpolation=cv2.INTER_CUBIC)
    assert blur_score(big) == pytest.approx(blur_score(rgb), rel=0.5)


def test_real_photos_are_photos(real_photos):
    qa = QualityAnalyzer()
    for name, rgb in real_photos.items():
        kind = facts(qa.analyze(photo(rgb, f"{name}.jpg")), "kind")[0]
        assert kind.label == "photo", (name, kind.data)


@pytest.mark.parametrize("size", [(1280, 800), (1000, 700)])
def test_rendered_ui_is_a_screenshot(size):
    rgb = render_screenshot(*size)
    kind = facts(QualityAnalyzer().analyze(photo(rgb, "Screenshot.png")), "kind")[0]
    assert kind.label == "screenshot", kind.data
    # Even as a JPEG-named file of non-screen size the pixels say "synthetic".
    kind = facts(QualityAnalyzer().analyze(photo(render_screenshot(1000, 700), "x.jpg")), "kind")[0]
    assert kind.label == "screenshot", kind.data


def cut_out_on_white(rgb: np.ndarray) -> np.ndarray:
    """The photo's middle as an ellipse on a white ground, as stock cut-outs and stickers are."""
    h, w = rgb.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, (w // 2, h // 2), (w // 4, h // 3), 0, 0, 360, 1, -1)
    out = np.full_like(rgb, 255)
    out[mask > 0] = rgb[mask > 0]
    return out


@pytest.mark.parametrize("name", ["chelsea", "coffee", "astronaut"])
def test_an_object_cut_out_on_white_is_not_a_screenshot(real_photos, name):
    """Flat and of few colours like a screen, but no screen size and no lines of interface text."""
    for path in ("cutout.png", "cutout.jpg"):
        kind = facts(QualityAnalyzer().analyze(photo(cut_out_on_white(real_photos[name]), path)), "kind")[0]
        assert kind.label == "photo", (name, path, kind.data)


def test_a_dark_mode_screenshot_is_a_screenshot():
    """Light text on a dark ground, cropped to no screen's size: its lines of text still show a screen."""
    kind = facts(
        QualityAnalyzer().analyze(photo(render_screenshot(1000, 700, dark=True), "Screenshot.png")), "kind"
    )[0]
    assert kind.label == "screenshot" and kind.data["text_rows"] >= 2, kind.data


def test_scanned_page_is_a_document():
    kind = facts(QualityAnalyzer().analyze(photo(render_document(), "scan.jpg")), "kind")[0]
    assert kind.label == "document", kind.data


def test_dominant_colours_are_named():
    img = np.zeros((100, 100, 3), np.uint8)
    img[:, :60] = (220, 30, 30)
    img[:, 60:] = (30, 60, 200)
    cols = {name: frac for name, frac, _ in dominant_colors(img)}
    assert set(cols) == {"red", "blue"} and cols["red"] == pytest.approx(0.6, abs=0.05)
    assert dominant_colors(np.full((50, 50, 3), 255, np.uint8))[0][0] == "white"
    assert dominant_colors(np.zeros((50, 50, 3), np.uint8))[0][0] == "black"


def test_colour_facts_of_a_real_photo(real_photos):
    found = facts(QualityAnalyzer().analyze(photo(real_photos["rocket"])), "color")
    col = [f for f in found if "region" not in f.data]  # the whole frame's
    assert col[0].label == "blue" and 0 < col[0].score <= 1 and col[0].data["rgb"].startswith("#")
    assert sum(f.score for f in col) <= 1.0 + 1e-6
    subject = [f for f in found if f.data.get("region") == "subject"]
    assert subject and sum(f.score for f in subject) <= 1.0 + 1e-6


def test_the_subject_colour_is_the_centre_s():
    """A red car small in a grey street: red is under a tenth of the frame, most of the centre."""
    img = np.full((200, 300, 3), 128, np.uint8)
    img[80:120, 120:180] = (220, 30, 30)  # 4% of the frame
    found = facts(QualityAnalyzer().analyze(photo(img)), "color")
    frame = {f.label: f.score for f in found if "region" not in f.data}
    subject = {f.label: f.score for f in found if f.data.get("region") == "subject"}
    assert "red" not in frame and subject["red"] >= 0.15


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="RGB"):
        QualityAnalyzer().analyze(photo(np.zeros((10, 10, 2), np.uint8)))
    with pytest.raises(ValueError, match="uint8"):
        QualityAnalyzer().analyze(photo(np.zeros((10, 10, 3), np.float32)))
    # Grey, tiny and extreme shapes still work.
    for shape in [(1, 1), (3000, 8, 3), (5, 2000, 3)]:
        kinds = [f.kind for f in QualityAnalyzer().analyze(photo(np.full(shape, 90, np.uint8))).facts]
        assert kinds[:2] == ["quality", "kind"]
