"""Run a golden set: index (or reuse) its gallery, run every query, score it.

The search function is injected (`search_fn`); `resolve_search("auto")` returns the real
`photosearch.query.search.search`, `"baseline"` the lexical baseline. The result is a plain
JSON-able dict (format `photosearch-eval/1`, see docs/EVALUATION.md).
"""

from __future__ import annotations

import logging
import platform
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

from photosearch.catalog.models import Photo
from photosearch.errors import PhotoSearchError
from photosearch.evaluate import metrics as M
from photosearch.evaluate.golden import GoldenQuery, GoldenSet

log = logging.getLogger(__name__)

RUN_FORMAT = "photosearch-eval/1"
SearchFn = Callable[..., dict]
ProgressFn = Callable[[str, int, int], None]


def real_search() -> SearchFn:
    """`photosearch.query.search.search` (imported when asked for: it loads the query engine)."""
    from photosearch.query.search import search

    return search


def resolve_search(name: str = "auto") -> tuple[str, SearchFn]:
    """`auto`/`real`: the app's search; `baseline`: lexical fact matching."""
    if name in ("auto", "real"):
        return "real", real_search()
    if name != "baseline":
        raise PhotoSearchError(f"unknown search {name!r}; use auto, real or baseline")
    from photosearch.evaluate.baseline import baseline_search

    return "baseline", baseline_search


# ---- catalog -----------------------------------------------------------------------------------


def gallery_photo_count(store, gallery: Path) -> int:
    prefix = str(gallery.resolve()).rstrip("/") + "/"
    with store.session() as s:
        return int(
            s.scalar(
                select(func.count())
                .select_from(Photo)
                .where(Photo.state == "active", Photo.path.startswith(prefix, autoescape=True))
            )
            or 0
        )


def prepare_catalog(
    golden: GoldenSet,
    store,
    settings,
    *,
    reuse: bool = False,
    analyzers=None,
    indexer_factory=None,
    progress=None,
    cancel=None,
) -> dict:
    """Register the gallery and index it (incremental), or reuse what the catalog has."""
    have = gallery_photo_count(store, golden.gallery)
    if reuse and have:
        return {"reused": True, "photos": have}
    if reuse:
        log.warning("--reuse-catalog: the catalog has no photos of %s yet; indexing it", golden.gallery)
    store.add_folder(golden.gallery)
    if indexer_factory is not None:
        indexer = indexer_factory(store, settings)
    else:
        from photosearch.app import build_indexer

        indexer = build_indexer(store, settings, analyzers=analyzers)
    report = indexer.run(progress=progress, cancel=cancel)
    data = report.as_dict() if hasattr(report, "as_dict") else dict(report)
    data["reused"] = False
    data["photos"] = gallery_photo_count(store, golden.gallery)
    data["analyzers"] = [a.name for a in getattr(indexer, "analyzers", [])]
    return data


# ---- one query ---------------------------------------------------------------------------------


def _relative(path: str, gallery: Path) -> str:
    try:
        return Path(path).resolve().relative_to(gallery).as_posix()
    except ValueError:
        return str(path)


def score_query(q: GoldenQuery, ranked: Sequence[str], above: Sequence[bool] | None = None) -> dict:
    """Every metric of one query at its cut-offs. `above[i]`: result i was a confident, full match
    (not a closest match below the cut-off, not a partial one). An absent-concept request is scored
    only by `absent_fp`."""
    rel = q.relevant
    above = list(above) if above is not None else [True] * len(ranked)
    out: dict[str, float] = {}
    if q.absent:
        out["absent_fp"] = 1.0 if M.absent_false_positive(above) else 0.0
        out["above_cutoff"] = float(sum(above))
        return out
    for k in q.k:
        out[f"P@{k}"] = M.precision_at_k(ranked, rel, k)
        out[f"R@{k}"] = M.recall_at_k(ranked, rel, k)
        out[f"nDCG@{k}"] = M.ndcg_at_k(ranked, rel, k)
        out[f"hit@{k}"] = 1.0 if any(rel.get(p, 0) > 0 for p in ranked[:k]) else 0.0
    out["empty"] = 1.0 if not ranked and any(g > 0 for g in rel.values()) else 0.0
    out["MRR"] = M.reciprocal_rank(ranked, rel)
    out["AP"] = M.average_precision(ranked[: max(q.k)], rel)
    out["above_cutoff"] = float(sum(above))
    precision = M.above_cutoff_precision(ranked, rel, above)
    if precision is not None:
        out["above_cutoff_precision"] = precision
    return out


