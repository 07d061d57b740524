"""Selfies through the real parts: the lens EXIF a phone writes, read at ingest, and faces found by
the bundled face detector; then a request."""

from __future__ import annotations

from PIL import Image

from photosearch.query.search import search
from photosearch.vision.faces import FaceAnalyzer
from tests.conftest import exif_bytes, index_with


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
    store, settings, report = index_with(tmp_path, gallery, lambda st: [FaceAnalyzer(st)])
    assert report.failed == 0 and report.analysed == 4

    res = search(store, settings, "selfies", signals=[])
    sure = [r["path"].rsplit("/", 1)[1] for r in res["results"] if not r["below_cutoff"]]
    closest = [r["path"].rsplit("/", 1)[1] for r in res["results"] if r["below_cutoff"]]
    assert sure == ["front.jpg", "portrait.jpg"]
    assert closest[:1] == ["astronaut.jpg"] and "cat.jpg" not in closest[:1]
