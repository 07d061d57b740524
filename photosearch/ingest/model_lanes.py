"""Run independent analyzers side by side, so the models keep every core busy.

The pixel analyzers form chains: an analyzer whose gate waits for another's result (faces after
the detector) runs in that analyzer's chain, after it; every other analyzer is a chain of its own.
Chains share nothing, so `Lanes` runs them on a few threads at once (ONNX Runtime, OpenCV and
dlib release the GIL while they compute), longest first by what each analyzer cost per photo in
earlier batches: on 2 cores OCR runs beside the detector, faces, tagger and quality instead of
after them. Each analyzer is used by one thread at a time, in its chain's order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Protocol, TypeVar


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

    def record(self, name: str, ms_per_photo: float) -> None:
        seen = self.cost_ms.get(name)
        self.cost_ms[name] = ms_per_photo if seen is None else 0.7 * seen + 0.3 * ms_per_photo

    def order(self, chains: list[list[A]]) -> list[list[A]]:
        """Longest chain first (unknown analyzers count as costly, so a new model is not left last)."""
        unknown = max(self.cost_ms.values(), default=0.0) + 1.0

        def cost(chain: list[A]) -> float:
            return sum(self.cost_ms.get(a.name, unknown) for a in chain)

        return sorted(chains, key=cost, reverse=True)

    def run(self, chains: list[list[A]], run_chain: Callable[[list[A]], None]) -> None:
        """`run_chain` on every chain: in this thread with one lane, else on a pool of `lanes`
        threads; the first error is raised once every chain has ended."""
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
