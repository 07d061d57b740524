"""The `similar` atom: `image`-space neighbours of a photo (catalog id or path, or a new file).

The cut-off is calibrated per query: the query's similarities to a random sample of photos give
its null (mean, spread); neighbours pass when their z-score clears `z0` (and the gap rule of
`calibration.select`), with a floor on raw cosine.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from photosearch.errors import PhotoSearchError
from photosearch.files import require_regular
from photosearch.query.calibration import CalibrationConfig, select
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.snapshot import file_names
from photosearch.query.resolvers.text import fold

IMAGE_SPACE = "image"
SIMILAR_CONFIG = CalibrationConfig(z_min=2.0, min_similarity=0.5, relative=0.0, gap_z=99.0)


def find_photo_id(store, value) -> int | None:
    """A catalog photo id from an id or a path (None when the file is not in the catalog)."""
    text = str(value).strip()
    if text.isdigit():
        return int(text) if store.photo(int(text)) is not None else None
    photo = store.photo_by_path(text)
    return photo.id if photo is not None else None


def named_photo_id(snap, value: str) -> int | None:
    """The catalogued photo whose file name is `value` (any case and accents; "similar to lion.jpg"): the first
    in catalog order when several folders hold one of that name, None when none does."""
    name = fold(str(value)).strip()
    if not name or "/" in name or os.sep in name:
        return None
    for row, known in enumerate(file_names(snap)):
        if known == name:
            return int(snap.ids[row])
    return None


def query_vector(value, ctx: ExecContext) -> tuple[np.ndarray | None, int | None]:
    index = ctx.index(IMAGE_SPACE)
    pid = find_photo_id(ctx.store, value)
    if pid is None and not Path(str(value)).expanduser().exists():
        pid = named_photo_id(ctx.snapshot, str(value))
    if pid is not None and index is not None:
        vec = index.get(pid)
        if vec is not None:
            return vec, pid
    text = str(value).strip()
    if pid is None and text.isdigit():
        raise PhotoSearchError(f"similar: no photo has the id {text}")
    path = Path(str(value)).expanduser()
    if pid is None and path.exists():
        require_regular(path)  # a FIFO or device is refused, never opened
        if ctx.image_embedder is not None:
            return np.asarray(ctx.image_embedder(str(value)), np.float32).ravel(), None
    if pid is None and not path.exists():
        raise PhotoSearchError(f"similar: {value!r} is neither a photo id nor an existing file")
    return None, pid


def neighbours(vec: np.ndarray, ctx: ExecContext, *, exclude: int | None = None, cfg=SIMILAR_CONFIG):
    """(rows, sims, info) of calibrated image neighbours of a vector."""
    index = ctx.index(IMAGE_SPACE)
    snap = ctx.snapshot
    if index is None or len(index) == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.float32), {"skipped": "no image vectors"}
    q = vec / max(float(np.linalg.norm(vec)), 1e-12)
    key = ("image_sample",)
    if key not in snap.cache:
        keys = index.keys()
        rng = np.random.default_rng(7)
        if keys.size > 1024:
            keys = rng.choice(keys, 1024, replace=False)
        snap.cache[key] = index.get_many(keys)
    sample = snap.cache[key]
    ssims = sample @ q
    ssims = ssims[ssims < 0.999]  # the query photo itself is not part of its null
    if ssims.size == 0:
        ssims = np.zeros(1, np.float32)
    # robust null of this query: median and MAD (a few true neighbours do not inflate it)
    mu = float(np.median(ssims))
    sd = max(1.4826 * float(np.median(np.abs(ssims - mu))), 0.02)
    k = min(len(index), 200)
    keys, sims = index.search(q, k, exact=len(index) <= 20000)
    rows, ok = snap.locate(keys)
    ok &= keys != (exclude if exclude is not None else -1)
    rows, sims = rows[ok], sims[ok]
    z = (sims - mu) / sd
    keep, info = select(z, sims, cfg.z_min, cfg)
    return rows[keep], sims[keep], info


def resolve_similar(atom: dict, ctx: ExecContext) -> AtomResult:
    value = atom["similar"]
    vec, pid = query_vector(value, ctx)
    if vec is None:
        return AtomResult(atom, ScoredSet.empty(), info={"skipped": "no image vector for this photo"})
    rows, sims, info = neighbours(vec, ctx, exclude=pid)
    order = np.argsort(rows)
    rows, sims = rows[order], sims[order]
    res = ScoredSet(rows.astype(np.int32), np.clip(sims, 0, 1).astype(np.float32), graded=True)

    def explain(row: int) -> list[dict]:
        s = res.score_of(row)
        return [{"atom": "similar", "to": str(value), "similarity": round(s or 0.0, 3)}]

    return AtomResult(atom, res, explain, info)
