"""The one latency summary every benchmark prints (p50/p95/mean/n of millisecond samples), and the
per-stage rows of the indexing comparisons."""

from __future__ import annotations

import statistics

from photosearch.evaluate.metrics import percentile

__all__ = ["latency_ms", "percentile", "stage_rows"]


def stage_rows(before: dict[str, float], after: dict[str, float]) -> list[tuple[str, float, float]]:
    """(stage, before ms/photo, after ms/photo) for every stage either run has, costliest before first."""
    stages = set(before) | set(after)
    return [
        (k, before.get(k, 0.0), after.get(k, 0.0))
        for k in sorted(sorted(stages), key=lambda s: -before.get(s, 0.0))
    ]


def latency_ms(samples: list[float]) -> dict:
    """p50, p95 (linear-interpolated percentiles), mean and count of millisecond samples."""
    return {
        "p50": round(percentile(samples, 50), 3),
        "p95": round(percentile(samples, 95), 3),
        "mean": round(statistics.fmean(samples), 3) if samples else 0.0,
        "n": len(samples),
    }
