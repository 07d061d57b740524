"""Run independent analyzers side by side, so the models keep every core busy.

The pixel analyzers form chains: an analyzer whose gate waits for another's result (faces after
the detector) runs in that analyzer's chain, after it; every other analyzer is a chain of its own.
Chains share nothing, so `Lanes` runs them on a few threads at once (ONNX Runtime, OpenCV and
dlib release the GIL while they compute), longest first by what each analyzer cost per photo in
earlier batches: on 2 cores OCR runs beside the detector, faces, tagger and quality instead of
after them. Each analyzer is used by one thread at a time, in its chain's order.

Inside `Lanes.session()` the threads live for the whole run and batches overlap: `submit` returns at
once, and a chain of the next batch starts as soon as the same chain of the previous one has ended,
so a lane that finished its chains takes the next batch's instead of waiting for the batch's longest
chain (OCR on a page of text), and the models keep running while the caller writes results. The
session's `hold` is asked before each chain starts: it blocks while the user has paused the run
(so Pause stops the models within one chain, not after the batches queued), and a cancel it
reports skips the chains not yet started.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Protocol, TypeVar

from photosearch.errors import Cancelled


class _Named(Protocol):
    name: str


class _Gated(Protocol):
    analyzer: str
    after: str


A = TypeVar("A", bound=_Named)


def analyzer_chains(analyzers: Sequence[A], gates: Sequence[_Gated]) -> list[list[A]]:
    """The analyzers split into chains that need nothing from each other, each in run order."""
    after = {g.analyzer: g.after for g in gates}
    chain_of: dict[str, list[A]] = {}
    chains: list[list[A]] = []
    for analyzer in analyzers:
        chain = chain_of.get(after.get(analyzer.name, ""))
        if chain is None:
            chain = []
            chains.append(chain)
        chain.append(analyzer)
        chain_of[analyzer.name] = chain
    return chains


class Lanes:
    """Runs chains of analyzers on up to `lanes` threads, longest first; remembers each analyzer's
    cost per photo (a running mean of what `record` is told) to order the next batch's chains."""

    def __init__(self, lanes: int = 1):
        self.lanes = max(1, int(lanes))
        self.cost_ms: dict[str, float] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._last: dict[tuple[str, ...], Future[None]] = {}  # each chain's latest batch
        self._skipping = False
        self._hold: Callable[[], bool] | None = None

    def record(self, name: str, ms_per_photo: float) -> None:
        seen = self.cost_ms.get(name)
        self.cost_ms[name] = ms_per_photo if seen is None else 0.7 * seen + 0.3 * ms_per_photo

    def order(self, chains: list[list[A]]) -> list[list[A]]:
        """Longest chain first (unknown analyzers count as costly, so a new model is not left last)."""
        unknown = max(self.cost_ms.values(), default=0.0) + 1.0

        def cost(chain: list[A]) -> float:
            return sum(self.cost_ms.get(a.name, unknown) for a in chain)

        return sorted(chains, key=cost, reverse=True)

    @contextmanager
    def session(self, hold: Callable[[], bool] | None = None) -> Iterator[Lanes]:
        """Keep the lane threads for a run, so that `submit` can overlap batches; on leaving, every
        submitted chain has ended. `hold`: the run's cancel check, asked before each chain starts
        (it may block while the run is paused; True skips the chains not yet started)."""
        if self.lanes == 1 or self._pool is not None:
            yield self
            return
        self._pool = ThreadPoolExecutor(max_workers=self.lanes, thread_name_prefix="models")
        self._hold = hold
        try:
            yield self
        finally:
            for chain_done in list(self._last.values()):
                _wait(chain_done)
            self._pool.shutdown(wait=True)
            self._pool, self._last, self._skipping, self._hold = None, {}, False, None

    def skip_queued(self) -> None:
        """Chains submitted in this session that have not started end at once with `Cancelled`
        (a cancelled run waits only for the models running now)."""
        self._skipping = True

    def _run_into(self, done: Future[None], run_chain: Callable[[list[A]], None], chain: list[A]) -> None:
        try:
            if not self._skipping and self._hold is not None and self._hold():  # waits while paused
                self._skipping = True
            if self._skipping:
                raise Cancelled("skipped: the run was cancelled")
            run_chain(chain)
            done.set_result(None)
        except BaseException as exc:  # handed to the batch's future
            done.set_exception(exc)

    def submit(self, chains: list[list[A]], run_chain: Callable[[list[A]], None]) -> Future[None]:
        """`run_chain` on every chain; the future ends when all of them have (with the first error).
        Inside `session()` the chains run on the lane threads, each after the same chain of the
        batch submitted before; outside it, `run` runs them before returning."""
        if self._pool is None:
            done: Future[None] = Future()
            try:
                self.run(chains, run_chain)
                done.set_result(None)
            except BaseException as exc:  # handed to whoever waits on the future
                done.set_exception(exc)
            return done
        pool = self._pool
        ordered = self.order(chains)
        batch = _BatchDone(len(ordered))
        for chain in ordered:
            key = tuple(a.name for a in chain)
            chain_done: Future[None] = Future()
            chain_done.add_done_callback(batch.chain_ended)
            task = functools.partial(self._run_into, chain_done, run_chain, chain)
            before = self._last.get(key)
            self._last[key] = chain_done
            if before is None:
                pool.submit(task)
            else:
                before.add_done_callback(lambda _ended, task=task: pool.submit(task))
        return batch.future

    def run(self, chains: list[list[A]], run_chain: Callable[[list[A]], None]) -> None:
        """`run_chain` on every chain before returning: in this thread with one lane, on the lane
        threads inside `session()`, else on a pool of `lanes` threads; the first error is raised
        once every chain has ended."""
        if self._pool is not None:
            self.submit(chains, run_chain).result()
            return
        ordered = self.order(chains)
        if self.lanes == 1 or len(ordered) <= 1:
            for chain in ordered:
                run_chain(chain)
            return
        with ThreadPoolExecutor(
            max_workers=min(self.lanes, len(ordered)), thread_name_prefix="models"
        ) as pool:
            futures = [pool.submit(run_chain, chain) for chain in ordered]
        for future in futures:
            future.result()


def _wait(future: Future) -> None:
    try:
        future.result()
    except BaseException:  # noqa: BLE001 - the batch's own future carries the error to its caller
        pass


class _BatchDone:
    """A future that ends when `count` chains have: with the first chain's error, if any."""

    def __init__(self, count: int):
        self.future: Future[None] = Future()
        self._left = count
        self._error: BaseException | None = None
        self._lock = threading.Lock()
        if count == 0:
            self.future.set_result(None)

    def chain_ended(self, chain_done: Future[None]) -> None:
        with self._lock:
            self._error = self._error or chain_done.exception()
            self._left -= 1
            last = self._left == 0
        if last:
            if self._error is not None:
                self.future.set_exception(self._error)
            else:
                self.future.set_result(None)
