"""The days_of atom: photos taken on the days other photos tell ("the day after the party")."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import timedelta

import numpy as np

from photosearch.query.plan import DAYS_APART
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.filters import NEAR_DAYS, dated
from photosearch.query.resolvers.snapshot import EPOCH, taken_at
from photosearch.query.same_days import days_away_text
from photosearch.query.unmet import told_by as told_by_words

#: How many of the days found a result's `info` lists.
DAYS_LISTED = 20
#: Where no photo surely tells a day, how many of the closest matches of what would tell it order the
#: closest matches by their days.
CLOSEST_TELLING = 3


def resolve_days_of(
    atom: dict, ctx: ExecContext, found: ScoredSet, closest: Callable[[], ScoredSet]
) -> AtomResult:
    """The photos taken `from`..`to` days after a day on which one of `found` (the photos matching the
    atom's `where`, run strictly) was taken; undated photos never match and tell no day. Where none
    does, the page says so, and the best of `closest` (the `where`'s closest matches) tell the days
    the closest matches are near to."""
    spec = atom["days_of"]
    snap = ctx.snapshot
    known = dated(snap)
    rows = found.rows[known[found.rows]]
    days = picked(np.unique(snap.day[rows].astype(np.int64)), spec.get("pick"))
    if not len(found):
        ctx.remarks.append(f"there is no day to go by: {told_by_words(spec['where'])} was not found")
    elif not days.size:
        ctx.remarks.append(f"there is no day to go by: no {told_by_words(spec['where'])[2:]} has a date")
    taken = snap.day.astype(np.int64)
    lo, hi = int(spec["from"]), int(spec["to"])
    # a photo of day x matches when some day d has lo <= x - d <= hi, i.e. x - hi <= d <= x - lo
    first = np.searchsorted(days, taken - hi, side="left")
    inside = first < days.size
    inside[inside] &= days[first[inside]] <= taken[inside] - lo
    result = ScoredSet.from_mask(inside & known)
    kept = set(days.tolist())
    told_by = {
        int(d): int(r) for d, r in zip(snap.day[rows].tolist(), rows.tolist(), strict=True) if d in kept
    }

    def explain(row: int) -> list[dict]:
        day = int(taken[row])
        told_days = sorted(
            (d for d in range(day - hi, day - lo + 1) if d in told_by), key=lambda d: abs(day - d)
        )
        when = taken_at(snap, row)
        why = {"atom": "days_of", "taken_at": when}
        if told_days:  # the photo that tells the day, the nearest: when it was taken, and its file
            by = told_by[told_days[0]]
            why["day_of"] = taken_at(snap, by)
            why["photo"] = os.path.basename(snap.paths[by])
            if by != row:  # "taken 2024-07-02, the day after DJI_0042.JPG"
                away = day - told_days[0]
                why["text"] = f"taken {(when or '')[:10]}, {days_away_text(away, away)} {why['photo']}"
        return [why]

    info = {
        "days": [(EPOCH + timedelta(days=int(d))).date().isoformat() for d in days[:DAYS_LISTED]],
        "day_count": int(days.size),
        "found": len(found),
    }

    def near_in_time() -> np.ndarray:
        """1 on a day asked for, 1 / (1 + days away / NEAR_DAYS) off them; 0 undated or no day. With
        no day told, the days the best closest matches of the `where` tell."""
        told = days if days.size else _closest_days(closest(), snap, known)
        if not told.size:
            return np.zeros(snap.n, np.float32)
        # the spans told + lo .. told + hi, all as long, so sorted by both ends: the nearest is the
        # last to start at or before a day, or the next one
        starts, ends = told + lo, told + hi
        last = np.searchsorted(starts, taken, side="right") - 1
        after = np.where(last >= 0, np.maximum(taken - ends[np.maximum(last, 0)], 0), np.iinfo(np.int64).max)
        nxt = np.minimum(last + 1, told.size - 1)
        before = np.where(last + 1 < told.size, starts[nxt] - taken, np.iinfo(np.int64).max)
        away = np.minimum(after, before).astype(np.float64)
        return np.where(known, 1.0 / (1.0 + away / NEAR_DAYS), 0.0).astype(np.float32)

    return AtomResult(atom, result, explain, info, near_in_time=near_in_time)


def picked(days: np.ndarray, pick: str | None) -> np.ndarray:
    """The first (last) day of each run of sorted unique `days`, a gap of more than `DAYS_APART` days
    starting a new run; all of them without a pick."""
    if pick is None or days.size < 2:
        return days
    starts = np.concatenate([[True], np.diff(days) > DAYS_APART])
    return days[starts] if pick == "first" else days[np.concatenate([starts[1:], [True]])]


def _closest_days(near: ScoredSet, snap, known: np.ndarray) -> np.ndarray:
    """The days the best `CLOSEST_TELLING` dated photos of `near` were taken (`known`: per row, dated)."""
    with_day = known[near.rows]
    rows, scores = near.rows[with_day], near.scores[with_day]
    best = rows[np.argsort(-scores, kind="stable")[:CLOSEST_TELLING]]
    return np.unique(snap.day[best].astype(np.int64))
