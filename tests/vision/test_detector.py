"""Real SSD MobileNet v2 COCO detector through OpenCV DNN."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.vision.detector import nms
from tests.vision.conftest import photo

pytestmark = pytest.mark.slow


def objects(result):
    return [f for f in result.facts if f.kind == "object"]


def test_astronaut_has_a_person_box(detector, real_photos):
    found = objects(detector.analyze(photo(real_photos["astronaut"])))
    people = [f for f in found if f.label == "person"]
    assert people, [(f.label, f.score) for f in found]
    best = max(people, key=lambda f: f.score)
    x0, y0, x1, y1 = best.box
    assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
    assert (x1 - x0) * (y1 - y0) > 0.3  # the astronaut fills most of the frame
    assert best.score >= detector.threshold


def test_cat_and_cup_are_found(detector, real_photos):
    assert "cat" in {f.label for f in objects(detector.analyze(photo(real_photos["chelsea"])))}
    assert "cup" in {f.label for f in objects(detector.analyze(photo(real_photos["coffee"])))}


def test_flat_image_has_no_objects(detector):
    assert objects(detector.analyze(photo(np.full((200, 300, 3), 128, np.uint8)))) == []


def test_nms_keeps_the_best_of_overlapping_boxes():
    boxes = np.array([[0, 0, 1, 1], [0.05, 0, 1, 1], [0, 0, 0.2, 0.2]], dtype=np.float32)
    assert nms(boxes, np.array([0.6, 0.9, 0.5]), 0.5) == [1, 2]


def test_the_main_object_gives_the_subject_colours(detector, real_photos):
    """A brown tabby in the top-left corner of a blue frame: the centre is blue, the cat is not."""
    cat = real_photos["chelsea"]
    canvas = np.zeros((900, 1300, 3), np.uint8)
    canvas[:] = (40, 60, 200)
    canvas[20 : 20 + cat.shape[0], 20 : 20 + cat.shape[1]] = cat
    result = detector.analyze(photo(canvas))
    subject = [f for f in result.facts if f.kind == "color"]
    assert subject and all(f.data["region"] == "subject" and f.data["of"] == "cat" for f in subject)
    names = {f.label for f in subject}
    assert "blue" not in names and names & {"orange", "brown"}, [(f.label, f.score) for f in subject]
    # a frame with no object has no subject colours from the detector (the centre stands for it)
    assert not [
        f for f in detector.analyze(photo(np.full((200, 300, 3), 128, np.uint8))).facts if f.kind == "color"
    ]
