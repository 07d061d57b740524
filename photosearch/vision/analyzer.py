"""The analyzer protocols the indexing pipeline drives (what they return: `photosearch.records`).

A pixel analyzer looks at a decoded, downscaled photo and returns an `AnalysisResult`
(facts, faces, embeddings). A facts analyzer (facts_text) reads what the pixel analyzers
found instead of pixels, so it runs after them. Both are versioned: bumping `version` makes
the indexer re-run only that analyzer. Models load lazily on first use.

This module imports no database code: analyzers depend on it, the catalog writes its results.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from photosearch.records import AnalysisResult, PhotoImage


@runtime_checkable
class Analyzer(Protocol):
    """Reads pixels (a `BatchAnalyzer` also reads many at once)."""

    name: str
    version: int

    def analyze(self, image: PhotoImage) -> AnalysisResult: ...


@runtime_checkable
class BatchAnalyzer(Analyzer, Protocol):
    """A pixel analyzer with its own (faster) batch path."""

    def analyze_batch(self, images: list[PhotoImage]) -> list[AnalysisResult]: ...


@runtime_checkable
class FactsAnalyzer(Protocol):
    """Reads a photo's facts (any writer's: analyzers, the user, enrichment), not its pixels;
    runs after the pixel analyzers, where the catalog is."""

    name: str
    version: int

    def analyze_facts_batch(self, fact_lists: Sequence[Sequence]) -> list[AnalysisResult]: ...


def is_facts_analyzer(analyzer: object) -> bool:
    """True for analyzers of facts (they run last, over what the others wrote)."""
    return isinstance(analyzer, FactsAnalyzer)


def analyze_batch(analyzer: Analyzer, images: list[PhotoImage]) -> list[AnalysisResult]:
    """Use the analyzer's own batch path when it has one."""
    if isinstance(analyzer, BatchAnalyzer):
        return list(analyzer.analyze_batch(images))
    return [analyzer.analyze(img) for img in images]
