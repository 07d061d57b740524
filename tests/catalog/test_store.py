"""The catalog store: migrations, folders, analysis writes, damaged and locked databases."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from sqlalchemy import select, text

from photosearch.catalog import Store
from photosearch.catalog.migrations import LATEST, MIGRATIONS, current_version
from photosearch.catalog.models import Analysis, Embedding, Face, Fact, Photo
from photosearch.errors import CatalogError
from photosearch.records import AnalysisResult, FaceRecord, FactRecord


def _photo(store: Store, path: str = "/x/a.jpg") -> int:
    with store.session() as s:
        p = Photo(path=path, content_hash="h" * 64, size=1, mtime=1.0)
        s.add(p)
        s.flush()
        return p.id


def test_fresh_catalog_is_at_latest_version_and_reopen_is_idempotent(tmp_path):
    url = f"sqlite:///{tmp_path / 'c.db'}"
    Store(url).close()
    store = Store(url)
    with store.engine.connect() as conn:
        assert current_version(conn) == LATEST
        versions = [r[0] for r in conn.execute(text("SELECT version FROM schema_version ORDER BY version"))]
    assert versions == [v for v, _desc, _fn in MIGRATIONS]


def test_an_accepted_catalog_is_switched_to_wal_after_the_version_check(tmp_path):
    db = tmp_path / "c.db"
    Store(f"sqlite:///{db}").close()
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # a fresh catalog
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    Store(f"sqlite:///{db}").close()  # an older build's catalog in rollback mode, accepted
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    con.close()


def test_old_catalog_is_migrated_in_order(tmp_path):
    db = tmp_path / "old.db"
    store = Store(f"sqlite:///{db}")
    store.close()
    # Pretend the catalog predates migration 2 (people.birthday).
    con = sqlite3.connect(db)
    con.execute("DELETE FROM schema_version WHERE version >= 2")
    con.execute("CREATE TABLE people_tmp AS SELECT id, name, hidden, created_at FROM people")
    con.execute("DROP TABLE people")
    con.execute("ALTER TABLE people_tmp RENAME TO people")
    con.commit()
    con.close()
    store = Store(f"sqlite:///{db}")
    with store.engine.connect() as conn:
        assert current_version(conn) == LATEST
        cols = [r[1] for r in conn.execute(text("PRAGMA table_info(people)"))]
    assert "birthday" in cols


def test_only_panoramas_are_analysed_again_by_the_readers_of_their_parts(tmp_path):
    """The tagger, scene model and detector read a panorama in parts now, faces and text at a larger
    size, and every other photo as before: an old catalog's other photos keep their results
    (migration 8) instead of all being analysed again."""
    from photosearch.catalog.migrations import PANORAMA_READERS
    from photosearch.ingest.decode import fit_box
    from photosearch.ingest.thumbnails import thumbnail_box
    from photosearch.vision.detector import DetectorAnalyzer
    from photosearch.vision.faces import FaceAnalyzer
    from photosearch.vision.ocr import OcrAnalyzer
    from photosearch.vision.preprocess import part_spans
    from photosearch.vision.scenes import ScenesAnalyzer
    from photosearch.vision.tagger import TaggerAnalyzer

    for w, h, panorama in ((2200, 1000, False), (2210, 1000, True), (1000, 2210, True)):
        # the models' parts, the analysis image and the thumbnail agree with the migration below
        assert bool(part_spans(h, w)) == (fit_box(w, h, 1280, 640) != (1280, 1280)) == panorama
        assert (thumbnail_box(w, h) != (256, 256)) == panorama
    analyzers = (TaggerAnalyzer, ScenesAnalyzer, DetectorAnalyzer, FaceAnalyzer, OcrAnalyzer)
    assert {a.name: a.version for a in analyzers} == {n: new for n, (_old, new) in PANORAMA_READERS.items()}
    db = tmp_path / "old.db"
    store = Store(f"sqlite:///{db}")
    sizes = {"/x/photo.jpg": (4000, 3000), "/x/tall.jpg": (1000, 2200), "/x/pano.jpg": (6000, 1000)}
    sizes["/x/unknown.jpg"] = (0, 0)
    ids = {}
    for path, (w, h) in sizes.items():
        ids[path] = _photo(store, path)
        with store.session() as s:
            s.get(Photo, ids[path]).width, s.get(Photo, ids[path]).height = w, h
        with store.session() as s:
            for name, (old, _new) in PANORAMA_READERS.items():
                store.write_analysis(s, ids[path], name, old, AnalysisResult())
            store.write_analysis(s, ids[path], "quality", 9, AnalysisResult())
    store.close()
    con = sqlite3.connect(db)
    con.execute("DELETE FROM schema_version WHERE version >= 8")  # written before migration 8
    con.commit()
    con.close()
    store = Store(f"sqlite:///{db}")
    with store.session() as s:
        got = {(a.photo_id, a.analyzer): a.version for a in s.scalars(select(Analysis))}
    store.close()
    for path in ("/x/photo.jpg", "/x/tall.jpg"):  # 2.2:1 is no panorama yet
        assert {n: got[ids[path], n] for n in PANORAMA_READERS} == {
            n: v[1] for n, v in PANORAMA_READERS.items()
        }
    for path in ("/x/pano.jpg", "/x/unknown.jpg"):
        assert {n: got[ids[path], n] for n in PANORAMA_READERS} == {
            n: v[0] for n, v in PANORAMA_READERS.items()
        }
    assert {got[pid, "quality"] for pid in ids.values()} == {9}


def test_add_folder_is_idempotent_and_resolves(tmp_path):
    store = Store("sqlite:///:memory:")
    (tmp_path / "p").mkdir()
    a = store.add_folder(tmp_path / "p" / ".." / "p")
    b = store.add_folder(tmp_path / "p")
    assert a.id == b.id and a.path == str((tmp_path / "p").resolve())
    assert [f.path for f in store.folders()] == [a.path]
    assert store.remove_folder(tmp_path / "p") is True
    assert store.folders() == []


def test_write_analysis_replaces_only_that_analyzers_output(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    pid = _photo(store)
    first = AnalysisResult(
        facts=[FactRecord("tag", "cat", 0.9), FactRecord("tag", "animal", 0.9, data={"hypernym": True})],
        faces=[FaceRecord([0.1, 0.1, 0.2, 0.2], 0.99, np.ones(128, np.float32))],
        embeddings={"image": np.arange(4, dtype=np.float32)},
    )
    with store.session() as s:
        store.write_analysis(s, pid, "tagger", 1, first)
        store.write_analysis(s, pid, "ocr", 1, AnalysisResult(facts=[FactRecord("text", "EXIT", 0.8)]))
    with store.session() as s:
        store.write_analysis(s, pid, "tagger", 2, AnalysisResult(facts=[FactRecord("tag", "dog", 0.7)]))
    with store.session() as s:
        labels = sorted((f.analyzer, f.label) for f in s.scalars(select(Fact)))
        assert labels == [("ocr", "EXIT"), ("tagger", "dog")]
        assert s.scalars(select(Face)).all() == []
        assert s.scalars(select(Embedding)).all() == []
        versions = {a.analyzer: a.version for a in s.scalars(select(Analysis))}
        assert versions == {"tagger": 2, "ocr": 1}


def test_failed_analysis_is_recorded_with_reason(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    pid = _photo(store)
    with store.session() as s:
        store.write_analysis(s, pid, "faces", 1, None, error="RuntimeError: boom")
    st = store.status()
    assert st["analysis_failed_by_analyzer"] == {"faces": 1}


def test_damaged_database_gives_a_clear_error(tmp_path):
    db = tmp_path / "catalog.db"
    db.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(CatalogError, match="damaged"):
        Store(f"sqlite:///{db}")
    assert db.read_bytes().startswith(b"this is not")  # nothing overwritten


def test_locked_database_gives_a_clear_error(tmp_path):
    db = tmp_path / "catalog.db"
    Store(f"sqlite:///{db}").close()
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        store = Store(f"sqlite:///{db}", busy_timeout_s=0.2, create=False)
        with pytest.raises(CatalogError, match="locked"):
            store.add_folder(tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_bad_url_is_a_catalog_error():
    with pytest.raises(CatalogError):
        Store("nosuchdialect://x/y")


def test_reanalysing_faces_keeps_who_people_are(tmp_path):
    from photosearch.catalog.models import Person

    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    pid = _photo(store)
    desc = np.ones(128, np.float32)
    with store.session() as s:
        store.write_analysis(
            s,
            pid,
            "faces",
            1,
            AnalysisResult(
                faces=[
                    FaceRecord([0.1, 0.1, 0.3, 0.3], 0.9, desc),
                    FaceRecord([0.6, 0.6, 0.8, 0.8], 0.9, desc),
                ]
            ),
        )
    with store.session() as s:
        anna = Person(name="Anna")
        s.add(anna)
        s.flush()
        first = s.scalars(select(Face).order_by(Face.id)).first()
        first.person_id, first.pinned = anna.id, True
        anna_id = anna.id
    with store.session() as s:  # a new detector version finds slightly shifted boxes and a third face
        store.write_analysis(
            s,
            pid,
            "faces",
            2,
            AnalysisResult(
                faces=[
                    FaceRecord([0.11, 0.1, 0.31, 0.3], 0.9, desc),
                    FaceRecord([0.6, 0.6, 0.8, 0.8], 0.9, desc),
                    FaceRecord([0.4, 0.0, 0.5, 0.1], 0.9, desc),
                ]
            ),
        )
    with store.session() as s:
        faces = s.scalars(select(Face).order_by(Face.box)).all()
        owners = {tuple(f.box[:1]): (f.person_id, f.pinned) for f in faces}
    assert owners[(0.11,)] == (anna_id, True)
    assert owners[(0.6,)] == (None, False) and owners[(0.4,)] == (None, False)


def test_a_version_3_catalog_loses_its_unused_kv_table_and_stays_usable(tmp_path):
    from sqlalchemy import create_engine, inspect

    from photosearch.catalog.models import Base

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:  # what PhotoSearch wrote at schema version 3
        Base.metadata.create_all(conn)
        conn.execute(text("CREATE TABLE kv (key VARCHAR(128) PRIMARY KEY, value JSON)"))
        for version in (1, 2, 3):
            conn.execute(
                text("INSERT INTO schema_version (version, applied_at) VALUES (:v, '2026-01-01')"),
                {"v": version},
            )
    engine.dispose()
    store = Store(url, create=False)
    assert store.migrate() == [v for v, _desc, _fn in MIGRATIONS if v >= 4]
    with store.engine.connect() as conn:
        assert not inspect(conn).has_table("kv") and current_version(conn) == LATEST
    pid = _photo(store)
    assert store.photo(pid) is not None
    store.close()
