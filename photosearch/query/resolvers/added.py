"""When photos were added to the library: "photos added today", "what I imported last week".

The catalog writes each photo's `added_at` when it first catalogues it; the snapshot holds it on
this computer's clock (`snapshot._on_this_clock`), so days are the user's days, not UTC's.
"""

from __future__ import annotations

import numpy as np

from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.filters import day_range, days_nearness
from photosearch.query.resolvers.snapshot import NO_DATE, Snapshot, seconds_text

#: Days outside the asked range at which a photo counts half as near to it (`added_nearness`).
NEAR_DAYS = 7.0


def days_added(snap: Snapshot) -> np.ndarray:
    """Per snapshot row, the day it was added (days since EPOCH; -1 unknown), once per snapshot."""
    got = snap.cache.get("day_added")
    if got is None:
        known = snap.added != NO_DATE
        got = np.where(known, snap.added // 86400, -1).astype(np.int64)
        snap.cache["day_added"] = got
    return got


def added_at(snap: Snapshot, row: int) -> str | None:
    """When the photo of a snapshot row was added, as ISO text on this computer's clock."""
    return seconds_text(snap.added[row])


def resolve_added(atom: dict, ctx: ExecContext) -> AtomResult:
    """Added to the library between the atom's two days, inclusive."""
    lo, hi = day_range(atom, "added")
    snap = ctx.snapshot
    day = days_added(snap)
    mask = (day >= lo) & (day <= hi) & (day >= 0)
    return AtomResult(atom, ScoredSet.from_mask(mask), lambda row: [_added_why(snap, row)])


def _added_why(snap: Snapshot, row: int) -> dict:
    when = added_at(snap, row) or ""
    return {"atom": "added", "added_at": when, "text": f"added {when[:10]}"}


def added_nearness(atom: dict, snap: Snapshot) -> np.ndarray:
    """Per row, how near the day it was added is to the atom's days (1 inside, 1 / (1 + days away /
    NEAR_DAYS) outside; 0 unknown): what orders the closest matches of "added today" when nothing was."""
    day = days_added(snap)
    return days_nearness(day, day >= 0, *day_range(atom, "added"), NEAR_DAYS)
