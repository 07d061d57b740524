"""The first search of a new process on an existing catalog, and the second, by stage.

    python -m benchmarks.first_search DATA_DIR [--request dog] [--repeat 3]

Each repeat starts a new Python process that opens the catalog in DATA_DIR (as `photosearch
--data-dir DATA_DIR` would), runs one request twice and reports wall times and `search()`'s own
stages: `plan` holds the catalog snapshot's load (from the saved file, else from SQL), `load` the
query context, `execute` the vector index's opening and the concept null model on a first request.
Prints medians; never asserts times. A 1M catalog: `python -m benchmarks.suite query --sizes 1000000
--data-dir D` makes one in `D/catalog-1000000`.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CHILD = """
import json, sys, time
t0 = time.perf_counter()
from pathlib import Path
from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.query.search import search
imports = time.perf_counter() - t0
settings = Settings.load(sys.argv[1])
t = time.perf_counter()
store = Store(settings.database_url)
opened = time.perf_counter() - t
runs = []
for _ in range(2):
    t = time.perf_counter()
    out = search(store, settings, request=sys.argv[2], limit=50)
    runs.append({"wall_s": time.perf_counter() - t, "results": len(out["results"]), "timing_ms": out["timing_ms"]})
print(json.dumps({"imports_s": imports, "open_s": opened, "first": runs[0], "second": runs[1]}))
"""


def one_process(data_dir: str, request: str) -> dict:
    """One new process: its first and second search."""
    env = dict(os.environ, ORT_DISABLE_TELEMETRY="1")
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, data_dir, request], capture_output=True, text=True, env=env, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"the search process failed:\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["process_s"] = time.perf_counter() - t
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.first_search", description=__doc__.splitlines()[0]
    )
    ap.add_argument("data_dir", help="a data dir holding a catalog (catalog.db, vectors/, cache/)")
    ap.add_argument("--request", default="dog")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", help="write the figures as JSON here")
    args = ap.parse_args(argv)
    runs = [one_process(args.data_dir, args.request) for _ in range(args.repeat)]
    for i, r in enumerate(runs, 1):
        first, second = r["first"], r["second"]
        stages = ", ".join(f"{k} {v / 1000:.2f} s" for k, v in first["timing_ms"].items() if k != "total")
        print(
            f"process {i}: imports {r['imports_s']:.2f} s, open {r['open_s']:.2f} s, first search "
            f"{first['wall_s']:.2f} s ({stages}), second {second['wall_s'] * 1000:.0f} ms; process {r['process_s']:.1f} s"
        )
    median = {
        "first_search_s": statistics.median(r["first"]["wall_s"] for r in runs),
        "second_search_ms": statistics.median(r["second"]["wall_s"] * 1000 for r in runs),
        "process_s": statistics.median(r["process_s"] for r in runs),
    }
    print(
        f"median of {len(runs)}: first search {median['first_search_s']:.2f} s, second "
        f"{median['second_search_ms']:.0f} ms, whole process {median['process_s']:.1f} s; load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"request": args.request, "runs": runs, "median": median}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
