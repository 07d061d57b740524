"""The indexer: brings the catalog in line with the folders and runs the analyzers.

Workers read, hash and decode ahead (bounded look-ahead); the model lanes run up to
`BATCHES_IN_FLIGHT` batches (ingest/model_lanes.py) while the calling thread collects the next
one and is the catalog's single writer. Work commits in batches, so a killed run loses at most
the batches in flight, and a re-run carries on without duplicates. What a file
means for the catalog is `reconcile.Reconciler`; what a photo needs analysed, and writing it,
is `pipeline.AnalysisPipeline` (both shared with the Ray engine).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from photosearch.catalog.lock import WriterLock
from photosearch.catalog.store import Store
from photosearch.config import Settings
from photosearch.errors import Cancelled
from photosearch.ingest.blas import one_blas_thread
from photosearch.ingest.loader import Loaded, LoadOptions, load_for_analysis, load_for_ingest
from photosearch.ingest.memory import limit_heaps, release_free_memory
from photosearch.ingest.model_lanes import Lanes
from photosearch.ingest.pipeline import (
    DEFAULT_GATES,
    AnalysisPipeline,
    Gate,
    pixel_analyzers,
    submit_pixel_analyzers,
)
from photosearch.ingest.reconcile import Reconciler
from photosearch.ingest.report import IndexProgress, IndexReport
from photosearch.ingest.scanner import ScanPlan, plan_scan
from photosearch.metadata.analyzer import NAME as EMBEDDED
from photosearch.records import PhotoImage
from photosearch.vision.analyzer import Analyzer, FactsAnalyzer

log = logging.getLogger(__name__)

#: Batches whose models may be queued or running at once: a lane that finished its chains of one
#: batch takes the next one's, instead of waiting for the batch's longest chain (OCR on pages).
BATCHES_IN_FLIGHT = 3
#: The first batch is this small, so the models load and start while the rest is decoded.
FIRST_BATCH = 4

ProgressFn = Callable[[IndexProgress], None]
CancelFn = Callable[[], bool]
PostStep = Callable[[Store, "IndexReport", ProgressFn | None, CancelFn | None], object]


@dataclass
class _WorkItem:
    kind: str  # ingest | analyze
    loaded: Loaded


@dataclass
class _InFlight:
    """A batch whose files are committed and whose models run (outcomes None: no models to run)."""

    size: int
    last_path: str
    ready: list[tuple[int, Loaded]]
    recorded: dict
    outcomes: Future | None


class Indexer:
    """`Indexer(store, settings, analyzers).run()`; post steps (people clustering, vector sync) run after.
    `gates=()` runs every analyzer on every photo (see `pipeline.DEFAULT_GATES`)."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        analyzers: Sequence[Analyzer | FactsAnalyzer] = (),
        post_steps: Sequence[tuple[str, PostStep]] = (),
        gates: Sequence[Gate] = DEFAULT_GATES,
    ):
        self.store = store
        self.settings = settings
        self.analyzers = list(analyzers)
        self.gates = tuple(gates)  # costly analyzers only where a cheaper one saw something to find
        self.pipeline = AnalysisPipeline.of(store, self.analyzers, self.gates)
        self.post_steps = list(post_steps)
        self.lanes = Lanes(settings.model_lanes)  # independent analyzers side by side
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

        limit_heaps()  # before the decode workers and model lanes start: one heap each would fragment
        lock = WriterLock(self.store.writer_lock_path(self.settings.data_dir), on_wait=waiting, cancel=cancel)
        try:
            lock.acquire()
        except Cancelled:
            return IndexReport(cancelled=True)
        try:
            with one_blas_thread():  # small numpy products: threads cost more than they give
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
        plan, backlog, reconciler = self._begin(only_paths, retry_failed, report, progress)
        items = [("ingest", e) for e in plan.to_ingest] + [
            ("analyze", (pid, path)) for pid, path, _ in backlog
        ]
        total = len(items)
        done = 0
        batch: list[_WorkItem] = []
        batch_size = max(1, self.settings.batch_size)

        def emit(stage: str, path: str | None = None) -> None:
            if progress:
                elapsed = time.perf_counter() - started
                progress(
                    IndexProgress(
                        stage, done, total, path, done / elapsed if elapsed else 0.0, self._counts(report)
                    )
                )

        def land(flight: _InFlight) -> None:
            nonlocal done
            self._finish_batch(flight, report, retry_failed)
            done += flight.size
            emit("analyze" if self.analyzers else "ingest", flight.last_path)

        emit("ingest")
        with (
            self.lanes.session(hold=cancel),  # Pause holds the models too, Cancel skips what waits
            ThreadPoolExecutor(
                max_workers=max(1, self.settings.decode_workers), thread_name_prefix="decode"
            ) as pool,
        ):
            pending: deque[tuple[str, Future]] = deque()
            source = iter(items)
            # Decoded photos waiting: half the next batch, decoded while the models run, and no more:
            # each holds its pixels (3.7 MB at 1280 px) under the models' peak (OCR's detector), and
            # decoding is 4-5x faster than the models, so the rest is decoded quickly when needed.
            window = batch_size // 2 + 2 * max(1, self.settings.decode_workers)
            in_flight: deque[_InFlight] = deque()  # their models run while the next batch is collected
            limit = min(batch_size, FIRST_BATCH)

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
                    self.lanes.skip_queued()  # wait only for the models running now
                    break
                kind, fut = pending.popleft()
                loaded = fut.result()
                for k, v in loaded.timings.items():
                    report.stage_ms[k] += v
                batch.append(_WorkItem(kind, loaded))
                refill()
                if len(batch) >= limit or not pending:
                    in_flight.append(self._process_batch(batch, reconciler, report, retry_failed))
                    batch, limit = [], batch_size
                    while len(in_flight) >= BATCHES_IN_FLIGHT:
                        land(in_flight.popleft())
            while in_flight:  # after a cancel too: the models that were running land
                land(in_flight.popleft())

        self._finish(plan, only_paths, reconciler, report, progress, cancel)
        report.elapsed_s = time.perf_counter() - started
        emit("done")
        return report

    def _begin(self, only_paths, retry_failed: bool, report: IndexReport, progress: ProgressFn | None):
        """List and plan (shared by every engine): returns (plan, analysis backlog, the run's reconciler)."""
        if progress:
            progress(IndexProgress("listing", 0, 0))
        t0 = time.perf_counter()
        reads_sidecars = EMBEDDED in self.pipeline.versions
        plan = plan_scan(self.store, only_paths, retry_failed=retry_failed, sidecars=reads_sidecars)
        if plan.sidecar_changed:  # their metadata is read again: the embedded analysis is stale
            self.pipeline.forget(EMBEDDED, plan.sidecar_changed.values())
        report.stage_ms["listing"] += (time.perf_counter() - t0) * 1000
        report.seen, report.unchanged, report.offline_folders = (
            plan.seen,
            plan.unchanged,
            plan.offline_folders,
        )
        reconciler = Reconciler(self.store, plan)
        reconciler.record_listing_issues(plan)
        backlog = (
            self.pipeline.backlog(plan, retry_failed) if (only_paths is None and self.pipeline.active) else []
        )
        return plan, backlog, reconciler

    def _finish(
        self,
        plan: ScanPlan,
        only_paths,
        reconciler: Reconciler,
        report: IndexReport,
        progress: ProgressFn | None,
        cancel: CancelFn,
    ) -> None:
        """Sweep what vanished and run the post steps (shared by every engine); nothing after a cancel."""
        if report.cancelled:
            return
        reconciler.finish(plan, only_paths is None, report)
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

    # ---- one batch ----------------------------------------------------------------------------
    def _process_batch(
        self, batch: list[_WorkItem], reconciler: Reconciler, report: IndexReport, retry_failed: bool
    ) -> _InFlight:
        """Three steps, so the catalog is never write-locked while models run (the GUI and other
        commands write too): commit the files, run the models with no transaction open, commit
        their results (`_finish_batch`). This returns once the files are committed and the models
        are queued on the lanes: the caller collects the next batch while they run. A crash between
        the steps leaves photos the next run's backlog analyses."""
        t0 = time.perf_counter()
        report.photos += len(batch)
        ready: list[tuple[int, Loaded]] = []
        with self.store.session() as s:
            for item in batch:
                if item.kind == "ingest":
                    pid = reconciler.apply(s, item.loaded, report)
                    if pid is not None:
                        ready.append((pid, item.loaded))
                elif item.loaded.error is None:
                    ready.append((item.loaded.photo_id, item.loaded))
                else:
                    self.pipeline.fail_all(s, item.loaded.photo_id, item.loaded.error, report)
            s.flush()
            recorded = self.pipeline.recorded(s, [pid for pid, _ in ready]) if self.pipeline.active else {}
        report.stage_ms["db"] += (time.perf_counter() - t0) * 1000
        if not (self.pipeline.active and ready):
            for _, loaded in ready:
                loaded.rgb = None  # no models run: free the pixels now
            return _InFlight(len(batch), batch[-1].loaded.path, ready, recorded, None)
        images = [
            PhotoImage(
                pid,
                loaded.path,
                loaded.rgb,
                loaded.width or loaded.rgb.shape[1],
                loaded.height or loaded.rgb.shape[0],
            )
            for pid, loaded in ready
        ]
        wanted = [self.pipeline.wanted(recorded, pid, retry_failed) for pid, _ in ready]
        for _, loaded in ready:
            loaded.rgb = None  # the images hold the pixels until the models are done with them
        outcomes = submit_pixel_analyzers(
            pixel_analyzers(self.analyzers), images, wanted, self.gates, self.lanes
        )
        return _InFlight(len(batch), batch[-1].loaded.path, ready, recorded, outcomes)

    def _finish_batch(self, flight: _InFlight, report: IndexReport, retry_failed: bool) -> None:
        """Wait for a batch's models and commit what they found (nothing if a cancel skipped some of
        them: its photos are in the next run's backlog)."""
        if flight.outcomes is not None:
            try:
                outcomes = flight.outcomes.result()
            except Cancelled:
                release_free_memory()
                return
            t1 = time.perf_counter()
            with self.store.session() as s:
                touched = {
                    pid
                    for (pid, _), got in zip(flight.ready, outcomes, strict=True)
                    if self.pipeline.write(s, pid, got, flight.recorded, report, retry_failed)
                }
                report.stage_ms["db"] += (time.perf_counter() - t1) * 1000
                touched |= self.pipeline.run_facts(
                    s, [pid for pid, _ in flight.ready], flight.recorded, touched, report, retry_failed
                )
            report.analysed += len(touched)
        release_free_memory()  # decoders and models leave the C heap fragmented (ingest/memory.py)

    @staticmethod
    def _counts(report: IndexReport) -> dict[str, int]:
        return {
            "added": report.added,
            "changed": report.changed,
            "moved": report.moved,
            "failed": report.failed,
            "analysed": report.analysed,
        }
