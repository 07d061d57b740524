"""Where photos were taken, as the map reads it: real JPEGs with GPS written by piexif, indexed."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import update

from photosearch.catalog import geo
from photosearch.catalog.models import Photo
from tests.conftest import save_photo

PLACES = {
    "lisbon": ((38.7223, -9.1393), datetime(2021, 5, 1)),
    "porto": ((41.1579, -8.6291), datetime(2023, 5, 1)),
    "fiji": ((-17.7134, 178.0650), datetime(2019, 5, 1)),
    "samoa": ((-13.8333, -171.7500), None),
    "null_island": ((0.0, 0.0), datetime(2020, 1, 1)),  # what cameras without a fix write
}


@pytest.fixture
def store(tmp_path: Path):
    from photosearch.app import build_indexer
    from photosearch.catalog.store import Store
    from photosearch.config import Settings

    folder = tmp_path / "photos"
    rng = np.random.default_rng(0)
    for name, (gps, taken) in PLACES.items():
        save_photo(
            folder / f"{name}.jpg", rng.integers(0, 255, (48, 64, 3), dtype=np.uint8), gps=gps, taken_at=taken
        )
    save_photo(folder / "indoors.jpg", rng.integers(0, 255, (48, 64, 3), dtype=np.uint8))
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    s = Store(settings.database_url)
    s.add_folder(folder)
    build_indexer(s, settings, analyzers=[], post_steps=[]).run()
    yield s
    s.close()


def _names(store, ids) -> set[str]:
    return {Path(r["path"]).stem for r in geo.photo_rows(store, ids)}


def test_geotagged_reads_usable_positions_only(store):
    points = geo.geotagged(store)
    assert _names(store, points.ids.tolist()) == {"lisbon", "porto", "fiji", "samoa"}  # no 0,0, no GPS
    assert points.ids.dtype == np.int64 and list(points.ids) == sorted(points.ids)
    by_name = {Path(r["path"]).stem: r["id"] for r in geo.photo_rows(store, points.ids.tolist())}
    i = list(points.ids).index(by_name["samoa"])
    assert (points.lat[i], points.lon[i]) == pytest.approx(PLACES["samoa"][0], abs=1e-4)
    # a removed photo and a position out of range leave the map
    with store.session() as s:
        s.execute(update(Photo).where(Photo.id == by_name["lisbon"]).values(state="deleted"))
        s.execute(update(Photo).where(Photo.id == by_name["porto"]).values(gps_lat=123.0))
    assert _names(store, geo.geotagged(store).ids.tolist()) == {"fiji", "samoa"}


def test_an_empty_catalog_has_no_points(tmp_path):
    from photosearch.catalog.store import Store

    s = Store(f"sqlite:///{tmp_path / 'empty.db'}")
    points = geo.geotagged(s)
    assert len(points) == 0 and points.ids.dtype == np.int64
    s.close()


def test_photos_in_area_and_across_the_date_line(store):
    assert _names(store, geo.photos_in_area(store, 36.0, -10.0, 42.5, -6.0)) == {"lisbon", "porto"}
    # west of east crosses 180°: Fiji (178° E) and Samoa (171° W), not Portugal
    assert _names(store, geo.photos_in_area(store, -20.0, 170.0, -10.0, -170.0)) == {"fiji", "samoa"}
    assert geo.photos_in_area(store, -1.0, -1.0, 1.0, 1.0) == []  # 0,0 is no position


def test_photo_rows_newest_first_undated_last_in_chunks(store, monkeypatch):
    monkeypatch.setattr(geo, "ID_CHUNK", 2)  # several IN lists
    ids = geo.geotagged(store).ids.tolist()
    rows = geo.photo_rows(store, ids + ids[:1] + [999_999])  # a repeat and an id not in the catalog
    assert [Path(r["path"]).stem for r in rows] == ["porto", "lisbon", "fiji", "samoa"]
    assert all(r["score"] == 1.0 and r["why"] == [] for r in rows)
