"""Camera RAW through the real tagger: a DNG (written by the test) is seen as what it shows."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.ingest.decode import load_rgb
from tests.ingest.dng import write_dng

from .conftest import photo

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("with_preview", [True, False])
def test_tagger_sees_the_cat_in_a_dng(tmp_path, tagger, real_photos, with_preview):
    cat = real_photos["chelsea"]
    path = write_dng(tmp_path / "IMG_1.dng", cat, preview=cat[:, :450].copy() if with_preview else None)
    rgb = load_rgb(path, 512)
    assert rgb.ndim == 3 and rgb.shape[2] == 3
    result = tagger.analyze(photo(rgb, str(path)))
    labels = {f.label.lower() for f in result.facts if f.kind == "tag"}
    if with_preview:
        assert "tabby" in labels or "tiger cat" in labels, labels
    else:  # the test DNG has no colour calibration: the demosaic is tinted, yet still an animal
        assert labels & {
            "tabby",
            "tiger cat",
            "egyptian cat",
            "cat",
            "domestic cat",
            "feline",
            "animal",
            "carnivore",
            "mammal",
        }, labels
    assert np.isclose(result.embeddings["imagenet"].sum(), 1.0, atol=0.1)
