"""A gallery of real photos whose metadata exiftool writes, indexed by the real `embedded` analyzer."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from tests.metadata import exiftool


def embedded_gallery(
    tmp_path: Path, real_photos: dict, photos: dict[str, tuple[str, tuple[str, ...]]], sidecars: dict
) -> tuple[Store, Settings, Path, Indexer]:
    """`photos`: file name -> (a `real_photos` key, exiftool arguments written into it); `sidecars`:
    sidecar name -> exiftool arguments of a new sidecar. Every photo is indexed, none fails."""
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    for name, (photo, tags) in photos.items():
        Image.fromarray(real_photos[photo]).save(gallery / name)
        if tags:
            exiftool.write(gallery / name, *tags)
    for name, tags in sidecars.items():
        exiftool.make_sidecar(gallery / name, *tags)
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    indexer = Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)])
    report = indexer.run()
    assert report.failed == 0 and report.analysed == len(photos)
    return store, settings, gallery, indexer
