"""A photo's size: its pixels ("high resolution", "4k", "12 megapixels") or its file's bytes
("large files", "bigger than 10mb"), from the snapshot's columns (NaN: not known)."""

from __future__ import annotations

import numpy as np

from photosearch.query.photo_sizes import size_text
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.settings import HALF_NEAR_STOPS, bounds, stops_outside
from photosearch.query.resolvers.snapshot import Snapshot

#: "12 megapixels" alone is about that many: a bound equal on both sides allows this share either way.
ABOUT = 0.1
_CACHE = "photo_sizes"
#: The size sorts (`plan.SORTS`) and the `photo_sizes` column each orders by.
SORTED_BY = {
    "size_desc": "megabytes",
    "size_asc": "megabytes",
    "pixels_desc": "megapixels",
    "pixels_asc": "megapixels",
}


def photo_sizes(snap: Snapshot) -> dict[str, np.ndarray]:
    """Per snapshot row, for the size and orientation atoms and the size sorts (computed once per
    snapshot): "width" and "height" in pixels (0 unknown), "megapixels" and "megabytes" (NaN unknown)."""
    got = snap.cache.get(_CACHE)
    if got is None:
        width, height = snap.width.astype(np.float32), snap.height.astype(np.float32)
        known = (width > 0) & (height > 0)
        mp = np.where(known, width.astype(np.float64) * height / 1e6, np.nan)
        mb = np.where(snap.file_bytes > 0, snap.file_bytes / 1e6, np.nan)
        got = snap.cache[_CACHE] = {"width": width, "height": height, "megapixels": mp, "megabytes": mb}
    return got


def _about(spec: dict) -> tuple[float, float]:
    lo, hi = bounds(spec)
    if spec.get("min") is not None and spec.get("min") == spec.get("max"):
        n = float(spec["min"])
        return n * (1 - ABOUT), n * (1 + ABOUT)
    return lo, hi


def resolve_size(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos whose pixels (or file) are within the atom's bounds; one whose size is not known never
    matches."""
    spec = atom["size"]
    column = photo_sizes(ctx.snapshot)[spec["of"]]
    lo, hi = _about(spec)
    mask = (column >= lo) & (column <= hi)  # NaN compares false
    return AtomResult(atom, ScoredSet.from_mask(mask), lambda row: [_why(spec, column, row)])


def _why(spec: dict, column: np.ndarray, row: int) -> dict:
    return {"atom": "size", "query": size_text(spec), "text": _value_text(spec["of"], float(column[row]))}


def said_size(spec: dict, snap: Snapshot, row: int) -> str | None:
    """The photo's own size in words ("8.3 megapixels"), or None when not known."""
    column = photo_sizes(snap)[spec["of"]]
    if np.isnan(column[row]):
        return None
    return _value_text(spec["of"], float(column[row]))


def _value_text(of: str, value: float) -> str:
    """One photo's size in words: "8.3 megapixels", "2.4 MB", "35 KB"."""
    value = round(value, 3 if of == "megabytes" and value < 1 else 1)
    return size_text({"of": of, "min": value, "max": value})


def size_nearness(atom: dict, snap: Snapshot) -> np.ndarray:
    """Per row, how near its size is to the atom's (1 inside; a halving or doubling away counts
    `HALF_NEAR_STOPS`); 0 unknown."""
    spec = atom["size"]
    column = photo_sizes(snap)[spec["of"]]
    known = ~np.isnan(column) & (column > 0)
    stops = stops_outside(np.where(known, column, 1.0), *_about(spec))
    return np.where(known, 1.0 / (1.0 + stops / HALF_NEAR_STOPS), 0.0).astype(np.float32)
