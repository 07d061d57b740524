"""Benchmarks: print figures and write JSON; never assert times.

python -m benchmarks.suite index   [--gallery DIR] [--copies N] [--engine serial|ray] [--workers N] [--gates on|off|both]
python -m benchmarks.suite index   --megapixels 12,48 [--count 60] [--gallery DIR] [--before [REF]] [--rounds N]   (before beside after)
python -m benchmarks.suite query   [--sizes 10000,100000,1000000] [--repeat 5] [--search auto|baseline] [--no-index-build]
                                    [--vectors facts-text|clustered]
python -m benchmarks.suite vectors [--n 100000] [--dim 384] [--queries 200]
python -m benchmarks.suite watch   [--files 8] [--analyze]
python -m benchmarks.suite rss     [--size 10000]
common: --out FILE.json  --smoke (tiny sizes, for tests)  --data-dir DIR (keep catalogs; default: a temp dir)
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import resource
import shutil
import sys
import tempfile
import time
import tracemalloc
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from benchmarks.query_scale import QUERIES  # noqa: F401 - the request mix, re-exported for tests
from benchmarks.stats import latency_ms, percentile, stage_rows


@contextmanager
def _workdir(data_dir: str | None):
    if data_dir:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        yield Path(data_dir)
    else:
        tmp = tempfile.mkdtemp(prefix="ps-bench-")
        try:
            yield Path(tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


def _settings(root: Path, db_url: str | None = None):
    from photosearch.config import Settings

    s = Settings(data_dir=root, db_url=db_url)
    s.ensure_dirs()
    return s


# ---- index ---------------------------------------------------------------------------------------


def _copies(gallery: Path, dest: Path, copies: int) -> None:
    """Copy a gallery N times, each copy re-encoded slightly differently (so no twin shortcuts)."""
    from PIL import Image, ImageEnhance

    for c in range(copies):
        for src in sorted(p for p in gallery.rglob("*") if p.suffix.lower() in (".jpg", ".png")):
            target = dest / f"copy{c:02d}" / src.relative_to(gallery)
            target.parent.mkdir(parents=True, exist_ok=True)
            with Image.open(src) as im:
                im = ImageEnhance.Brightness(im.convert("RGB")).enhance(1.0 + 0.01 * (c + 1))
                im.save(target.with_suffix(".jpg"), "JPEG", quality=90)


def bench_index(
    gallery: str | None,
    copies: int,
    engine: str,
    workers: int,
    analyzers: str | None,
    data_dir: str | None,
    smoke: bool,
    gated: bool = True,
) -> dict:
    """Index copies of a gallery once and report photos/s, ms/photo per model and what was found
    (faces, text lines, analyzer runs: the recall side of the gates). `gated=False` runs every
    analyzer on every photo, as indexing did before the gates."""
    from photosearch.app import build_indexer, default_analyzers
    from photosearch.catalog import Store
    from photosearch.evaluate.example import write_example_gallery
    from photosearch.ingest.pipeline import DEFAULT_GATES

    with _workdir(data_dir) as root:
        src = Path(gallery) if gallery else root / "example"
        if not gallery:
            write_example_gallery(src)
        photos_dir = root / "photos"
        shutil.rmtree(photos_dir, ignore_errors=True)
        _copies(src, photos_dir, 1 if smoke else copies)
        settings = _settings(root / "data")
        store = Store(settings.database_url)
        store.add_folder(photos_dir)
        include = analyzers.split(",") if analyzers else (["quality"] if smoke else None)
        if engine == "ray":
            from photosearch.scale.ray_index import run_ray_index

            report = run_ray_index(store, settings, workers, include=include)
        else:
            analyzers = default_analyzers(settings, include=include)
            report = build_indexer(store, settings, analyzers, gates=DEFAULT_GATES if gated else ()).run()
        found = _found(store)
        store.close()
    d = report.as_dict()
    n = max(1, report.added + report.changed)
    per_photo = {k: round(v / n, 2) for k, v in d["stage_ms"].items()}
    model_ms = sum(v for k, v in per_photo.items() if k.startswith("model:"))
    e2e = n / report.elapsed_s if report.elapsed_s else 0.0
    limit = 1000.0 / model_ms if model_ms else None
    return {
        "photos": n,
        "engine": engine,
        "workers": workers if engine == "ray" else 1,
        "elapsed_s": round(report.elapsed_s, 3),
        "end_to_end_photos_per_s": round(e2e, 3),
        "stage_ms_total": d["stage_ms"],
        "stage_ms_per_photo": per_photo,
        "model_ms_per_photo": round(model_ms, 2),
        "model_bound_photos_per_s": round(limit, 3) if limit else None,
        "ratio_to_model_bound": round(e2e / limit, 3) if limit else None,
        "note": "model-bound limit = 1000 / sum of per-model ms per photo (one process running models serially)",
        "gated": gated,
        "found": found,
    }


def _found(store) -> dict:
    """What indexing found: faces, text lines (OCR facts), and per analyzer the photos it ran on or
    a gate kept it off."""
    from sqlalchemy import text

    with store.connect() as conn:
        faces = conn.execute(text("SELECT count(*) FROM faces")).scalar_one()
        lines = conn.execute(text("SELECT count(*) FROM facts WHERE kind = 'text'")).scalar_one()
        runs = conn.execute(
            text("SELECT analyzer, status, count(*) FROM analyses GROUP BY analyzer, status")
        ).all()
    per: dict[str, dict[str, int]] = {}
    for analyzer, status, n in runs:
        per.setdefault(analyzer, {})[status] = int(n)
    return {"faces": int(faces), "text_lines": int(lines), "analyses": per}


def bench_index_gates(gallery, copies, workers, analyzers, data_dir, smoke) -> dict:
    """The same gallery indexed twice in one run, every analyzer everywhere (before the gates) and
    gated (now), into separate catalogs; printed side by side."""
    runs = {}
    for name, gated in (("ungated", False), ("gated", True)):
        sub = str(Path(data_dir) / name) if data_dir else None
        runs[name] = bench_index(gallery, copies, "serial", workers, analyzers, sub, smoke, gated=gated)
    return runs


# ---- query ---------------------------------------------------------------------------------------


def _resolve(search: str):
    from photosearch.evaluate.runner import resolve_search

    return resolve_search(search)


def bench_query(
    sizes: list[int],
    repeat: int,
    search: str,
    dim: int,
    data_dir: str | None,
    db_url: str | None,
    build: bool = True,
    vectors: str = "facts-text",
) -> dict:
    """PhotoSearch beside the rclip-style baseline at each size (see `benchmarks.query_scale`)."""
    from benchmarks import query_scale

    name, fn = _resolve(search)
    with _workdir(data_dir) as root:
        rows = query_scale.bench_query(
            sizes, repeat, fn, root, bool(data_dir), dim, db_url, _settings, build, vectors
        )
    return {
        "search": name,
        "repeat": repeat,
        "dim": dim,
        "index_built": build,
        "vectors": vectors,
        "sizes": rows,
    }


# ---- vectors -------------------------------------------------------------------------------------


def bench_vectors(n: int, dim: int, queries: int, k: int = 10) -> dict:
    from photosearch.evaluate.synth import clustered_vectors
    from photosearch.vectors.index import DTYPES, VectorIndex, normalise
    from photosearch.vectors.manager import DEFAULT_CONNECTIVITY, DEFAULT_EXPANSION_ADD

    _, vecs = clustered_vectors(n + queries, dim, seed=1)
    base, qs = normalise(vecs[:n]), normalise(vecs[n:])
    ids = np.arange(1, n + 1)
    exact = np.argsort(-(qs @ base.T), axis=1)[:, :k] + 1  # brute-force f32 ground truth
    out = []
    for dtype in DTYPES:  # built as the indexer's post step builds (connectivity, expansion)
        index = VectorIndex(
            "bench", dim, dtype, connectivity=DEFAULT_CONNECTIVITY, expansion_add=DEFAULT_EXPANSION_ADD
        )
        t0 = time.perf_counter()
        index.add(ids, base, threads=0)
        build = time.perf_counter() - t0
        lat, recall = [], []
        for i in range(queries):
            t0 = time.perf_counter()
            got, _ = index.search(qs[i], k)
            lat.append((time.perf_counter() - t0) * 1000)
            recall.append(len(set(got.tolist()) & set(exact[i].tolist())) / k)
        mem = int(index.index.memory_usage) if hasattr(index.index, "memory_usage") else None
        out.append(
            {
                "dtype": dtype,
                "recall_at_10": round(float(np.mean(recall)), 4),
                "search_ms": latency_ms(lat),
                "build_s": round(build, 3),
                "memory_bytes": mem,
            }
        )
        print(
            f"  {dtype}: recall@{k} {out[-1]['recall_at_10']:.4f}, search p50 {out[-1]['search_ms']['p50']:.3f} ms "
            f"p95 {out[-1]['search_ms']['p95']:.3f} ms, build {build:.2f} s, memory {mem and mem / 2**20:.1f} MiB",
            flush=True,
        )
    return {"n": n, "dim": dim, "queries": queries, "k": k, "results": out}


# ---- watch ---------------------------------------------------------------------------------------


def bench_watch(files: int, analyze: bool, search: str) -> dict:
    """write → in catalog (benchmarks.watch) and write → found by a search."""
    from benchmarks import watch as bench_watch
    from photosearch.catalog import Store
    from photosearch.evaluate.example import _save, source_photos
    from photosearch.ingest.indexer import Indexer
    from photosearch.ingest.watcher import FolderWatcher

    catalog = bench_watch.run(files, analyze)
    name, fn = _resolve(search)
    src = source_photos()["chelsea"]
    lat = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "watched"
        root.mkdir()
        settings = _settings(Path(tmp) / "data")
        store = Store(settings.database_url)
        store.add_folder(root)
        indexer = Indexer(store, settings, [])
        with FolderWatcher(store, indexer):
            for i in range(files):
                target = root / f"w_{i:03d}.jpg"
                model = f"BenchCam{i:03d}"
                _save(target, src[:, i:], make="Bench", model=model)
                written = time.monotonic()
                while time.monotonic() - written < 30:
                    out = fn(
                        store,
                        settings,
                        request=f"taken with a {model}",
                        plan={"version": 1, "where": {"camera": model}},
                        limit=5,
                        explain=False,
                    )
                    if any(Path(r["path"]).name == target.name for r in out.get("results", [])):
                        break
                    time.sleep(0.05)
                lat.append(time.monotonic() - written)
        store.close()
    return {
        "catalog": catalog,
        "searchable": {
            "search": name,
            "files": files,
            "latency_s_p50": round(percentile(lat, 50), 3),
            "latency_s_max": round(max(lat), 3),
        },
    }


# ---- rss -----------------------------------------------------------------------------------------


def _rss_child(phase: str, size: int, q) -> None:
    tracemalloc.start()
    t0 = time.perf_counter()
    try:
        if phase == "index":
            bench_index(None, 1, "serial", 1, None, None, smoke=size < 1000)
        elif phase == "query":
            bench_query([size], 2, "auto", 384, None, None)
        elif phase == "vectors":
            bench_vectors(size, 384, 20)
        peak_py = tracemalloc.get_traced_memory()[1]
        ru = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        q.put(
            {
                "phase": phase,
                "size": size,
                "peak_rss_mib": round(ru / 1024, 1),
                "python_heap_peak_mib": round(peak_py / 2**20, 1),
                "seconds": round(time.perf_counter() - t0, 2),
            }
        )
    except BaseException as exc:
        q.put({"phase": phase, "error": f"{type(exc).__name__}: {exc}"})


def bench_rss(size: int, phases: list[str]) -> dict:
    """Each phase in a fresh process, so each peak RSS is its own (ru_maxrss + tracemalloc peak)."""
    ctx = multiprocessing.get_context("spawn")
    out = []
    for phase in phases:
        q = ctx.Queue()
        p = ctx.Process(target=_rss_child, args=(phase, size, q))
        p.start()
        res = q.get()
        p.join()
        out.append(res)
        print(
            f"  {phase}: "
            + (
                res.get("error")
                or f"peak RSS {res['peak_rss_mib']} MiB, python heap peak "
                f"{res['python_heap_peak_mib']} MiB ({res['seconds']} s)"
            ),
            flush=True,
        )
    return {"size": size, "phases": out}


def _print_index(result: dict) -> None:
    print(
        f"  {result['photos']} photos in {result['elapsed_s']} s: {result['end_to_end_photos_per_s']} photos/s end to end; "
        f"models {result['model_ms_per_photo']} ms/photo → model-bound {result['model_bound_photos_per_s']} photos/s "
        f"(ratio {result['ratio_to_model_bound']})"
    )
    for k, v in sorted(result["stage_ms_per_photo"].items(), key=lambda kv: -kv[1]):
        print(f"    {k:<18} {v:>9.2f} ms/photo")
    f = result["found"]
    print(f"  found: {f['faces']} faces, {f['text_lines']} text lines; analyses {f['analyses']}")


def _print_index_side_by_side(before: dict, after: dict) -> None:
    """Ungated (every analyzer everywhere) beside gated, one line per figure."""
    print(f"  {'':28}{'ungated':>12}{'gated':>12}")
    rows = [
        ("photos/s end to end", "end_to_end_photos_per_s"),
        ("model ms/photo", "model_ms_per_photo"),
        ("elapsed s", "elapsed_s"),
    ]
    for label, key in rows:
        print(f"  {label:<28}{before[key]:>12}{after[key]:>12}")
    for k, b, a in stage_rows(before["stage_ms_per_photo"], after["stage_ms_per_photo"]):
        print(f"  {k + ' ms/photo':<28}{b:>12.2f}{a:>12.2f}")
    for label, key in (("faces found", "faces"), ("text lines found", "text_lines")):
        print(f"  {label:<28}{before['found'][key]:>12}{after['found'][key]:>12}")
    for analyzer in sorted(set(before["found"]["analyses"]) | set(after["found"]["analyses"])):
        b = before["found"]["analyses"].get(analyzer, {})
        a = after["found"]["analyses"].get(analyzer, {})
        print(f"  {analyzer + ' ran / skipped':<28}{_runs(b):>12}{_runs(a):>12}")


def _runs(statuses: dict[str, int]) -> str:
    return f"{statuses.get('ok', 0)} / {statuses.get('skipped', 0)}"


# ---- entry ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.suite", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--out", type=Path, help="write the figures as JSON here")
    common.add_argument(
        "--smoke", action="store_true", help="tiny sizes (a test of the script, not a measurement)"
    )
    common.add_argument("--data-dir", help="keep catalogs here (default: a temp dir, removed afterwards)")
    p = sub.add_parser("index", parents=[common])
    p.add_argument("--gallery", help="photo folder (default: the example gallery)")
    p.add_argument("--copies", type=int, default=3, help="copies of the gallery, each re-encoded")
    p.add_argument("--engine", choices=["serial", "ray"], default="serial")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--analyzers", help="comma-separated (default: all bundled)")
    p.add_argument(
        "--gates",
        choices=["on", "off", "both"],
        default="on",
        help="costly analyzers only where a cheaper one saw something (on), everywhere (off), or both side by side",
    )
    p.add_argument(
        "--megapixels",
        help="camera-like photos of these sizes (e.g. 12,48), each indexed by the app before and after "
        "(benchmarks.index_compare)",
    )
    p.add_argument("--count", type=int, default=60, help="camera-like photos per size")
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="with --before: runs of each side, in alternating order (before, after, after, before, ...); "
        "figures are medians",
    )
    p.add_argument(
        "--before",
        nargs="?",
        const="",
        metavar="REF",
        help="compare with the app at this git ref (alone: the pipeline before issue 25); "
        "with --gallery, on that folder too",
    )
    p = sub.add_parser("query", parents=[common])
    p.add_argument("--sizes", default="10000,100000", help="catalog sizes, e.g. 10000,100000,1000000")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--search", default="auto", choices=["auto", "real", "baseline"])
    p.add_argument("--dim", type=int, default=384, help="vector size of the synthetic facts_text space")
    p.add_argument("--db-url", help="catalog URL (e.g. PostgreSQL); default SQLite in the data dir")
    p.add_argument(
        "--no-index-build",
        action="store_true",
        help="skip the vectors post step: search uses its exact fallback (a catalog not yet indexed)",
    )
    p.add_argument(
        "--vectors",
        choices=["facts-text", "clustered"],
        default="facts-text",
        help="facts_text vectors: MiniLM of each photo's facts (default) or random concept clusters",
    )
    p = sub.add_parser("vectors", parents=[common])
    p.add_argument("--n", type=int, default=100_000)
    p.add_argument("--dim", type=int, default=384)
    p.add_argument("--queries", type=int, default=200)
    p = sub.add_parser("watch", parents=[common])
    p.add_argument("--files", type=int, default=8)
    p.add_argument("--analyze", action="store_true")
    p.add_argument("--search", default="auto", choices=["auto", "real", "baseline"])
    p = sub.add_parser("rss", parents=[common])
    p.add_argument("--size", type=int, default=10_000, help="synthetic catalog / vector count")
    p.add_argument("--phases", default="index,query,vectors")
    args = ap.parse_args(argv)

    print(f"bench {args.cmd}{' (smoke)' if args.smoke else ''}:", flush=True)
    if args.cmd == "index" and (args.megapixels or args.before is not None):
        from benchmarks.index_compare import BEFORE_REF, bench_compare

        sizes = [float(m) for m in args.megapixels.split(",") if m.strip()] if args.megapixels else []
        result = bench_compare(
            sizes,
            2 if args.smoke else args.count,
            args.gallery,
            args.before or BEFORE_REF,
            args.data_dir,
            args.rounds,
        )
    elif args.cmd == "index":
        if args.gates == "both":
            if args.engine != "serial":
                ap.error("--gates both compares the serial engine's runs; use --engine serial")
            result = bench_index_gates(
                args.gallery, args.copies, args.workers, args.analyzers, args.data_dir, args.smoke
            )
            _print_index_side_by_side(result["ungated"], result["gated"])
        else:
            result = bench_index(
                args.gallery,
                args.copies,
                args.engine,
                args.workers,
                args.analyzers,
                args.data_dir,
                args.smoke,
                gated=args.gates == "on",
            )
            _print_index(result)
    elif args.cmd == "query":
        sizes = [200] if args.smoke else [int(s) for s in args.sizes.split(",") if s.strip()]
        result = bench_query(
            sizes,
            1 if args.smoke else args.repeat,
            args.search,
            args.dim,
            args.data_dir,
            args.db_url,
            not args.no_index_build,
            args.vectors,
        )
    elif args.cmd == "vectors":
        result = bench_vectors(
            500 if args.smoke else args.n, 32 if args.smoke else args.dim, 10 if args.smoke else args.queries
        )
    elif args.cmd == "watch":
        result = bench_watch(2 if args.smoke else args.files, args.analyze, args.search)
        c, s = result["catalog"], result["searchable"]
        print(
            f"  write → catalog: p50 {c['latency_s_p50']} s, max {c['latency_s_max']} s; write → searchable "
            f"({s['search']}): p50 {s['latency_s_p50']} s, max {s['latency_s_max']} s"
        )
    else:
        result = bench_rss(200 if args.smoke else args.size, args.phases.split(","))
    doc = {
        "benchmark": args.cmd,
        "smoke": args.smoke,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": multiprocessing.cpu_count(),
        },
        "argv": sys.argv[1:],
        "result": result,
    }
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(doc, indent=2, default=str), encoding="utf-8")
        print(f"  written: {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
