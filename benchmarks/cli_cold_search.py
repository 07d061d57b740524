"""Wall time of a cold `photosearch search` (a new process each time, as a person runs it).

    python -m benchmarks.cli_cold_search [--repeat 5] [--query "tabby cat"] [--compare /work/main]

Builds a small real catalog (8 example photos, bundled models) in a temp dir, runs each command once
to build the caches (place index, golden library, WordNet index, query vectors) and the bytecode (an
installed app has its .pyc files; PYTHONDONTWRITEBYTECODE is ignored here), then REPEAT times, and
prints each wall and CPU time with the load average beside it, the medians, and the heaviest imports
of one cold start (`python -X importtime`). `--compare DIR` times another checkout (e.g. before a
change) on the same catalog, alternating runs so both see the same load."""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.gui_first_search import build_catalog

ROOT = Path(__file__).resolve().parents[1]


def _env(source: Path, data: Path, tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    tag = source.name or "root"
    return {
        **env,
        "PYTHONPATH": str(source),
        "PHOTOSEARCH_DATA_DIR": str(data),
        "PHOTOSEARCH_CACHE_DIR": str(tmp / f"cache-{tag}"),
        "PYTHONPYCACHEPREFIX": str(tmp / f"pyc-{tag}"),
    }


def _timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """(wall s, CPU s of the child, last line of its output)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = out.stdout.strip().splitlines()
    return wall, cpu, lines[-1] if lines else ""


def heaviest_imports(cmd: list[str], env: dict[str, str], cwd: Path, n: int = 10) -> list[tuple[float, str]]:
    """The top-level imports of one cold start with the most cumulative time (ms)."""
    prof = subprocess.run(
        [sys.executable, "-X", "importtime", *cmd[1:]], env=env, cwd=cwd, capture_output=True, text=True
    )
    rows = [line.split("|") for line in prof.stderr.splitlines() if line.startswith("import time:")][1:]
    top = [
        (int(r[1]) / 1000, r[2].rstrip())
        for r in rows
        if r[1].strip().isdigit() and len(r[2]) - len(r[2].lstrip()) <= 3
    ]
    return sorted(top, reverse=True)[:n]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--query", default="tabby cat")
    p.add_argument("--compare", type=Path, help="another checkout to time on the same catalog (e.g. before)")
    args = p.parse_args()
    sources = {"this": ROOT} | ({"compare": args.compare.resolve()} if args.compare else {})
    commands = {"search": ["search", args.query], "status": ["status"], "help": ["--help"]}
    with tempfile.TemporaryDirectory(prefix="ps-bench-") as tmp:
        data = build_catalog(Path(tmp))
        envs = {name: _env(src, data, Path(tmp)) for name, src in sources.items()}
        for name, src in sources.items():  # first use builds the caches and the bytecode
            for argv in commands.values():
                subprocess.run(
                    [sys.executable, "-m", "photosearch", *argv],
                    env=envs[name],
                    cwd=src,
                    capture_output=True,
                    check=True,
                )
        figures: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for _ in range(args.repeat):
            for cname, argv in commands.items():
                for name, src in sources.items():
                    wall, cpu, last = _timed([sys.executable, "-m", "photosearch", *argv], envs[name], src)
                    figures.setdefault((name, cname), []).append((wall, cpu))
                    print(
                        f"{name:7} {cname:6} wall {wall:5.2f} s  cpu {cpu:5.2f} s  load {os.getloadavg()[0]:4.1f}"
                        + (f"  ({last})" if cname == "search" else ""),
                        flush=True,
                    )
        for (name, cname), values in figures.items():
            print(
                f"median {name:7} {cname:6} wall {statistics.median(v[0] for v in values):5.2f} s  "
                f"cpu {statistics.median(v[1] for v in values):5.2f} s  ({len(values)} runs)"
            )
        for name, src in sources.items():
            print(f"heaviest imports of a cold search, {name} ({src}), cumulative ms:")
            for ms, mod in heaviest_imports(
                [sys.executable, "-m", "photosearch", *commands["search"]], envs[name], src
            ):
                print(f"  {ms:7.1f}  {mod.strip()}")


if __name__ == "__main__":
    main()
