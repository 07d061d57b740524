"""Visual content formulation with the open-vocabulary detector (OWLv2 when pulled; here a tiny
generated ONNX model with the real export's inputs and outputs, pulled from a fake hub on loopback)."""

from __future__ import annotations

import numpy as np
from PIL import Image

from photosearch.catalog import Store
from photosearch.enrich.assistant import Assistant
from photosearch.enrich.detect import OWL_MODEL, detector_queries, open_detector
from photosearch.enrich.formulation import Observation
from photosearch.records import FactRecord
from tests.hub.conftest import fake_hub, pull_tiny_owl  # noqa: F401  (fixture)

from .helpers import add_photo, put_facts


def _pull_tiny_owl(hub, settings) -> None:
    pull_tiny_owl(hub, settings, OWL_MODEL)


def _photo(store, tmp_path) -> int:
    img = np.full((240, 480, 3), 128, np.uint8)
    img[40:120, 300:380] = (255, 0, 0)  # a red square, top right
    path = tmp_path / "red.jpg"
    Image.fromarray(img).save(path, quality=95)
    pid = add_photo(store, path)
    put_facts(store, pid, "detector", [FactRecord("object", "person", 0.6, [0.0, 0.3, 0.3, 1.0], {})])
    return pid


def test_question_nouns_are_the_detector_queries():
    obs = [Observation("tag", "cat", 0.9), Observation("tag", "animal", 0.9, data={"hypernym": True})]
    assert detector_queries("how much does the red bike cost?", obs) == ["red", "bike"]
    assert detector_queries("what is this?", obs) == ["cat"]  # generic: what the photo already names


def test_pulled_owl_gives_the_regions_and_the_coco_detector_is_the_fallback(fake_hub, settings, tmp_path):  # noqa: F811
    assert open_detector(settings) is None  # not pulled: the COCO detector's objects serve
    _pull_tiny_owl(fake_hub, settings)
    det = open_detector(settings)
    assert det is not None
    store = Store(settings.database_url)
    pid = _photo(store, tmp_path)
    assistant = Assistant(store, backend=None, detector=det)

    regions, _ = assistant.regions_for(pid, "what is the red thing?")
    assert regions[0].label == "red"  # a region for the question's noun, from OWLv2
    x0, y0, x1, y1 = regions[0].box
    assert 0.55 <= (x0 + x1) / 2 <= 0.85 and (y0 + y1) / 2 <= 0.6  # on the red square
    assert all(r.label != "person" for r in regions)  # the open-vocabulary objects replace COCO's

    regions, _ = assistant.regions_for(pid, "what is the green thing?")  # nothing green: fall back
    assert [r.label for r in regions][:1] == ["person"]
    regions, _ = Assistant(store, backend=None).regions_for(pid, "what is the red thing?")
    assert regions[0].label == "person"  # no detector pulled: the COCO regions
    store.close()
