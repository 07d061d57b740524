"""How many boxes the object detector drew of each class on each photo (people, dogs, horses), and
how many faces the face model read as a word (women, boys)."""

from __future__ import annotations

import numpy as np

from photosearch.query.resolvers.base import ExecContext


def object_boxes(ctx: ExecContext) -> dict[str, np.ndarray]:
    """Per detector label: per snapshot row, how many boxes of it the photo has (once per snapshot)."""
    snap = ctx.snapshot
    key = ("object_boxes",)
    if key not in snap.cache:
        from sqlalchemy import text

        with ctx.store.engine.connect() as conn:
            found = conn.execute(
                text(
                    "SELECT photo_id, label, COUNT(*) FROM facts WHERE kind = 'object' GROUP BY photo_id, label"
                )
            ).all()
        out: dict[str, np.ndarray] = {}
        if found:
            rows, ok = snap.locate(np.array([r[0] for r in found], np.int64))
            for (_pid, label, n), row, known in zip(found, rows, ok, strict=True):
                if known:
                    out.setdefault(str(label), np.zeros(snap.n, np.int16))[row] = int(n)
        snap.cache[key] = out
    return snap.cache[key]


def boxes_of(ctx: ExecContext, labels: list[str] | tuple[str, ...]) -> np.ndarray:
    """Per snapshot row: the boxes of all these labels together."""
    found = object_boxes(ctx)
    total = np.zeros(ctx.snapshot.n, np.int16)
    for label in dict.fromkeys(labels):
        if label in found:
            total += found[label]
    return total


def faces_read_as(ctx: ExecContext, words: list[str] | tuple[str, ...], min_score: float) -> np.ndarray:
    """Per snapshot row: how many faces the face model read as any of these words from `min_score`
    ("two women": the faces read as a woman), each face once (a face is "woman" and "old woman")."""
    snap = ctx.snapshot
    key = ("face_looks",)
    if key not in snap.cache:
        from sqlalchemy import select

        from photosearch.catalog.models import Fact

        with ctx.store.engine.connect() as conn:
            found = conn.execute(
                select(Fact.photo_id, Fact.label, Fact.score, Fact.box).where(Fact.kind == "face")
            ).all()
        rows, ok = snap.locate(np.array([r[0] for r in found], np.int64)) if found else ([], [])
        snap.cache[key] = [
            (int(row), str(label), float(score), tuple(box or ()))
            for (_pid, label, score, box), row, known in zip(found, rows, ok, strict=True)
            if known
        ]
    wanted = set(words)
    faces = {
        (row, box) for row, label, score, box in snap.cache[key] if label in wanted and score >= min_score
    }
    total = np.zeros(snap.n, np.int16)
    for row, _box in faces:
        total[row] += 1
    return total
