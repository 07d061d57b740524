"""Full class distributions through the real bundled models: the tagger keeps its whole softmax,
the detector every class's best score, and a concept is scored against them (ConSE-style)."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.catalog import Store
from photosearch.catalog.models import Folder
from photosearch.models.labels import COCO_CLASS_IDS, COCO_LABELS, decode_scores
from photosearch.query.search import search
from tests.query.gallery import add_photo

from .conftest import photo

pytestmark = pytest.mark.slow


def test_tagger_keeps_the_whole_softmax(tagged):
    probs = tagged["chelsea"].embeddings["imagenet"]
    assert probs.shape == (1000,) and abs(float(probs.sum()) - 1.0) < 0.1  # uint8-quantised softmax
    direct = [f for f in tagged["chelsea"].facts if f.kind == "tag" and not f.data.get("hypernym")]
    assert (probs > 0).sum() > len(direct)  # more classes than the tags above the threshold


def test_detector_keeps_every_class_score(detector, real_photos):
    vec = detector.analyze(photo(real_photos["astronaut"])).embeddings["coco"]
    assert vec.shape == (len(COCO_CLASS_IDS) + 1,) and vec[-1] == 1.0
    scores = decode_scores(vec / np.linalg.norm(vec))[0]  # what survives the unit-vector index
    person = COCO_CLASS_IDS.index(next(i for i, n in COCO_LABELS.items() if n == "person"))
    assert scores[person] == pytest.approx(vec[person], abs=1e-4) and scores[person] > 0.4


@pytest.fixture(scope="module")
def catalog(tmp_path_factory, tagged, detector, real_photos):
    from photosearch.config import Settings

    settings = Settings(data_dir=tmp_path_factory.mktemp("dist"))
    settings.ensure_dirs()
    store = Store(settings.database_url)
    ids = {}
    with store.session() as s:
        f = Folder(path="/real")
        s.add(f)
        s.flush()
        for name, rgb in real_photos.items():
            p = add_photo(s, f, f"{name}.jpg")
            ids[name] = p.id
            store.write_analysis(s, p.id, "tagger", 2, tagged[name])
            store.write_analysis(s, p.id, "detector", 2, detector.analyze(photo(rgb)))
    yield store, settings, ids
    store.close()


def _plan(concept: str) -> dict:
    return {"version": 1, "where": {"concept": concept}, "compose": {"limit": 5}}


def test_a_class_below_the_tag_threshold_still_finds_the_photo(catalog, tagged, tagger):
    store, settings, ids = catalog
    found = None
    for photo_name, result in tagged.items():  # a class the model gave a little, never written as a tag
        probs = result.embeddings["imagenet"]
        tag_labels = {f.label.lower() for f in result.facts if f.kind == "tag"}
        for i in np.argsort(-probs)[:10]:
            name = tagger.model.labels[int(i)].split(",")[0]
            if 0.0 < probs[i] < tagger.min_score and all(w not in tag_labels for w in name.lower().split()):
                found = (photo_name, name)
                break
        if found:
            break
    assert found is not None
    photo_name, name = found
    res = search(store, settings, plan=_plan(name), signals=[], explain=True)
    hit = next(r for r in res["results"] if r["id"] == ids[photo_name])
    assert any(w["fact"] == "imagenet" and w["label"] == name for w in hit["why"]), hit["why"]
    assert res["explain"]["atoms"][0]["details"]["distribution_hits"] >= 1


def test_synonym_through_the_distribution(catalog):
    store, settings, ids = catalog
    res = search(store, settings, plan=_plan("kitty"), signals=[])
    assert res["results"][0]["id"] == ids["chelsea"] and not res["results"][0]["below_cutoff"]
    whys = res["results"][0]["why"]
    assert any("kitty" in (w.get("text") or "") for w in whys), whys
    res = search(store, settings, plan=_plan("pussycat"), signals=[])
    assert res["results"][0]["id"] == ids["chelsea"]
