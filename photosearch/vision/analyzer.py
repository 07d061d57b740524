"""The analyzer protocol the indexer drives.

An analyzer looks at a decoded, downscaled photo and returns an `AnalysisResult`
(facts, faces, embeddings). It is versioned: bumping `version` makes the indexer
re-run only that analyzer. Models load lazily on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from photosearch.catalog.store import AnalysisResult


@dataclass
class PhotoImage:
    """A photo ready for analysis: RGB uint8 (H, W, 3), EXIF orientation applied, longest side
    at most `Settings.analysis_max_side`. `full_width`/`full_height` are the original size."""

    photo_id: int
    path: str
    rgb: np.ndarray
    full_width: int
    full_height: int


@runtime_checkable
class Analyzer(Protocol):
    name: str
    version: int

    def analyze(self, image: PhotoImage) -> AnalysisResult: ...


def needs_facts(analyzer: object) -> bool:
    """True for analyzers that read the photo's facts (facts_text), not its pixels: they run last."""
    return bool(getattr(analyzer, "needs_facts", False))


def analyze_batch(analyzer: Analyzer, images: list[PhotoImage]) -> list[AnalysisResult]:
    """Use the analyzer's own batch path when it has one."""
    batch = getattr(analyzer, "analyze_batch", None)
    if callable(batch):
        return list(batch(images))
    return [analyzer.analyze(img) for img in images]
