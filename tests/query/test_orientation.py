"""The photo's shape is an atom: portrait, landscape, panorama, square, from its size."""

from __future__ import annotations

from photosearch.catalog.models import Folder
from photosearch.query.search import search

from .gallery import add_photo

SIZES = {
    "tall.jpg": (3000, 4000),
    "wide.jpg": (4000, 3000),
    "pano.jpg": (9000, 2000),
    "square.jpg": (2000, 2010),
}


def test_each_shape_finds_its_photos(store, settings):
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, (w, h) in SIZES.items():
            photo = add_photo(s, folder, name)
            photo.width, photo.height = w, h
        add_photo(s, folder, "no_size.jpg")  # a shape unknown is no shape

    def shown(request: str) -> list[str]:
        res = search(store, settings, request, signals=[])
        return sorted(r["path"].rsplit("/", 1)[1] for r in res["results"] if not r["below_cutoff"])

    assert shown("vertical photos") == ["tall.jpg"]
    assert shown("photos in landscape orientation") == ["pano.jpg", "wide.jpg"]
    assert shown("panoramas") == ["pano.jpg"]
    assert shown("square photos") == ["square.jpg"]
    res = search(store, settings, "not vertical", signals=[])
    assert "tall.jpg" not in [r["path"].rsplit("/", 1)[1] for r in res["results"]]
    res = search(store, settings, plan={"version": 1, "where": {"orientation": "panorama"}, "compose": {}})
    assert res["results"][0]["why"] == [
        {
            "atom": "orientation",
            "orientation": "panorama",
            "size": "9000×2000",
            "text": "panorama, 9000 × 2000 pixels",
        }
    ]
