"""Wall time of a cold `photosearch search` (a new process each time, as a person runs it).

    python -m benchmarks.cli_cold_search [--repeat 5] [--query "tabby cat"]

Builds a small real catalog (8 example photos, bundled models) in a temp dir, runs the command once to
build the per-user caches (the place index), then REPEAT times, and prints each wall time, the median,
and the heaviest imports of one cold start (`python -X importtime`)."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.gui_first_search import build_catalog


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--query", default="tabby cat")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="ps-bench-") as tmp:
        data = build_catalog(Path(tmp))
        env = {**os.environ, "PHOTOSEARCH_DATA_DIR": str(data), "PHOTOSEARCH_CACHE_DIR": str(Path(tmp) / "cache")}
        cmd = [sys.executable, "-m", "photosearch", "search", args.query]
        subprocess.run(cmd, env=env, capture_output=True, check=True)  # first use builds the caches
        walls = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            walls.append(time.perf_counter() - t0)
            print(f"cold search {walls[-1]:.2f} s  ({out.stdout.strip().splitlines()[-1]})", flush=True)
        print(f"median {statistics.median(walls):.2f} s over {len(walls)} runs")
        prof = subprocess.run([sys.executable, "-X", "importtime", *cmd[1:]], env=env, capture_output=True, text=True)
        rows = [line.split("|") for line in prof.stderr.splitlines() if line.startswith("import time:")][1:]
        top = sorted(((int(r[1]), r[2].rstrip()) for r in rows if r[1].strip().isdigit()), reverse=True)[:8]
        print("heaviest imports (cumulative ms):")
        for us, name in top:
            print(f"  {us / 1000:7.1f}  {name.strip()}")


if __name__ == "__main__":
    main()
