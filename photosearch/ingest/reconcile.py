"""Catalog reconciliation: bring the Photo rows in line with the files a run loaded.

Shared by every indexing engine (the serial `Indexer` and the Ray driver): a new file becomes a
photo, a changed one is re-analysed or steps aside, a moved or copied one keeps what is known
about it, a bad one is recorded with its reason, and what vanished is swept at the end.
"""

from __future__ import annotations

import logging
import os

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from photosearch.catalog.models import (
    Analysis,
    Embedding,
    Face,
    Fact,
    FileIssue,
    Folder,
    Person,
    Photo,
    Thumbnail,
    utcnow,
)
from photosearch.catalog.store import FETCH, Store
from photosearch.ingest.loader import Loaded
from photosearch.ingest.paths import db_text, from_db_path, to_db_path
from photosearch.ingest.report import IndexReport
from photosearch.ingest.scanner import STICKY_REASONS, ScanPlan

log = logging.getLogger(__name__)

# Failures the user has to fix outside the app; the run reports each message once.
USER_ACTION_REASONS = frozenset({"disk_full", "write_failed"})
# Perceptual-hash bits (of 64) within which new content at a path is an edit of the same picture.
SAME_PICTURE_BITS = 10


def is_same_picture(old_phash: str | None, new_phash: str | None, max_bits: int = SAME_PICTURE_BITS) -> bool:
    """Is new content an edit of the old picture (perceptual hashes within `max_bits`)?"""
    if not old_phash or not new_phash:
        return False
    try:
        return (int(old_phash, 16) ^ int(new_phash, 16)).bit_count() <= max_bits
    except ValueError:
        return False


def upsert_issue(s: Session, path: str, folder_id, reason: str, message: str, size, mtime) -> None:
    """Record (or refresh) why a file could not be catalogued."""
    row = s.scalar(select(FileIssue).where(FileIssue.path == path))
    if row is None:
        row = FileIssue(path=path)
        s.add(row)
    row.folder_id, row.reason, row.message, row.size, row.mtime = (
        folder_id,
        reason,
        db_text(message),
        size,
        mtime,
    )
    row.seen_at = utcnow()
    log.warning("skipping: %s", message)


def has_user_work(s: Session, photo_id: int) -> bool:
    """Does the photo carry what a person did: a face of a named person, or a tag they added?"""
    named = s.scalar(
        select(Face.id)
        .join(Person, Person.id == Face.person_id)
        .where(Face.photo_id == photo_id, Person.name.is_not(None))
        .limit(1)
    )
    if named is not None:
        return True
    return (
        s.scalar(select(Fact.id).where(Fact.photo_id == photo_id, Fact.analyzer == "user").limit(1))
        is not None
    )


def forget_analysis(s: Session, photo_id: int) -> None:
    """Drop what the models said about a photo (its content changed); the user's tags stay."""
    for model in (Fact, Embedding, Analysis):
        cond = model.photo_id == photo_id
        if model is Fact:
            cond = cond & (Fact.analyzer != "user")
        s.execute(delete(model).where(cond))
    # Named faces stay until the faces analyzer re-runs, which carries each name to the new face
    # it overlaps (Store.write_analysis): an edited photo (crop, enhance) keeps who is in it.
    for face in s.scalars(select(Face).where(Face.photo_id == photo_id, Face.person_id.is_(None))):
        s.delete(face)


def copy_from_twin(s: Session, photo: Photo) -> int:
    """A byte-identical copy of an analysed photo inherits its analysis instead of re-running models."""
    twin = s.scalar(
        select(Photo)
        .where(Photo.content_hash == photo.content_hash, Photo.id != photo.id, Photo.state == "active")
        .limit(1)
    )
    if twin is None:
        return 0
    analyses = list(
        s.scalars(select(Analysis).where(Analysis.photo_id == twin.id, Analysis.status != "failed"))
    )
    if not analyses:
        return 0
    for a in analyses:
        s.add(
            Analysis(
                photo_id=photo.id, analyzer=a.analyzer, version=a.version, status=a.status, duration_ms=0.0
            )
        )
    for f in s.scalars(select(Fact).where(Fact.photo_id == twin.id, Fact.analyzer != "user")):
        s.add(
            Fact(
                photo_id=photo.id,
                analyzer=f.analyzer,
                kind=f.kind,
                label=f.label,
                score=f.score,
                box=f.box,
                data=f.data,
            )
        )
    for e in s.scalars(select(Embedding).where(Embedding.photo_id == twin.id)):
        s.add(Embedding(photo_id=photo.id, space=e.space, analyzer=e.analyzer, dim=e.dim, vector=e.vector))
    for face in s.scalars(select(Face).where(Face.photo_id == twin.id)):
        s.add(
            Face(
                photo_id=photo.id,
                analyzer=face.analyzer,
                box=face.box,
                score=face.score,
                descriptor=face.descriptor,
                person_id=face.person_id,
            )
        )
    return 1


