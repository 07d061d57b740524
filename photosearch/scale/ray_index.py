"""Indexing fanned out over Ray: actors read, decode and analyse; the driver is the single DB writer.

    report = run_ray_index(store, settings, num_workers=4, progress=..., cancel=...)

* Listing (mark-and-sweep) runs on the driver, exactly as in the serial indexer.
* Each Ray actor loads the analyzers once and processes chunks of files: read + hash, decode,
  EXIF, thumbnail (written to `settings.thumbs_dir`, which must be shared storage on a
  multi-node cluster), then every analyzer. Pixels never travel back; only facts, faces and
  embeddings do.
* The driver applies results through the serial indexer's own catalog code (moves, byte-identical
  twins, file issues, analysis versions), commits in batches and runs the post steps (people
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

from photosearch.catalog.store import AnalysisResult, Store
from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.ingest.indexer import CancelFn, Indexer, IndexProgress, IndexReport, PostStep, ProgressFn
from photosearch.ingest.loader import Loaded, LoadOptions, load_for_analysis, load_for_ingest
from photosearch.vision.analyzer import Analyzer, PhotoImage, needs_facts

log = logging.getLogger(__name__)

AnalyzerFactory = Callable[[Settings], Sequence[Analyzer]]


class RayUnavailable(PhotoSearchError):
    """Ray is not installed or a cluster cannot be reached."""


@dataclass
class Outcome:
    """What a worker sends back for one file: the loaded metadata and each analyzer's result."""

    kind: str  # ingest | analyze
    loaded: Loaded
    results: dict[str, tuple[AnalysisResult | None, str | None, float]]  # name -> (result, error, ms)


def _bundled_factory(settings: Settings, include: Sequence[str] | None = None) -> list[Analyzer]:
    from photosearch.app import default_analyzers

    return default_analyzers(settings, include=include)


class AnalysisWorker:
    """Holds the models (loaded once per actor) and processes chunks of files."""

    def __init__(self, settings: Settings, options: LoadOptions, factory: AnalyzerFactory | None,
                 include: Sequence[str] | None):
        os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
        self.options = options
        self.analyzers = list(factory(settings) if factory else _bundled_factory(settings, include))

    def describe(self) -> list[tuple[str, int]]:
        """Name and version of each pixel analyzer this worker runs."""
        return [(a.name, a.version) for a in self.analyzers if not needs_facts(a)]

    def process(self, chunk: list[tuple[str, object, tuple[str, ...] | None]]) -> list[Outcome]:
        out = []
        for kind, payload, wanted in chunk:
            if kind == "ingest":
                loaded = load_for_ingest(payload, self.options)
                pid = 0
            else:
                pid, path = payload
                loaded = load_for_analysis(pid, path, self.options)
            results: dict = {}
            if loaded.error is None and loaded.rgb is not None:
                image = PhotoImage(pid, loaded.path, loaded.rgb, loaded.width or loaded.rgb.shape[1],
                                   loaded.height or loaded.rgb.shape[0])
                for a in self.analyzers:
                    if needs_facts(a) or (wanted is not None and a.name not in wanted):
                        continue  # facts analyzers run on the driver, over what the pixel analyzers wrote
                    t0 = time.perf_counter()
                    try:
                        results[a.name] = (a.analyze(image), None, 0.0)
                    except Exception as exc:  # one photo failing fails only itself
                        log.warning("%s failed on %s: %s", a.name, loaded.path, exc)
                        results[a.name] = (None, f"{type(exc).__name__}: {exc}", 0.0)
                    res, err, _ = results[a.name]
                    results[a.name] = (res, err, (time.perf_counter() - t0) * 1000)
            loaded.rgb = None  # pixels stay on the worker
            out.append(Outcome(kind, loaded, results))
        return out


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
            ray.init(num_cpus=max(1, num_workers), include_dashboard=False, log_to_driver=False,
                     object_store_memory=200 * 1024 * 1024)
    except Exception as exc:
        raise RayUnavailable(f"cannot start or reach Ray ({address or 'local'}): {exc}") from exc
    return True


