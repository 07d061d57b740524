"""Where photos were taken, read for the map: every GPS position in one query, the photos in a
latitude/longitude box, and grid rows of chosen photos."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np
from sqlalchemy import and_, or_, select

from photosearch.catalog.models import Photo

#: SQLite allows 32766 bound values per statement; stay well below it.
ID_CHUNK = 10_000


@dataclass
class GeoPoints:
    """Parallel arrays: photo ids and their latitudes and longitudes (degrees)."""

    ids: np.ndarray
    lat: np.ndarray
    lon: np.ndarray

    def __len__(self) -> int:
        return int(self.ids.size)


def _usable():
    """GPS a map can show: both values, in range, and not 0,0 (what cameras write without a fix)."""
    return and_(
        Photo.state == "active",
        Photo.gps_lat.is_not(None),
        Photo.gps_lon.is_not(None),
        Photo.gps_lat.between(-90.0, 90.0),
        Photo.gps_lon.between(-180.0, 180.0),
        or_(Photo.gps_lat != 0.0, Photo.gps_lon != 0.0),
    )


def geotagged(store) -> GeoPoints:
    """Every active photo with a usable GPS position (one query, ordered by id)."""
    query = select(Photo.id, Photo.gps_lat, Photo.gps_lon).where(_usable()).order_by(Photo.id)
    with store.connect() as conn:
        rows = conn.execute(query).all()
    # one flat pass over the rows' values: numpy given Row objects probes each for array protocols
    flat = np.fromiter(chain.from_iterable(rows), dtype=np.float64, count=3 * len(rows))
    table = flat.reshape(len(rows), 3)
    return GeoPoints(table[:, 0].astype(np.int64), table[:, 1].copy(), table[:, 2].copy())


def photos_in_area(store, south: float, west: float, north: float, east: float) -> list[int]:
    """Ids of active photos inside a box (degrees); a box whose west is east of its east crosses
    the 180° meridian."""
    lon = (
        Photo.gps_lon.between(west, east)
        if west <= east
        else or_(Photo.gps_lon >= west, Photo.gps_lon <= east)
    )
    query = select(Photo.id).where(_usable(), Photo.gps_lat.between(south, north), lon).order_by(Photo.id)
    with store.connect() as conn:
        return [int(i) for i in conn.scalars(query)]


def photo_rows(store, ids) -> list[dict]:
    """The grid's rows ({id, path, score, why}) of these photos, newest first."""
    wanted = sorted({int(i) for i in ids})
    found = []
    with store.connect() as conn:
        for start in range(0, len(wanted), ID_CHUNK):
            chunk = wanted[start : start + ID_CHUNK]
            found += conn.execute(
                select(Photo.id, Photo.path, Photo.taken_at).where(
                    Photo.id.in_(chunk), Photo.state == "active"
                )
            ).all()
    found.sort(key=lambda r: (r.taken_at is not None, r.taken_at or 0, r.id), reverse=True)
    return [{"id": r.id, "path": r.path, "score": 1.0, "why": []} for r in found]
