"""Bring XMP sidecars in line with what the user did in PhotoSearch (when `sidecar_writeback` is on).

Per photo: the names of the people in it (their faces' boxes), the tags the user added (facts of
analyzer "user", kind "user_tag"; "favourite" among them), the user's rating and caption (analyzer
"user", kinds "rating" and "caption"). What was last written is remembered as a fact (analyzer
"writeback", kind "sidecar_written", label: a digest of it), so a photo is written again only when
that changed. Writing a sidecar changes it on disk: the next scan reads it back as embedded
metadata, which holds the same words (no loop: the digest does not change).
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import delete, select

from photosearch.catalog.models import Face, Fact, Person, Photo
from photosearch.ingest.paths import from_db_path
from photosearch.metadata.sidecar import CONVENTIONS
from photosearch.metadata.writeback import SidecarUpdate, SidecarWriteError, write_sidecar

log = logging.getLogger(__name__)

WRITER = "writeback"
WRITTEN = "sidecar_written"


@dataclass
class SyncReport:
    enabled: bool = True
    written: int = 0
    unchanged: int = 0
    failed: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "enabled": self.enabled,
            "written": self.written,
            "unchanged": self.unchanged,
            "failed": self.failed,
        }


def updates(s, photo_ids: list[int] | None = None) -> dict[int, SidecarUpdate]:
    """What each photo's sidecar should hold, for the photos that have anything to write."""
    out: dict[int, SidecarUpdate] = defaultdict(SidecarUpdate)
    faces = select(Face.photo_id, Face.box, Person.name).join(Person, Person.id == Face.person_id)
    faces = faces.where(Person.name.is_not(None)).order_by(Face.photo_id, Face.id)
    facts = select(Fact.photo_id, Fact.kind, Fact.label).where(
        Fact.analyzer == "user", Fact.kind.in_(("user_tag", "rating", "caption"))
    )
    if photo_ids is not None:
        faces = faces.where(Face.photo_id.in_(photo_ids))
        facts = facts.where(Fact.photo_id.in_(photo_ids))
    for pid, box, name in s.execute(faces):
        if box and len(box) == 4 and all(n != name for n, _ in out[pid].people):
            out[pid].people.append((name, tuple(float(v) for v in box)))
    for pid, kind, label in s.execute(facts.order_by(Fact.photo_id, Fact.id)):
        u = out[pid]
        if kind == "user_tag" and label not in u.keywords:
            u.keywords.append(label)
        elif kind == "rating":
            try:
                u.rating = max(-1, min(5, int(float(label))))
            except ValueError:
                continue
        elif kind == "caption":
            u.caption = label
    return {pid: u for pid, u in out.items() if not u.empty()}


def sync_sidecars(store, settings, photo_ids: list[int] | None = None) -> SyncReport:
    """Write the sidecars that differ from what was last written; nothing when write-back is off."""
    if not settings.sidecar_writeback:
        return SyncReport(enabled=False)
    report = SyncReport()
    if settings.sidecar_naming not in CONVENTIONS:
        report.failed.append(
            f"sidecar_naming is {settings.sidecar_naming!r}; set it to one of {', '.join(CONVENTIONS)} "
            "in settings.json (nothing was written)"
        )
        return report
    with store.session() as s:
        wanted = updates(s, photo_ids)
        if not wanted:
            return report
        ids = list(wanted)
        done = dict(
            s.execute(
                select(Fact.photo_id, Fact.label).where(
                    Fact.analyzer == WRITER, Fact.kind == WRITTEN, Fact.photo_id.in_(ids)
                )
            ).all()
        )
        photos = {p.id: p for p in s.scalars(select(Photo).where(Photo.id.in_(ids), Photo.state == "active"))}
    for pid, update in wanted.items():
        photo = photos.get(pid)
        if photo is None:
            continue
        digest = update.digest()
        if done.get(pid) == digest:
            report.unchanged += 1
            continue
        path = from_db_path(photo.path)
        size = (photo.width, photo.height) if photo.width and photo.height else None
        try:
            write_sidecar(
                path, update, settings.sidecar_naming, orientation=photo.orientation or 1, size=size
            )
        except (SidecarWriteError, ValueError) as exc:
            log.warning("sidecar of %s not written: %s", path, exc)
            report.failed.append(f"{path}: {exc}")
            continue
        with store.session() as s:
            s.execute(delete(Fact).where(Fact.photo_id == pid, Fact.analyzer == WRITER, Fact.kind == WRITTEN))
            s.add(
                Fact(
                    photo_id=pid,
                    analyzer=WRITER,
                    kind=WRITTEN,
                    label=digest,
                    data={"naming": settings.sidecar_naming},
                )
            )
        report.written += 1
    return report
