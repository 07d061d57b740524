"""The one latency summary every benchmark prints: p50/p95/mean/n of millisecond samples."""

from __future__ import annotations

import statistics

from photosearch.evaluate.metrics import percentile

__all__ = ["latency_ms", "percentile"]


def latency_ms(samples: list[float]) -> dict:
    """p50, p95 (linear-interpolated percentiles), mean and count of millisecond samples."""
    return {
        "p50": round(percentile(samples, 50), 3),
        "p95": round(percentile(samples, 95), 3),
        "mean": round(statistics.fmean(samples), 3) if samples else 0.0,
        "n": len(samples),
    }
