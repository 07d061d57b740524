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
