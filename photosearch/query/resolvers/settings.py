"""Camera settings a photo was taken with: "f/1.8", "iso 3200 or higher", "1/250 s", "50mm",
"telephoto", "long exposure", "with flash".

The embedded analyzer writes one fact per setting, labelled with its value (`metadata/exposure.py`);
here they become one number per snapshot row and setting (NaN: the photo does not say), built once
per snapshot. A value matches a bound within `TOLERANCE` (an f/1.8 lens writes 1.79 or 1.8).
"""

from __future__ import annotations

import math

import numpy as np

from photosearch.metadata.exposure import FLASH_FIRED, KINDS, value_of, words
from photosearch.query.camera_settings import setting_text
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.snapshot import Snapshot

#: Relative slack of a bound (1 %: rounding of rationals and of the labels).
TOLERANCE = 0.01
#: A lens shorter than this is a phone's or a compact's, known by its 35 mm equivalent ("26 mm").
SMALL_SENSOR_FOCAL_MM = 12.0
#: How many stops (doublings) away from the bound a value counts half as near (`setting_nearness`).
HALF_NEAR_STOPS = 1.0


def setting_values(snap: Snapshot) -> dict[str, np.ndarray]:
    """Per setting, a float per snapshot row (NaN unknown; flash 1 fired, 0 not), once per snapshot.

    "focal" is the lens's focal length; "focal_named" the 35 mm equivalent of a lens shorter than
    `SMALL_SENSOR_FOCAL_MM` (a phone's 4.2 mm lens is its "26 mm"), which a focal atom matches too;
    "focal35" is the equivalent, else the lens's own where it is not a small sensor's (a full-frame
    camera writes no equivalent)."""
    got = snap.cache.get("camera_settings")
    if got is not None:
        return got
    values = {}
    for name, kind in KINDS.items():
        column = np.full(snap.n, np.nan, np.float64)
        for group in snap.groups.get(kind, {}).values():
            number = (
                (1.0 if group.label == FLASH_FIRED else 0.0) if name == "flash" else value_of(group.label)
            )
            if number is not None:
                column[group.rows] = number
        values[name] = column
    lens, equivalent = values["focal"], values["focal35"]
    small = lens < SMALL_SENSOR_FOCAL_MM
    values["focal_named"] = np.where(small, equivalent, np.nan)
    values["focal35"] = np.where(np.isnan(equivalent) & ~small, lens, equivalent)
    snap.cache["camera_settings"] = values
    return values


def _columns(values: dict[str, np.ndarray], of: str) -> list[np.ndarray]:
    """The columns a setting atom compares: a focal length is the lens's or a phone's equivalent."""
    return [values["focal"], values["focal_named"]] if of == "focal" else [values[of]]


def bounds(spec: dict) -> tuple[float, float]:
    """A measure atom's (min, max) with `TOLERANCE` of slack; an open end is infinite."""
    lo, hi = spec.get("min"), spec.get("max")
    return (
        -math.inf if lo is None else float(lo) * (1 - TOLERANCE),
        math.inf if hi is None else float(hi) * (1 + TOLERANCE),
    )


def resolve_setting(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos whose setting is within the atom's bounds (the flash: that fired); a photo whose file
    does not say never matches."""
    spec = atom["setting"]
    snap = ctx.snapshot
    if spec["of"] == "flash":
        mask = setting_values(snap)["flash"] == 1.0
    else:
        mask = np.zeros(snap.n, bool)
        lo, hi = bounds(spec)
        for column in _columns(setting_values(snap), spec["of"]):
            mask |= (column >= lo) & (column <= hi)  # NaN (not said) compares false
    return AtomResult(atom, ScoredSet.from_mask(mask), lambda row: [_why(spec, snap, row)])


def said_setting(spec: dict, snap: Snapshot, row: int) -> str | None:
    """The photo's own value of the atom's setting in words ("ISO 2500"), or None when it has none;
    of a focal length, the one nearest the atom's (a phone's "26 mm" rather than its "4.2 mm")."""
    of = spec["of"]
    known = [float(c[row]) for c in _columns(setting_values(snap), of) if not np.isnan(c[row])]
    if not known:
        return None
    if of == "flash":
        return words(of, bool(known[0]))
    lo, hi = bounds(spec)
    return words(of, min(known, key=lambda v: stops_outside(np.array([v]), lo, hi)[0]))


def _why(spec: dict, snap: Snapshot, row: int) -> dict:
    return {
        "atom": "setting",
        "query": setting_text(spec),
        "text": said_setting(spec, snap, row) or setting_text(spec),
    }


def setting_nearness(atom: dict, snap: Snapshot) -> np.ndarray:
    """Per row, how near its setting is to the atom's bounds: 1 inside, 1 / (1 + stops away /
    HALF_NEAR_STOPS) outside (a stop: a doubling, ISO 1600 to 3200), 0 when the photo does not say.
    What orders the closest matches of "iso 3200" in a library with none taken at it."""
    spec = atom["setting"]
    values = setting_values(snap)
    if spec["of"] == "flash":
        return np.where(values["flash"] == 1.0, 1.0, 0.0).astype(np.float32)
    lo, hi = bounds(spec)
    near = np.zeros(snap.n, np.float32)
    for column in _columns(values, spec["of"]):
        known = ~np.isnan(column) & (column > 0)
        stops = stops_outside(np.where(known, column, 1.0), lo, hi)
        near = np.maximum(near, np.where(known, 1.0 / (1.0 + stops / HALF_NEAR_STOPS), 0.0))
    return near.astype(np.float32)


def stops_outside(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """How many stops (doublings) each positive value lies outside [lo, hi]; 0 inside."""
    below = np.log2(lo / values) if lo > 0 else np.zeros(values.size)
    above = np.log2(values / hi) if math.isfinite(hi) else np.zeros(values.size)
    return np.maximum(np.maximum(below, above), 0.0)
