"""The analysis pipeline every indexing engine shares: which analyzers a photo needs, running
them, writing their results, then the facts analyzers over what was written.

The serial `Indexer` runs the pixel analyzers in its own process; the Ray engine runs them on
its actors (`run_pixel_analyzers` there too) and writes on the driver. Both record each
analyzer's outcome per photo the same way, so a re-run, `--retry-failed` or a version bump
finds exactly the work that is left.

Gates keep a costly analyzer off photos where a cheaper one already ran and saw it has nothing
to find (`DEFAULT_GATES`: face detection only where the object detector sees a person, even
faintly). A gated-off analyzer is recorded as `skipped` at its version: a re-run does not try
again, a version bump does (gated again), and what it found before is kept. A photo that needs a
gated analyzer gets the gate's input run with it (`with_gate_inputs`: a faces version bump runs
the detector again, for the gate only; its findings are not written twice). Where the gate is
unsure (the detector failed), the analyzer runs.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from photosearch.catalog.models import Analysis, Photo
from photosearch.catalog.store import Store
from photosearch.errors import DecodeError
from photosearch.ingest.facts_refresh import refresh_facts_text
from photosearch.ingest.model_lanes import Lanes, analyzer_chains
from photosearch.ingest.paths import from_db_path, to_db_path
from photosearch.ingest.report import IndexReport
from photosearch.ingest.scanner import STICKY_REASONS, ScanPlan
from photosearch.models.labels import COCO_CLASS_IDS, COCO_SPACE, decode_scores
from photosearch.vision.analyzer import (
    AnalysisResult,
    Analyzer,
    FactsAnalyzer,
    PhotoImage,
    analyze_batch,
    is_facts_analyzer,
)

log = logging.getLogger(__name__)

#: (photo id, analyzer) -> (version, status) as the catalog records it.
Recorded = dict[tuple[int, str], tuple[int, str]]


@dataclass
class AnalyzerRun:
    """One analyzer on one photo: its result, or why not (an error, or the gate that kept it off)."""

    result: AnalysisResult | None
    error: str | None = None
    ms: float = 0.0
    gated: str | None = None  # the gate's reason when it did not run


#: analyzer name -> what it did on one photo.
Outcomes = dict[str, AnalyzerRun]


@dataclass(frozen=True)
class Gate:
    """Run `analyzer` on a photo only if `wants(result of `after` on that photo)` says so.

    `wants` returns None to run, or the reason it need not (recorded with the skip)."""

    analyzer: str
    after: str
    wants: Callable[[AnalysisResult], str | None]


#: The detector's best person score (its "coco" distribution, scores >= 0.05) below which a photo
#: gets no face detection. Measured on the example gallery and the real set: every photo where
#: dlib found a real face has a person score of 0.70 or more (docs/ARCHITECTURE.md, Indexing cost).
PERSON_GATE_SCORE = 0.10


def person_score(detector_result: AnalysisResult) -> float:
    """The detector's best score for a person anywhere in the photo (0 when it saw none)."""
    vec = detector_result.embeddings.get(COCO_SPACE)
    if vec is None:
        return 1.0  # no distribution to judge by: unsure, so the faces analyzer runs
    return float(decode_scores(vec)[0][COCO_CLASS_IDS.index(1)])


def _faces_wanted(detector_result: AnalysisResult) -> str | None:
    score = person_score(detector_result)
    return None if score >= PERSON_GATE_SCORE else f"no person seen (detector person score {score:.2f})"


DEFAULT_GATES: tuple[Gate, ...] = (Gate("faces", "detector", _faces_wanted),)


def with_gate_inputs(names: set[str], gates: Sequence[Gate], analyzers: Collection[str]) -> set[str]:
    """The pixel analyzers to run on a photo that needs `names`: also the input of each gate whose
    analyzer it needs (of `analyzers`, those that exist). Without it, a faces version bump would run
    face detection on every photo, and find faces in car grilles and tennis rackets the detector
    never saw a person in (`write` does not write the input's findings again)."""
    extra = {g.after for g in gates if g.analyzer in names and g.after in analyzers}
    return names | extra


def needs_run(got: tuple[int, str] | None, version: int, retry_failed: bool) -> bool:
    """Does an analyzer with this record (None: never ran) have to run again?"""
    return got is None or got[0] != version or (retry_failed and got[1] == "failed")


def pixel_analyzers(analyzers: Sequence[Analyzer | FactsAnalyzer]) -> list[Analyzer]:
    return [a for a in analyzers if not is_facts_analyzer(a)]  # type: ignore[misc]


def facts_analyzers(analyzers: Sequence[Analyzer | FactsAnalyzer]) -> list[FactsAnalyzer]:
    return [a for a in analyzers if is_facts_analyzer(a)]  # type: ignore[misc]


