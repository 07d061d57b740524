"""The watcher picks up sidecars: one written, edited or removed beside a watched photo (by exiftool,
as digiKam or darktable would) makes the photo's metadata be read again, with no rescan."""

from __future__ import annotations

import time

import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Fact
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.ingest.watcher import FolderWatcher
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from tests.metadata import exiftool


def _keywords(store) -> set[str]:
    with store.session() as s:
        return set(s.scalars(select(Fact.label).where(Fact.kind == "keyword")))


def _wait_for(predicate, timeout: float = 20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.mark.slow
def test_sidecar_written_edited_and_removed_is_picked_up(tmp_path, real_photos):
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    photo = gallery / "trip.jpg"
    Image.fromarray(real_photos["china"]).save(photo)
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    indexer = Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)])
    indexer.run()
    assert _keywords(store) == set()
    with FolderWatcher(store, indexer, debounce_s=0.2, settle_s=0.3):
        time.sleep(0.3)  # the observer is live
        exiftool.make_sidecar(gallery / "trip.jpg.xmp", "-XMP-dc:Subject=Beijing")  # digiKam's name
        assert _wait_for(lambda: _keywords(store) == {"Beijing"}), _keywords(store)
        exiftool.write(gallery / "trip.jpg.xmp", "-XMP-dc:Subject+=Summer Palace")  # edited in place
        assert _wait_for(lambda: _keywords(store) == {"Beijing", "Summer Palace"}), _keywords(store)
        exiftool.make_sidecar(
            gallery / "trip.xmp", "-XMP-lr:HierarchicalSubject=China|Beijing"
        )  # Lightroom's
        assert _wait_for(lambda: _keywords(store) == {"Beijing", "Summer Palace", "China"}), _keywords(store)
        (gallery / "trip.jpg.xmp").unlink()
        (gallery / "trip.xmp").unlink()
        assert _wait_for(lambda: _keywords(store) == set()), _keywords(store)
