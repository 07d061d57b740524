"""Live watching with a real watchdog observer: create, grow, modify, move, delete."""

from __future__ import annotations

import io
import shutil
import time

import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.ingest.watcher import FolderWatcher
from tests.fakes import MeanColourAnalyzer


def _wait_for(predicate, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    return predicate()


def _active(store):
    with store.session() as s:
        return {p.path: p for p in s.scalars(select(Photo).where(Photo.state == "active"))}


@pytest.fixture
def watched(tmp_path, gallery):
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    indexer = Indexer(store, settings, [MeanColourAnalyzer()])
    indexer.run()
    updates = []
    watcher = FolderWatcher(store, indexer, debounce_s=0.2, settle_s=0.4, on_update=updates.append)
    watcher.start()
    yield store, gallery, updates
    watcher.stop()


@pytest.mark.slow
def test_new_file_appears_and_partial_write_is_not_ingested(watched, real_photos):
    store, gallery, updates = watched
    buf = io.BytesIO()
    Image.fromarray(real_photos["flower"]).save(buf, "JPEG", quality=92)
    payload = buf.getvalue()
    target = gallery / "incoming" / "flower.jpg"
    target.parent.mkdir()
    with open(target, "wb") as fh:  # a slow copy: the file grows for ~1.2 s
        for i in range(0, len(payload), len(payload) // 6 + 1):
            fh.write(payload[i : i + len(payload) // 6 + 1])
            fh.flush()
            time.sleep(0.2)
            assert str(target) not in _active(store), "half-written file was ingested"
    photo = _wait_for(lambda: _active(store).get(str(target)))
    assert photo is not None and photo.size == len(payload)
    assert not any(r.failed for r in updates), "a partial write was recorded as a failure"


@pytest.mark.slow
def test_move_keeps_identity_and_delete_is_soft(watched):
    store, gallery, _ = watched
    before = _active(store)[str(gallery / "kitchen" / "coffee.jpg")]
    shutil.move(gallery / "kitchen" / "coffee.jpg", gallery / "trips" / "espresso.jpg")
    moved = _wait_for(lambda: _active(store).get(str(gallery / "trips" / "espresso.jpg")))
    assert moved is not None and moved.id == before.id
    assert str(gallery / "kitchen" / "coffee.jpg") not in _active(store)
    shutil.rmtree(gallery / "space")
    assert _wait_for(lambda: not any("/space/" in p for p in _active(store)))
    with store.session() as s:
        gone = s.scalars(select(Photo).where(Photo.path.like("%/space/%"))).all()
    assert len(gone) == 2 and all(p.state == "deleted" for p in gone)
