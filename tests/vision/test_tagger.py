"""Real EfficientNet-Lite3 tagger + WordNet hypernyms + the image-similarity embedding."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.vision.wordnet import WordNetUnavailable
from tests.vision.conftest import panorama, photo

pytestmark = pytest.mark.slow

CAT_LIKE = {"tabby", "tiger cat", "Egyptian cat", "Persian cat", "Siamese cat", "lynx"}
COFFEE_LIKE = {"espresso", "cup", "coffee mug", "coffee", "eggnog", "cappuccino"}


def labels(result, hypernym: bool | None = None) -> dict[str, float]:
    return {
        f.label: f.score
        for f in result.facts
        if f.kind == "tag" and (hypernym is None or bool(f.data["hypernym"]) == hypernym)
    }


def test_chelsea_is_a_cat_with_hypernyms(tagged):
    r = tagged["chelsea"]
    direct = labels(r, hypernym=False)
    assert CAT_LIKE & set(direct), direct
    hyper = labels(r, hypernym=True)
    assert {"cat", "feline", "animal"} <= set(hyper), hyper
    # A hypernym sums the probabilities of its classes: at least the best cat class.
    assert hyper["cat"] >= max(direct[k] for k in CAT_LIKE & set(direct)) - 1e-6
    facts = {f.label: f for f in r.facts}
    assert facts["cat"].data["synset"] == "n02121620" and facts["cat"].data["hypernym"] is True
    assert not {"entity", "physical entity", "object", "whole", "organism"} & set(labels(r))


def test_a_cat_in_the_middle_of_a_panorama_is_tagged(tagger, real_photos):
    """Squashed square, a 4.5:1 panorama's cat was too narrow to see: "church" and "totem pole" led
    and no cat class was among the tags. Its parts are read too, each at its best."""
    temple = real_photos["china"]
    wide = tagger.analyze(photo(panorama(temple, real_photos["chelsea"], temple), "pano.jpg"))
    direct = labels(wide, hypernym=False)
    assert CAT_LIKE & set(direct), direct
    assert labels(wide, hypernym=True).get("cat", 0.0) > 0.5, labels(wide, hypernym=True)
    # the similarity feature is still the whole photo's: one 1280-d unit vector
    assert np.linalg.norm(wide.embeddings["image"]) == pytest.approx(1.0, abs=1e-4)


def test_coffee_gets_coffee_like_tags(tagged):
    tags = labels(tagged["coffee"])
    assert COFFEE_LIKE & set(tags), tags


def test_scores_are_probabilities_and_sorted(tagged):
    for r in tagged.values():
        direct = [f.score for f in r.facts if f.kind == "tag" and not f.data["hypernym"]]
        assert direct == sorted(direct, reverse=True) and len(direct) >= 1
        assert all(0.0 <= f.score <= 1.0 for f in r.facts)


def test_image_embedding_is_unit_1280(tagged):
    for r in tagged.values():
        v = r.embeddings["image"]
        assert v.shape == (1280,) and v.dtype == np.float32
        assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-4)


def test_crop_is_nearer_its_original_than_other_photos(tagger, tagged, real_photos):
    names = list(real_photos)
    base = np.stack([tagged[n].embeddings["image"] for n in names])
    for name in ("chelsea", "coffee", "astronaut"):
        rgb = real_photos[name]
        h, w = rgb.shape[:2]
        crop = rgb[h // 10 : h - h // 10, w // 8 : w - w // 10][::2, ::2]  # crop + downscale
        v = tagger.analyze(photo(crop)).embeddings["image"]
        sims = base @ v
        assert names[int(np.argmax(sims))] == name, dict(zip(names, sims.round(3), strict=True))


def test_grey_and_tiny_inputs_work_and_bad_ones_fail_clearly(tagger, detector):
    grey = np.full((40, 30), 100, np.uint8)
    assert tagger.analyze(photo(grey)).embeddings["image"].shape == (1280,)
    assert isinstance(detector.analyze(photo(np.zeros((1, 1, 3), np.uint8))).facts, list)
    with pytest.raises(ValueError, match="RGB"):
        tagger.analyze(photo(np.zeros((4, 4, 5), np.uint8)))


def test_tags_without_wordnet_have_no_hypernyms(tagger, real_photos, monkeypatch):
    from photosearch.vision import tagger as tagger_mod

    def missing(*_a, **_k):
        raise WordNetUnavailable("no wordnet here")

    monkeypatch.setattr(tagger_mod, "get_wordnet", missing)
    bare = tagger_mod.TaggerAnalyzer(tagger.settings, model=tagger.model)
    facts = bare.analyze(photo(real_photos["chelsea"])).facts
    assert facts and not any(f.data["hypernym"] for f in facts)
    assert all("synset" not in f.data for f in facts)