class RayIndexer(Indexer):
    """The indexer with its decode + analysis fanned out to Ray actors."""

    def __init__(self, store: Store, settings: Settings, num_workers: int = 2, *,
                 analyzer_factory: AnalyzerFactory | None = None, include: Sequence[str] | None = None,
                 analyze: bool = True, post_steps: Sequence[tuple[str, PostStep]] = (), chunk_size: int = 4,
                 address: str | None = None):
        super().__init__(store, settings, [], post_steps)
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
        self.workers = [actor.remote(self.settings, self.options, factory, self.include)
                        for _ in range(self.num_workers)]
        described = ray.get(self.workers[0].describe.remote())
        # Pixel analyzers run on the workers: the driver's catalog code only needs their names and
        # versions. Facts analyzers (facts_text) read the catalog, so they run here, as in `Indexer`.
        built = (self.factory(self.settings) if self.factory else _bundled_factory(self.settings, self.include)) \
            if self.analyze else []
        self.analyzers = [_Versioned(n, v) for n, v in described] + [a for a in built if needs_facts(a)]

    def close(self, shutdown: bool | None = None) -> None:
        import ray

        for w in self.workers:
            ray.kill(w)
        self.workers = []
        if shutdown if shutdown is not None else self.started_ray:
            ray.shutdown()

    def _run(self, only_paths=None, progress: ProgressFn | None = None, cancel: CancelFn | None = None,
             retry_failed: bool = False) -> IndexReport:
        import ray

        started = time.perf_counter()
        report = IndexReport()
        cancel = cancel or (lambda: False)
        t0 = time.perf_counter()
        if not self.workers:
            self._start()
        report.stage_ms["ray_start"] += (time.perf_counter() - t0) * 1000
        plan, backlog, vanished = self._begin(only_paths, retry_failed, report, progress)
        items: list[tuple[str, object, tuple[str, ...] | None]] = [("ingest", e, None) for e in plan.to_ingest]
        items += [("analyze", b, None) for b in backlog]
        total, done = len(items), 0
        chunks = [items[i : i + self.chunk_size] for i in range(0, len(items), self.chunk_size)]
        pending: dict = {}
        next_chunk = 0
        window = self.num_workers * 2
        ready: list[Outcome] = []

        def emit(stage: str, path: str | None = None) -> None:
            if progress:
                el = time.perf_counter() - started
                progress(IndexProgress(stage, done, total, path, done / el if el else 0.0, self._counts(report)))

        emit("analyze" if self.analyzers else "ingest")
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
                self._write(ready, vanished, report, retry_failed)
                done += len(ready)
                emit("analyze" if self.analyzers else "ingest", ready[-1].loaded.path if ready else None)
                ready = []
        if ready:
            self._write(ready, vanished, report, retry_failed)
            done += len(ready)
        self._finish(plan, only_paths, vanished, report, progress, cancel)
        report.elapsed_s = time.perf_counter() - started
        emit("done")
        return report

    def _write(self, outcomes: list[Outcome], vanished: dict[str, int], report: IndexReport, retry_failed: bool) -> None:
        """Apply a batch of worker outcomes in one transaction (the driver is the only writer)."""
        from sqlalchemy import select

        from photosearch.catalog.models import Analysis

        t0 = time.perf_counter()
        versions = {a.name: a.version for a in self.analyzers}
        ready: list[tuple[int, Loaded]] = []
        touched: set[int] = set()
        with self.store.session() as s:
            for o in outcomes:
                for k, v in o.loaded.timings.items():
                    report.stage_ms[k] += v
                if o.kind == "ingest":
                    pid = self._apply_ingest(s, o.loaded, vanished, report)
                else:
                    pid = o.loaded.photo_id
                    if o.loaded.error is not None:
                        self._fail_all(s, pid, o.loaded.error, report)
                        pid = None
                if pid is None or o.loaded.error is not None:
                    continue
                ready.append((pid, o.loaded))
                have = dict(s.execute(select(Analysis.analyzer, Analysis.version).where(Analysis.photo_id == pid)).all())
                status = dict(s.execute(select(Analysis.analyzer, Analysis.status).where(Analysis.photo_id == pid)).all())
                for name, (result, error, ms) in o.results.items():
                    report.stage_ms[f"model:{name}"] += ms
                    if have.get(name) == versions.get(name) and not (retry_failed and status.get(name) == "failed"):
                        continue  # a move or a twin already carries this analysis
                    self.store.write_analysis(s, pid, name, versions[name], result, error=error, duration_ms=ms)
                    touched.add(pid)
                    report.count_analysis(name, error)
            report.stage_ms["db"] += (time.perf_counter() - t0) * 1000
            if ready and any(needs_facts(a) for a in self.analyzers):
                have_all = {
                    (pid, name): (version, state)
                    for pid, name, version, state in s.execute(
                        select(Analysis.photo_id, Analysis.analyzer, Analysis.version, Analysis.status)
                        .where(Analysis.photo_id.in_([pid for pid, _ in ready]))
                    )
                }
                touched |= self._run_facts_analyzers(s, ready, have_all, touched, report, retry_failed)
        report.analysed += len(touched)


@dataclass
class _Versioned:
    """Name and version of an analyzer that runs remotely (what the driver's catalog code needs)."""

    name: str
    version: int


def run_ray_index(store: Store, settings: Settings, num_workers: int = 2, progress: ProgressFn | None = None,
                  cancel: CancelFn | None = None, *, analyzer_factory: AnalyzerFactory | None = None,
                  include: Sequence[str] | None = None, analyze: bool = True,
                  post_steps: Sequence[tuple[str, PostStep]] | None = None, address: str | None = None,
                  retry_failed: bool = False, shutdown: bool | None = None) -> IndexReport:
    """Index every registered folder with decode + analysis on `num_workers` Ray actors.

    Returns the serial indexer's `IndexReport` (stage_ms has `model:<name>` summed over workers,
    plus `ray_start` and `ray_wait`). `shutdown`: stop Ray afterwards (default: only if started here).
    """
    if post_steps is None:
        from photosearch.app import default_post_steps

        post_steps = default_post_steps(settings)
    indexer = RayIndexer(store, settings, num_workers, analyzer_factory=analyzer_factory, include=include,
                         analyze=analyze, post_steps=post_steps, address=address)
    try:
        return indexer.run(progress=progress, cancel=cancel, retry_failed=retry_failed)
    finally:
        indexer.close(shutdown)


__all__ = ["RayIndexer", "RayUnavailable", "ensure_ray", "run_ray_index"]