def run_pixel_analyzers(
    analyzers: Sequence[Analyzer],
    images: Sequence[PhotoImage],
    wanted: Sequence[Collection[str] | None],
    gates: Sequence[Gate] = DEFAULT_GATES,
    lanes: Lanes | None = None,
) -> list[Outcomes]:
    """Run each analyzer over the images that want it (None: every analyzer) and that its gate
    lets through, one batch per analyzer; returns each image's outcomes. Analyzers that do not wait
    for each other run side by side on `lanes` (default: one after another). One photo failing
    fails only itself."""
    return submit_pixel_analyzers(analyzers, images, wanted, gates, lanes).result()


def submit_pixel_analyzers(
    analyzers: Sequence[Analyzer],
    images: Sequence[PhotoImage],
    wanted: Sequence[Collection[str] | None],
    gates: Sequence[Gate] = DEFAULT_GATES,
    lanes: Lanes | None = None,
) -> Future[list[Outcomes]]:
    """`run_pixel_analyzers` as a future: inside `lanes.session()` it returns at once and the batch
    runs on the lane threads, each chain after the previous batch's (model_lanes.py)."""
    lanes = lanes or Lanes(1)
    outcomes: list[Outcomes] = [{} for _ in images]
    gate_of = {g.analyzer: g for g in gates}

    def run_chain(chain: list[Analyzer]) -> None:
        for analyzer in chain:
            todo = []
            for i, names in enumerate(wanted):
                if names is not None and analyzer.name not in names:
                    continue
                reason = _gated(gate_of.get(analyzer.name), outcomes[i])
                if reason is None:
                    todo.append(i)
                else:
                    outcomes[i][analyzer.name] = AnalyzerRun(None, gated=reason)
            if not todo:
                continue
            t0 = time.perf_counter()
            results = _safe_batch(analyzer, [images[i] for i in todo])
            per_photo = (time.perf_counter() - t0) * 1000 / len(todo)
            lanes.record(analyzer.name, per_photo)
            for i, (result, error) in zip(todo, results, strict=True):
                outcomes[i][analyzer.name] = AnalyzerRun(result, error, per_photo)

    chains_done = lanes.submit(analyzer_chains(analyzers, gates), run_chain)
    done: Future[list[Outcomes]] = Future()

    def hand_over(ended: Future[None]) -> None:
        error = ended.exception()
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(outcomes)

    chains_done.add_done_callback(hand_over)
    return done


def _gated(gate: Gate | None, so_far: Outcomes) -> str | None:
    """Why the gate keeps its analyzer off this photo, or None (no gate, or unsure: run)."""
    if gate is None:
        return None
    before = so_far.get(gate.after)
    if before is None or before.result is None:
        return None
    return gate.wants(before.result)


def _safe_batch(
    analyzer: Analyzer, images: list[PhotoImage]
) -> list[tuple[AnalysisResult | None, str | None]]:
    """Run a batch; if it fails, run photo by photo so one bad photo only fails itself."""
    try:
        return [(r, None) for r in analyze_batch(analyzer, images)]
    except Exception:
        log.debug("batch of %s failed; retrying one by one", analyzer.name, exc_info=True)
    out: list[tuple[AnalysisResult | None, str | None]] = []
    for image in images:
        try:
            out.append((analyzer.analyze(image), None))
        except Exception as exc:
            log.warning("%s failed on %s: %s", analyzer.name, image.path, exc)
            out.append((None, f"{type(exc).__name__}: {exc}"))
    return out


