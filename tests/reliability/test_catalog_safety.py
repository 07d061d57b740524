"""Items 6, 7, 8: one writer at a time between processes (real subprocesses), migrations safe when
processes create a catalog at once, a newer catalog refused untouched, damage reported cleanly."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select, text

from photosearch.catalog import Store
from photosearch.catalog.lock import WriterLock
from photosearch.catalog.migrations import MIGRATIONS, NewerCatalogError
from photosearch.catalog.models import Photo
from photosearch.ingest.indexer import Indexer
from tests.conftest import run_cli, save_photo
from tests.reliability.helpers import make_env

ROOT = Path(__file__).resolve().parents[2]


def _cli(data_dir: Path, *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k not in ("PHOTOSEARCH_DB_URL", "PHOTOSEARCH_DATA_DIR")}
    return subprocess.Popen(
        [sys.executable, "-m", "photosearch", "--data-dir", str(data_dir), *args],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def many_photos(tmp_path, real_photos) -> Path:
    rng = np.random.default_rng(3)
    root = tmp_path / "many"
    for i in range(40):
        save_photo(
            root / f"d{i % 3}" / f"p{i:03d}.jpg",
            (real_photos["coffee"][::4, ::4] // 2 + rng.integers(0, 60, (100, 150, 3), dtype=np.uint8)),
        )
    return root


def test_two_index_runs_at_once_both_succeed_without_duplicates(tmp_path, many_photos):
    settings, store = make_env(tmp_path)
    store.add_folder(many_photos)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = [sys.executable, "-m", "tests.reliability.soak_worker", str(settings.data_dir), "0.02"]
    runs = [
        subprocess.Popen(worker, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in runs]
    assert [p.returncode for p in runs] == [0, 0], outs
    assert not any("UNIQUE" in err or "Traceback" in err for _, err in outs)
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Photo)) == 40
        assert s.scalar(select(func.count(func.distinct(Photo.content_hash)))) == 40
    cli = [_cli(settings.data_dir, "index", "--no-analyze", "--no-progress") for _ in range(2)]  # the CLI too
    assert [p.wait(timeout=300) for p in cli] == [0, 0]


def test_a_second_writer_says_who_holds_the_lock_and_waits(tmp_path, many_photos):
    settings, store = make_env(tmp_path)
    store.add_folder(many_photos)
    with WriterLock(store.writer_lock_path(settings.data_dir)):
        waiting = _cli(settings.data_dir, "index", "--no-analyze", "--no-progress")
        time.sleep(4)
        assert waiting.poll() is None, "the second writer must wait, not fail"
        with store.session() as s:
            assert s.scalar(select(func.count()).select_from(Photo)) == 0
    out, err = waiting.communicate(timeout=300)
    assert waiting.returncode == 0, err
    assert f"waiting for pid {os.getpid()}" in err
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Photo)) == 40


def test_the_lock_with_a_timeout_fails_naming_the_holder(tmp_path):
    path = tmp_path / "catalog.db.lock"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from photosearch.catalog.lock import WriterLock\n"
            f"l = WriterLock({str(path)!r}); l.acquire(); print('held', flush=True); time.sleep(60)",
        ],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        from photosearch.catalog.lock import CatalogBusy

        with pytest.raises(CatalogBusy, match=f"pid {holder.pid}"):
            WriterLock(path, timeout_s=0.5).acquire()
    finally:
        holder.kill()
        holder.wait()
    with WriterLock(path, timeout_s=5):  # kill -9 released it
        pass


CREATE = "import sys; from photosearch.catalog import Store; Store(sys.argv[1]); print('ok')"


def test_processes_creating_one_catalog_at_once_all_succeed(tmp_path):
    for attempt in range(3):
        url = f"sqlite:///{tmp_path / f'new{attempt}.db'}"
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", CREATE, url],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
            for _ in range(4)
        ]
        results = [p.communicate(timeout=120) for p in procs]
        assert [p.returncode for p in procs] == [0] * 4, results
        store = Store(url)
        with store.session() as s:
            versions = list(s.scalars(text("SELECT version FROM schema_version ORDER BY version")))
        assert versions == [v for v, _desc, _fn in MIGRATIONS]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_catalog_from_a_newer_version_is_refused_and_left_untouched(tmp_path):
    settings, store = make_env(tmp_path)
    with store.session() as s:
        s.execute(
            text(
                "INSERT INTO schema_version (version, applied_at, app_version) "
                "VALUES (99, CURRENT_TIMESTAMP, '7.2.0')"
            )
        )
    store.close()
    db = settings.data_dir / "catalog.db"
    con = sqlite3.connect(db)  # rollback-journal mode: opening it must not switch it to WAL
    assert con.execute("PRAGMA journal_mode=DELETE").fetchone() == ("delete",)
    con.close()
    sidecars = [db.with_name(db.name + suffix) for suffix in ("-wal", "-shm", "-journal")]
    assert not any(p.exists() for p in sidecars)
    before = _sha(db)
    with pytest.raises(
        NewerCatalogError,
        match=r"schema version 99 \(written by PhotoSearch 7.2.0\).*"
        r"upgrade to PhotoSearch 7.2.0 or newer",
    ):
        Store(settings.database_url)
    done = run_cli(settings.data_dir, "status", check=False)
    assert done.returncode == 1 and "photosearch: error: the catalog has schema version 99" in done.stderr
    assert "Traceback" not in done.stderr
    assert _sha(db) == before
    assert [p.name for p in sidecars if p.exists()] == []


def test_damage_found_during_a_search_is_a_clear_error(tmp_path, gallery):
    settings, store = make_env(tmp_path)
    store.add_folder(gallery)
    Indexer(store, settings, []).run()
    store.close()
    db = settings.data_dir / "catalog.db"
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'photos'").fetchone()[0]
    con.close()
    with open(db, "r+b") as fh:  # scribble over the photos table: found only when a search reads it
        fh.seek((root - 1) * page_size)
        fh.write(os.urandom(page_size))
    plan = tmp_path / "plan.json"
    plan.write_text('{"where": {"tag": "cat"}}')
    done = run_cli(settings.data_dir, "search", "--plan", str(plan), check=False)
    assert done.returncode == 1, done.stdout
    assert "photosearch: error:" in done.stderr and "damaged" in done.stderr
    assert "Traceback" not in done.stderr
