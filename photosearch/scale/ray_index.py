"""Indexing fanned out over Ray: actors read, decode and analyse; the driver is the single DB writer.

    report = run_ray_index(store, settings, num_workers=4, progress=..., cancel=...)

* Listing (mark-and-sweep) runs on the driver, exactly as in the serial indexer.
* Each Ray actor loads the pixel analyzers once and processes chunks of files: read + hash,
  decode, EXIF, thumbnail (written to `settings.thumbs_dir`, which must be shared storage on a
  multi-node cluster), then the analyzers each photo needs, gated as in the serial engine
  (`ingest.pipeline.run_pixel_analyzers`). Pixels never travel back; only facts, faces and
  embeddings do.
* The driver applies results with the serial indexer's own modules (`ingest.reconcile`: moves,
  byte-identical twins, file issues; `ingest.pipeline`: analysis versions, then the facts
  analyzers over what was written), commits in batches and runs the post steps (people
  clustering, vector sync). The catalog can be any SQLAlchemy URL (PostgreSQL for a cluster).

Ray is found at `address` / `RAY_ADDRESS` when given, else a local Ray is started with
`num_cpus=num_workers` (no dashboard).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from photosearch.catalog.store import Store
from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.ingest.indexer import CancelFn, Indexer, IndexProgress, IndexReport, PostStep, ProgressFn
from photosearch.ingest.loader import Loaded, LoadOptions, load_for_analysis, load_for_ingest
from photosearch.ingest.pipeline import (
    DEFAULT_GATES,
    AnalysisPipeline,
    Gate,
    Outcomes,
    facts_analyzers,
    pixel_analyzers,
    run_pixel_analyzers,
)
from photosearch.ingest.reconcile import Reconciler
from photosearch.records import PhotoImage
from photosearch.vision.analyzer import Analyzer, FactsAnalyzer

log = logging.getLogger(__name__)

AnalyzerFactory = Callable[[Settings], Sequence[Analyzer | FactsAnalyzer]]


class RayUnavailable(PhotoSearchError):
    """Ray is not installed or a cluster cannot be reached."""


@dataclass
class Outcome:
    """What a worker sends back for one file: the loaded metadata and each analyzer's result."""

    kind: str  # ingest | analyze
    loaded: Loaded
    results: Outcomes


def _bundled_factory(
    settings: Settings, include: Sequence[str] | None = None
) -> list[Analyzer | FactsAnalyzer]:
    from photosearch.app import default_analyzers

    return default_analyzers(settings, include=include)


class AnalysisWorker:
    """Holds the pixel analyzers (loaded once per actor) and processes chunks of files."""

    def __init__(
        self,
        settings: Settings,
        options: LoadOptions,
        factory: AnalyzerFactory | None,
        include: Sequence[str] | None,
        gates: Sequence[Gate] = DEFAULT_GATES,
    ):
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        self.options = options
        self.gates = tuple(gates)
        # Facts analyzers read the catalog, so they run on the driver, over what these wrote.
        self.analyzers = pixel_analyzers(
            factory(settings) if factory else _bundled_factory(settings, include)
        )

    def describe(self) -> dict[str, int]:
        """Name -> version of each pixel analyzer this worker runs."""
        return {a.name: a.version for a in self.analyzers}

    def process(self, chunk: list[tuple[str, object, frozenset[str] | None]]) -> list[Outcome]:
        """Load each file, then run the analyzers each wants (None: all), in batches over the chunk."""
        loaded_all: list[tuple[str, Loaded, frozenset[str] | None]] = []
        for kind, payload, wanted in chunk:
            if kind == "ingest":
                loaded = load_for_ingest(payload, self.options)
            else:
                pid, path = payload
                loaded = load_for_analysis(pid, path, self.options)
            loaded_all.append((kind, loaded, wanted))
        ok = [
            i
            for i, (_, loaded, _) in enumerate(loaded_all)
            if loaded.error is None and loaded.rgb is not None
        ]
        images = [_image(loaded_all[i][1]) for i in ok]
        results = run_pixel_analyzers(self.analyzers, images, [loaded_all[i][2] for i in ok], self.gates)
        by_index = dict(zip(ok, results, strict=True))
        out = []
        for i, (kind, loaded, _) in enumerate(loaded_all):
            loaded.rgb = None  # pixels stay on the worker
            out.append(Outcome(kind, loaded, by_index.get(i, {})))
        return out


