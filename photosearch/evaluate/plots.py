"""Report plots with matplotlib (Agg, no display): each function returns PNG bytes."""

from __future__ import annotations

import io
from functools import cache

import numpy as np

from photosearch.errors import PhotoSearchError

RECALL_LEVELS = np.linspace(0.0, 1.0, 11)


@cache
def _pyplot():
    """matplotlib's pyplot on the Agg backend (no display); matplotlib comes with the examples extra."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # a third-party package of an extra, not our module
        raise PhotoSearchError(
            "evaluation reports draw their plots with matplotlib, which is not installed: install the "
            "examples extra, `bash installer/install.sh models,llm,gui,examples`"
        ) from None
    return plt


def _png(fig) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    _pyplot().close(fig)
    return buf.getvalue()


def headline_ks(ks: list[int]) -> tuple[int, int]:
    """(k for precision, k for recall/nDCG): a small k users look at, and the largest."""
    small = next((k for k in sorted(ks) if k >= 3), max(ks))
    return small, max(ks)


def per_query_bars(rows: list[dict], ks: list[int]) -> bytes:
    kp, kr = headline_ks(ks)
    names = [f"P@{kp}", f"R@{kr}", f"nDCG@{kr}", "AP"]
    ids = [r["id"] for r in rows]
    x = np.arange(len(ids))
    width = 0.8 / len(names)
    fig, ax = _pyplot().subplots(figsize=(max(6.0, 0.55 * len(ids) + 2), 3.6))
    for i, name in enumerate(names):
        vals = [r["metrics"].get(name if name != "AP" else "AP", 0.0) or 0.0 for r in rows]
        ax.bar(x + (i - (len(names) - 1) / 2) * width, vals, width, label=name)
    ax.set_xticks(x, ids, rotation=45, ha="right", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("score")
    ax.set_title("Per-query metrics")
    ax.legend(fontsize=8, ncol=len(names), loc="upper center", bbox_to_anchor=(0.5, -0.35))
    return _png(fig)


def latency_histogram(latencies_ms: list[float], p50: float, p95: float) -> bytes:
    fig, ax = _pyplot().subplots(figsize=(5.5, 3.2))
    if latencies_ms:
        ax.hist(latencies_ms, bins=min(30, max(5, len(latencies_ms) // 2)), color="#4c72b0")
        ax.axvline(p50, color="black", linestyle="--", label=f"p50 {p50:.1f} ms")
        ax.axvline(p95, color="#c44e52", linestyle="--", label=f"p95 {p95:.1f} ms")
        ax.legend(fontsize=8)
    ax.set_xlabel("query latency (ms)")
    ax.set_ylabel("queries")
    ax.set_title("Latency")
    return _png(fig)


def interpolated_pr(curve: list[tuple[float, float]]) -> np.ndarray:
    """Interpolated precision at recall 0, 0.1, …, 1 (max precision at any recall ≥ level)."""
    if not curve:
        return np.zeros(RECALL_LEVELS.size)
    rec = np.array([c[0] for c in curve])
    prec = np.array([c[1] for c in curve])
    return np.array([prec[rec >= lvl].max() if (rec >= lvl).any() else 0.0 for lvl in RECALL_LEVELS])


def pr_curves(rows: list[dict]) -> bytes:
    fig, ax = _pyplot().subplots(figsize=(5.0, 3.8))
    all_curves = []
    for r in rows:
        if not r["relevant"]:
            continue
        ip = interpolated_pr(r.get("pr_curve") or [])
        all_curves.append(ip)
        ax.plot(RECALL_LEVELS, ip, color="gray", alpha=0.3, linewidth=1)
    if all_curves:
        ax.plot(
            RECALL_LEVELS,
            np.mean(all_curves, axis=0),
            color="#c44e52",
            linewidth=2.5,
            label="mean (11-point)",
        )
        ax.legend(fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("recall")
    ax.set_ylabel("interpolated precision")
    ax.set_title("Precision-recall")
    return _png(fig)


def compare_summary(a: dict, b: dict, names: list[str], labels: tuple[str, str]) -> bytes:
    x = np.arange(len(names))
    fig, ax = _pyplot().subplots(figsize=(max(6.0, 0.7 * len(names) + 2), 3.4))
    va = [a.get(n) or 0.0 for n in names]
    vb = [b.get(n) or 0.0 for n in names]
    ax.bar(x - 0.2, va, 0.4, label=labels[0], color="#8c8c8c")
    ax.bar(x + 0.2, vb, 0.4, label=labels[1], color="#4c72b0")
    ax.set_xticks(x, names, rotation=30, ha="right", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.legend(fontsize=8)
    ax.set_title("Summary: A vs B")
    return _png(fig)


def compare_deltas(ids: list[str], deltas: list[float], metric: str) -> bytes:
    fig, ax = _pyplot().subplots(figsize=(max(6.0, 0.5 * len(ids) + 2), 3.2))
    colors = ["#55a868" if d > 0 else "#c44e52" if d < 0 else "#8c8c8c" for d in deltas]
    ax.bar(np.arange(len(ids)), deltas, color=colors)
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xticks(np.arange(len(ids)), ids, rotation=45, ha="right", fontsize=8)
    ax.set_ylabel(f"Δ {metric} (B − A)")
    ax.set_title(f"Per-query change in {metric}")
    return _png(fig)
