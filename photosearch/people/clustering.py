"""Incremental people clustering over face descriptors in the catalog.

After indexing, each face without a person is

1. assigned to the nearest existing person when the distance from the face to that person's
   centroid (mean descriptor) is below `assign_threshold` (conservative: dlib's "same person"
   line is 0.6), otherwise
2. clustered with the other leftover faces (dlib's Chinese whispers over the graph of pairs
   closer than `cluster_threshold`); each cluster of at least `min_faces` faces becomes a new,
   unnamed Person.

Faces a user placed by hand (`pinned`) are never moved, and existing assignments are kept, so
person ids are stable from run to run. `recluster=True` starts over for the unpinned faces of
unnamed, visible people; named or hidden people keep their faces and act as anchors.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np
from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session

from photosearch.catalog.models import Face, Person, Photo
from photosearch.catalog.store import Store

ASSIGN_THRESHOLD = 0.5
CLUSTER_THRESHOLD = 0.5

ProgressFn = Callable[[int, int], None]
CancelFn = Callable[[], bool]


@dataclass
class ClusterReport:
    considered: int = 0  # faces without a person at the start (after a recluster reset)
    assigned: int = 0  # joined an existing person
    clustered: int = 0  # placed in a new person
    new_people: int = 0
    unassigned: int = 0  # left without a person (cluster smaller than min_faces)
    removed_people: int = 0  # unnamed people left without faces, deleted
    reset: int = 0  # faces taken out of unnamed people by recluster=True
    cancelled: bool = False

    def as_dict(self) -> dict:
        return asdict(self)


def descriptor_array(blob: bytes | None) -> np.ndarray | None:
    """A stored descriptor (float32 bytes) as a 1-D array, or None when missing/corrupt."""
    if not blob:
        return None
    arr = np.frombuffer(blob, dtype=np.float32)
    if arr.size == 0 or not np.all(np.isfinite(arr)):
        return None
    return arr


def pairwise_distances(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Euclidean distances between the rows of `a` (n, d) and `b` (m, d)."""
    aa = np.einsum("ij,ij->i", a, a)[:, None]
    bb = np.einsum("ij,ij->i", b, b)[None, :]
    d2 = np.maximum(aa + bb - 2.0 * (a @ b.T), 0.0)
    return np.sqrt(d2)


def chinese_whispers(vectors: np.ndarray, threshold: float) -> list[int]:
    """Cluster labels for the rows of `vectors` (dlib's Chinese whispers, deterministic)."""
    if len(vectors) == 0:
        return []
    if len(vectors) == 1:
        return [0]
    import dlib

    return list(
        dlib.chinese_whispers_clustering(
            [dlib.vector(v.astype(np.float64).tolist()) for v in vectors], float(threshold)
        )
    )


def _active_faces(s: Session) -> list[tuple[int, int | None, bool, bytes | None]]:
    rows = s.execute(
        select(Face.id, Face.person_id, Face.pinned, Face.descriptor)
        .join(Photo, Photo.id == Face.photo_id)
        .where(Photo.state == "active")
        .order_by(Face.id)
    ).all()
    return [(r[0], r[1], bool(r[2]), r[3]) for r in rows]


def remove_empty_people(s: Session) -> int:
    """Delete unnamed, visible people without birthday that no face points to; returns how many."""
    used = select(Face.person_id).where(Face.person_id.is_not(None)).distinct()
    result = s.execute(
        delete(Person).where(
            Person.name.is_(None), Person.birthday.is_(None), Person.hidden.is_(False), Person.id.not_in(used)
        )
    )
    return int(result.rowcount or 0)