def _copy_file_metadata(s: Session, photo: Photo, loaded: Loaded) -> None:
    """Size, dimensions, hashes, EXIF and thumbnail of the loaded file onto its photo."""
    photo.content_hash = loaded.content_hash
    photo.size, photo.mtime = loaded.size, loaded.mtime
    photo.width, photo.height, photo.format = loaded.width, loaded.height, loaded.format
    photo.phash = loaded.phash
    photo.state, photo.deleted_at = "active", None
    if loaded.exif is not None:
        ex = loaded.exif
        photo.taken_at, photo.camera_make, photo.camera_model, photo.lens = (
            ex.taken_at,
            ex.camera_make,
            ex.camera_model,
            ex.lens,
        )
        photo.gps_lat, photo.gps_lon, photo.gps_alt, photo.orientation = (
            ex.gps_lat,
            ex.gps_lon,
            ex.gps_alt,
            ex.orientation,
        )
    if loaded.thumb and s.get(Thumbnail, loaded.content_hash) is None:
        rel, w, h = loaded.thumb
        s.add(Thumbnail(content_hash=loaded.content_hash, rel_path=rel, width=w, height=h, format="webp"))


class Reconciler:
    """One run's catalog reconciliation: `apply` each loaded file, then `sweep` what vanished.

    Holds the run's bookkeeping: the paths that vanished (candidates for moves, deleted at the
    end), the paths being re-ingested with new content (swaps), and the photos placed this run.
    """

    def __init__(self, store: Store, plan: ScanPlan):
        self.store = store
        self.vanished: dict[str, int] = dict(plan.vanished)
        self.reingest: set[str] = set(plan.changed_paths)
        self.claimed: set[int] = set()

    # ---- listing ------------------------------------------------------------------------
    def record_listing_issues(self, plan: ScanPlan) -> None:
        if not plan.issues:
            return
        with self.store.session() as s:
            for issue in plan.issues:
                upsert_issue(
                    s, to_db_path(issue.path), issue.folder_id, issue.reason, issue.message, None, None
                )

    # ---- one file -------------------------------------------------------------------------
    def apply(self, s: Session, loaded: Loaded, report: IndexReport) -> int | None:
        """Create, update or move the Photo row for a loaded file; returns its id (None on error)."""
        entry = loaded.entry
        assert entry is not None
        db_path = to_db_path(loaded.path)
        existing = s.scalar(select(Photo).where(Photo.path == db_path))
        if loaded.error is not None:
            self._record_failure(s, loaded, db_path, existing, report)
            return None
        s.execute(delete(FileIssue).where(FileIssue.path == db_path), execution_options=FETCH)
        if existing is not None and existing.content_hash != loaded.content_hash:
            photo, is_new = self._new_content_at_path(s, existing, loaded, report)
        elif existing is None:
            photo, is_new = self._new_path(s, db_path, loaded, report)
        else:
            photo, is_new = existing, False
        photo.folder_id = entry.folder_id
        if photo.id is not None:
            self.claimed.add(photo.id)
        _copy_file_metadata(s, photo, loaded)
        s.flush()
        if is_new:
            report.copied_facts += copy_from_twin(s, photo)
        return photo.id

    def _record_failure(
        self, s: Session, loaded: Loaded, db_path: str, existing: Photo | None, report: IndexReport
    ) -> None:
        err, entry = loaded.error, loaded.entry
        assert err is not None and entry is not None
        if err.reason == "vanished":
            if existing is not None and existing.state == "active":
                self.vanished[db_path] = existing.id
            return
        upsert_issue(s, db_path, entry.folder_id, err.reason, err.message, entry.size, entry.mtime)
        report.failed += 1
        report.failed_by_reason[err.reason] = report.failed_by_reason.get(err.reason, 0) + 1
        if err.reason in USER_ACTION_REASONS and err.message not in report.warnings:
            report.warnings.append(err.message)
        # Only a file whose content is now bad stops being the photo it was; a transient error
        # (disk full, permissions, a flaky drive) leaves the catalogued photo as it is, and so
        # does any failure of a photo the user put work into (named people, their own tags): it
        # stays, marked unreadable by its file issue, until the file reads again.
        if (
            err.reason in STICKY_REASONS
            and existing is not None
            and existing.state == "active"
            and not has_user_work(s, existing.id)
        ):
            existing.state, existing.deleted_at = "deleted", utcnow()

    def _new_content_at_path(
        self, s: Session, photo: Photo, loaded: Loaded, report: IndexReport
    ) -> tuple[Photo, bool]:
        """A catalogued path now holds other bytes: a moved photo, an edit, or another picture."""
        source = self._find_moved(s, loaded.content_hash, exclude=photo.id)
        if source is not None:
            # Another photo's content moved onto this path (a swap, a renumbering, a name reused
            # after a delete): that photo moves here with its facts; this path's old photo steps
            # aside under a placeholder path, to be claimed by its content's new path or swept.
            old_path = photo.path
            photo.path = f"{old_path}\uf8ff~{photo.id}"
            if photo.state == "active":
                self.vanished[photo.path] = photo.id
            s.flush()  # free the path before the source takes it (UNIQUE(path))
            self.vanished.pop(source.path, None)
            source.path = old_path
            report.moved += 1
            return source, False
        report.changed += 1
        if is_same_picture(photo.phash, loaded.phash):
            # An edit of the same picture (crop, enhance, re-save): the user's tags and the
            # names of its faces stay; the models run again.
            forget_analysis(s, photo.id)
            return photo, False
        # Another picture under the old name (a camera reusing IMG_0001): nothing of the old
        # photo carries over. It steps aside as a deleted photo with everything known about it,
        # restored should its content come back.
        db_path = photo.path
        photo.path = f"{photo.path}\uf8ff~{photo.id}"
        photo.state, photo.deleted_at = "deleted", utcnow()
        s.flush()  # free the path (UNIQUE(path))
        fresh = Photo(path=db_path, content_hash=loaded.content_hash)
        s.add(fresh)
        return fresh, True

    def _new_path(self, s: Session, db_path: str, loaded: Loaded, report: IndexReport) -> tuple[Photo, bool]:
        """A path the catalog does not know: a moved photo, or a new one."""
        photo = self._find_moved(s, loaded.content_hash)
        if photo is not None:
            self.vanished.pop(photo.path, None)
            photo.path = db_path
            report.moved += 1
            return photo, False
        photo = Photo(path=db_path, content_hash=loaded.content_hash)
        s.add(photo)
        report.added += 1
        return photo, True

    def _find_moved(self, s: Session, content_hash: str | None, exclude: int | None = None) -> Photo | None:
        """A photo with the same content whose old path is gone (this run's listing, or a path not on
        disk any more: a move across watched folders arrives as a create before its delete), is
        itself being re-ingested with other content (a swap), or was deleted earlier."""
        rows = [
            r
            for r in s.scalars(select(Photo).where(Photo.content_hash == content_hash))
            if r.id != exclude
            and r.id not in self.claimed  # a photo placed at its path in this run stays there
        ]
        for row in rows:
            if row.path in self.vanished or (row.state == "active" and row.path in self.reingest):
                return row
        for row in rows:  # gone from disk, not yet swept: the watcher saw the new path first
            if row.state == "active" and not os.path.lexists(from_db_path(row.path)):
                self.vanished.setdefault(row.path, row.id)
                return row
        for row in rows:
            if row.state == "deleted":
                return row
        return None

    # ---- end of the run ---------------------------------------------------------------------
    def finish(self, plan: ScanPlan, whole_library: bool, report: IndexReport) -> None:
        """Sweep what vanished; after a whole-library run, mark folders scanned and forget the
        issues of files that are gone."""
        self._sweep(report)
        if whole_library:
            self._mark_scanned(plan.online_folder_ids)
            self._forget_gone_issues(plan.online_folder_ids)

    def _sweep(self, report: IndexReport) -> None:
        if not self.vanished:
            return
        with self.store.session() as s:
            for photo in s.scalars(select(Photo).where(Photo.id.in_(list(self.vanished.values())))):
                if photo.state == "active":
                    photo.state, photo.deleted_at = "deleted", utcnow()
                    report.deleted += 1

    def _forget_gone_issues(self, folder_ids: list[int]) -> None:
        """A bad file that was deleted or fixed away is no longer a failure to report."""
        with self.store.session() as s:
            for issue in s.scalars(select(FileIssue).where(FileIssue.folder_id.in_(folder_ids))):
                if not os.path.lexists(from_db_path(issue.path)):
                    s.delete(issue)

    def _mark_scanned(self, folder_ids: list[int]) -> None:
        with self.store.session() as s:
            for folder in s.scalars(select(Folder).where(Folder.id.in_(folder_ids))):
                folder.last_scan_at = utcnow()
