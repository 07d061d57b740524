"""Named face regions read from files (analyzer "embedded") meet the faces the detector found.

A region's name makes (or joins) the person of that name. Where a detected face overlaps the region,
that face becomes the person (pinned: clustering never moves it) and the region row goes, so the
photo counts one face, not two; a region no detected face overlaps stays as a face of its own (no
descriptor), so the person is still in the photo. A face the user pinned to someone else in
PhotoSearch keeps the user's choice.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from photosearch.catalog.models import Face, Person

REGION_ANALYZER = "embedded"
#: A detected face is the region's face when their boxes overlap this much (IoU): region boxes are
#: drawn by hand or by other detectors, looser than dlib's, so this is lower than a re-detection's.
MATCH_IOU = 0.25
#: ... or when this share of the smaller box lies inside the other (a tight face in a loose region).
MATCH_INSIDE = 0.7


def person_named(s: Session, name: str) -> int:
    """The id of the person called `name` (any case), made when there is none."""
    pid = s.scalar(
        select(Person.id).where(func.lower(Person.name) == name.lower()).order_by(Person.id).limit(1)
    )
    if pid is None:
        person = Person(name=name)
        s.add(person)
        s.flush()
        pid = person.id
    return pid


def _overlap(a: list[float], b: list[float]) -> tuple[float, float]:
    """(IoU, intersection over the smaller box)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    area_a = max(0.0, a[2] - a[0]) * max(0.0, a[3] - a[1])
    area_b = max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])
    union = area_a + area_b - inter
    smaller = min(area_a, area_b)
    return (inter / union if union > 0 else 0.0), (inter / smaller if smaller > 0 else 0.0)


def _matches(region: list[float], face: list[float]) -> float:
    """How well a detected face fits a region (0: not at all)."""
    iou, inside = _overlap(region, face)
    return iou if iou >= MATCH_IOU or inside >= MATCH_INSIDE else 0.0


def attach_regions(s: Session, photo_id: int) -> int:
    """Give each named region of the photo to the detected face it overlaps best; returns how many."""
    s.flush()
    faces = list(s.scalars(select(Face).where(Face.photo_id == photo_id).order_by(Face.id)))
    regions = [f for f in faces if f.analyzer == REGION_ANALYZER and f.person_id is not None]
    detected = [f for f in faces if f.analyzer != REGION_ANALYZER]
    if not regions or not detected:
        return 0
    pairs = sorted(
        (
            (_matches(list(r.box), list(d.box)), i, j)
            for i, r in enumerate(regions)
            for j, d in enumerate(detected)
        ),
        reverse=True,
    )
    used_r: set[int] = set()
    used_d: set[int] = set()
    attached = 0
    for score, i, j in pairs:
        if score <= 0 or i in used_r or j in used_d:
            continue
        region, face = regions[i], detected[j]
        used_r.add(i)
        used_d.add(j)
        if not (face.pinned and face.person_id not in (None, region.person_id)):
            face.person_id, face.pinned = region.person_id, True
        s.delete(region)
        attached += 1
    return attached
