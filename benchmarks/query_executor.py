"""Executor + composer benchmark on a synthetic catalog.

    python -m benchmarks.query_executor --photos 100000 [--data-dir DIR] [--repeat 20]

Builds (once, cached in DIR) the synthetic catalog of `photosearch.evaluate.synth` with named
people and faces, and its vector index (the indexer's post step, timed apart); then prints p50/p95
milliseconds of load + execute + compose + why (planning excluded) per plan and overall, after one
warm-up run per plan.
Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from benchmarks.query_scale import build_vector_indexes
from benchmarks.stats import latency_ms
from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.evaluate.synth import HashEmbedder, generate_catalog

PLANS = {
    "concept dog": {"concept": "dog"},
    "concept sports car": {"concept": "sports car"},
    "dog AND Anna": {"and": [{"concept": "dog"}, {"person": "Anna"}]},
    "Anna AND Tom NOT Eve": {"and": [{"person": "Anna"}, {"person": "Tom"}, {"not": {"person": "Eve"}}]},
    "beach AND summer 2021": {
        "and": [{"concept": "beach"}, {"date": {"from": "2021-06-01", "to": "2021-08-31"}}]
    },
    "cat OR dog": {"or": [{"concept": "cat"}, {"concept": "dog"}]},
    "place Italy": {"place": "Italy"},
    "text EXIT": {"text": "EXIT"},
    "camera pixel, 3+ faces": {"and": [{"camera": "Pixel"}, {"faces": {"min": 3, "max": None}}]},
    "NOT animal": {"not": {"concept": "animal"}},
}
COMPOSE = {
    "dog, best 20 one per day, no dups": (
        {"concept": "dog"},
        {"limit": 20, "per": "day", "exclude_near_duplicates": True},
    ),
    "Italy, 30 diverse by month": ({"place": "Italy"}, {"limit": 30, "diverse": True, "per": "month"}),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=10000)
    ap.add_argument("--data-dir", help="catalog location (reused when it already holds --photos photos)")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from photosearch.query.resolvers.base import EmbeddingSignal
    from photosearch.query.search import search

    data_dir = Path(args.data_dir or Path(tempfile.gettempdir()) / f"photosearch-bench-{args.photos}")
    settings = Settings(data_dir=data_dir)
    settings.ensure_dirs()
    marker = data_dir / "bench.json"
    if not marker.is_file() or json.loads(marker.read_text()).get("photos") != args.photos:
        print(f"building a synthetic catalog of {args.photos} photos in {data_dir}")
        for f in data_dir.glob("catalog.db*"):
            f.unlink()
        store = Store(settings.database_url)
        generate_catalog(store, args.photos, people=True)
        marker.write_text(json.dumps({"photos": args.photos}))
    else:
        store = Store(settings.database_url)
    print(f"vector indexes ready in {build_vector_indexes(store, settings):.1f} s (the indexer's post step)")
    signals = [EmbeddingSignal("facts_text", HashEmbedder(384).embed)]
    cases = {k: ({"version": 1, "where": w, "compose": {"limit": 50}}) for k, w in PLANS.items()}
    cases |= {k: {"version": 1, "where": w, "compose": c} for k, (w, c) in COMPOSE.items()}
    t = time.perf_counter()
    search(store, settings, plan=cases["concept dog"], signals=signals)
    print(f"cold start (snapshot load + calibration): {time.perf_counter() - t:.2f} s")
    rows, all_ms = [], []
    for name, plan in cases.items():
        search(store, settings, plan=plan, signals=signals)  # warm-up (place facts, caches)
        ms = []
        for _ in range(args.repeat):
            out = search(store, settings, plan=plan, signals=signals)
            tm = out["timing_ms"]
            ms.append(tm["execute"] + tm["compose"] + tm["load"] + tm["why"])
        all_ms += ms
        lat = latency_ms(ms)
        rows.append(
            {
                "plan": name,
                "matched": out["matched"],
                "returned": len(out["results"]),
                "solver": out["composer"]["solver"],
                "p50_ms": lat["p50"],
                "p95_ms": lat["p95"],
            }
        )
    lat = latency_ms(all_ms)
    summary = {"photos": args.photos, "p50_ms": lat["p50"], "p95_ms": lat["p95"], "plans": rows}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for r in rows:
            print(
                f"{r['plan']:<38} matched {r['matched']:>7}  returned {r['returned']:>3}  {r['solver']:<6} "
                f"p50 {r['p50_ms']:>7.2f} ms  p95 {r['p95_ms']:>7.2f} ms"
            )
        print(
            f"ALL plans at {args.photos} photos: p50 {summary['p50_ms']:.2f} ms, p95 {summary['p95_ms']:.2f} ms"
        )
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
