"""The catalog on PostgreSQL (runs where a server is available; .ci/run starts one)."""

from __future__ import annotations

import os

import pytest
from sqlalchemy import text

from photosearch.catalog import Store
from photosearch.catalog.models import Base
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from tests.fakes import MeanColourAnalyzer

PG_URL = os.environ.get("PHOTOSEARCH_TEST_PG_URL")
pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not PG_URL, reason="set PHOTOSEARCH_TEST_PG_URL (see .ci/start-postgres.sh)"),
]


@pytest.fixture
def pg_store():
    store = Store(PG_URL, create=False)
    with store.engine.begin() as conn:
        Base.metadata.drop_all(conn)
        conn.execute(text("DROP TABLE IF EXISTS schema_version"))
    store.migrate()
    yield store
    store.close()


def test_index_move_and_status_on_postgres(tmp_path, gallery, pg_store):
    settings = Settings(data_dir=tmp_path / "data", db_url=PG_URL)
    settings.ensure_dirs()
    pg_store.add_folder(gallery)
    report = Indexer(pg_store, settings, [MeanColourAnalyzer()]).run()
    assert report.added == 7 and report.analysed == 7
    (gallery / "cats" / "chelsea.jpg").rename(gallery / "cats" / "renamed.jpg")
    report = Indexer(pg_store, settings, [MeanColourAnalyzer()]).run()
    assert report.moved == 1 and report.analysed == 0
    status = pg_store.status()
    assert status["photos"] == 7 and status["analysed"] == 7
    assert pg_store.engine.dialect.name == "postgresql"


def test_cli_runs_against_postgres(tmp_path, gallery, pg_store, cli_json):
    cli_json(tmp_path / "d", "--db-url", PG_URL, "add", str(gallery))
    report = cli_json(tmp_path / "d", "--db-url", PG_URL, "index", "--no-analyze")
    assert report["added"] == 7
    assert not (tmp_path / "d" / "catalog.db").exists()


def test_the_generation_changes_with_every_write_on_postgres(tmp_path, gallery, pg_store, monkeypatch):
    from sqlalchemy import select

    from photosearch.catalog import generation
    from photosearch.catalog.models import Person
    from photosearch.query.resolvers import snapshot
    from photosearch.query.resolvers.snapshot_file import snapshot_dir
    from tests.query.snapshots import assert_same_snapshot

    seen = [generation.current(pg_store)]
    assert seen[0] is not None

    def changed() -> None:
        now = generation.current(pg_store)
        assert now.uid == seen[0].uid and now.value not in [g.value for g in seen]
        seen.append(now)

    with pg_store.session() as s:
        s.add(Person(name="Anna"))
    changed()
    with pg_store.session() as s:
        s.scalars(select(Person)).one().name = "Anna Maria"
    changed()
    with pg_store.begin() as conn:
        conn.execute(text("DELETE FROM people"))
    changed()
    with pg_store.begin() as conn:  # migrating again: same uid, same triggers
        from photosearch.catalog.generation import install

        install(conn)
    assert generation.current(pg_store) == seen[-1]
    # the search snapshot is saved under the generation and read back as it was read from SQL
    settings = Settings(data_dir=tmp_path / "data", db_url=PG_URL)
    settings.ensure_dirs()
    pg_store.add_folder(gallery)
    Indexer(pg_store, settings, [MeanColourAnalyzer()]).run()
    changed()
    assert snapshot.persist_snapshot(pg_store, snapshot_dir(settings))["saved"]
    with pg_store.connect() as conn:
        from_sql = snapshot.load_snapshot(conn)
    snapshot.invalidate(pg_store)
    monkeypatch.setattr(snapshot, "load_snapshot", lambda conn: pytest.fail("read from SQL, not the file"))
    from_file = snapshot.get_snapshot(pg_store, directory=snapshot_dir(settings))
    assert from_file.n == 7 and from_file.groups
    assert_same_snapshot(from_file, from_sql)


def test_albums_on_postgres(tmp_path, gallery, pg_store):
    """Migration 7's tables, manual and smart albums and the album atom on PostgreSQL."""
    from photosearch.catalog import albums
    from photosearch.catalog.migrations import LATEST, current_version
    from photosearch.core import Core

    with pg_store.engine.connect() as conn:
        assert current_version(conn) == LATEST >= 7
    settings = Settings(data_dir=tmp_path / "data", db_url=PG_URL)
    settings.ensure_dirs()
    pg_store.add_folder(gallery)
    Indexer(pg_store, settings, []).run()
    core = Core(settings, pg_store)
    ids = {r["path"].rsplit("/", 1)[-1]: r["id"] for r in core.all_photos()}
    core.organize.create_album("Cats", [ids["chelsea.jpg"], ids["chelsea_small.png"]])
    core.organize.save_search("From 2023", {"where": {"date": {"from": "2023-01-01", "to": "2023-12-31"}}})
    assert albums.album_photo_ids(pg_store, "cats") == [ids["chelsea.jpg"], ids["chelsea_small.png"]]
    found = core.search(plan={"where": {"and": [{"album": "Cats"}, {"album": "From 2023"}]}})
    assert [r["id"] for r in found["results"] if not r["below_cutoff"]] == [ids["chelsea.jpg"]]
    core.organize.set_marks([ids["chelsea.jpg"]], favourite=True, rating=5)
    assert core.organize.marks() == {ids["chelsea.jpg"]: {"favourite": True, "rating": 5}}
    core.organize.delete_album("Cats")
    assert [a["name"] for a in core.organize.albums()] == ["From 2023"]


def test_only_panoramas_are_analysed_again_on_postgres(pg_store):
    """Migration 8's statement on PostgreSQL: another photo's tagger result carries over to version 4,
    a panorama's and one of unknown size stay at 3 (so they are analysed again)."""
    from photosearch.catalog.migrations import _only_panoramas_read_again
    from photosearch.catalog.models import Analysis, Photo
    from photosearch.records import AnalysisResult

    ids = {}
    for path, (w, h) in {"/x/a.jpg": (4000, 3000), "/x/p.jpg": (6000, 1000), "/x/u.jpg": (0, 0)}.items():
        with pg_store.session() as s:
            photo = Photo(path=path, content_hash=path[-5] * 64, size=1, mtime=1.0, width=w, height=h)
            s.add(photo)
            s.flush()
            ids[path] = photo.id
            pg_store.write_analysis(s, photo.id, "tagger", 3, AnalysisResult())
            pg_store.write_analysis(s, photo.id, "faces", 2, AnalysisResult())
    with pg_store.engine.begin() as conn:
        _only_panoramas_read_again(conn)
    with pg_store.session() as s:
        got = {(a.photo_id, a.analyzer): a.version for a in s.query(Analysis)}
    assert [got[ids[p], "tagger"] for p in ("/x/a.jpg", "/x/p.jpg", "/x/u.jpg")] == [4, 3, 3]
    assert [got[ids[p], "faces"] for p in ("/x/a.jpg", "/x/p.jpg", "/x/u.jpg")] == [3, 2, 2]
