"""Faces: dlib HOG detector + 128-d descriptors on real photos."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.vision.faces import DESCRIPTOR_DIM, margin_to_score

from .helpers import photo_image

pytestmark = pytest.mark.slow


def dist(a, b) -> float:
    return float(np.linalg.norm(a.faces[0].descriptor - b.faces[0].descriptor))


def test_astronaut_has_exactly_one_face_with_a_descriptor(face_results):
    result = face_results["astronaut"]
    assert len(result.faces) == 1
    face = result.faces[0]
    assert face.descriptor.shape == (DESCRIPTOR_DIM,) and face.descriptor.dtype == np.float32
    assert np.all(np.isfinite(face.descriptor)) and np.linalg.norm(face.descriptor) > 0.1
    x0, y0, x1, y1 = face.box
    # Eileen Collins' face is in the upper middle-left of the picture
    assert 0.25 < x0 < x1 < 0.6 and 0.05 < y0 < y1 < 0.45
    assert 0.5 <= face.score <= 1.0


def test_every_variant_has_one_face(face_results):
    assert {name: len(r.faces) for name, r in face_results.items()} == {
        "astronaut": 1,
        "astronaut_mirror": 1,
        "grace": 1,
        "grace_crop": 1,
    }


def test_descriptors_separate_people(face_results):
    same_a = dist(face_results["astronaut"], face_results["astronaut_mirror"])
    same_g = dist(face_results["grace"], face_results["grace_crop"])
    other = dist(face_results["astronaut"], face_results["grace"])
    assert same_a < 0.5 and same_g < 0.5
    assert other > 0.6


def test_no_faces_in_a_cat_or_coffee(faces):
    from skimage import data

    assert faces.analyze(photo_image(data.chelsea())).faces == []
    assert faces.analyze(photo_image(data.coffee())).faces == []


def test_grey_and_rgba_input_work(faces, astronaut):
    grey = np.ascontiguousarray(astronaut.mean(axis=2).astype(np.uint8))
    assert len(faces.analyze(photo_image(grey)).faces) == 1
    rgba = np.dstack([astronaut, np.full(astronaut.shape[:2], 255, np.uint8)])
    assert len(faces.analyze(photo_image(rgba)).faces) == 1


def test_bad_input_is_a_clear_error(faces):
    with pytest.raises(ValueError):
        faces.analyze(photo_image(np.zeros((10, 10, 3), np.float32)))


def test_margin_to_score_is_monotonic():
    assert margin_to_score(0.0) == 0.5
    assert margin_to_score(-1) < margin_to_score(0.3) < margin_to_score(2.0) < 1.0
