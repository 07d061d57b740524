"""The concept resolver's null model saved beside the catalog: a new process reads it (same results,
no recomputation); another index, other reference vectors or a damaged file mean it is computed again."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.query.resolvers import concept, snapshot
from photosearch.query.search import search


def _concept(store, settings, emb, value: str = "dog"):
    out = search(
        store, settings, plan={"version": 1, "where": {"concept": value}}, text_embedder=emb, explain=True
    )
    found = [(r["id"], r["score"]) for r in out["results"]]
    return found, [a["details"]["embedding"] for a in out["explain"]["atoms"]], out["explain"]["notes"]


@pytest.fixture
def built(store, settings, gallery):
    from photosearch.app import default_post_steps

    dict(default_post_steps(settings))["vectors"](store, None, None, lambda: False)
    return gallery


@pytest.fixture
def computed(monkeypatch):
    """How many null models were computed (not read)."""
    count = {"n": 0}
    real = concept.build_null

    def counting(*args, **kwargs):
        count["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(concept, "build_null", counting)
    return count


def _new_process(store) -> None:
    snapshot.invalidate(store)  # a new snapshot starts with an empty per-snapshot cache


def test_a_new_process_reads_the_saved_null_model(store, settings, built, fake_embedder, computed):
    first = _concept(store, settings, fake_embedder)
    assert computed["n"] == 1 and (settings.cache_dir / "null" / "facts_text.npz").is_file()
    assert first[0]
    _new_process(store)
    again = _concept(store, settings, fake_embedder)
    assert computed["n"] == 1 and again == first


def test_another_index_or_other_reference_vectors_compute_it_again(
    store, settings, built, fake_embedder, computed
):
    from photosearch.app import default_post_steps
    from photosearch.records import AnalysisResult

    _concept(store, settings, fake_embedder)
    with store.session() as s:  # a new facts vector: the post step saves another index file
        store.write_analysis(
            s,
            built["rocket.jpg"],
            "facts_text",
            2,
            AnalysisResult(embeddings={"facts_text": fake_embedder.embed(["dog on a beach"])[0]}),
        )
    dict(default_post_steps(settings))["vectors"](store, None, None, lambda: False)
    _new_process(store)
    results = _concept(store, settings, fake_embedder)
    assert computed["n"] == 2
    _new_process(store)
    other = type(fake_embedder)()
    other.embed = lambda texts: np.roll(fake_embedder.embed(texts), 1, axis=1)  # another text model
    _concept(store, settings, other)
    assert computed["n"] == 3
    _new_process(store)
    assert _concept(store, settings, fake_embedder) == results and computed["n"] == 4


@pytest.mark.parametrize("how", ["truncated", "garbage", "short keys"])
def test_a_damaged_file_is_computed_again_and_replaced(store, settings, built, fake_embedder, computed, how):
    from photosearch import array_files

    first = _concept(store, settings, fake_embedder)
    path = settings.cache_dir / "null" / "facts_text.npz"
    if how == "truncated":
        path.write_bytes(path.read_bytes()[:300])
    elif how == "garbage":
        path.write_bytes(b"\x93NUMPY garbage" * 40)
    else:  # whole, with its key, but arrays that do not fit it
        meta = array_files.read_meta(path)
        _, arrays = array_files.load(path, {})
        arrays["mu"] = arrays["mu"][:-1]
        array_files.save(path, arrays, meta)
    _new_process(store)
    assert _concept(store, settings, fake_embedder) == first and computed["n"] == 2
    _new_process(store)
    assert _concept(store, settings, fake_embedder) == first and computed["n"] == 2  # replaced


def test_exact_search_saves_no_null_model(store, settings, gallery, fake_embedder, computed):
    *_, notes = _concept(store, settings, fake_embedder)  # no index built: exact search
    assert any("exact search" in n for n in notes)
    assert not (settings.cache_dir / "null").exists()
