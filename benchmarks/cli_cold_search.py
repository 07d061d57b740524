"""Wall time of a cold `photosearch search` (a new process each time, as a person runs it).

    python -m benchmarks.cli_cold_search [--repeat 5] [--photos 120] [--query "tabby cat"]
                                         [--watch] [--compare /work/main]

Builds a real catalog in a temp dir (`--photos N` photos of the real set, every analyzer of
`photosearch index`; `--photos 8`: the 8 example photos), runs each command once to build the caches
(place index, golden library, WordNet index, query vectors) and the bytecode (an installed app has its
.pyc files; PYTHONDONTWRITEBYTECODE is ignored here), then REPEAT times, and prints each wall and CPU
time with the load average beside it, the medians, and the heaviest imports of one cold start
(`python -X importtime`). `--watch` also runs `photosearch watch` on a copy of the data folder and
times the same search there (`served`: answered over the watcher's search socket), alternating with
the in-process one. `--compare DIR` times another checkout (e.g. before a change) on the same catalog,
alternating runs so both see the same load."""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.gui_first_search import build_catalog

ROOT = Path(__file__).resolve().parents[1]


def build_real_catalog(root: Path, count: int) -> Path:
    """`count` photos of the real set, spread over its folders, indexed as `photosearch index` does."""
    if count <= 8:
        return build_catalog(root)
    from photosearch.app import build_indexer
    from photosearch.catalog import Store
    from photosearch.config import Settings
    from photosearch.evaluate.realset import all_photos, write_gallery

    photos = all_photos()
    step = max(1, len(photos) // count)
    gallery = root / "Pictures"
    write_gallery(gallery, photos[::step][:count])
    settings = Settings(data_dir=root / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    report = build_indexer(store, settings).run()
    print(f"catalog: {report.as_dict()['added']} photos of the real set indexed", flush=True)
    store.close()
    return root / "data"


def start_watch(data: Path, env: dict[str, str]) -> subprocess.Popen:
    """`photosearch watch` on `data`, once its search socket is there (it warms up in the background)."""
    from photosearch.config import Settings
    from photosearch.search_socket.protocol import socket_path

    proc = subprocess.Popen(
        [sys.executable, "-m", "photosearch", "watch", "--no-initial-index"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    path = socket_path(Settings(data_dir=data))
    deadline = time.monotonic() + 120
    while not path.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("photosearch watch did not start serving searches")
        time.sleep(0.2)
    return proc


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
    p.add_argument("--photos", type=int, default=120, help="photos in the catalog (8: the example photos)")
    p.add_argument(
        "--watch", action="store_true", help="also time the search answered by `photosearch watch`"
    )
    p.add_argument("--compare", type=Path, help="another checkout to time on the same catalog (e.g. before)")
    args = p.parse_args()
    sources = {"this": ROOT} | ({"compare": args.compare.resolve()} if args.compare else {})
    commands = {"search": ["search", args.query], "status": ["status"], "help": ["--help"]}
    watch = None
    with tempfile.TemporaryDirectory(prefix="ps-bench-") as tmp:
        data = build_real_catalog(Path(tmp), args.photos)
        envs = {name: _env(src, data, Path(tmp)) for name, src in sources.items()}
        if args.watch:  # the watcher serves its own copy: the others search in their own process
            served = Path(tmp) / "data-served"
            shutil.copytree(data, served)
            sources["served"] = ROOT
            envs["served"] = {
                **_env(ROOT, served, Path(tmp)),
                "PHOTOSEARCH_CACHE_DIR": envs["this"]["PHOTOSEARCH_CACHE_DIR"],
            }
        for name, src in sources.items():  # first use builds the caches and the bytecode
            if name == "served":
                watch = start_watch(served, envs[name])
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
                    if name == "served" and cname != "search":
                        continue  # only a search is served
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
        if watch is not None:
            watch.send_signal(2)  # Ctrl-C: it removes its socket
            watch.wait(timeout=60)
        for name, src in sources.items():
            if name == "served":
                continue
            print(f"heaviest imports of a cold search, {name} ({src}), cumulative ms:")
            for ms, mod in heaviest_imports(
                [sys.executable, "-m", "photosearch", *commands["search"]], envs[name], src
            ):
                print(f"  {ms:7.1f}  {mod.strip()}")


if __name__ == "__main__":
    main()
