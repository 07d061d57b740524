"""The indexer: brings the catalog in line with the folders and runs the analyzers.

Workers read, hash and decode ahead (bounded look-ahead) while the calling thread runs
the models and is the catalog's single writer. Work commits in batches, so a killed run
loses at most the batch in flight, and a re-run carries on without duplicates.
"""

from __future__ import annotations

import logging
import os
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from photosearch.catalog.lock import WriterLock
from photosearch.catalog.models import (
    Analysis,
    Embedding,
    Face,
    Fact,
    FileIssue,
    Folder,
    Photo,
    Thumbnail,
    utcnow,
)
from photosearch.catalog.store import Store
from photosearch.config import Settings
from photosearch.errors import Cancelled, DecodeError
from photosearch.ingest.facts_refresh import refresh_facts_text
from photosearch.ingest.loader import Loaded, LoadOptions, load_for_analysis, load_for_ingest
from photosearch.ingest.paths import db_text, from_db_path, to_db_path
from photosearch.ingest.scanner import STICKY_REASONS, ScanPlan, plan_scan
from photosearch.vision.analyzer import Analyzer, PhotoImage, analyze_batch, needs_facts

log = logging.getLogger(__name__)

# Failures the user has to fix outside the app; the run reports each message once.
USER_ACTION_REASONS = frozenset({"disk_full", "write_failed"})


@dataclass
class IndexProgress:
    """A progress event. `stage` is listing | ingest | analyze | post | done."""

    stage: str
    done: int
    total: int
    path: str | None = None
    rate: float = 0.0  # photos per second so far
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class IndexReport:
    seen: int = 0
    unchanged: int = 0
    added: int = 0
    changed: int = 0
    moved: int = 0
    copied_facts: int = 0
    deleted: int = 0
    failed: int = 0
    analysed: int = 0
    analysis_failed: int = 0
    offline_folders: list[str] = field(default_factory=list)
    failed_by_reason: dict[str, int] = field(default_factory=dict)
    # Problems the user must act on (the disk is full), each once: `index` prints them at the end.
    warnings: list[str] = field(default_factory=list)
    cancelled: bool = False
    elapsed_s: float = 0.0
    stage_ms: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    post: dict[str, object] = field(default_factory=dict)
    # analyzer name -> {"ok": n, "failed": n, "first_error": str | None}: what each model did this run
    analyzers: dict[str, dict] = field(default_factory=dict)

    def count_analysis(self, analyzer: str, error: str | None) -> None:
        """Count one analyzer's outcome on one photo (the summary `index` ends with)."""
        row = self.analyzers.setdefault(analyzer, {"ok": 0, "failed": 0, "first_error": None})
        if error:
            self.analysis_failed += 1
            row["failed"] += 1
            row["first_error"] = row["first_error"] or error
        else:
            row["ok"] += 1

    def broken_analyzers(self) -> list[str]:
        """Analyzers that failed on every photo they were given: a broken model, not a bad photo."""
        return [name for name, row in self.analyzers.items() if row["failed"] and not row["ok"]]

    @property
    def photos_per_s(self) -> float:
        work = self.added + self.changed + self.analysed
        return work / self.elapsed_s if self.elapsed_s else 0.0

    def as_dict(self) -> dict:
        data = {k: v for k, v in self.__dict__.items() if k != "stage_ms"}
        data["stage_ms"] = {k: round(v, 1) for k, v in self.stage_ms.items()}
        data["photos_per_s"] = round(self.photos_per_s, 2)
        data["elapsed_s"] = round(self.elapsed_s, 3)
        return data


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


ProgressFn = Callable[[IndexProgress], None]
CancelFn = Callable[[], bool]
PostStep = Callable[[Store, "IndexReport", ProgressFn | None, CancelFn | None], object]


@dataclass
class _WorkItem:
    kind: str  # ingest | analyze
    loaded: Loaded


