"""Real SSD MobileNet v2 COCO detector through OpenCV DNN."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.vision.detector import _once, nms
from tests.vision.conftest import panorama, photo

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


def test_each_person_of_a_panorama_is_found_once(detector, real_photos):
    """Squashed square, the astronaut and Grace Hopper beside two temple views (4.9:1) were too narrow
    to find: no person at all. Read in overlapping parts too, each is one person box, in its place."""
    temple = real_photos["china"]
    wide = panorama(real_photos["astronaut"], temple, real_photos["grace_hopper"], temple)
    people = [f for f in objects(detector.analyze(photo(wide, "pano.jpg"))) if f.label == "person"]
    assert len(people) == 2, [(f.score, f.box) for f in people]
    lefts = sorted(f.box[0] for f in people)
    assert lefts[0] < 0.05 and 0.4 < lefts[1] < 0.6, lefts  # the astronaut, then Grace Hopper
    assert all(f.box[3] - f.box[1] > 0.8 for f in people)  # each the height of the strip


def test_a_thing_seen_in_two_views_counts_once():
    whole = np.array([[1, 0.9, 0.10, 0.0, 0.30, 1.0], [3, 0.8, 0.5, 0.0, 0.6, 1.0]], np.float32)
    part = np.array([[1, 0.7, 0.12, 0.05, 0.29, 0.95], [1, 0.6, 0.7, 0.0, 0.8, 1.0]], np.float32)
    kept = _once([whole, part], threshold=0.4)
    # the part's person inside the whole's counts once; a second person elsewhere, and a car, stay
    assert sorted((int(c), round(float(p), 2)) for c, p in kept[:, :2]) == [(1, 0.6), (1, 0.9), (3, 0.8)]
    weak = np.array([[1, 0.2, 0.12, 0.05, 0.29, 0.95]], np.float32)
    assert len(_once([whole, weak], threshold=0.4)) == 3  # what is below the threshold only informs


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
