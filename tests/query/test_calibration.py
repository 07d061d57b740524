"""Per-atom calibrated cut-offs: no descending tail."""

from __future__ import annotations

import numpy as np

from photosearch.query.calibration import CalibrationConfig, build_null, gap_cut, select
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo


def _caption_gallery(store, emb):
    """10 photos described only by captions (no tags): the embedding signal must decide."""
    from photosearch.catalog.models import Folder

    captions = [
        "a puppy dog on the grass",
        "a black dog with a ball",
        "a tabby cat sleeping on a sofa",
        "a red sports car parked outside",
        "a cup of espresso on a table",
        "mountain lake at sunrise",
        "a crowd at a concert",
        "a bowl of ramen noodles",
        "a city skyline at night",
        "a sailing boat on the sea",
    ]
    ids = []
    with store.session() as s:
        f = Folder(path="/g")
        s.add(f)
        s.flush()
        for i, cap in enumerate(captions):
            p = add_photo(s, f, f"p{i}.jpg")
            ids.append(p.id)
            store.write_analysis(
                s,
                p.id,
                "captioner",
                1,
                AnalysisResult(
                    facts=[FactRecord("caption", cap, 0.9)], embeddings={"facts_text": emb.embed([cap])[0]}
                ),
            )
    return ids


def test_dog_returns_only_the_dogs_not_a_tail(store, settings, fake_embedder):
    ids = _caption_gallery(store, fake_embedder)
    cfg = CalibrationConfig()
    res = search(
        store,
        settings,
        plan={"version": 1, "where": {"concept": "dog"}, "compose": {}},
        text_embedder=fake_embedder,
        explain=True,
        calibration=cfg,
    )
    assert sorted(r["id"] for r in res["results"]) == ids[:2]
    detail = res["explain"]["atoms"][0]["details"]["embedding"][0]
    assert detail["z0"] >= cfg.z_min and detail["kept"] == 2


def test_unrelated_query_returns_nothing(store, settings, fake_embedder):
    _caption_gallery(store, fake_embedder)
    res = search(
        store,
        settings,
        plan={"version": 1, "where": {"concept": "zebra"}, "compose": {}},
        text_embedder=fake_embedder,
    )
    assert [r for r in res["results"] if not r["below_cutoff"]] == []  # at most closest matches
    assert res["matched"] == 0


def test_gap_cut():
    assert gap_cut(np.array([9.0, 8.5, 8.0, 3.0, 2.9]), 2.0) == 3
    assert gap_cut(np.array([9.0, 8.5, 8.0, 7.5]), 2.0) == 4
    assert gap_cut(np.array([5.0]), 2.0) == 1


def test_threshold_is_calibrated_not_flat():
    rng = np.random.default_rng(0)
    refs = rng.standard_normal((32, 64)).astype(np.float32)
    refs /= np.linalg.norm(refs, axis=1, keepdims=True)
    sample = rng.standard_normal((300, 64)).astype(np.float32)
    sample /= np.linalg.norm(sample, axis=1, keepdims=True)
    cfg = CalibrationConfig(z_min=0.0)
    null = build_null(sample, refs, cfg)
    assert 1.5 < null.z0 < 6.0  # from the reference null, not a constant
    # a relative tail: one strong match, then weak ones far below it
    z = np.array([12.0, 4.0, 3.9, 3.8])
    keep, info = select(z, np.array([0.8, 0.3, 0.3, 0.3]), 3.0, cfg)
    assert keep.tolist() == [True, False, False, False] and info["kept"] == 1