def cluster_faces(
    store: Store,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    *,
    assign_threshold: float = ASSIGN_THRESHOLD,
    cluster_threshold: float = CLUSTER_THRESHOLD,
    min_faces: int = 1,
    recluster: bool = False,
) -> ClusterReport:
    """Give every face without a person one (see module docstring). `progress(done, total)` counts
    faces; `cancel()` returning True stops before the next write and leaves the catalog unchanged."""
    cancel = cancel or (lambda: False)
    report = ClusterReport()
    with store.session() as s:
        if recluster:
            report.reset = _forget_unnamed_clusters(s)
        members, free = _people_and_free_faces(s)
        report.considered = total = len(free)
        if progress:
            progress(0, total)
        assignment = (
            None if cancel() else _assign_to_people(members, free, assign_threshold, progress, cancel)
        )
        if assignment is None:
            report.cancelled = True
            s.rollback()
            return report
        report.assigned = len(assignment)
        leftover = [(fid, v) for fid, v in free if fid not in assignment]
        labels = chinese_whispers(np.stack([v for _, v in leftover]), cluster_threshold) if leftover else []
        if cancel():
            report.cancelled = True
            s.rollback()
            return report
        groups: dict[int, list[int]] = defaultdict(list)
        for (fid, _), label in zip(leftover, labels, strict=True):
            groups[label].append(fid)
        _write_people(s, assignment, groups, min_faces, report)
        report.removed_people = remove_empty_people(s)
        if progress:
            progress(total, total)
    return report


def _forget_unnamed_clusters(s: Session) -> int:
    """Re-clustering starts over for people nobody named or hid (pinned faces stay)."""
    kept = select(Person.id).where(or_(Person.name.is_not(None), Person.hidden.is_(True)))
    res = s.execute(
        update(Face)
        .where(Face.pinned.is_(False), Face.person_id.is_not(None), Face.person_id.not_in(kept))
        .values(person_id=None)
    )
    s.flush()
    return int(res.rowcount or 0)


def _people_and_free_faces(s: Session) -> tuple[dict[int, list[np.ndarray]], list[tuple[int, np.ndarray]]]:
    """(person id -> descriptors of their faces, [(face id, descriptor)] of faces with no person)."""
    members: dict[int, list[np.ndarray]] = defaultdict(list)
    free: list[tuple[int, np.ndarray]] = []
    for face_id, person_id, pinned, blob in _active_faces(s):
        vec = descriptor_array(blob)
        if vec is None:
            continue
        if person_id is not None:
            members[person_id].append(vec)
        elif not pinned:
            free.append((face_id, vec))
    return members, free


def _assign_to_people(
    members: dict[int, list[np.ndarray]],
    free: list[tuple[int, np.ndarray]],
    threshold: float,
    progress: ProgressFn | None,
    cancel: CancelFn,
) -> dict[int, int] | None:
    """Face id -> the existing person whose centroid is nearest, within `threshold`; None if cancelled."""
    assignment: dict[int, int] = {}
    if not (free and members):
        return assignment
    person_ids = [pid for pid, vecs in members.items() if vecs and len(vecs[0]) == len(free[0][1])]
    if not person_ids:
        return assignment
    centroids = np.stack([np.mean(members[pid], axis=0) for pid in person_ids])
    vecs = np.stack([v for _, v in free])
    for start in range(0, len(vecs), 4096):
        d = pairwise_distances(vecs[start : start + 4096], centroids)
        best = d.argmin(axis=1)
        for i, (j, dist) in enumerate(zip(best, d[np.arange(len(best)), best], strict=True)):
            if dist < threshold:
                assignment[free[start + i][0]] = person_ids[int(j)]
        if progress:
            progress(min(start + 4096, len(free)), len(free))
        if cancel():
            return None
    return assignment


def _write_people(
    s: Session,
    assignment: dict[int, int],
    groups: dict[int, list[int]],
    min_faces: int,
    report: ClusterReport,
) -> None:
    """Assigned faces join their person; each big enough new cluster becomes a new (unnamed) person."""
    by_person: dict[int, list[int]] = defaultdict(list)
    for fid, pid in assignment.items():
        by_person[pid].append(fid)
    for pid, fids in by_person.items():
        s.execute(update(Face).where(Face.id.in_(fids), Face.pinned.is_(False)).values(person_id=pid))
    for fids in sorted(groups.values(), key=lambda g: (-len(g), g[0])):
        if len(fids) < max(1, min_faces):
            report.unassigned += len(fids)
            continue
        person = Person(name=None)
        s.add(person)
        s.flush()
        s.execute(update(Face).where(Face.id.in_(fids)).values(person_id=person.id))
        report.new_people += 1
        report.clustered += len(fids)
