"""Item 1: a full disk (a real, full tmpfs) and other transient I/O errors are transient failures: nothing
is deleted, nothing sticks, no temp file stays, and the user is told."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from photosearch.catalog.models import Analysis
from photosearch.ingest.indexer import Indexer
from tests.conftest import fill_disk, run_cli, save_photo, tmpfs
from tests.fakes import MeanColourAnalyzer
from tests.reliability.helpers import index_as_nobody, issues, make_env, open_to_everyone, photos


def test_disk_full_is_transient_keeps_photos_and_leaves_no_temp_files(tmp_path, gallery, real_photos):
    settings, store = make_env(tmp_path)
    store.add_folder(gallery)
    Indexer(store, settings, []).run()  # 7 photos catalogued, with thumbnails
    assert len(photos(store)) == 7
    changed = gallery / "kitchen" / "coffee.jpg"
    save_photo(changed, real_photos["coffee"][::-1])  # re-read on the next run
    new = save_photo(gallery / "new" / "flower.jpg", real_photos["flower"])

    with tmpfs(settings.thumbs_dir, "256k"):
        fill_disk(settings.thumbs_dir)
        report = Indexer(store, settings, []).run()
        leftovers = [n for _, _, files in os.walk(settings.thumbs_dir) for n in files if n.endswith(".tmp")]
        assert leftovers == []
        assert report.failed_by_reason == {"disk_full": 2} and report.deleted == 0
        assert any("disk is full" in w for w in report.warnings)
        # the catalogued photo stays what it was; nothing became deleted
        assert str(changed) in photos(store) and len(photos(store)) == 7
        assert issues(store)[str(new)][0] == "disk_full"
        # the CLI tells the user, without a traceback
        done = run_cli(settings.data_dir, "index", "--no-analyze", "--no-progress", check=False)
        assert "the disk is full" in done.stdout and "Traceback" not in done.stderr

    # space again: both files are retried (not sticky) and indexed
    report = Indexer(store, settings, []).run()
    assert report.failed == 0 and report.added == 1 and report.changed == 1
    assert str(new) in photos(store) and issues(store) == {}


def test_a_full_disk_under_the_catalog_is_a_clear_error_and_loses_nothing(tmp_path, gallery):
    """The data dir itself on a small real tmpfs: once it is full, `index` says so and exits 1; the
    catalog keeps every committed batch and the next run, with space, completes."""
    data = tmp_path / "data"
    with tmpfs(data, "1m"):
        settings, store = make_env(tmp_path)
        store.add_folder(gallery)
        store.close()
        fill_disk(data)
        done = run_cli(data, "index", "--no-analyze", "--no-progress", check=False)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "photosearch: error:" in done.stderr and "full" in done.stderr
        (data / "filler").unlink()
        again = run_cli(data, "--json", "index", "--no-analyze", "--no-progress")
        assert '"failed": 0' in again.stdout
        assert len(photos(make_env(tmp_path)[1])) == 7


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run the indexer as another user")
def test_a_photo_unreadable_during_analysis_is_retried_next_run(real_photos):
    """A real EACCES while the models' view is read (the indexer runs as `nobody`): the analysis is
    not recorded as failed, so the next plain run — the file readable again — analyses it."""
    base = Path(tempfile.mkdtemp(prefix="ps-eacces-"))
    try:
        folder = base / "lib"
        secret = save_photo(folder / "secret.jpg", real_photos["coffee"][::4, ::4])
        save_photo(folder / "open.jpg", real_photos["rocket"][::4, ::4])
        settings, store = make_env(base)
        store.add_folder(folder)
        Indexer(store, settings, []).run()  # catalogued, not analysed yet
        open_to_everyone(base)
        os.chmod(secret, 0o600)  # root only
        report = index_as_nobody(settings, [MeanColourAnalyzer()])
        assert report["analysis_failed"] == 1 and report["analysed"] == 1
        with store.session() as s:
            assert (
                s.scalar(select(func.count()).select_from(Analysis).where(Analysis.status == "failed")) == 0
            )
        report = Indexer(store, settings, [MeanColourAnalyzer()]).run()  # no --retry-failed
        assert report.analysed == 1 and report.analysis_failed == 0
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to run the indexer as another user")
def test_an_unwritable_thumbnail_folder_is_transient_and_keeps_photos(real_photos):
    """A real EACCES writing thumbnails (the folder 0o555, the indexer as `nobody`): `write_failed`, not
    sticky, nothing deleted, the user told; once the folder is writable the next run completes them."""
    base = Path(tempfile.mkdtemp(prefix="ps-thumbs-eacces-"))
    try:
        folder = base / "lib"
        changed = save_photo(folder / "coffee.jpg", real_photos["coffee"][::4, ::4])
        save_photo(folder / "rocket.jpg", real_photos["rocket"][::4, ::4])
        settings, store = make_env(base)
        store.add_folder(folder)
        Indexer(store, settings, []).run()
        save_photo(changed, real_photos["coffee"][::-4, ::4])  # re-read on the next run
        new = save_photo(folder / "flower.jpg", real_photos["flower"][::4, ::4])
        open_to_everyone(base)
        for d in [settings.thumbs_dir, *(p for p in settings.thumbs_dir.rglob("*") if p.is_dir())]:
            os.chmod(d, 0o555)

        report = index_as_nobody(settings)
        assert report["failed_by_reason"] == {"write_failed": 2} and report["deleted"] == 0
        assert any("cannot write thumbnails" in w and "Permission denied" in w for w in report["warnings"])
        assert set(photos(store)) == {str(changed), str(folder / "rocket.jpg")}  # nothing became deleted
        assert {issues(store)[str(p)][0] for p in (changed, new)} == {"write_failed"}
        leftovers = [n for _, _, files in os.walk(settings.thumbs_dir) for n in files if n.endswith(".tmp")]
        assert leftovers == []

        os.chmod(settings.thumbs_dir, 0o755)  # writable again: both files are retried (not sticky)
        for d in settings.thumbs_dir.rglob("*"):
            if d.is_dir():
                os.chmod(d, 0o755)
        report = Indexer(store, settings, []).run()
        assert (report.failed, report.added, report.changed, report.deleted) == (0, 1, 1, 0)
        assert str(new) in photos(store) and issues(store) == {}
    finally:
        shutil.rmtree(base, ignore_errors=True)
