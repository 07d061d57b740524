"""Query speed at several catalog sizes: PhotoSearch beside an rclip-style brute-force baseline.

Per size: a synthetic catalog (`photosearch.evaluate.synth`), its vector indexes built the way
`photosearch index` builds them (the `vectors` post step, timed as index time), then

* PhotoSearch: every request of `QUERIES` once (first call), then `repeat` times (warm), with the
  time per stage (`search()`'s `timing_ms`: plan, load, execute, compose, why; the executor's
  atoms by kind);
* the baseline, what rclip does: every vector of the space read from SQLite into one matrix (timed
  once, as rclip pays it per run), then per request: encode the text, one numpy dot product, top-k;
* the ratio PhotoSearch p50 / baseline p50, measured in the same run on the same catalog.

Used by `python -m benchmarks.suite query`; prints figures and returns them, never asserts times.
"""

from __future__ import annotations

import json
import os
import resource
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sqlalchemy import text

from benchmarks.stats import latency_ms
from photosearch.query.resolvers.concept import EXACT_SEARCH_MAX
from photosearch.vectors.exact import top_k

SPACE = "facts_text"
STAGES = ("plan", "load", "execute", "compose", "why")

QUERIES = [
    {"request": "dog"},
    {"request": "cat on the beach"},
    {"request": "photos with the word EXIT"},
    {"request": "screenshots"},
    {"request": "pizza from 2019"},
    {"request": "taken with a Pixel 7"},
    {"request": "mountains, not the blurry ones"},
    {"request": "photos in Paris"},
    {"plan": {"version": 1, "where": {"and": [{"concept": "animal"}, {"not": {"quality": "blurry"}}]}}},
]


#: Query words for the index quality measure: the synthetic catalog's concepts (its tags).
QUALITY_WORDS = ["dog", "cat", "beach", "mountain", "pizza", "car", "flower", "church", "guitar", "sunset"]


def query_key(q: dict) -> str:
    return q.get("request") or json.dumps(q["plan"]["where"])


def build_vector_indexes(store, settings) -> float:
    """The indexer's `vectors` post step on the catalog; seconds it took (index time, not query time)."""
    from photosearch.app import default_post_steps

    t0 = time.perf_counter()
    dict(default_post_steps(settings))["vectors"](store, None, None, lambda: False)
    return time.perf_counter() - t0


def rclip_baseline(
    store, encode: Callable[[list[str]], np.ndarray], requests: list[str], repeat: int, k: int = 50
) -> dict:
    """rclip's search: all vectors from SQLite into a matrix (timed once), then encode + dot + top-k."""
    t0 = time.perf_counter()
    ids, matrix = read_vectors(store)
    load_s = time.perf_counter() - t0
    samples: list[float] = []
    for round_ in range(repeat + 1):  # round 0 warms up
        for req in requests:
            t = time.perf_counter()
            q = encode([req])[0]
            ids[top_k(matrix @ (q / max(float(np.linalg.norm(q)), 1e-12)), k)]
            if round_:
                samples.append((time.perf_counter() - t) * 1000)
    return {"load_s": round(load_s, 3), "vectors": int(ids.size), "warm_ms": latency_ms(samples)}


def read_vectors(store) -> tuple[np.ndarray, np.ndarray]:
    """(photo ids, vectors) of the space's active photos, straight from SQL, as rclip reads them."""
    with store.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT e.photo_id, e.vector FROM embeddings e JOIN photos p ON p.id = e.photo_id "
                "WHERE p.state = 'active' AND e.space = :space"
            ),
            {"space": SPACE},
        ).all()
    ids = np.fromiter((r[0] for r in rows), np.int64, len(rows))
    matrix = np.frombuffer(b"".join(r[1] for r in rows), np.float32).reshape(len(rows), -1)
    return ids, matrix


#: expansion_search values the index quality is measured at (None: the index's own).
EXPANSIONS = (None, 256, 1024, 4096)