def run_query(
    q: GoldenQuery, golden: GoldenSet, store, settings, search_fn: SearchFn, *, limit: int, repeat: int = 1
) -> dict:
    row: dict = {
        "id": q.id,
        "request": q.request,
        "notes": q.notes,
        "k": list(q.k),
        "relevant": dict(q.relevant),
        "expected_plan": q.expected_plan,
        "absent": q.absent,
        "error": None,
    }
    plan_in = (
        {
            "version": 1,
            "where": q.plan["where"],
            **({"compose": q.plan["compose"]} if "compose" in q.plan else {}),
        }
        if q.plan
        else None
    )
    latencies: list[float] = []
    out: dict = {}
    try:
        for _ in range(max(1, repeat)):
            t0 = time.perf_counter()
            out = search_fn(store, settings, request=q.request, plan=plan_in, limit=limit, explain=True)
            latencies.append((time.perf_counter() - t0) * 1000)
    except Exception as exc:  # one bad query must not stop the run
        log.warning("query %s failed: %s", q.id, exc)
        row["error"] = f"{type(exc).__name__}: {exc}"
    results = out.get("results") or []
    ranked = [_relative(r["path"], golden.gallery) for r in results]
    # confident = a full match: neither a closest match below the cut-off nor a partial one (shown
    # with what it misses, "partial: no parrot")
    above = [not r.get("below_cutoff", False) and not r.get("partial", False) for r in results]
    row["results"] = [
        {
            "path": p,
            "score": r.get("score"),
            "grade": q.relevant.get(p, 0.0),
            "below_cutoff": bool(r.get("below_cutoff", False)),
            "partial": bool(r.get("partial", False)),
            "why": r.get("why"),
        }
        for p, r, a in zip(ranked, results, above, strict=True)
    ]
    row["plan"] = out.get("plan")
    row["timing_ms"] = out.get("timing_ms")
    row["latency_ms"] = latencies
    row["metrics"] = score_query(q, ranked, above)
    cut = ranked[: max(q.k)]
    row["hits"] = [p for p in cut if q.relevant.get(p, 0) > 0]
    row["misses"] = [
        p for p in sorted(q.relevant, key=lambda p: -q.relevant[p]) if p not in cut and q.relevant[p] > 0
    ]
    row["false_positives"] = [p for p in cut if q.relevant.get(p, 0) <= 0]
    row["pr_curve"] = M.precision_recall_curve(ranked, q.relevant)
    if q.expected_plan is not None:
        predicted = row["plan"] if isinstance(row["plan"], dict) else None
        p, r, f = M.atom_prf(predicted, q.expected_plan)
        try:
            exact = M.plan_exact_match(predicted, q.expected_plan)
        except Exception:  # a malformed predicted plan is simply not a match
            exact = False
        row["planner"] = {"exact": exact, "atom_precision": p, "atom_recall": r, "atom_f1": f}
    return row


# ---- whole run ---------------------------------------------------------------------------------


