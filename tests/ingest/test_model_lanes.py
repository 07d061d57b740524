"""Independent analyzers run side by side (ingest/model_lanes.py): chains follow the gates, two
lanes really overlap, the costliest chain starts first, and the outcomes are those of one lane."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from photosearch.errors import Cancelled
from photosearch.ingest.model_lanes import Lanes, analyzer_chains
from photosearch.ingest.pipeline import DEFAULT_GATES, Gate, run_pixel_analyzers, submit_pixel_analyzers
from photosearch.models.labels import COCO_CLASS_IDS, score_vector
from photosearch.records import AnalysisResult, FactRecord, PhotoImage

PERSON = COCO_CLASS_IDS.index(1)


class Named:
    def __init__(self, name: str):
        self.name = name
        self.version = 1


def test_chains_follow_the_gates():
    names = ["tagger", "detector", "ocr", "faces", "quality"]
    chains = analyzer_chains([Named(n) for n in names], DEFAULT_GATES)
    assert [[a.name for a in c] for c in chains] == [["tagger"], ["detector", "faces"], ["ocr"], ["quality"]]
    # a gate that waits for an analyzer not in the run leaves the gated one on its own
    chains = analyzer_chains([Named("faces")], DEFAULT_GATES)
    assert [[a.name for a in c] for c in chains] == [["faces"]]
    # gates chain on: c waits for b, which waits for a
    gates = [Gate("b", "a", lambda r: None), Gate("c", "b", lambda r: None)]
    chains = analyzer_chains([Named("a"), Named("x"), Named("b"), Named("c")], gates)
    assert [[a.name for a in c] for c in chains] == [["a", "b", "c"], ["x"]]


def test_costliest_chain_first_and_unknown_ones_before_cheap_ones():
    lanes = Lanes(2)
    chains = [[Named("tagger")], [Named("detector"), Named("faces")], [Named("ocr")]]
    lanes.record("tagger", 30)
    lanes.record("detector", 90)
    lanes.record("faces", 50)
    lanes.record("ocr", 400)
    assert [c[0].name for c in lanes.order(chains)] == ["ocr", "detector", "tagger"]
    lanes.record("ocr", 0)  # a running mean: one cheap batch does not move it to the end
    assert lanes.cost_ms["ocr"] == pytest.approx(280)
    assert [c[0].name for c in lanes.order([[Named("tagger")], [Named("new")]])] == ["new", "tagger"]


class Meeting:
    """An analyzer that waits (bounded) for its partner to be inside `analyze` at the same time."""

    def __init__(self, name: str, barrier: threading.Barrier):
        self.name, self.version, self.barrier = name, 1, barrier
        self.met = 0
        self.threads: set[str] = set()

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        self.threads.add(threading.current_thread().name)
        try:
            self.barrier.wait(timeout=2)
            self.met += 1
        except threading.BrokenBarrierError:
            pass
        return AnalysisResult()


def _images(n: int) -> list[PhotoImage]:
    return [PhotoImage(i, f"/p/{i}.jpg", np.zeros((8, 8, 3), np.uint8), 8, 8) for i in range(n)]


def test_two_lanes_run_two_analyzers_at_the_same_time():
    barrier = threading.Barrier(2)
    a, b = Meeting("a", barrier), Meeting("b", barrier)
    run_pixel_analyzers([a, b], _images(3), [None] * 3, gates=(), lanes=Lanes(2))
    assert a.met == b.met == 3  # each photo's call met the other analyzer's
    assert a.threads.isdisjoint(b.threads)


def test_one_lane_runs_them_one_after_the_other_on_the_calling_thread():
    barrier = threading.Barrier(2)
    a, b = Meeting("a", barrier), Meeting("b", barrier)
    barrier.abort()  # never met: no waiting in this test
    run_pixel_analyzers([a, b], _images(2), [None] * 2, gates=())
    assert a.threads == b.threads == {threading.current_thread().name}


class Detector:
    name, version = "detector", 1

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        score = 0.9 if image.photo_id % 2 else 0.0
        rows = np.array([[1, score, 0, 0, 1, 1]], np.float32)
        return AnalysisResult(embeddings={"coco": score_vector(rows)})


class Labeller:
    def __init__(self, name: str, fail_on: int | None = None):
        self.name, self.version, self.fail_on = name, 1, fail_on

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        if image.photo_id == self.fail_on:
            raise RuntimeError(f"{self.name} broke")
        return AnalysisResult(facts=[FactRecord(kind="tag", label=f"{self.name}{image.photo_id}", score=1.0)])


def _summary(outcomes):
    return [
        {
            name: (
                run.gated is not None,
                run.error,
                [f.label for f in run.result.facts] if run.result else None,
            )
            for name, run in o.items()
        }
        for o in outcomes
    ]


def test_two_lanes_give_the_outcomes_of_one():
    def analyzers():
        return [
            Labeller("tagger"),
            Detector(),
            Labeller("ocr", fail_on=2),
            Labeller("faces"),
            Labeller("quality"),
        ]

    images = _images(6)
    wanted = [None, None, {"ocr", "faces"}, None, {"tagger"}, None]
    one = run_pixel_analyzers(analyzers(), images, wanted)
    two = run_pixel_analyzers(analyzers(), images, wanted, lanes=Lanes(2))
    assert _summary(one) == _summary(two)
    assert two[2]["ocr"].error == "RuntimeError: ocr broke"  # one photo failing fails only itself
    assert two[0]["faces"].gated and not two[1]["faces"].gated  # the gate still reads the detector
    assert set(two[4]) == {"tagger"}


class Recording:
    """Records (analyzer, batch) calls and how many of its calls ever overlapped; with `wait`, each
    call waits (bounded) until "fast" has analysed both photos of batch b2."""

    def __init__(self, name: str, log: list, lock: threading.Lock, release: threading.Event, wait=False):
        self.name, self.version, self.log, self.lock, self.release = name, 1, log, lock, release
        self.wait_for = release if wait else None
        self.active = 0
        self.overlapped = 0

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        with self.lock:
            self.active += 1
            self.overlapped += self.active > 1
        if self.wait_for is not None:
            self.wait_for.wait(timeout=5)
        with self.lock:
            self.log.append((self.name, image.path.split("/")[1]))
            self.active -= 1
            if self.log.count(("fast", "b2")) == 2:
                self.release.set()
        return AnalysisResult(facts=[FactRecord(kind="tag", label=f"{self.name}{image.photo_id}", score=1.0)])


def _batch(tag: str, n: int = 2) -> list[PhotoImage]:
    return [PhotoImage(i, f"/{tag}/{i}.jpg", np.zeros((8, 8, 3), np.uint8), 8, 8) for i in range(n)]


def test_in_a_session_the_next_batch_starts_while_a_long_chain_still_runs():
    """A lane that finished its chains of batch 1 runs batch 2's; each analyzer still sees its
    batches in order, one call at a time."""
    log: list = []
    lock = threading.Lock()
    fast_done_with_b2 = threading.Event()
    slow = Recording("slow", log, lock, fast_done_with_b2, wait=True)
    fast = Recording("fast", log, lock, fast_done_with_b2)
    lanes = Lanes(2)
    lanes.record("slow", 100)  # the costly chain starts first
    with lanes.session():
        first = submit_pixel_analyzers([slow, fast], _batch("b1"), [None] * 2, (), lanes)
        second = submit_pixel_analyzers([slow, fast], _batch("b2"), [None] * 2, (), lanes)
        outcomes = [first.result(timeout=10), second.result(timeout=10)]
    # batch 2's fast chain ran while batch 1's slow chain was still waiting for it
    assert log.index(("fast", "b2")) < log.index(("slow", "b1"))
    assert [b for name, b in log if name == "slow"] == ["b1", "b1", "b2", "b2"]
    assert [b for name, b in log if name == "fast"] == ["b1", "b1", "b2", "b2"]
    assert slow.overlapped == fast.overlapped == 0
    assert [{name: run.result.facts[0].label for name, run in o.items()} for o in outcomes[1]] == [
        {"slow": "slow0", "fast": "fast0"},
        {"slow": "slow1", "fast": "fast1"},
    ]


def test_a_chain_that_breaks_fails_its_batch_only_and_the_session_ends_cleanly():
    calls: list[str] = []

    def run_chain(chain):
        calls.append(chain[0].name)
        if chain[0].name == "bad" and len(calls) <= 2:
            raise RuntimeError("lane broke")

    lanes = Lanes(2)
    with lanes.session():
        first = lanes.submit([[Named("bad")], [Named("good")]], run_chain)
        second = lanes.submit([[Named("bad")], [Named("good")]], run_chain)
        with pytest.raises(RuntimeError, match="lane broke"):
            first.result(timeout=5)
        second.result(timeout=5)
    assert sorted(calls) == ["bad", "bad", "good", "good"]


def test_outside_a_session_submit_has_run_every_chain_when_it_returns():
    calls: list[str] = []
    done = Lanes(2).submit([[Named("a")], [Named("b")]], lambda chain: calls.append(chain[0].name))
    assert done.done() and sorted(calls) == ["a", "b"]


def test_skip_queued_ends_the_chains_not_started_with_cancelled():
    started = threading.Event()
    release = threading.Event()
    calls: list[str] = []

    def run_chain(chain):
        calls.append(chain[0].name)
        started.set()
        release.wait(timeout=5)

    lanes = Lanes(2)
    with lanes.session():
        first = lanes.submit([[Named("a")]], run_chain)
        second = lanes.submit([[Named("a")]], run_chain)  # waits for the first batch's "a"
        assert started.wait(timeout=5)
        lanes.skip_queued()
        release.set()
        first.result(timeout=5)  # the running chain ends normally
        with pytest.raises(Cancelled):
            second.result(timeout=5)
    assert calls == ["a"]
    with lanes.session():  # a new session runs everything again
        lanes.submit([[Named("b")]], run_chain).result(timeout=5)
    assert calls == ["a", "b"]


def test_a_paused_run_starts_no_chain_until_resumed_and_a_cancel_skips_what_waits():
    """The session's `hold` (the run's cancel check, which blocks while the user has paused) is
    asked before each chain: Pause stops the models after the chain running now, not after every
    batch already queued; a cancel it reports skips the chains not started."""
    running = threading.Event()  # set: not paused
    running.set()
    cancelled = threading.Event()
    calls: list[str] = []
    release = threading.Event()

    def hold() -> bool:
        while not running.wait(0.01):
            pass
        return cancelled.is_set()

    def run_chain(chain):
        calls.append(chain[0].name)
        if chain[0].name == "a1":
            release.wait(timeout=5)

    lanes = Lanes(2)
    with lanes.session(hold=hold):
        first = lanes.submit([[Named("a1")]], run_chain)
        while not calls:
            threading.Event().wait(0.01)
        running.clear()  # Pause while a1 runs
        second = lanes.submit([[Named("b")]], run_chain)  # a free lane: it would start at once
        release.set()
        first.result(timeout=5)  # the running chain ends
        assert not second.done() and calls == ["a1"]  # nothing starts while paused
        running.set()  # Resume
        second.result(timeout=5)
        assert calls == ["a1", "b"]
        running.clear()
        third = lanes.submit([[Named("c")]], run_chain)
        cancelled.set()
        running.set()  # Cancel wakes a paused run, which sees the cancel
        with pytest.raises(Cancelled):
            third.result(timeout=5)
    assert calls == ["a1", "b"]