def _image(loaded: Loaded) -> PhotoImage:
    rgb = loaded.rgb
    assert rgb is not None
    return PhotoImage(
        loaded.photo_id or 0, loaded.path, rgb, loaded.width or rgb.shape[1], loaded.height or rgb.shape[0]
    )


def ensure_ray(num_workers: int, address: str | None = None) -> bool:
    """Connect to (or start) Ray; returns True when this call started it."""
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailable("Ray is not installed: pip install 'ray' (Python 3.10-3.12)") from exc
    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS")
    try:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(
                num_cpus=max(1, num_workers),
                include_dashboard=False,
                log_to_driver=False,
                object_store_memory=200 * 1024 * 1024,
            )
    except Exception as exc:
        raise RayUnavailable(f"cannot start or reach Ray ({address or 'local'}): {exc}") from exc
    return True


class RayIndexer(Indexer):
    """The indexer with its decode + analysis fanned out to Ray actors."""

    def __init__(
        self,
        store: Store,
        settings: Settings,
        num_workers: int = 2,
        *,
        analyzer_factory: AnalyzerFactory | None = None,
        include: Sequence[str] | None = None,
        analyze: bool = True,
        post_steps: Sequence[tuple[str, PostStep]] = (),
        chunk_size: int = 4,
        address: str | None = None,
        gates: Sequence[Gate] = DEFAULT_GATES,
    ):
        super().__init__(store, settings, [], post_steps, gates)
        self.num_workers = max(1, int(num_workers))
        self.factory = analyzer_factory
        self.include = include
        self.analyze = analyze
        self.chunk_size = max(1, chunk_size)
        self.address = address
        self.options.want_pixels = analyze
        self.started_ray = False
        self.workers: list = []

    def _start(self) -> None:
        import ray

        self.started_ray = ensure_ray(self.num_workers, self.address)
        actor = ray.remote(num_cpus=1)(AnalysisWorker)
        factory = self.factory if self.analyze else (lambda _s: [])
        self.workers = [
            actor.remote(self.settings, self.options, factory, self.include, self.gates)
            for _ in range(self.num_workers)
        ]
        versions = ray.get(self.workers[0].describe.remote())
        # Pixel analyzers run on the workers: the driver's pipeline only needs their names and
        # versions. Facts analyzers (facts_text) read the catalog, so they run here, as in `Indexer`.
        built = (
            (self.factory(self.settings) if self.factory else _bundled_factory(self.settings, self.include))
            if self.analyze
            else []
        )
        self.analyzers = facts_analyzers(built)
        self.pipeline = AnalysisPipeline(self.store, versions, self.analyzers, self.gates)

    def close(self, shutdown: bool | None = None) -> None:
        import ray

        for w in self.workers:
            ray.kill(w)
        self.workers = []
        if shutdown if shutdown is not None else self.started_ray:
            ray.shutdown()

    def _run(
        self,
        only_paths=None,
        progress: ProgressFn | None = None,
        cancel: CancelFn | None = None,
        retry_failed: bool = False,
    ) -> IndexReport:
        import ray

        started = time.perf_counter()
        report = IndexReport()
        cancel = cancel or (lambda: False)
        t0 = time.perf_counter()
        if not self.workers:
            self._start()
        report.stage_ms["ray_start"] += (time.perf_counter() - t0) * 1000
        plan, backlog, reconciler = self._begin(only_paths, retry_failed, report, progress)
        items: list[tuple[str, object, frozenset[str] | None]] = [("ingest", e, None) for e in plan.to_ingest]
        items += [("analyze", (pid, path), wanted) for pid, path, wanted in backlog]
        total, done = len(items), 0
        chunks = [items[i : i + self.chunk_size] for i in range(0, len(items), self.chunk_size)]
        pending: dict = {}
        next_chunk = 0
        window = self.num_workers * 2
        ready: list[Outcome] = []

        def emit(stage: str, path: str | None = None) -> None:
            if progress:
                el = time.perf_counter() - started
                progress(
                    IndexProgress(stage, done, total, path, done / el if el else 0.0, self._counts(report))
                )

        emit("analyze" if self.pipeline.active else "ingest")
        while next_chunk < len(chunks) or pending:
            while not cancel() and next_chunk < len(chunks) and len(pending) < window:
                worker = self.workers[next_chunk % len(self.workers)]
                pending[worker.process.remote(chunks[next_chunk])] = next_chunk
                next_chunk += 1
            if cancel() and next_chunk < len(chunks):
                report.cancelled = True
                next_chunk = len(chunks)  # finish (and keep) what is in flight, start nothing new
            if not pending:
                break
            t0 = time.perf_counter()
            finished, _ = ray.wait(list(pending), num_returns=1)
            report.stage_ms["ray_wait"] += (time.perf_counter() - t0) * 1000
            for ref in finished:
                pending.pop(ref)
                ready.extend(ray.get(ref))
            if len(ready) >= self.settings.batch_size or not pending:
                self._write(ready, reconciler, report, retry_failed)
                done += len(ready)
                emit(
                    "analyze" if self.pipeline.active else "ingest", ready[-1].loaded.path if ready else None
                )
                ready = []
        if ready:
            self._write(ready, reconciler, report, retry_failed)
            done += len(ready)
        self._finish(plan, only_paths, reconciler, report, progress, cancel)
        report.elapsed_s = time.perf_counter() - started
        emit("done")
        return report

    def _write(
        self, outcomes: list[Outcome], reconciler: Reconciler, report: IndexReport, retry_failed: bool
    ) -> None:
        """Apply a batch of worker outcomes in one transaction (the driver is the only writer)."""
        t0 = time.perf_counter()
        report.photos += len(outcomes)
        ready: list[tuple[int, Outcomes]] = []
        with self.store.session() as s:
            for o in outcomes:
                for k, v in o.loaded.timings.items():
                    report.stage_ms[k] += v
                if o.kind == "ingest":
                    pid = reconciler.apply(s, o.loaded, report)
                elif o.loaded.error is not None:
                    self.pipeline.fail_all(s, o.loaded.photo_id, o.loaded.error, report)
                    pid = None
                else:
                    pid = o.loaded.photo_id
                if pid is not None and o.loaded.error is None:
                    ready.append((pid, o.results))
            s.flush()
            ids = [pid for pid, _ in ready]
            recorded = self.pipeline.recorded(s, ids)
            touched = {
                pid
                for pid, results in ready
                if self.pipeline.write(s, pid, results, recorded, report, retry_failed)
            }
            report.stage_ms["db"] += (time.perf_counter() - t0) * 1000
            touched |= self.pipeline.run_facts(s, ids, recorded, touched, report, retry_failed)
        report.analysed += len(touched)


def run_ray_index(
    store: Store,
    settings: Settings,
    num_workers: int = 2,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    *,
    analyzer_factory: AnalyzerFactory | None = None,
    include: Sequence[str] | None = None,
    analyze: bool = True,
    post_steps: Sequence[tuple[str, PostStep]] | None = None,
    address: str | None = None,
    retry_failed: bool = False,
    shutdown: bool | None = None,
) -> IndexReport:
    """Index every registered folder with decode + analysis on `num_workers` Ray actors.

    Returns the serial indexer's `IndexReport` (stage_ms has `model:<name>` summed over workers,
    plus `ray_start` and `ray_wait`). `shutdown`: stop Ray afterwards (default: only if started here).
    """
    if post_steps is None:
        from photosearch.app import default_post_steps

        post_steps = default_post_steps(settings)
    indexer = RayIndexer(
        store,
        settings,
        num_workers,
        analyzer_factory=analyzer_factory,
        include=include,
        analyze=analyze,
        post_steps=post_steps,
        address=address,
    )
    try:
        return indexer.run(progress=progress, cancel=cancel, retry_failed=retry_failed)
    finally:
        indexer.close(shutdown)


__all__ = ["RayIndexer", "RayUnavailable", "ensure_ray", "run_ray_index"]
