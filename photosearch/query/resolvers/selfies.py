"""Selfies, from what the catalog measured: a front camera named in the photo's lens EXIF (phones
write "iPhone 13 front camera 2.71mm f/2.2"), or a face close to the camera (held at arm's length a
face covers about a twentieth of the frame or more; across a room, a hundredth).

No model labels a selfie. A close portrait someone else took looks the same to the pixels: without
the lens, a close face is a selfie by look only, and a face not quite as close is a closest match.
"""

from __future__ import annotations

import json
import re

import numpy as np

from photosearch.query.resolvers.base import ExecContext

#: Concept words (folded, singular) answered here.
SELFIE_WORDS = frozenset({"selfie", "self-portrait", "self portrait"})
#: A lens EXIF that names the front camera.
FRONT_CAMERA = re.compile(r"\bfront\b|truedepth|\bselfie\b", re.IGNORECASE)
#: The largest face's box, as a share of the frame, from which the photo is a selfie by look, and
#: from which it is a closest match.
CLOSE_FACE = 0.04
NEAR_FACE = 0.015
#: A selfie holds a few people at most.
MAX_FACES = 4
#: Evidence: the front camera; a close face (rising to FULL at FULL_FACE); a nearer match.
FRONT = 1.0
CLOSE = 0.6
FULL_FACE = 0.2
NEAR = 0.4


def is_selfie_word(concept: str) -> bool:
    return " ".join(concept.lower().split()) in SELFIE_WORDS


def selfie_measures(ctx: ExecContext) -> tuple[np.ndarray, np.ndarray]:
    """Per snapshot row: (the largest face's share of the frame, whether the lens is a front camera);
    once per snapshot."""
    snap = ctx.snapshot
    key = ("selfie_measures",)
    if key not in snap.cache:
        from sqlalchemy import text

        largest = np.zeros(snap.n, np.float32)
        front = np.zeros(snap.n, bool)
        with ctx.store.engine.connect() as conn:
            faces = conn.execute(text("SELECT photo_id, box FROM faces")).all()
            lenses = conn.execute(text("SELECT id, lens FROM photos WHERE lens IS NOT NULL")).all()
        if faces:
            rows, ok = snap.locate(np.array([f[0] for f in faces], np.int64))
            shares = np.array([_box_share(f[1]) for f in faces], np.float32)
            np.maximum.at(largest, rows[ok], shares[ok])
        fronts = [pid for pid, lens in lenses if FRONT_CAMERA.search(str(lens))]
        if fronts:
            rows, ok = snap.locate(np.array(fronts, np.int64))
            front[rows[ok]] = True
        snap.cache[key] = (largest, front)
    return snap.cache[key]


def _box_share(box) -> float:
    """A face box (x0, y0, x1, y1 in 0..1; JSON text on some databases) as a share of the frame."""
    try:
        x0, y0, x1, y1 = (float(v) for v in (json.loads(box) if isinstance(box, str) else box))
    except (TypeError, ValueError):
        return 0.0
    return max(0.0, x1 - x0) * max(0.0, y1 - y0)


def selfie_evidence(ctx: ExecContext) -> tuple[np.ndarray, np.ndarray]:
    """(evidence of a selfie per row, of it or of a nearer match: confident rows have CLOSE or more)."""
    largest, front = selfie_measures(ctx)
    few = (ctx.snapshot.face_count >= 1) & (ctx.snapshot.face_count <= MAX_FACES)
    closeness = np.clip((largest - CLOSE_FACE) / (FULL_FACE - CLOSE_FACE), 0.0, 1.0)
    sure = np.where(few & (largest >= CLOSE_FACE), CLOSE + (FRONT - CLOSE) * 0.5 * closeness, 0.0)
    sure = np.where(front, FRONT, sure).astype(np.float32)
    near = np.where(few & (largest >= NEAR_FACE), NEAR, 0.0).astype(np.float32)
    return sure, np.maximum(sure, near)


def explain_selfie(ctx: ExecContext, row: int) -> list[dict]:
    largest, front = selfie_measures(ctx)
    if front[row]:
        return [{"atom": "concept", "fact": "lens", "text": "taken with the front camera"}]
    if largest[row] <= 0:
        return []
    share = float(largest[row])
    close = "close to the camera, " if share >= CLOSE_FACE else ""
    return [
        {
            "atom": "concept",
            "fact": "face",
            "share": round(share, 3),
            "text": f"a face {close}{share:.0%} of the photo",
        }
    ]
