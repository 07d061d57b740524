"""Building vector indexes at scale: batched multi-threaded adds, chunked catalog reads, and the
recall of the index the post step builds (its dtype, connectivity and expansion) against exact search."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.evaluate.synth import clustered_vectors
from photosearch.vectors import VectorIndex, VectorIndexes
from photosearch.vectors import index as index_mod
from photosearch.vectors import manager as manager_mod
from photosearch.vectors.exact import ExactVectors


def test_batched_add_equals_per_item_add(monkeypatch):
    rng = np.random.default_rng(5)
    vecs = rng.standard_normal((40, 16)).astype(np.float32)
    ids = np.arange(500, 540)
    one_by_one = VectorIndex("t", 16)
    for key, vec in zip(ids, vecs, strict=True):
        one_by_one.add([key], vec[None, :])
    monkeypatch.setattr(index_mod, "ADD_BATCH", 7)  # 6 calls of at most 7 vectors
    seen: list[tuple[int, int]] = []
    batched = VectorIndex("t", 16)
    batched.add(ids, vecs, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(7, 40), (14, 40), (21, 40), (28, 40), (35, 40), (40, 40)]
    assert sorted(batched.keys().tolist()) == ids.tolist()
    np.testing.assert_allclose(batched.get_many(ids), one_by_one.get_many(ids), atol=1e-6)
    for q in vecs[:5]:
        got = batched.search(q, 5, exact=True)
        want = one_by_one.search(q, 5, exact=True)
        assert got[0].tolist() == want[0].tolist()
        np.testing.assert_allclose(got[1], want[1], atol=1e-5)


def test_add_replaces_present_ids_and_remove_ignores_missing():
    idx = VectorIndex("t", 4)
    idx.add([1, 2, 3], np.eye(4, dtype=np.float32)[:3])
    idx.add([2, 9], np.eye(4, dtype=np.float32)[[3, 0]])  # 2 replaced, 9 new
    assert len(idx) == 4 and sorted(idx.keys().tolist()) == [1, 2, 3, 9]
    np.testing.assert_allclose(idx.get(2), [0, 0, 0, 1], atol=1e-6)
    assert idx.remove([3, 77, 9]) == 2 and sorted(idx.keys().tolist()) == [1, 2]
    assert VectorIndex("t", 4).remove([1]) == 0


@pytest.mark.parametrize("dtype", ["f32", manager_mod.DEFAULT_DTYPE])
def test_built_index_recall_against_exact(dtype):
    """The post step's index settings keep recall@10 of approximate search >= 0.95 against exact
    search on a clustered set (queries near its photos; one thread: a deterministic graph)."""
    _, vecs = clustered_vectors(3000, 48, seed=2)
    ids = np.arange(1, 3001)
    idx = VectorIndex(
        "t",
        48,
        dtype,
        connectivity=manager_mod.DEFAULT_CONNECTIVITY,
        expansion_add=manager_mod.DEFAULT_EXPANSION_ADD,
    )
    idx.add(ids, vecs, threads=1)
    exact = ExactVectors("t", ids, vecs)
    rng = np.random.default_rng(9)
    queries = vecs[rng.choice(3000, 30, replace=False)] + rng.normal(scale=0.1, size=(30, 48)).astype(
        np.float32
    )
    recall = [
        len(set(idx.search(q, 10)[0].tolist()) & set(exact.search(q, 10)[0].tolist())) / 10 for q in queries
    ]
    assert float(np.mean(recall)) >= 0.95


def test_catalog_vectors_read_in_chunks_skip_bad_rows(store, settings, gallery, monkeypatch, caplog):
    from photosearch.catalog.models import Embedding

    whole_ids, whole = VectorIndexes(store, settings).catalog_vectors("image")
    with store.session() as s:  # one damaged vector (wrong size) among the good ones
        row = s.get(Embedding, (gallery["cat1.jpg"], "image"))
        row.vector = row.vector[:12]
    monkeypatch.setattr(manager_mod, "READ_CHUNK", 3)
    ids, vecs = VectorIndexes(store, settings).catalog_vectors("image")
    keep = whole_ids != gallery["cat1.jpg"]
    order, want = np.argsort(ids), np.argsort(whole_ids[keep])
    assert ids[order].tolist() == whole_ids[keep][want].tolist() and vecs.dtype == np.float32
    np.testing.assert_array_equal(vecs[order], whole[keep][want])
    assert "expected" in caplog.text
    some_ids, some = VectorIndexes(store, settings).catalog_vectors("image", [gallery["dog1.jpg"]])
    assert some_ids.tolist() == [gallery["dog1.jpg"]] and some.shape == (1, whole.shape[1])


def test_a_writer_loads_with_its_own_expansion(store, settings, gallery):
    """usearch files do not keep the build's expansion: the post step's later adds use its own."""
    VectorIndexes(store, settings, expansion_add=40).get("image")
    index = VectorIndexes(store, settings, expansion_add=40).get("image")  # loaded from disk
    assert index.index.expansion_add == 40
    assert VectorIndex.load(settings.vectors_dir, "image")[0].index.expansion_add != 40