def index_quality(store, settings, encode, words: list[str], k: int = 1024) -> dict | None:
    """The saved index against exact search over the same vectors, per `expansion_search`: recall@10
    and recall@k (k = the concept resolver's first search), and what matters for a concept search
    when many photos tie: the share of results that carry the query word as a tag (`precision@k`,
    beside exact search's own) and how far the k-th similarity falls short of the exact k-th."""
    from photosearch.query.resolvers.snapshot import get_snapshot
    from photosearch.query.search import vector_indexes

    index = vector_indexes(store, settings).open(SPACE)
    if index is None or len(index) <= EXACT_SEARCH_MAX:
        return None
    ids, matrix = read_vectors(store)
    snap = get_snapshot(store)
    queries = np.asarray(encode(words), np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    relevant = [set(snap.ids[g.rows].tolist()) if (g := snap.group("tag", w)) else set() for w in words]
    exact = []
    for q in queries:
        sims = matrix @ q
        top = top_k(sims, k)
        exact.append((ids[top], sims[top]))
    own = index.index.expansion_search
    rows = []
    try:
        for expansion in (own if e is None else e for e in EXPANSIONS):
            index.index.expansion_search = expansion
            rows.append(_quality_row(index, queries, exact, relevant, k, expansion))
    finally:
        index.index.expansion_search = own
    precision_exact = np.mean([len(set(e[0].tolist()) & r) / k for e, r in zip(exact, relevant, strict=True)])
    return {
        "k": k,
        "queries": len(words),
        "precision_at_k_exact": round(float(precision_exact), 4),
        "by_expansion": rows,
    }


def _quality_row(index, queries, exact, relevant, k: int, expansion: int) -> dict:
    rec10, reck, prec, short, ms = [], [], [], [], []
    for q, (eids, esims), rel in zip(queries, exact, relevant, strict=True):
        t = time.perf_counter()
        keys, sims = index.search(q, k)
        ms.append((time.perf_counter() - t) * 1000)
        got = set(keys.tolist())
        rec10.append(len(set(keys[:10].tolist()) & set(eids[:10].tolist())) / 10)
        reck.append(len(got & set(eids.tolist())) / k)
        prec.append(len(got & rel) / k)
        short.append(float(esims[-1] - sims[-1]) if sims.size else float("nan"))
    return {
        "expansion_search": int(expansion),
        "recall_at_10": round(float(np.mean(rec10)), 4),
        "recall_at_k": round(float(np.mean(reck)), 4),
        "precision_at_k": round(float(np.mean(prec)), 4),
        "kth_similarity_shortfall": round(float(np.mean(short)), 4),
        "search_ms": latency_ms(ms),
    }


def photosearch_runs(store, settings, fn, repeat: int) -> dict:
    """First call and warm calls of every request, with the mean time per stage and per atom kind."""
    cold, warm, per_query = [], [], {}
    stages: dict[str, list[float]] = defaultdict(list)
    atoms: dict[str, list[float]] = defaultdict(list)
    for q in QUERIES:
        t0 = time.perf_counter()
        fn(store, settings, request=q.get("request"), plan=q.get("plan"), limit=50, explain=True)
        cold.append((time.perf_counter() - t0) * 1000)
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            out = fn(store, settings, request=q.get("request"), plan=q.get("plan"), limit=50, explain=True)
            samples.append((time.perf_counter() - t0) * 1000)
            for stage, ms in (out.get("timing_ms") or {}).items():
                stages[stage].append(ms)
            for atom in (out.get("explain") or {}).get("atoms", []):
                atoms[next(iter(atom["atom"]))].append(atom.get("ms", 0.0))
        warm += samples
        per_query[query_key(q)] = {
            "ms": latency_ms(samples),
            "results": len(out.get("results", [])),
            "notes": (out.get("explain") or {}).get("notes", []),
        }
    n = max(len(warm), 1)
    return {
        "cold_ms": latency_ms(cold),
        "warm_ms": latency_ms(warm),
        "per_query": per_query,
        "stage_ms_mean": {k: round(sum(v) / n, 3) for k, v in stages.items() if k != "total"},
        "atom_ms_mean": {k: round(sum(v) / n, 3) for k, v in atoms.items()},
    }


def model_encoder(store, settings, dim: int) -> Callable[[list[str]], np.ndarray] | None:
    """The text encoder search uses for the space (MiniLM) when it is installed and its size fits."""
    from photosearch.query.search import default_signals

    for signal in default_signals(store, settings):
        if signal.space == SPACE and np.asarray(signal.encode(["probe"])).shape[-1] == dim:
            return signal.encode
    return None


def query_encoder(store, settings, dim: int) -> Callable[[list[str]], np.ndarray]:
    """`model_encoder`, else the hash embedder."""
    from photosearch.evaluate.synth import HashEmbedder

    return model_encoder(store, settings, dim) or HashEmbedder(dim).embed


def facts_text_vectors(store, settings, dim: int):
    """`FactsTextVectors` over the text encoder search uses (MiniLM); SystemExit when it is not installed."""
    from photosearch.evaluate.synth import FactsTextVectors

    encode = model_encoder(store, settings, dim)
    if encode is None:
        raise SystemExit("facts-text vectors need the MiniLM text model (or use --vectors clustered)")
    return FactsTextVectors(encode)


def vector_search_ms(store, settings, encode, requests: list[str], repeat: int, k: int = 1024) -> dict | None:
    """The usearch index's share of a concept atom: one k-nearest search (k as the concept resolver's first)."""
    from photosearch.query.search import vector_indexes

    index = vector_indexes(store, settings).open(SPACE)
    if index is None:
        return None
    queries = [encode([r])[0] for r in requests]
    samples = []
    for _ in range(repeat):
        for q in queries:
            t = time.perf_counter()
            index.search(q, k, exact=len(index) <= EXACT_SEARCH_MAX)
            samples.append((time.perf_counter() - t) * 1000)
    return latency_ms(samples)


def bench_size(store, settings, fn, n: int, repeat: int, dim: int, build: bool = True) -> dict:
    build_s = build_vector_indexes(store, settings) if build else None
    build_rss = peak_rss_mb()
    ours = photosearch_runs(store, settings, fn, repeat)
    search_rss = peak_rss_mb()  # before the baseline reads every vector
    requests = [q["request"] for q in QUERIES if q.get("request")]
    encode = query_encoder(store, settings, dim)
    base = rclip_baseline(store, encode, requests, repeat)
    ratio = ours["warm_ms"]["p50"] / max(base["warm_ms"]["p50"], 1e-9)
    return {
        "photos": n,
        "vectors_build_s": None if build_s is None else round(build_s, 2),
        **ours,
        "baseline": base,
        "vector_search_ms": vector_search_ms(store, settings, encode, requests, repeat),
        "index_quality": index_quality(store, settings, encode, QUALITY_WORDS),
        "ratio_p50": round(ratio, 2),
        "peak_rss_mb": search_rss,
        "peak_rss_after_build_mb": build_rss,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far (MiB; Linux reports KiB): after the build, and
    after PhotoSearch's searches (the build's peak included when it ran in the same process)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def print_size(row: dict, previous: dict | None) -> None:
    w, b = row["warm_ms"], row["baseline"]["warm_ms"]
    grow = f", x{w['p50'] / previous['warm_ms']['p50']:.1f} vs {previous['photos']:,}" if previous else ""
    print(
        f"  {row['photos']:>9,} photos: PhotoSearch p50 {w['p50']:.1f} ms, p95 {w['p95']:.1f} ms{grow} | "
        f"rclip-style baseline p50 {b['p50']:.1f} ms, p95 {b['p95']:.1f} ms (+ {row['baseline']['load_s']:.2f} s "
        f"to read the vectors) | ratio {row['ratio_p50']:.2f} | index built in {row['vectors_build_s']} s"
        + (" (not built: exact fallback)" if row["vectors_build_s"] is None else ""),
        flush=True,
    )
    stages = ", ".join(f"{k} {row['stage_ms_mean'].get(k, 0):.1f}" for k in STAGES)
    atoms = ", ".join(f"{k} {v:.1f}" for k, v in sorted(row["atom_ms_mean"].items(), key=lambda kv: -kv[1]))
    vs = row["vector_search_ms"]
    vs_text = f"; usearch k=1024 p50 {vs['p50']:.1f} ms" if vs else "; no usearch index (exact search)"
    print(
        f"      mean ms per stage: {stages}; atoms: {atoms}{vs_text}; peak RSS {row['peak_rss_mb']:,.0f} MiB; "
        f"load average {row['load_average']}",
        flush=True,
    )
    quality = row.get("index_quality")
    if quality:
        print(
            f"      index vs exact search (k={quality['k']}, {quality['queries']} concept words; exact search's "
            f"precision@k {quality['precision_at_k_exact']:.3f}):",
            flush=True,
        )
        for r in quality["by_expansion"]:
            print(
                f"        expansion_search {r['expansion_search']:>5}: recall@10 {r['recall_at_10']:.3f}, "
                f"recall@k {r['recall_at_k']:.3f}, precision@k {r['precision_at_k']:.3f}, k-th similarity "
                f"short by {r['kth_similarity_shortfall']:.4f}, search p50 {r['search_ms']['p50']:.1f} ms",
                flush=True,
            )
    for key, q in row["per_query"].items():
        print(
            f"      {key[:60]:<60} p50 {q['ms']['p50']:7.1f} p95 {q['ms']['p95']:7.1f} ({q['results']} results)"
            + (f"  notes: {q['notes']}" if q["notes"] else ""),
            flush=True,
        )


def bench_query(
    sizes: list[int],
    repeat: int,
    fn,
    root: Path,
    keep: bool,
    dim: int,
    db_url: str | None,
    settings_for: Callable,
    build: bool = True,
    vectors: str = "facts-text",
) -> list[dict]:
    """Every size in turn (catalogs kept under `root` when `keep`, and reused when they match).
    Without `build`, no vector index is built: search runs its exact fallback over the catalog's vectors.
    `vectors`: "facts-text" (what MiniLM makes of each photo's facts, see `FactsTextVectors`) or
    "clustered" (random concept centroids plus noise: no text query lands near them)."""
    from photosearch.catalog import Store
    from photosearch.evaluate.synth import generate_catalog

    rows: list[dict] = []
    for n in sizes:
        settings = settings_for(root / f"catalog-{n}", db_url)
        store = Store(settings.database_url)
        have = len(store.active_photo_ids()) if keep else 0
        gen = {"photos": have, "seconds": 0.0, "reused": True}
        if have != n:
            if have:
                raise SystemExit(f"{settings.data_dir} holds {have} photos, not {n}: use another --data-dir")
            text_vectors = facts_text_vectors(store, settings, dim) if vectors == "facts-text" else None
            gen = generate_catalog(store, n, spaces={SPACE: dim}, text_vectors=text_vectors)
            gen["vectors"] = vectors
            if text_vectors is not None:
                gen["distinct_facts_texts"] = text_vectors.distinct_texts
        row = {"generate": gen, **bench_size(store, settings, fn, n, repeat, dim, build)}
        store.close()
        print_size(row, rows[-1] if rows else None)
        rows.append(row)
    return rows
