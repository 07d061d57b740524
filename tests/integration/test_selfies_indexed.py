"""Selfies through the real parts: the lens EXIF a phone writes, read at ingest, and faces found by
the bundled face detector; then a request."""

from __future__ import annotations

from PIL import Image

from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.query.search import search
from photosearch.vision.faces import FaceAnalyzer
from tests.conftest import exif_bytes


def test_front_camera_and_close_faces_are_selfies(tmp_path, real_photos):
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    shots = {
        "front.jpg": ("rocket", "iPhone 12 front camera 2.71mm f/2.2"),  # the lens decides
        "portrait.jpg": ("grace_hopper", None),  # a face over a tenth of the frame
        "astronaut.jpg": ("astronaut", "iPhone 12 back camera 4.2mm f/1.6"),  # a face 3 %: closest
        "cat.jpg": ("chelsea", "iPhone 12 back camera 4.2mm f/1.6"),
    }
    for name, (photo, lens) in shots.items():
        Image.fromarray(real_photos[photo]).save(gallery / name, exif=exif_bytes(lens=lens) if lens else b"")
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    report = Indexer(store, settings, [FaceAnalyzer(settings)]).run()
    assert report.failed == 0 and report.analysed == 4

    res = search(store, settings, "selfies", signals=[])
    sure = [r["path"].rsplit("/", 1)[1] for r in res["results"] if not r["below_cutoff"]]
    closest = [r["path"].rsplit("/", 1)[1] for r in res["results"] if r["below_cutoff"]]
    assert sure == ["front.jpg", "portrait.jpg"]
    assert closest[:1] == ["astronaut.jpg"] and "cat.jpg" not in closest[:1]
