"""usearch indexes: rebuild when missing/corrupt/stale, removal on delete, dtypes."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.catalog.models import Photo
from photosearch.vectors import FACE_SPACE, VectorIndex, VectorIndexes
from photosearch.vectors.index import space_filename


def test_build_save_and_reload(store, settings, gallery):
    vi = VectorIndexes(store, settings)
    idx = vi.get("image")
    assert len(idx) == 10
    path = settings.vectors_dir / "image.usearch"
    assert path.is_file() and (settings.vectors_dir / "image.json").is_file()
    keys, sims = idx.search(idx.get(gallery["dog1.jpg"]), 2)
    assert keys[0] == gallery["dog1.jpg"] and sims[0] == pytest.approx(1.0, abs=1e-3)
    mtime = path.stat().st_mtime_ns
    again = VectorIndexes(store, settings).get("image")  # fresh process: loads, no rebuild
    assert len(again) == 10 and path.stat().st_mtime_ns == mtime
    faces = vi.get(FACE_SPACE)
    assert len(faces) == 7 and faces.dim == 128


def test_rebuild_when_deleted(store, settings, gallery):
    VectorIndexes(store, settings).get("image")
    (settings.vectors_dir / "image.usearch").unlink()
    idx = VectorIndexes(store, settings).get("image")
    assert len(idx) == 10 and (settings.vectors_dir / "image.usearch").is_file()


@pytest.mark.parametrize("damage", ["garbage", "truncate", "flip"])
def test_rebuild_when_corrupt(store, settings, gallery, damage):
    VectorIndexes(store, settings).get("image")
    path = settings.vectors_dir / "image.usearch"
    data = bytearray(path.read_bytes())
    if damage == "garbage":
        path.write_bytes(b"not an index" * 10)
    elif damage == "truncate":
        path.write_bytes(bytes(data[: len(data) // 2]))
    else:
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    idx = VectorIndexes(store, settings).get("image")
    assert len(idx) == 10
    keys, _ = idx.search(idx.get(gallery["cat1.jpg"]), 1)
    assert keys[0] == gallery["cat1.jpg"]


def test_stale_index_syncs_and_delete_removes(store, settings, gallery):
    vi = VectorIndexes(store, settings)
    assert gallery["dog1.jpg"] in vi.get("image")
    for space in vi.spaces():
        vi.get(space)
    with store.session() as s:
        s.get(Photo, gallery["dog1.jpg"]).state = "deleted"
    assert vi.remove_photos([gallery["dog1.jpg"]]) == 3  # image + facts_text + its face
    reloaded = VectorIndex.load(settings.vectors_dir, "image")[0]
    assert gallery["dog1.jpg"] not in reloaded and len(reloaded) == 9
    # a photo state change alone (no remove call) is also caught by the staleness check
    with store.session() as s:
        s.get(Photo, gallery["cat1.jpg"]).state = "deleted"
    idx = VectorIndexes(store, settings).get("image")
    assert gallery["cat1.jpg"] not in idx and len(idx) == 8


@pytest.mark.parametrize("dtype", ["f32", "bf16", "f16", "i8"])
def test_dtypes(tmp_path, dtype):
    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((50, 32)).astype(np.float32)
    idx = VectorIndex("clip:test", 32, dtype)
    idx.add(np.arange(100, 150), vecs)
    idx.save(tmp_path)
    loaded, side = VectorIndex.load(tmp_path, "clip:test")
    assert side.dtype == dtype and side.count == 50 and space_filename("clip:test") == "clip_test"
    keys, sims = loaded.search(vecs[7], 1, exact=True)
    assert keys[0] == 107 and sims[0] > 0.95
    loaded.add([999], vecs[:1])  # loaded writable (restore, not view)
    assert 999 in loaded and loaded.remove([999, 12345]) == 1


def _search(store, settings, emb, where):
    from photosearch.query.search import search

    return search(store, settings, plan={"version": 1, "where": where}, text_embedder=emb, explain=True)


def test_search_never_builds_an_index_the_post_step_does(store, settings, gallery, fake_embedder):
    """A missing index: search answers by exact search and says so, writing nothing; the indexer's
    `vectors` post step builds it, and the next search opens it. A stale one is not synced by search."""
    from photosearch.app import default_post_steps
    from photosearch.vectors.exact import ExactVectors

    files = lambda: sorted(p.name for p in settings.vectors_dir.glob("*"))  # noqa: E731
    assert files() == []
    out = _search(store, settings, fake_embedder, {"similar": str(gallery["dog1.jpg"])})
    assert [r["id"] for r in out["results"]][:1] == [gallery["dog2.jpg"]]
    assert any("image is missing or stale: exact search" in n for n in out["explain"]["notes"])
    assert files() == []  # nothing built or written at query time
    post = dict(default_post_steps(settings))["vectors"]
    assert post(store, None, None, lambda: False)["image"] == 10
    assert "image.usearch" in files() and "facts_text.usearch" in files()
    out = _search(store, settings, fake_embedder, {"similar": str(gallery["dog1.jpg"])})
    assert [r["id"] for r in out["results"]][:1] == [gallery["dog2.jpg"]]
    assert not any("image" in n for n in out["explain"]["notes"])
    # a new photo's vector makes the saved index stale: search falls back (exact, sees it), writes nothing
    from photosearch.records import AnalysisResult

    mtime = (settings.vectors_dir / "image.usearch").stat().st_mtime_ns
    vi = VectorIndexes(store, settings)
    dog = vi.get("image").get(gallery["dog1.jpg"])
    with store.session() as s:
        store.write_analysis(s, gallery["rocket.jpg"], "tagger", 2, AnalysisResult(embeddings={"image": dog}))
    assert vi.open("image") is None and isinstance(vi.exact("image"), ExactVectors)
    out = _search(store, settings, fake_embedder, {"similar": str(gallery["dog1.jpg"])})
    assert gallery["rocket.jpg"] in [r["id"] for r in out["results"]]
    assert (settings.vectors_dir / "image.usearch").stat().st_mtime_ns == mtime
    post(store, None, None, lambda: False)  # the post step syncs it: search opens it again
    assert vi.open("image") is not None and gallery["rocket.jpg"] in vi.open("image")


def test_exact_vectors_match_the_index():
    from photosearch.vectors.exact import ExactVectors, top_k

    rng = np.random.default_rng(3)
    vecs = rng.standard_normal((300, 16)).astype(np.float32)
    ids = np.arange(1000, 1300)[::-1].copy()  # unsorted ids
    exact = ExactVectors("t", ids, vecs)
    keys, sims = exact.search(vecs[10], 5)
    assert keys[0] == ids[10] and sims[0] == pytest.approx(1.0, abs=1e-5) and np.all(np.diff(sims) <= 0)
    assert ids[5] in exact and 5 not in exact and len(exact) == 300
    np.testing.assert_allclose(exact.get_many([ids[3]])[0], vecs[3] / np.linalg.norm(vecs[3]), rtol=1e-5)
    batch = exact.index.search(vecs[:2], 3)
    assert (
        batch.keys.shape == (2, 3)
        and batch.keys[1, 0] == ids[1]
        and batch.distances[0, 0] == pytest.approx(0, abs=1e-5)
    )
    scores = np.array([0.5, 0.9, 0.9, 0.1, 0.7], np.float32)
    assert top_k(scores, 3).tolist() == [1, 2, 4] and top_k(scores, 10).tolist() == [1, 2, 4, 0, 3]


def test_a_search_trusts_the_generation_a_writer_recorded_instead_of_asking_the_catalog(
    store, settings, gallery, monkeypatch
):
    """The vectors post step records the catalog generation in the sidecar; `open` in a new process
    then needs no aggregate query. After any other write it asks the aggregate (once per generation),
    the next post step records the new generation by rewriting the sidecar alone, and a changed vector
    is never hidden by it."""
    from photosearch.app import default_post_steps
    from photosearch.catalog import generation
    from photosearch.catalog.models import Person
    from photosearch.records import AnalysisResult
    from photosearch.vectors.index import read_sidecar

    post = dict(default_post_steps(settings))["vectors"]
    post(store, None, None, lambda: False)
    side = settings.vectors_dir / "image.json"
    assert read_sidecar(side).generation == generation.current(store).key()
    asked: list[str] = []
    real = VectorIndexes.catalog_state
    monkeypatch.setattr(
        VectorIndexes, "catalog_state", lambda self, space: asked.append(space) or real(self, space)
    )
    process = VectorIndexes(store, settings)
    assert len(process.open("image")) == 10 and asked == []
    with store.session() as s:  # a write the index does not care about: the aggregate decides, once
        s.add(Person(name="Zoe"))
    assert process.open("image") is not None and asked == ["image"]
    assert process.open("image") is not None and asked == ["image"]
    assert VectorIndexes(store, settings).open("image") is not None and asked == ["image", "image"]
    index_file = settings.vectors_dir / "image.usearch"
    mtime = index_file.stat().st_mtime_ns
    post(store, None, None, lambda: False)
    assert index_file.stat().st_mtime_ns == mtime  # only the sidecar was rewritten
    assert read_sidecar(side).generation == generation.current(store).key()
    asked.clear()
    assert len(VectorIndexes(store, settings).open("image")) == 10 and asked == []
    dog = process.open("image").get(gallery["dog1.jpg"])
    with store.session() as s:  # a replaced vector: stale, whatever the sidecar says
        store.write_analysis(s, gallery["rocket.jpg"], "tagger", 2, AnalysisResult(embeddings={"image": dog}))
    assert VectorIndexes(store, settings).open("image") is None and process.open("image") is None
