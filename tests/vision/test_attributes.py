"""Photo attributes from pixels: each holds on a scene made for it and not on the real test photos
it does not describe (an orange cat is no sunset, a blue porcelain pattern no sky), and the
calibrated ones hold on the labelled set's transforms of real photos (evaluate/attribute_set.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from photosearch.evaluate.attribute_set import desaturated, overexposed, sepia, underexposed
from photosearch.vision.attributes import ATTRIBUTES, measure
from photosearch.vision.preprocess import resize_max_side
from photosearch.vision.quality import QualityAnalyzer
from tests.vision.conftest import photo

H, W = 300, 450


def _labels(rgb: np.ndarray) -> set[str]:
    found = measure(resize_max_side(rgb, 512))
    assert all(a.label in ATTRIBUTES and 0.5 <= a.degree <= 1.0 for a in found)
    return {a.label for a in found}


def _sunset() -> np.ndarray:
    img = np.zeros((H, W, 3), np.uint8)
    for y in range(H // 2):
        img[y] = (250, 120 + y // 2, 40)
    img[H // 2 :] = (30, 20, 25)  # the ground in silhouette
    return img


def _sunset_in_warm_light() -> np.ndarray:
    """A sunset whose whole frame is warm: the sky runs from pale high up to orange at the horizon,
    over a ground in warm shadow, every tinted pixel in the brown-orange band a sepia print has."""
    img = np.zeros((H, W, 3), np.uint8)
    for y in range(H // 2):
        t = y / (H // 2)
        img[y] = np.array([245, 228, 205]) * (1 - t) + np.array([250, 150, 80]) * t
    img[H // 2 :] = (60, 40, 30)
    for x in range(0, W, 12):
        img[H // 2 :, x : x + 5] = (32, 29, 27)  # darker, greyer furrows
    return img


def _night() -> np.ndarray:
    img = np.full((H, W, 3), 8, np.uint8)
    img[50:55, 100:105] = 255
    img[200:210, 300:305] = (255, 220, 120)  # street lights
    img[H - 40 :] = 45  # the street under them, dimly lit
    return img


def _on_black_velvet(rgb: np.ndarray) -> np.ndarray:
    """A subject lit on a black backdrop, as a product shot or a studio portrait is."""
    img = np.full((H, W, 3), 6, np.uint8)
    small = cv2.resize(rgb, (W // 3, H // 3), interpolation=cv2.INTER_AREA)
    img[H // 3 : H // 3 + small.shape[0], W // 3 : W // 3 + small.shape[1]] = small
    return img


def _snow_under_sky() -> np.ndarray:
    img = np.full((H, W, 3), 235, np.uint8)
    img[: H // 3] = (120, 170, 235)
    return img


def _sepia(rgb: np.ndarray) -> np.ndarray:
    grey = rgb.mean(axis=2, keepdims=True) / 255
    return np.clip(grey * np.array([1.0, 0.8, 0.55]) * 280, 0, 255).astype(np.uint8)


def test_made_scenes_have_their_attributes(real_photos):
    assert _labels(_sunset()) == {"sunset"}
    assert _labels(_night()) == {"night", "dark", "monochrome"}  # black, white points, a speck of colour
    assert _labels(_snow_under_sky()) == {"bright", "white scene", "sky"}
    assert _labels(_on_black_velvet(real_photos["chelsea"])) == {"dark"}  # dark, but no night
    assert "sepia" in _labels(_sepia(real_photos["astronaut"]))
    assert "sunset" not in _labels(_sepia(real_photos["coffee"]))  # a warm tone is no sunset
    assert _labels(_sunset_in_warm_light()) == {"sunset"}  # ...and a sunset's warm light is no toned print
    grey = np.repeat(real_photos["astronaut"].mean(axis=2, keepdims=True), 3, axis=2).astype(np.uint8)
    assert _labels(grey) == {"monochrome"} and "monochrome" not in _labels(_sepia(real_photos["astronaut"]))


@pytest.mark.parametrize(
    "name", ["chelsea", "coffee", "astronaut", "rocket", "china", "flower", "grace_hopper"]
)
def test_real_photos_get_no_attribute_they_do_not_show(real_photos, name):
    found = _labels(real_photos[name])
    assert not found & {"monochrome", "sunset", "night", "sepia", "sky", "white scene", "dark"}, found
    assert "colourful" not in found, found  # a red cup, an orange cat, a grey rocket: one or two hues


#: Vivid patches of these RGB colours: red, yellow, green, blue, magenta.
VIVID_PATCHES = ((220, 30, 30), (240, 220, 20), (30, 180, 40), (30, 60, 220), (210, 40, 200))


def _patches(colours, background=(40, 40, 40), size=(H, W), box=None) -> np.ndarray:
    """Vertical stripes of `colours` over `box` (y0, y1, x0, x1; default: the whole frame)."""
    img = np.full((*size, 3), background, np.uint8)
    y0, y1, x0, x1 = box or (0, size[0], 0, size[1])
    step = (x1 - x0) // len(colours)
    for i, colour in enumerate(colours):
        img[y0:y1, x0 + i * step : x0 + (i + 1) * step] = colour
    return img


def test_many_vivid_hues_are_colourful_and_one_or_two_are_not(real_photos):
    from skimage import data

    assert "colourful" in _labels(data.colorwheel()[..., :3])
    assert "colourful" in _labels(_patches(VIVID_PATCHES))
    assert "colourful" not in _labels(_patches(VIVID_PATCHES[:2]))  # red and yellow: two hues
    orange_on_white = np.full((H, W, 3), 245, np.uint8)
    cv2.circle(orange_on_white, (W // 2, H // 2), 120, (250, 140, 20), -1)
    assert "colourful" not in _labels(orange_on_white)
    # washed-out hues are not vivid; a grey copy has none
    assert "colourful" not in _labels((_patches(VIVID_PATCHES) * 0.3 + 150).astype(np.uint8))
    assert "colourful" not in _labels(desaturated(data.colorwheel()[..., :3]))


def test_a_colourful_cut_out_on_a_light_page_is_colourful():
    """A parrot on a white page fills a fifth of the frame: its hues are measured against itself,
    not against the page."""
    page = _patches(VIVID_PATCHES[:4], background=(245, 245, 242), box=(100, 200, 150, 310))
    found = measure(page)
    assert "colourful" in {a.label for a in found}
    assert next(a for a in found if a.label == "colourful").data["hues"] == 4


def test_the_quality_analyzer_writes_them_as_facts():
    facts = QualityAnalyzer().analyze(photo(_night(), "night.jpg")).facts
    attrs = {f.label: f for f in facts if f.kind == "attribute"}
    assert set(attrs) == {"night", "dark", "monochrome"} and attrs["night"].data["black"] > 0.8
    stripes = QualityAnalyzer().analyze(photo(_patches(VIVID_PATCHES), "stripes.png")).facts
    assert {f.label for f in stripes if f.kind == "attribute"} >= {"colourful"}


REAL = ["chelsea", "coffee", "astronaut", "rocket", "china", "flower"]


@pytest.mark.parametrize("name", REAL)
def test_toned_copies_are_sepia_and_grey_copies_monochrome(real_photos, name):
    """The W3C sepia tone's cream highlights count (the hue band before calibration missed the
    astronaut's and the temple's); a grey copy is monochrome, not sepia."""
    rgb = real_photos[name]
    toned, grey = _labels(sepia(rgb)), _labels(desaturated(rgb))
    assert "sepia" in toned and "monochrome" not in toned, toned
    assert "monochrome" in grey and "sepia" not in grey, grey
    assert not _labels(rgb) & {"sepia", "monochrome"}


@pytest.mark.parametrize("name", REAL)
def test_exposure_moves_dark_and_bright(real_photos, name):
    rgb = real_photos[name]
    under, over = _labels(underexposed(rgb)), _labels(overexposed(rgb))
    assert "dark" in under and "bright" not in under, under
    assert "dark" not in over, over


def test_a_warm_cut_out_on_a_light_background_is_not_sepia():
    """Only a third of the frame is tinted: a brown object on paper, not a toned print."""
    img = np.full((H, W, 3), (236, 234, 228), np.uint8)
    cv2.ellipse(img, (W // 2, H // 2), (150, 100), 0, 0, 360, (200, 130, 70), -1)
    assert "sepia" not in _labels(img)
    assert "sepia" in _labels(sepia(img[H // 2 - 60 : H // 2 + 60, W // 2 - 100 : W // 2 + 100]))
