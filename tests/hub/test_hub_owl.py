"""OWLv2 pre/post-processing with a tiny generated ONNX model in the real export's layout."""

from __future__ import annotations

import json

import numpy as np
import pytest

from photosearch.vision.owl import Detection, OwlDetector, load_owl, nms, postprocess_owl
from tests.hub import tiny_models as tm
from tests.hub.conftest import pull_tiny_owl
from tests.hub.hub_configs import OWLV2_PREPROCESSOR_CONFIG

SIZE = 64


@pytest.fixture
def owl_dir(tmp_path):
    for p, d in tm.owl_repo_files(SIZE).items():
        (tmp_path / p).write_bytes(d)
    return tmp_path


def _scene(h=48, w=96, box=(60, 8, 76, 24), color=(255, 0, 0)):
    img = np.full((h, w, 3), 128, np.uint8)
    x0, y0, x1, y1 = box
    img[y0:y1, x0:x1] = color
    return img


def test_preprocess_is_owlv2_image_processor_padding_bottom_right(owl_dir):
    """Owlv2ImageProcessor (transformers 5) pads to a square at the bottom/right with 0.0 before
    resizing: a white 2:1 photo is white at the top and black, -mean / std, in the padded bottom half."""
    det = OwlDetector(owl_dir)
    x, hw = det.preprocess(np.full((32, 64, 3), 255, np.uint8))
    assert x.shape == (1, 3, SIZE, SIZE) and hw == (32, 64)
    cfg = json.loads(OWLV2_PREPROCESSOR_CONFIG)
    mean, std = np.array(cfg["image_mean"], np.float32), np.array(cfg["image_std"], np.float32)
    white, black = (1 - mean) / std, -mean / std
    assert np.allclose(x[0, :, : SIZE // 2 - 4, :].mean(axis=(1, 2)), white, atol=1e-4)
    assert np.allclose(x[0, :, SIZE // 2 + 4 :, :].mean(axis=(1, 2)), black, atol=1e-4)


def test_postprocess_maps_boxes_back_and_thresholds():
    # 2 boxes, 2 queries; box 0 (in padded-square coords) matches query 1 strongly
    logits = np.array([[[-5.0, 4.0], [-6.0, -6.0]]], np.float32)
    boxes = np.array([[[0.75, 0.25, 0.5, 0.5], [0.2, 0.2, 0.1, 0.1]]], np.float32)
    cfg = {"threshold": 0.3, "nms_iou": 0.3, "top_k": 10}
    dets = postprocess_owl(logits, boxes, ["cat", "dog"], (50, 100), cfg)
    assert len(dets) == 1 and dets[0].label == "dog" and dets[0].score > 0.98
    # square side 100: y fractions double on a 50-px-high photo
    assert np.allclose(dets[0].box, [0.5, 0.0, 1.0, 1.0])
    assert postprocess_owl(logits, boxes, ["cat", "dog"], (50, 100), cfg, threshold=0.999) == []
    with pytest.raises(Exception, match="queries"):
        postprocess_owl(logits, boxes, ["cat"], (50, 100), cfg)


def test_nms_drops_overlaps():
    b = np.array([[0, 0, 1, 1], [0.05, 0, 1, 1], [2, 2, 3, 3]], np.float32)
    assert nms(b, np.array([0.9, 0.8, 0.7]), 0.5) == [0, 2]


def test_detect_with_tiny_model_finds_the_coloured_square(owl_dir):
    det = OwlDetector(owl_dir, preprocess={"threshold": 0.5, "query_template": "a photo of a {}"})
    img = _scene()  # 96x48 photo, red square at x 60..76, y 8..24
    feeds = det.tokenize(["red"])
    assert feeds["input_ids"].dtype == np.int64 and feeds["input_ids"].shape == (1, 16)
    assert feeds["attention_mask"][0].sum() == 7  # bos a photo of a red eos
    dets = det.detect(img, ["red", "blue"])
    assert dets and all(isinstance(d, Detection) for d in dets)
    labels = {d.label for d in dets}
    assert labels == {"red"}
    x0, y0, x1, y1 = dets[0].box
    cx, cy = (x0 + x1) / 2 * 96, (y0 + y1) / 2 * 48
    assert 56 <= cx <= 80 and 4 <= cy <= 28  # on the red square, in photo coordinates
    label, score, box = dets[0]  # unpacks as (label, score, box)
    assert 0.5 <= score <= 1.0 and len(box) == 4
    assert det.detect(img, []) == []
    blue = det.detect(_scene(color=(0, 0, 255)), ["red", "blue"])
    assert blue and blue[0].label == "blue"


def test_pull_and_load_owl_from_hub(fake_hub, settings):
    pull_tiny_owl(fake_hub, settings, "tiny-owl", SIZE)
    det = load_owl(settings, "tiny-owl")
    assert det.config["threshold"] == 0.5
    assert det.preprocess(_scene())[0].shape == (1, 3, SIZE, SIZE)  # the pulled preprocessor_config.json
    assert det.detect(_scene(), ["red"])[0].label == "red"


def test_missing_detector_is_a_clear_error(tmp_path):
    with pytest.raises(Exception, match="models pull"):
        OwlDetector(tmp_path / "none", name="owl").detect(np.zeros((8, 8, 3), np.uint8), ["x"])
