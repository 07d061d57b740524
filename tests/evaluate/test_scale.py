"""Scale-out: Ray fan-out indexing (local Ray; SQLite and PostgreSQL) and sharded vector indexes."""

from __future__ import annotations

import os

import numpy as np
import pytest
from sqlalchemy import func, select, text

from photosearch.catalog import Store
from photosearch.catalog.models import Analysis, Base, Fact, Photo
from photosearch.config import Settings
from photosearch.scale.shards import ShardedIndex, build_from_catalog, build_with_ray, merge_topk
from photosearch.vectors.index import VectorIndex

PG_URL = os.environ.get("PHOTOSEARCH_TEST_PG_URL")


def quality_only(settings):
    """The real (cheap) bundled quality analyzer, built inside each Ray actor."""
    from photosearch.app import default_analyzers

    return default_analyzers(settings, include=["quality"])


def _check_catalog(store: Store, expected_photos: int) -> None:
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Photo)) == expected_photos
        assert s.scalar(select(func.count()).select_from(Analysis).where(Analysis.status == "ok")) == expected_photos
        blurry = set(s.scalars(select(Photo.path).join(Fact, Fact.photo_id == Photo.id)
                               .where(Fact.kind == "quality", Fact.label == "blurry")))
        shots = set(s.scalars(select(Photo.path).join(Fact, Fact.photo_id == Photo.id)
                              .where(Fact.kind == "kind", Fact.label == "screenshot")))
    assert {p.rsplit("/", 2)[-2] + "/" + p.rsplit("/", 1)[-1] for p in blurry} == {
        "cats/chelsea_blurry.jpg", "kitchen/coffee_blurry.jpg"}
    assert {p.rsplit("/", 1)[-1] for p in shots} == {"settings.png", "chat.png"}


@pytest.mark.slow
def test_ray_index_sqlite(tmp_path, example_gallery, local_ray):
    from photosearch.scale.ray_index import run_ray_index

    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(example_gallery)
    events = []
    report = run_ray_index(store, settings, 2, progress=events.append, analyzer_factory=quality_only, post_steps=[])
    assert report.added == 21 and report.analysed == 21 and report.failed == 0
    assert report.stage_ms["model:quality"] > 0 and events[-1].stage == "done"
    _check_catalog(store, 21)
    # thumbnails written by the workers are in the shared thumbs dir
    assert len(list(settings.thumbs_dir.rglob("*.webp"))) == 21
    # a re-run finds nothing to do; a moved file keeps its analysis without re-running it
    again = run_ray_index(store, settings, 2, analyzer_factory=quality_only, post_steps=[])
    assert again.unchanged == 21 and again.added == 0 and again.analysed == 0
    (example_gallery / "trips" / "flower.jpg").rename(example_gallery / "trips" / "flower_moved.jpg")
    try:
        moved = run_ray_index(store, settings, 2, analyzer_factory=quality_only, post_steps=[])
        assert moved.moved == 1 and moved.analysed == 0
    finally:
        (example_gallery / "trips" / "flower_moved.jpg").rename(example_gallery / "trips" / "flower.jpg")
    store.close()


@pytest.mark.slow
def test_ray_index_cancel_keeps_what_finished(tmp_path, example_gallery, local_ray):
    from photosearch.scale.ray_index import run_ray_index

    settings = Settings(data_dir=tmp_path / "data", batch_size=2)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(example_gallery)
    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return calls["n"] > 3

    report = run_ray_index(store, settings, 2, cancel=cancel, analyzer_factory=quality_only, post_steps=[])
    assert report.cancelled and 0 < report.added < 21
    with store.session() as s:
        n = s.scalar(select(func.count()).select_from(Photo))
        analysed = s.scalar(select(func.count()).select_from(Analysis))
    assert n == report.added and analysed == n  # nothing half-written
    rest = run_ray_index(store, settings, 2, analyzer_factory=quality_only, post_steps=[])
    assert rest.added == 21 - n
    store.close()


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.skipif(not PG_URL, reason="set PHOTOSEARCH_TEST_PG_URL (see .ci/start-postgres.sh)")
def test_ray_index_postgres(tmp_path, example_gallery, local_ray):
    from photosearch.scale.ray_index import run_ray_index

    store = Store(PG_URL, create=False)
    with store.engine.begin() as conn:
        Base.metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS schema_version"))
    store.migrate()
    settings = Settings(data_dir=tmp_path / "data", db_url=PG_URL)
    settings.ensure_dirs()
    store.add_folder(example_gallery)
    report = run_ray_index(store, settings, 2, analyzer_factory=quality_only, post_steps=[])
    assert store.engine.dialect.name == "postgresql"
    assert report.added == 21 and report.analysed == 21
    _check_catalog(store, 21)
    store.close()


