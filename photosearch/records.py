"""What analyzers return and the catalog writes: facts, faces, embeddings, and the photo they saw.

Plain data with no dependency beyond numpy, so the catalog, the query engine and the command line
can use these types without loading any model runtime (the `vision` package imports onnxruntime).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class FactRecord:
    """A fact an analyzer found; see `catalog.models.Fact`."""

    kind: str
    label: str
    score: float = 1.0
    box: list[float] | None = None
    data: dict | None = None


@dataclass
class FaceRecord:
    """A face an analyzer found; `name` is set for a named region read from the file."""

    box: list[float]
    score: float = 1.0
    descriptor: np.ndarray | None = None
    name: str | None = None


@dataclass
class AnalysisResult:
    """What one analyzer saw in one photo."""

    facts: list[FactRecord] = field(default_factory=list)
    faces: list[FaceRecord] = field(default_factory=list)
    embeddings: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass
class PhotoImage:
    """A photo ready for analysis: RGB uint8 (H, W, 3), EXIF orientation applied, longest side
    at most `Settings.analysis_max_side`. `full_width`/`full_height` are the original size."""

    photo_id: int
    path: str
    rgb: np.ndarray
    full_width: int
    full_height: int