class AnalysisPipeline:
    """The catalog side of analysis: what each photo needs, and writing what the models found.

    `versions` names every pixel analyzer (they may run elsewhere: on Ray actors); `facts` are
    the facts analyzers, which run here, inside the write session, after the pixel analyzers.
    """

    def __init__(
        self,
        store: Store,
        versions: dict[str, int],
        facts: Sequence[FactsAnalyzer] = (),
        gates: Sequence[Gate] = DEFAULT_GATES,
    ):
        self.store = store
        self.versions = dict(versions)
        self.facts = list(facts)
        self.gates = tuple(gates)

    @classmethod
    def of(
        cls,
        store: Store,
        analyzers: Sequence[Analyzer | FactsAnalyzer],
        gates: Sequence[Gate] = DEFAULT_GATES,
    ) -> AnalysisPipeline:
        versions = {a.name: a.version for a in pixel_analyzers(analyzers)}
        return cls(store, versions, facts_analyzers(analyzers), gates)

    @property
    def active(self) -> bool:
        return bool(self.versions or self.facts)

    def all_versions(self) -> dict[str, int]:
        return {**self.versions, **{a.name: a.version for a in self.facts}}

    # ---- what is left to do -------------------------------------------------------------------
    @staticmethod
    def recorded(s: Session, photo_ids: Sequence[int]) -> Recorded:
        if not photo_ids:
            return {}
        return {
            (pid, name): (version, status)
            for pid, name, version, status in s.execute(
                select(Analysis.photo_id, Analysis.analyzer, Analysis.version, Analysis.status).where(
                    Analysis.photo_id.in_(list(photo_ids))
                )
            )
        }

    def wanted(self, recorded: Recorded, photo_id: int, retry_failed: bool) -> set[str]:
        """The pixel analyzers a photo still needs, with the inputs of their gates."""
        needed = {
            name
            for name, version in self.versions.items()
            if needs_run(recorded.get((photo_id, name)), version, retry_failed)
        }
        return with_gate_inputs(needed, self.gates, self.versions)

    def backlog(self, plan: ScanPlan, retry_failed: bool) -> list[tuple[int, str, frozenset[str]]]:
        """Active photos (not being re-ingested) that miss the current version of some analyzer:
        (photo id, path, the pixel analyzers it needs)."""
        ingesting = {to_db_path(e.path) for e in plan.to_ingest}
        wanted = self.all_versions()
        with self.store.session() as s:
            photos = s.execute(  # photos on an offline drive wait for it; they are not failures
                select(Photo.id, Photo.path).where(
                    Photo.state == "active", Photo.folder_id.in_(plan.online_folder_ids)
                )
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
            missing = {
                name for name, version in wanted.items() if needs_run(done.get(name), version, retry_failed)
            }
            if missing:
                pixels = with_gate_inputs(missing & set(self.versions), self.gates, self.versions)
                backlog.append((pid, from_db_path(path), frozenset(pixels)))
        return backlog

    def forget(self, analyzer: str, photo_ids: Collection[int]) -> None:
        """Drop the record of one analyzer's run on these photos: the next write runs it again."""
        ids = list(photo_ids)
        with self.store.session() as s:
            for start in range(0, len(ids), 500):
                s.execute(
                    delete(Analysis).where(
                        Analysis.analyzer == analyzer, Analysis.photo_id.in_(ids[start : start + 500])
                    )
                )

    # ---- writing ------------------------------------------------------------------------------
    def write(
        self,
        s: Session,
        photo_id: int,
        outcomes: Outcomes,
        recorded: Recorded,
        report: IndexReport,
        retry_failed: bool,
    ) -> bool:
        """Write the outcomes the photo still needs (a move or a twin may already carry them);
        True when anything was written."""
        wrote = False
        for name, run in outcomes.items():
            report.stage_ms[f"model:{name}"] += run.ms
            version = self.versions[name]
            if not needs_run(recorded.get((photo_id, name)), version, retry_failed):
                continue
            if run.gated is not None:
                self.store.record_skipped(s, photo_id, name, version, run.gated)
                report.gated[name] = report.gated.get(name, 0) + 1
                continue
            self.store.write_analysis(
                s, photo_id, name, version, run.result, error=run.error, duration_ms=run.ms
            )
            report.count_analysis(name, run.error)
            wrote = True
        return wrote

    def run_facts(
        self,
        s: Session,
        photo_ids: Sequence[int],
        recorded: Recorded,
        touched: set[int],
        report: IndexReport,
        retry_failed: bool,
    ) -> set[int]:
        """Facts analyzers run last, inside the write session: they read what the pixel analyzers
        wrote. Runs on the photos just analysed and those that miss the facts analyzer."""
        done: set[int] = set()
        for analyzer in self.facts:
            todo = [
                pid
                for pid in photo_ids
                if pid in touched
                or needs_run(recorded.get((pid, analyzer.name)), analyzer.version, retry_failed)
            ]
            t0 = time.perf_counter()
            try:
                refresh_facts_text(self.store, s, todo, analyzer)
                done.update(todo)
                for _ in todo:
                    report.count_analysis(analyzer.name, None)
            except Exception as exc:
                log.warning("%s failed on a batch: %s", analyzer.name, exc)
                error = f"{type(exc).__name__}: {exc}"
                for pid in todo:
                    self.store.write_analysis(s, pid, analyzer.name, analyzer.version, None, error=error)
                    report.count_analysis(analyzer.name, error)
            report.stage_ms[f"model:{analyzer.name}"] += (time.perf_counter() - t0) * 1000
        return done

    def fail_all(self, s: Session, photo_id: int | None, error: DecodeError, report: IndexReport) -> None:
        """A known photo that cannot be read for analysis: a lasting reason fails every analyzer
        (reported, not retried); a transient one is retried by the next run."""
        if photo_id is None or error.reason == "vanished":  # gone: the sweep handles it, not a failure
            return
        if error.reason not in STICKY_REASONS:  # transient (permissions, I/O): the next run tries again
            log.warning("skipping for now: %s", error.message)
            report.analysis_failed += 1
            return
        for name, version in self.all_versions().items():
            self.store.write_analysis(
                s, photo_id, name, version, None, error=f"{error.reason}: {error.message}"
            )
        report.analysis_failed += 1