def _clustered(n: int, dim: int, seed: int = 0):
    from photosearch.evaluate.synth import clustered_vectors

    _, v = clustered_vectors(n, dim, seed=seed)
    return np.arange(1, n + 1), v


def test_sharded_search_equals_single_index(tmp_path):
    ids, vecs = _clustered(4000, 48)
    single = VectorIndex("image", 48)
    single.add(ids, vecs)
    sharded = ShardedIndex("image", 48, 4)
    sharded.add(ids, vecs)
    assert len(sharded) == 4000 and all(len(s) > 800 for s in sharded.shards)
    rng = np.random.default_rng(3)
    merged = sharded.merge()
    assert len(merged) == 4000
    sharded.save(tmp_path / "shards")
    reloaded = ShardedIndex.load(tmp_path / "shards")
    for q in rng.normal(size=(25, 48)).astype(np.float32):
        want_ids, want_sims = single.search(q, 10, exact=True)
        for index in (sharded, merged, reloaded):
            got_ids, got_sims = index.search(q, 10, exact=True)
            assert got_ids.tolist() == want_ids.tolist()
            assert np.allclose(got_sims, want_sims, atol=1e-5)
    # approximate (HNSW) search over shards finds nearly the same neighbours
    overlap = np.mean([len(set(sharded.search(q, 10)[0]) & set(single.search(q, 10, exact=True)[0])) / 10
                       for q in rng.normal(size=(25, 48)).astype(np.float32)])
    assert overlap >= 0.9
    assert sharded.remove([1, 2, 3]) == 3 and len(sharded) == 3997


def test_merge_topk_orders_by_similarity_then_id():
    ids, sims = merge_topk([(np.array([5, 1]), np.array([0.9, 0.5])), (np.array([2, 7]), np.array([0.9, 0.7]))], 3)
    assert ids.tolist() == [2, 5, 7] and np.allclose(sims, [0.9, 0.9, 0.7])


def test_shards_from_catalog(tmp_path):
    from photosearch.evaluate.synth import generate_catalog

    settings = Settings(data_dir=tmp_path / "d")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    generate_catalog(store, 600, spaces={"facts_text": 32})
    sharded = build_from_catalog(store, settings, "facts_text", 3, directory=tmp_path / "s")
    assert len(sharded) == 600 and (tmp_path / "s" / "manifest.json").is_file()
    with pytest.raises(ValueError, match="no vectors"):
        build_from_catalog(store, settings, "clip:none", 2)
    store.close()


@pytest.mark.slow
def test_shards_built_by_ray_tasks(tmp_path, local_ray):
    ids, vecs = _clustered(1500, 32, seed=5)
    sharded = build_with_ray(ids, vecs, "image", 3, tmp_path / "rs")
    single = VectorIndex("image", 32)
    single.add(ids, vecs)
    q = vecs[17]
    assert sharded.search(q, 10, exact=True)[0].tolist() == single.search(q, 10, exact=True)[0].tolist()


def quality_and_facts_text(settings):
    """A pixel analyzer and the facts analyzer (real MiniLM), as the bundled tier pairs them."""
    from photosearch.app import default_analyzers

    return default_analyzers(settings, include=["quality", "facts_text"])


@pytest.mark.slow
def test_ray_index_runs_facts_text_on_the_driver(tmp_path, example_gallery, local_ray):
    """Regression: workers called analyze() on facts_text, which failed on every photo."""
    from photosearch.catalog.models import Embedding
    from photosearch.scale.ray_index import run_ray_index

    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(example_gallery)
    report = run_ray_index(store, settings, 2, analyzer_factory=quality_and_facts_text, post_steps=[])
    assert report.broken_analyzers() == [] and report.analysis_failed == 0
    assert report.analyzers["facts_text"]["ok"] == 21 and report.analyzers["quality"]["ok"] == 21
    serial_settings = Settings(data_dir=tmp_path / "serial")
    serial_settings.ensure_dirs()
    serial = Store(serial_settings.database_url)
    serial.add_folder(example_gallery)
    from photosearch.app import build_indexer

    build_indexer(serial, serial_settings, analyzers=quality_and_facts_text(serial_settings), post_steps=[]).run()

    def embedded(st: Store) -> set[str]:
        with st.session() as s:
            assert s.scalar(select(func.count()).select_from(Analysis).where(Analysis.status == "failed")) == 0
            return set(s.scalars(select(Photo.path).join(Embedding, Embedding.photo_id == Photo.id)
                                 .where(Embedding.space == "facts_text")))

    assert embedded(store) == embedded(serial) != set()  # the same photos embedded as the serial engine
    store.close()
    serial.close()