def summarise(rows: list[dict], ks: Sequence[int]) -> dict:
    """Means over queries. Ranking metrics count the queries with something to find; absent-concept
    requests count only in `absent_fp_rate` (the share answered with a result above the cut-off)."""

    def mean(vals):
        vals = list(vals)
        return sum(vals) / len(vals) if vals else None

    absent = [r for r in rows if r.get("absent")]
    judged = [r for r in rows if not r.get("absent")]
    s: dict = {"queries": len(rows), "failed_queries": sum(1 for r in rows if r["error"])}
    for k in ks:
        for m in ("P", "R", "nDCG", "hit"):
            s[f"{m}@{k}"] = mean(r["metrics"][f"{m}@{k}"] for r in judged if f"{m}@{k}" in r["metrics"])
    s["MRR"] = mean(r["metrics"]["MRR"] for r in judged)
    # queries with a relevant photo that returned nothing at all
    s["empty_result_rate"] = mean(r["metrics"].get("empty", 0.0) for r in judged)
    s["mAP"] = mean(r["metrics"]["AP"] for r in judged)
    # results above the cut-off must be right: their precision, over the queries that had any
    confident = [
        r["metrics"]["above_cutoff_precision"] for r in judged if "above_cutoff_precision" in r["metrics"]
    ]
    s["above_cutoff_precision"] = mean(confident)
    s["above_cutoff_queries"] = len(confident)
    s["absent_queries"] = len(absent)
    s["absent_fp_rate"] = mean(r["metrics"].get("absent_fp", 0.0) for r in absent)
    planned = [r["planner"] for r in rows if "planner" in r]
    s["planner_queries"] = len(planned)
    s["plan_exact_match"] = mean(1.0 if p["exact"] else 0.0 for p in planned)
    s["atom_f1"] = mean(p["atom_f1"] for p in planned)
    lat = [x for r in rows for x in r["latency_ms"]]
    s["latency_ms_p50"] = M.percentile(lat, 50)
    s["latency_ms_p95"] = M.percentile(lat, 95)
    s["latency_ms_max"] = max(lat) if lat else 0.0
    return s


def run_eval(
    golden: GoldenSet,
    store,
    settings,
    *,
    search_fn: SearchFn | None = None,
    search_name: str | None = None,
    reuse_catalog: bool = False,
    analyzers=None,
    indexer_factory=None,
    repeat: int = 1,
    label: str | None = None,
    progress: ProgressFn | None = None,
    cancel=None,
) -> dict:
    """Index (or reuse) the gallery, run every query, return the run as a JSON-able dict."""
    if search_fn is None:
        search_name, search_fn = resolve_search("auto")
    started = time.perf_counter()
    if progress:
        progress("index", 0, len(golden.queries))
    index = prepare_catalog(
        golden,
        store,
        settings,
        reuse=reuse_catalog,
        analyzers=analyzers,
        indexer_factory=indexer_factory,
        cancel=cancel,
    )
    if index.get("photos", 0) == 0:
        raise PhotoSearchError(f"no photos of {golden.gallery} could be indexed; nothing to evaluate")
    if golden.people:
        from photosearch.evaluate.naming import name_golden_people

        index["people"] = name_golden_people(store, golden.gallery, golden.people)
    limit = max(max(q.k) for q in golden.queries)
    rows = []
    for i, q in enumerate(golden.queries):
        if cancel and cancel():
            break
        rows.append(run_query(q, golden, store, settings, search_fn, limit=limit, repeat=repeat))
        if progress:
            progress("query", i + 1, len(golden.queries))
    return {
        "format": RUN_FORMAT,
        "name": golden.name,
        "label": label or search_name or getattr(search_fn, "__name__", "search"),
        "golden": str(golden.path) if golden.path else None,
        "gallery": str(golden.gallery),
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "environment": {
            "search": search_name or getattr(search_fn, "__name__", "search"),
            "catalog": store.engine.dialect.name,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "repeat": repeat,
        },
        "k": list(golden.k),
        "index": index,
        "summary": summarise(rows, golden.k),
        "queries": rows,
        "elapsed_s": round(time.perf_counter() - started, 3),
    }
