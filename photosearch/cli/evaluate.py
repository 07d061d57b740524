"""Evaluation commands: `eval` (golden set → metrics + report), `eval-compare`, `example-gallery`."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from photosearch.errors import PhotoSearchError


def register(sub) -> None:
    p = sub.add_parser("eval", help="evaluate search on a golden set: metrics, JSON and an HTML report")
    p.add_argument("golden", type=Path, help="golden set (YAML/JSON; see docs/EVALUATION.md)")
    p.add_argument(
        "--report", type=Path, required=True, help="output folder (eval.json, report.html, plots/)"
    )
    p.add_argument(
        "--reuse-catalog", action="store_true", help="do not index when the gallery is already in the catalog"
    )
    p.add_argument(
        "--compare", type=Path, metavar="OTHER_RUN", help="eval.json of another run: also write compare.html"
    )
    p.add_argument("--gallery", type=Path, help="photo root (overrides the golden set's `gallery`)")
    p.add_argument(
        "--search",
        default="auto",
        choices=["auto", "real", "baseline"],
        help="search to evaluate: the app's (real), the lexical baseline, or auto (real if installed)",
    )
    p.add_argument("--label", help="name of this run in reports (e.g. the model tier)")
    p.add_argument("--repeat", type=int, default=1, help="run each query N times for latency figures")
    p.add_argument("--analyzers", help="comma-separated analyzers for indexing (default: all bundled)")
    p.add_argument("--no-analyze", action="store_true", help="index without models (EXIF-only evaluation)")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("eval-compare", help="compare two evaluation runs (A before, B after) with deltas")
    p.add_argument("run_a", type=Path)
    p.add_argument("run_b", type=Path)
    p.add_argument("--report", type=Path, required=True, help="output folder (compare.json, compare.html)")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("example-gallery", help="write the shipped example photos and golden.yaml into DIR")
    p.add_argument("directory", type=Path)
    p.add_argument("--overwrite", action="store_true")
    p.set_defaults(func=cmd_example)


def _eval_context(ctx, args):
    """The user's catalog when they named one (--data-dir/--db-url/env), else a private one under OUT."""
    named = (
        getattr(args, "data_dir", None)
        or getattr(args, "db_url", None)
        or os.environ.get("PHOTOSEARCH_DATA_DIR")
        or os.environ.get("PHOTOSEARCH_DB_URL")
    )
    if named:
        return ctx.store, ctx.settings
    from photosearch.catalog import Store
    from photosearch.config import Settings

    settings = Settings.load(data_dir=args.report.expanduser() / "catalog")
    settings.ensure_dirs()
    return Store(settings.database_url), settings


def cmd_eval(ctx, args) -> int:
    from photosearch.evaluate.compare import write_comparison
    from photosearch.evaluate.golden import load_golden
    from photosearch.evaluate.report import load_run, write_run
    from photosearch.evaluate.runner import resolve_search, run_eval

    golden = load_golden(args.golden, gallery=args.gallery)
    other = load_run(args.compare) if args.compare else None  # fail early on a bad file
    name, fn = resolve_search(args.search)
    store, settings = _eval_context(ctx, args)
    analyzers = None
    if args.no_analyze:
        analyzers = []
    elif args.analyzers:
        from photosearch.app import default_analyzers

        analyzers = default_analyzers(settings, include=args.analyzers.split(","))

    def progress(stage: str, done: int, total: int) -> None:
        if not ctx.json_output and sys.stderr.isatty():
            print(f"\r{stage} {done}/{total}", end="", file=sys.stderr, flush=True)

    try:
        run = run_eval(
            golden,
            store,
            settings,
            search_fn=fn,
            search_name=name,
            reuse_catalog=args.reuse_catalog,
            analyzers=analyzers,
            repeat=args.repeat,
            label=args.label,
            progress=progress,
        )
    finally:
        if store is not ctx._store:
            store.close()
    paths = write_run(run, args.report)
    out = {"summary": run["summary"], "json": str(paths["json"]), "html": str(paths["html"])}
    if other is not None:
        cpaths = write_comparison(other, run, args.report)
        out["compare_html"] = str(cpaths["html"])
        out["compare_json"] = str(cpaths["json"])
    ctx.emit(out, _summary_text)
    return 0


def _summary_text(out: dict) -> str:
    s = out["summary"]
    picked = [k for k in s if k.startswith(("P@", "R@", "nDCG@", "hit@"))] + [
        "MRR",
        "mAP",
        "empty_result_rate",
        "plan_exact_match",
        "atom_f1",
    ]
    parts = [f"{k} {s[k]:.3f}" for k in picked if isinstance(s.get(k), float)]
    lines = [f"{s['queries']} queries ({s['failed_queries']} failed): " + ", ".join(parts)]
    abstention = [
        f"{k} {s[k]:.3f}" for k in ("above_cutoff_precision", "absent_fp_rate") if isinstance(s.get(k), float)
    ]
    if abstention:
        lines.append(
            ", ".join(abstention)
            + f" ({s.get('above_cutoff_queries', 0)} queries with results above the cut-off,"
            f" {s.get('absent_queries', 0)} requests for absent things)"
        )
    lines += [
        f"latency p50 {s['latency_ms_p50']:.1f} ms, p95 {s['latency_ms_p95']:.1f} ms",
        f"report: {out['html']}",
        f"json:   {out['json']}",
    ]
    if "compare_html" in out:
        lines.append(f"comparison: {out['compare_html']}")
    return "\n".join(lines)


def cmd_compare(ctx, args) -> int:
    from photosearch.evaluate.compare import write_comparison
    from photosearch.evaluate.report import load_run

    paths = write_comparison(load_run(args.run_a), load_run(args.run_b), args.report)
    ctx.emit({k: str(v) for k, v in paths.items()}, lambda d: f"comparison: {d['html']}\njson: {d['json']}")
    return 0


def cmd_example(ctx, args) -> int:
    from photosearch.evaluate.example import write_example_gallery

    if args.directory.exists() and not args.directory.is_dir():
        raise PhotoSearchError(f"{args.directory} exists and is not a folder")
    info = write_example_gallery(args.directory, overwrite=args.overwrite)
    ctx.emit(
        info,
        lambda d: (
            f"wrote {d['written']} of {d['photos']} example photos to {d['directory']}\n"
            f"golden set: {d['golden']}\n"
            f"next: photosearch eval {d['golden']} --report REPORT_DIR"
        ),
    )
    return 0