class Indexer:
    """`Indexer(store, settings, analyzers).run()`; post steps (people clustering, vector sync) run after."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        analyzers: Sequence[Analyzer] = (),
        post_steps: Sequence[tuple[str, PostStep]] = (),
    ):
        self.store = store
        self.settings = settings
        self.analyzers = list(analyzers)
        self.post_steps = list(post_steps)
        settings.thumbs_dir.mkdir(parents=True, exist_ok=True)
        self.options = LoadOptions(
            thumbs_dir=str(settings.thumbs_dir),
            thumbnail_size=settings.thumbnail_size,
            analysis_max_side=settings.analysis_max_side,
            max_pixels=settings.max_image_pixels,
            want_pixels=bool(self.analyzers),
            max_file_bytes=settings.max_file_bytes,
        )

    # ---- public ----------------------------------------------------------------------------
    def run(
        self,
        only_paths: Iterable[str] | None = None,
        progress: ProgressFn | None = None,
        cancel: CancelFn | None = None,
        retry_failed: bool = False,
    ) -> IndexReport:
        """Index under the catalog's writer lock: a second writer (another `index`, the app, `watch`)
        waits for this run, saying who it waits for; Ctrl-C while waiting cancels."""

        def waiting(message: str) -> None:
            log.warning("%s", message)
            if progress:
                progress(IndexProgress("waiting", 0, 0, message))

        lock = WriterLock(self.store.writer_lock_path(self.settings.data_dir), on_wait=waiting, cancel=cancel)
        try:
            lock.acquire()
        except Cancelled:
            return IndexReport(cancelled=True)
        try:
            return self._run(only_paths, progress, cancel, retry_failed)
        finally:
            lock.release()

    def _run(
        self,
        only_paths: Iterable[str] | None,
        progress: ProgressFn | None,
        cancel: CancelFn | None,
        retry_failed: bool,
    ) -> IndexReport:
        started = time.perf_counter()
        report = IndexReport()
        cancel = cancel or (lambda: False)
        plan, backlog, vanished = self._begin(only_paths, retry_failed, report, progress)
        items = [("ingest", e) for e in plan.to_ingest] + [("analyze", b) for b in backlog]
        total = len(items)
        done = 0
        batch: list[_WorkItem] = []
        batch_size = max(1, self.settings.batch_size)

        def emit(stage: str, path: str | None = None) -> None:
            if progress:
                elapsed = time.perf_counter() - started
                progress(IndexProgress(stage, done, total, path, done / elapsed if elapsed else 0.0, self._counts(report)))

        emit("ingest")
        with ThreadPoolExecutor(max_workers=max(1, self.settings.decode_workers), thread_name_prefix="decode") as pool:
            pending: deque[tuple[str, Future]] = deque()
            source = iter(items)
            window = batch_size * 2

            def refill() -> None:
                while len(pending) < window:
                    nxt = next(source, None)
                    if nxt is None:
                        return
                    kind, payload = nxt
                    if kind == "ingest":
                        pending.append((kind, pool.submit(load_for_ingest, payload, self.options)))
                    else:
                        pid, path = payload
                        pending.append((kind, pool.submit(load_for_analysis, pid, path, self.options)))

            refill()
            while pending:
                if not batch and cancel():  # only between batches: a batch is all-or-nothing
                    report.cancelled = True
                    for _, fut in pending:
                        fut.cancel()
                    break
                kind, fut = pending.popleft()
                loaded = fut.result()
                for k, v in loaded.timings.items():
                    report.stage_ms[k] += v
                batch.append(_WorkItem(kind, loaded))
                refill()
                if len(batch) >= batch_size or not pending:
                    self._process_batch(batch, vanished, report, retry_failed)
                    done += len(batch)
                    emit("analyze" if self.analyzers else "ingest", batch[-1].loaded.path)
                    batch = []
        if batch and not report.cancelled:
            self._process_batch(batch, vanished, report, retry_failed)
            done += len(batch)

        self._finish(plan, only_paths, vanished, report, progress, cancel)
        report.elapsed_s = time.perf_counter() - started
        emit("done")
        return report

    def _begin(self, only_paths, retry_failed: bool, report: IndexReport, progress: ProgressFn | None):
        """List and plan (shared by every engine): returns (plan, analysis backlog, vanished paths)."""
        if progress:
            progress(IndexProgress("listing", 0, 0))
        t0 = time.perf_counter()
        plan = plan_scan(self.store, only_paths, retry_failed=retry_failed)
        report.stage_ms["listing"] += (time.perf_counter() - t0) * 1000
        report.seen, report.unchanged, report.offline_folders = plan.seen, plan.unchanged, plan.offline_folders
        self._record_listing_issues(plan)
        self._reingest, self._claimed = set(plan.changed_paths), set()
        backlog = self._analysis_backlog(plan, retry_failed) if (only_paths is None and self.analyzers) else []
        return plan, backlog, dict(plan.vanished)

    def _finish(self, plan: ScanPlan, only_paths, vanished: dict[str, int], report: IndexReport,
                progress: ProgressFn | None, cancel: CancelFn) -> None:
        """Sweep what vanished and run the post steps (shared by every engine); nothing after a cancel."""
        if report.cancelled:
            return
        self._sweep(vanished, report)
        if only_paths is None:
            self._mark_scanned(plan.online_folder_ids)
            self._forget_gone_issues(plan.online_folder_ids)
        for name, step in self.post_steps:
            if cancel():
                report.cancelled = True
                break
            if progress:
                progress(IndexProgress("post", 0, 0, name))
            t0 = time.perf_counter()
            try:
                report.post[name] = step(self.store, report, progress, cancel)
            except Exception as exc:  # a post step failing must not undo the indexing
                log.exception("post step %s failed", name)
                report.post[name] = {"error": f"{type(exc).__name__}: {exc}"}
            report.stage_ms[f"post:{name}"] += (time.perf_counter() - t0) * 1000

    # ---- catalog writes --------------------------------------------------------------------
    def _record_listing_issues(self, plan: ScanPlan) -> None:
        if not plan.issues:
            return
        with self.store.session() as s:
            for issue in plan.issues:
                self._upsert_issue(s, to_db_path(issue.path), issue.folder_id, issue.reason, issue.message, None, None)

    @staticmethod
    def _upsert_issue(s: Session, path: str, folder_id, reason: str, message: str, size, mtime) -> None:
        row = s.scalar(select(FileIssue).where(FileIssue.path == path))
        if row is None:
            row = FileIssue(path=path)
            s.add(row)
        row.folder_id, row.reason, row.message, row.size, row.mtime = folder_id, reason, db_text(message), size, mtime
        row.seen_at = utcnow()
        log.warning("skipping: %s", message)

    def _analysis_backlog(self, plan: ScanPlan, retry_failed: bool) -> list[tuple[int, str]]:
        """Active photos (not being re-ingested) that miss the current version of some analyzer."""
        ingesting = {to_db_path(e.path) for e in plan.to_ingest}
        wanted = {a.name: a.version for a in self.analyzers}
        with self.store.session() as s:
            photos = s.execute(  # photos on an offline drive wait for it; they are not failures
                select(Photo.id, Photo.path).where(Photo.state == "active", Photo.folder_id.in_(plan.online_folder_ids))
            ).all()
            have: dict[int, dict[str, tuple[int, str]]] = defaultdict(dict)
            for pid, name, version, status in s.execute(
                select(Analysis.photo_id, Analysis.analyzer, Analysis.version, Analysis.status)
            ):
                have[pid][name] = (version, status)
        backlog = []
        for pid, path in photos:
            if path in ingesting or path in plan.vanished:
                continue
            done = have.get(pid, {})
            for name, version in wanted.items():
                got = done.get(name)
                if got is None or got[0] != version or (retry_failed and got[1] == "failed"):
                    backlog.append((pid, from_db_path(path)))
                    break
        return backlog

    def _apply_ingest(self, s: Session, loaded: Loaded, vanished: dict[str, int], report: IndexReport) -> int | None:
        """Create, update or move the Photo row for a loaded file; returns its id (None on error)."""
        entry = loaded.entry
        assert entry is not None
        db_path = to_db_path(loaded.path)
        existing = s.scalar(select(Photo).where(Photo.path == db_path))
        if loaded.error is not None:
            err = loaded.error
            if err.reason == "vanished":
                if existing is not None and existing.state == "active":
                    vanished[db_path] = existing.id
                return None
            self._upsert_issue(s, db_path, entry.folder_id, err.reason, err.message, entry.size, entry.mtime)
            report.failed += 1
            report.failed_by_reason[err.reason] = report.failed_by_reason.get(err.reason, 0) + 1
            if err.reason in USER_ACTION_REASONS and err.message not in report.warnings:
                report.warnings.append(err.message)
            # Only a file whose content is now bad stops being the photo it was; a transient error
            # (disk full, permissions, a flaky drive) leaves the catalogued photo as it is.
            if err.reason in STICKY_REASONS and existing is not None and existing.state == "active":
                existing.state, existing.deleted_at = "deleted", utcnow()
            return None
        s.execute(delete(FileIssue).where(FileIssue.path == db_path))
        photo = existing
        is_new = False
        if photo is not None and photo.content_hash != loaded.content_hash:
            source = self._find_moved(s, loaded.content_hash, vanished, exclude=photo.id)
            if source is not None:
                # Another photo's content moved onto this path (a swap, a renumbering, a name reused
                # after a delete): that photo moves here with its facts; this path's old photo steps
                # aside under a placeholder path, to be claimed by its content's new path or swept.
                old_path, displaced = photo.path, photo
                displaced.path = f"{old_path}\uf8ff~{displaced.id}"
                if displaced.state == "active":
                    vanished[displaced.path] = displaced.id
                s.flush()  # free the path before the source takes it (UNIQUE(path))
                vanished.pop(source.path, None)
                source.path = old_path
                photo = source
                report.moved += 1
            elif is_same_picture(photo.phash, loaded.phash):
                # An edit of the same picture (crop, enhance, re-save): the user's tags and the
                # names of its faces stay; the models run again.
                self._forget_analysis(s, photo.id)
                report.changed += 1
            else:
                # Another picture under the old name (a camera reusing IMG_0001): nothing of the
                # old photo carries over. It steps aside as a deleted photo with everything known
                # about it, restored should its content come back.
                photo.path = f"{photo.path}\uf8ff~{photo.id}"
                photo.state, photo.deleted_at = "deleted", utcnow()
                s.flush()  # free the path (UNIQUE(path))
                photo = Photo(path=db_path, content_hash=loaded.content_hash)
                s.add(photo)
                report.changed += 1
                is_new = True
        elif photo is None:
            photo = self._find_moved(s, loaded.content_hash, vanished)
            if photo is not None:
                vanished.pop(photo.path, None)
                photo.path = db_path
                report.moved += 1
            else:
                photo = Photo(path=db_path, content_hash=loaded.content_hash)
                s.add(photo)
                report.added += 1
                is_new = True
        photo.folder_id = entry.folder_id
        photo.content_hash = loaded.content_hash
        if photo.id is not None:
            getattr(self, "_claimed", set()).add(photo.id)
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
            photo.gps_lat, photo.gps_lon, photo.gps_alt, photo.orientation = ex.gps_lat, ex.gps_lon, ex.gps_alt, ex.orientation
        if loaded.thumb and s.get(Thumbnail, loaded.content_hash) is None:
            rel, w, h = loaded.thumb
            s.add(Thumbnail(content_hash=loaded.content_hash, rel_path=rel, width=w, height=h, format="webp"))
        s.flush()
        if is_new:
            report.copied_facts += self._copy_from_twin(s, photo)
        return photo.id

    def _find_moved(self, s: Session, content_hash: str, vanished: dict[str, int], exclude: int | None = None) -> Photo | None:
        """A photo with the same content whose old path is gone (this run's listing, or a path not on
        disk any more: a move across watched folders arrives as a create before its delete), is
        itself being re-ingested with other content (a swap), or was deleted earlier."""
        reingest, claimed = getattr(self, "_reingest", set()), getattr(self, "_claimed", set())
        rows = [
            r for r in s.scalars(select(Photo).where(Photo.content_hash == content_hash))
            if r.id != exclude and r.id not in claimed  # a photo placed at its path in this run stays there
        ]
        for row in rows:
            if row.path in vanished or (row.state == "active" and row.path in reingest):
                return row
        for row in rows:  # gone from disk, not yet swept: the watcher saw the new path first
            if row.state == "active" and not os.path.lexists(from_db_path(row.path)):
                vanished.setdefault(row.path, row.id)
                return row
        for row in rows:
            if row.state == "deleted":
                return row
        return None

    @staticmethod
    def _forget_analysis(s: Session, photo_id: int) -> None:
        for model in (Fact, Embedding, Analysis):
            cond = model.photo_id == photo_id
            if model is Fact:
                cond = cond & (Fact.analyzer != "user")
            s.execute(delete(model).where(cond))
        # Named faces stay until the faces analyzer re-runs, which carries each name to the new face
        # it overlaps (Store.write_analysis): an edited photo (crop, enhance) keeps who is in it.
        for face in s.scalars(select(Face).where(Face.photo_id == photo_id, Face.person_id.is_(None))):
            s.delete(face)

    def _copy_from_twin(self, s: Session, photo: Photo) -> int:
        """A byte-identical copy of an analysed photo inherits its analysis instead of re-running models."""
        twin = s.scalar(
            select(Photo)
            .where(Photo.content_hash == photo.content_hash, Photo.id != photo.id, Photo.state == "active")
            .limit(1)
        )
        if twin is None:
            return 0
        analyses = list(s.scalars(select(Analysis).where(Analysis.photo_id == twin.id, Analysis.status == "ok")))
        if not analyses:
            return 0
        for a in analyses:
            s.add(Analysis(photo_id=photo.id, analyzer=a.analyzer, version=a.version, status=a.status, duration_ms=0.0))
        for f in s.scalars(select(Fact).where(Fact.photo_id == twin.id, Fact.analyzer != "user")):
            s.add(Fact(photo_id=photo.id, analyzer=f.analyzer, kind=f.kind, label=f.label, score=f.score, box=f.box, data=f.data))
        for e in s.scalars(select(Embedding).where(Embedding.photo_id == twin.id)):
            s.add(Embedding(photo_id=photo.id, space=e.space, analyzer=e.analyzer, dim=e.dim, vector=e.vector))
        for face in s.scalars(select(Face).where(Face.photo_id == twin.id)):
            s.add(Face(photo_id=photo.id, analyzer=face.analyzer, box=face.box, score=face.score,
                       descriptor=face.descriptor, person_id=face.person_id))
        return 1

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

    def _sweep(self, vanished: dict[str, int], report: IndexReport) -> None:
        if not vanished:
            return
        with self.store.session() as s:
            for photo in s.scalars(select(Photo).where(Photo.id.in_(list(vanished.values())))):
                if photo.state == "active":
                    photo.state, photo.deleted_at = "deleted", utcnow()
                    report.deleted += 1

    # ---- analysis ------------------------------------------------------------------------------
    def _process_batch(self, batch: list[_WorkItem], vanished: dict[str, int], report: IndexReport, retry_failed: bool) -> None:
        """Three steps, so the catalog is never write-locked while models run (the GUI and other
        commands write too): commit the files, run the models with no transaction open, commit
        their results. A crash between the steps leaves photos the next run's backlog analyses."""
        t0 = time.perf_counter()
        ready: list[tuple[int, Loaded]] = []
        have: dict[tuple[int, str], tuple[int, str]] = {}
        with self.store.session() as s:
            for item in batch:
                if item.kind == "ingest":
                    pid = self._apply_ingest(s, item.loaded, vanished, report)
                    if pid is not None:
                        ready.append((pid, item.loaded))
                elif item.loaded.error is None:
                    ready.append((item.loaded.photo_id, item.loaded))
                else:
                    self._fail_all(s, item.loaded.photo_id, item.loaded.error, report)
            s.flush()
            if self.analyzers and ready:
                have = {
                    (pid, name): (version, status)
                    for pid, name, version, status in s.execute(
                        select(Analysis.photo_id, Analysis.analyzer, Analysis.version, Analysis.status).where(
                            Analysis.photo_id.in_([pid for pid, _ in ready])
                        )
                    )
                }
        report.stage_ms["db"] += (time.perf_counter() - t0) * 1000
        if self.analyzers and ready:
            outputs = self._run_pixel_analyzers(ready, have, report, retry_failed)
            t1 = time.perf_counter()
            with self.store.session() as s:
                touched: set[int] = set()
                for analyzer, image, result, error, per_photo in outputs:
                    self.store.write_analysis(
                        s, image.photo_id, analyzer.name, analyzer.version, result, error=error, duration_ms=per_photo
                    )
                    touched.add(image.photo_id)
                report.stage_ms["db"] += (time.perf_counter() - t1) * 1000
                touched |= self._run_facts_analyzers(s, ready, have, touched, report, retry_failed)
            report.analysed += len(touched)
        for _, loaded in ready:
            loaded.rgb = None  # free pixels as soon as the batch is committed

    def _fail_all(self, s: Session, photo_id: int | None, error: DecodeError, report: IndexReport) -> None:
        if photo_id is None or error.reason == "vanished":  # gone: the sweep handles it, not a failure
            return
        if error.reason not in STICKY_REASONS:  # transient (permissions, I/O): the next run tries again
            log.warning("skipping for now: %s", error.message)
            report.analysis_failed += 1
            return
        for analyzer in self.analyzers:
            self.store.write_analysis(s, photo_id, analyzer.name, analyzer.version, None, error=f"{error.reason}: {error.message}")
        report.analysis_failed += 1

    def _run_pixel_analyzers(self, ready, have, report: IndexReport, retry_failed: bool) -> list[tuple]:
        """Run every pixel analyzer a photo needs; returns (analyzer, image, result, error, ms) rows."""
        outputs = []
        for analyzer in (a for a in self.analyzers if not needs_facts(a)):
            todo = [
                PhotoImage(pid, loaded.path, loaded.rgb, loaded.width or loaded.rgb.shape[1], loaded.height or loaded.rgb.shape[0])
                for pid, loaded in ready
                if self._needs(have.get((pid, analyzer.name)), analyzer.version, retry_failed)
            ]
            if not todo:
                continue
            t0 = time.perf_counter()
            results = self._safe_batch(analyzer, todo)
            elapsed = (time.perf_counter() - t0) * 1000
            report.stage_ms[f"model:{analyzer.name}"] += elapsed
            for image, (result, error) in zip(todo, results, strict=True):
                outputs.append((analyzer, image, result, error, elapsed / len(todo)))
                report.count_analysis(analyzer.name, error)
        return outputs

    def _run_facts_analyzers(self, s: Session, ready, have, touched: set[int], report: IndexReport, retry_failed: bool) -> set[int]:
        """Facts analyzers run last, inside the write session: they read what the pixel analyzers wrote."""
        done: set[int] = set()
        for analyzer in (a for a in self.analyzers if needs_facts(a)):
            todo_ids = [
                pid for pid, _ in ready
                if pid in touched or self._needs(have.get((pid, analyzer.name)), analyzer.version, retry_failed)
            ]
            t0 = time.perf_counter()
            try:
                refresh_facts_text(self.store, s, todo_ids, analyzer)
                done.update(todo_ids)
                for _ in todo_ids:
                    report.count_analysis(analyzer.name, None)
            except Exception as exc:
                log.warning("%s failed on a batch: %s", analyzer.name, exc)
                error = f"{type(exc).__name__}: {exc}"
                for pid in todo_ids:
                    self.store.write_analysis(s, pid, analyzer.name, analyzer.version, None, error=error)
                    report.count_analysis(analyzer.name, error)
            report.stage_ms[f"model:{analyzer.name}"] += (time.perf_counter() - t0) * 1000
        return done

    @staticmethod
    def _needs(got: tuple[int, str] | None, version: int, retry_failed: bool) -> bool:
        return got is None or got[0] != version or (retry_failed and got[1] == "failed")

    @staticmethod
    def _safe_batch(analyzer: Analyzer, images: list[PhotoImage]):
        """Run a batch; if it fails, run photo by photo so one bad photo only fails itself."""
        try:
            return [(r, None) for r in analyze_batch(analyzer, images)]
        except Exception:
            log.debug("batch of %s failed; retrying one by one", analyzer.name, exc_info=True)
        out = []
        for image in images:
            try:
                out.append((analyzer.analyze(image), None))
            except Exception as exc:
                log.warning("%s failed on %s: %s", analyzer.name, image.path, exc)
                out.append((None, f"{type(exc).__name__}: {exc}"))
        return out

    @staticmethod
    def _counts(report: IndexReport) -> dict[str, int]:
        return {
            "added": report.added,
            "changed": report.changed,
            "moved": report.moved,
            "failed": report.failed,
            "analysed": report.analysed,
        }
