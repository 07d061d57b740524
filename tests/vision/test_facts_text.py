"""facts_text: a photo's facts as text, embedded for concept search."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.records import FactRecord
from photosearch.vision.analyzer import Analyzer, FactsAnalyzer
from photosearch.vision.facts_text import FactsTextAnalyzer, facts_to_text

CAT = [
    FactRecord("tag", "tabby", 0.8, data={"hypernym": False}),
    FactRecord("tag", "cat", 0.9, data={"hypernym": True}),
    FactRecord("object", "cat", 0.9, box=[0, 0, 1, 1]),
    FactRecord("quality", "sharp", 1.0, data={"blur": 300}),
]
SIGN = [
    FactRecord("text", "OPEN 24 HOURS", 0.9),
    FactRecord("object", "car", 0.7),
    FactRecord("knowledge", "Route 66", 0.8, data={"category": "road", "facts": "historic US highway"}),
]


def test_text_lists_facts_in_order_and_skips_noise():
    t = facts_to_text(CAT + [FactRecord("caption", "a cat on a sofa", 1.0), FactRecord("kind", "photo", 1.0)])
    assert t.startswith("a cat on a sofa.")
    assert "Tags: tabby, cat." in t and "Objects: cat." in t
    assert "sharp" not in t and "A photo" not in t
    s = facts_to_text(SIGN)
    assert "Text: OPEN 24 HOURS." in s and "Route 66" in s and "historic US highway" in s
    assert facts_to_text([]) == ""


@pytest.mark.slow
def test_embeddings_match_queries(embedder, vsettings):
    ft = FactsTextAnalyzer(vsettings, embedder=embedder)
    vecs = ft.embed_facts_batch([CAT, SIGN, []])
    assert vecs.shape == (3, 384)
    assert np.allclose(vecs[2], 0)
    q_cat, q_road = embedder.embed_one("my kitty"), embedder.embed_one("highway sign")
    assert vecs[0] @ q_cat > vecs[1] @ q_cat
    assert vecs[1] @ q_road > vecs[0] @ q_road
    result = ft.analyze_facts(CAT)
    assert set(result.embeddings) == {"facts_text"} and not result.facts
    assert ft.analyze_facts([]).embeddings == {}
    # it reads facts, not pixels: the pipeline runs it last, never on an image
    assert isinstance(ft, FactsAnalyzer) and not isinstance(ft, Analyzer)
