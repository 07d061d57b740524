"""Scale-out: Ray fan-out indexing (local Ray; SQLite and PostgreSQL), the same catalog as the serial engine."""

from __future__ import annotations

import os

import numpy as np
import pytest
from sqlalchemy import func, select, text

from photosearch.catalog import Store
from photosearch.catalog.models import Analysis, Base, Fact, Photo
from photosearch.config import Settings

PG_URL = os.environ.get("PHOTOSEARCH_TEST_PG_URL")


def quality_only(settings):
    """The real (cheap) bundled quality analyzer, built inside each Ray actor."""
    from photosearch.app import default_analyzers

    return default_analyzers(settings, include=["quality"])


def _check_catalog(store: Store, expected_photos: int) -> None:
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Photo)) == expected_photos
        assert (
            s.scalar(select(func.count()).select_from(Analysis).where(Analysis.status == "ok"))
            == expected_photos
        )
        blurry = set(
            s.scalars(
                select(Photo.path)
                .join(Fact, Fact.photo_id == Photo.id)
                .where(Fact.kind == "quality", Fact.label == "blurry")
            )
        )
        shots = set(
            s.scalars(
                select(Photo.path)
                .join(Fact, Fact.photo_id == Photo.id)
                .where(Fact.kind == "kind", Fact.label == "screenshot")
            )
        )
    assert {p.rsplit("/", 2)[-2] + "/" + p.rsplit("/", 1)[-1] for p in blurry} == {
        "cats/chelsea_blurry.jpg",
        "kitchen/coffee_blurry.jpg",
    }
    assert {p.rsplit("/", 1)[-1] for p in shots} == {"settings.png", "chat.png"}


@pytest.mark.slow
def test_ray_index_sqlite(tmp_path, example_gallery, local_ray):
    from photosearch.scale.ray_index import run_ray_index

    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(example_gallery)
    events = []
    report = run_ray_index(
        store, settings, 2, progress=events.append, analyzer_factory=quality_only, post_steps=[]
    )
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


def detector_quality_and_facts_text(settings):
    """Two pixel analyzers and the facts analyzer (real MiniLM), as the bundled tier pairs them."""
    from photosearch.app import default_analyzers

    return default_analyzers(settings, include=["detector", "quality", "facts_text"])


def catalog_contents(store: Store) -> dict[str, dict]:
    """Per photo (by file name in its folder): its analyses, facts and embeddings, engine-neutral."""
    from photosearch.catalog.models import Embedding

    out: dict[str, dict] = {}
    with store.session() as s:
        names = {
            pid: "/".join(path.rsplit("/", 2)[-2:]) for pid, path in s.execute(select(Photo.id, Photo.path))
        }
        for name in names.values():
            out[name] = {"analyses": set(), "facts": set(), "embeddings": {}}
        for pid, analyzer, version, status in s.execute(
            select(Analysis.photo_id, Analysis.analyzer, Analysis.version, Analysis.status)
        ):
            out[names[pid]]["analyses"].add((analyzer, version, status))
        for pid, analyzer, kind, label in s.execute(
            select(Fact.photo_id, Fact.analyzer, Fact.kind, Fact.label)
        ):
            out[names[pid]]["facts"].add((analyzer, kind, label))
        for pid, space, vector in s.execute(select(Embedding.photo_id, Embedding.space, Embedding.vector)):
            out[names[pid]]["embeddings"][space] = np.frombuffer(vector, dtype=np.float32)
    return out


@pytest.mark.slow
def test_ray_and_serial_engines_write_the_same_catalog(tmp_path, example_gallery, local_ray):
    """One pipeline: Ray (pixel analyzers on actors, facts_text on the driver) and the serial
    indexer record the same analyses, facts and embeddings for every photo."""
    from photosearch.app import build_indexer
    from photosearch.scale.ray_index import run_ray_index

    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(example_gallery)
    report = run_ray_index(
        store, settings, 2, analyzer_factory=detector_quality_and_facts_text, post_steps=[]
    )
    assert report.broken_analyzers() == [] and report.analysis_failed == 0
    assert {name: row["ok"] for name, row in report.analyzers.items()} == {
        "detector": 21,
        "quality": 21,
        "facts_text": 21,
    }
    serial_settings = Settings(data_dir=tmp_path / "serial")
    serial_settings.ensure_dirs()
    serial = Store(serial_settings.database_url)
    serial.add_folder(example_gallery)
    build_indexer(
        serial, serial_settings, analyzers=detector_quality_and_facts_text(serial_settings), post_steps=[]
    ).run()
    by_ray, by_serial = catalog_contents(store), catalog_contents(serial)
    assert by_ray.keys() == by_serial.keys() and len(by_ray) == 21
    embedded = 0
    for name, want in by_serial.items():
        got = by_ray[name]
        assert got["analyses"] == want["analyses"] and got["facts"] == want["facts"], name
        assert got["embeddings"].keys() == want["embeddings"].keys(), name
        for space, vec in want["embeddings"].items():
            assert np.allclose(got["embeddings"][space], vec, atol=1e-4), (name, space)
        embedded += "facts_text" in want["embeddings"]
    assert embedded >= 10  # facts_text embedded what the detector and quality wrote (objects, kinds)
    store.close()
    serial.close()
