"""Library commands: add/remove folders, index, watch, status."""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path

from photosearch.errors import PhotoSearchError


def register(sub) -> None:
    p = sub.add_parser("add", help="register a photo folder")
    p.add_argument("folders", nargs="+", type=Path)
    p.set_defaults(func=cmd_add, creates_catalog=True)

    p = sub.add_parser("remove", help="forget a folder (files on disk are untouched)")
    p.add_argument("folders", nargs="+", type=Path)
    p.add_argument(
        "--yes", "-y", action="store_true", help="forget without asking (needed when not at a terminal)"
    )
    p.set_defaults(func=cmd_remove)

    p = sub.add_parser("folders", help="list registered folders")
    p.set_defaults(func=cmd_folders)

    p = sub.add_parser("index", help="scan registered folders and analyse new or changed photos")
    p.add_argument("--no-analyze", action="store_true", help="only catalog files (no models)")
    p.add_argument("--analyzers", help="comma-separated analyzer names to run (default: all bundled)")
    p.add_argument("--retry-failed", action="store_true", help="re-run analyses that failed before")
    p.add_argument("--no-progress", action="store_true")
    p.add_argument(
        "--engine",
        choices=["serial", "ray"],
        default="serial",
        help="ray: fan decoding and analysis out over a Ray cluster (local by default)",
    )
    p.add_argument("--workers", type=int, default=2, help="Ray workers (with --engine ray)")
    p.set_defaults(func=cmd_index, creates_catalog=True)

    p = sub.add_parser("watch", help="watch registered folders and keep the catalog in line")
    p.add_argument("--no-analyze", action="store_true")
    p.add_argument("--no-initial-index", action="store_true", help="skip the catch-up index at start")
    p.add_argument(
        "--duration", type=float, default=None, help="stop after N seconds (default: until Ctrl-C)"
    )
    p.add_argument(
        "--no-serve",
        action="store_true",
        help="do not answer `photosearch search` from this process (it keeps the search engine warm)",
    )
    p.set_defaults(func=cmd_watch, analyzers=None, creates_catalog=True)  # watch runs every analyzer

    p = sub.add_parser("status", help="counts: photos, analysed, failed by reason, offline folders")
    p.set_defaults(func=cmd_status)


def cmd_add(ctx, args) -> int:
    added = []
    for folder in args.folders:
        if not folder.expanduser().is_dir():
            raise PhotoSearchError(f"{folder} is not a folder")
        added.append(ctx.store.add_folder(folder).path)
    ctx.emit({"added": added}, lambda d: "\n".join(f"added {p}" for p in d["added"]))
    return 0


def cmd_remove(ctx, args) -> int:
    registered = {f.path for f in ctx.store.folders()}
    targets = list(dict.fromkeys(str(f.expanduser().resolve()) for f in args.folders))
    unknown = [t for t in targets if t not in registered]
    if unknown:
        raise PhotoSearchError(
            f"not a registered folder: {', '.join(unknown)} (see `photosearch folders`); nothing removed"
        )
    impacts = {t: ctx.store.folder_removal_impact(t) for t in targets}
    if not args.yes and not _confirm_removal(ctx, impacts):
        print("nothing removed")
        return 1
    from photosearch.catalog.lock import WriterLock

    # the one-writer rule: a running `index` or `watch` finishes its batch first (it would otherwise
    # write rows of a folder that is gone and abort on a foreign key)
    lock = WriterLock(
        ctx.store.writer_lock_path(ctx.settings.data_dir), on_wait=lambda m: print(m, file=sys.stderr)
    )
    with lock:
        for target in targets:
            ctx.store.remove_folder(target)
    ctx.emit(
        {"removed": targets, "forgotten": impacts},
        lambda d: "\n".join(f"removed {p}: forgot {forgotten_text(d['forgotten'][p])}" for p in d["removed"]),
    )
    return 0


def forgotten_text(impact: dict[str, int]) -> str:
    """`4 photo(s), 1 tag(s) you added, 1 named face(s)`: what the catalog forgets with a folder."""
    lost = [f"{impact['photos']} photo(s)"]
    for key, what in (
        ("user_tags", "tag(s) you added"),
        ("named_faces", "named face(s)"),
        ("knowledge", "learned fact(s)"),
    ):
        if impact.get(key):
            lost.append(f"{impact[key]} {what}")
    return ", ".join(lost)


def _confirm_removal(ctx, impacts: dict[str, dict[str, int]]) -> bool:
    """Say what is forgotten; ask y/N at a terminal, else refuse (a script must say --yes)."""
    lines = [f"{path}: forgets {forgotten_text(impact)}" for path, impact in impacts.items()]
    note = "the files on disk are not touched; adding the folder again re-reads the photos but not your tags and names"
    if ctx.json_output or not sys.stdin.isatty():
        raise PhotoSearchError(f"removing {'; '.join(lines)} ({note}); run again with --yes to remove")
    print("\n".join(lines) + f"\n({note})")
    try:
        answer = input("Remove and forget? [y/N] ")
    except EOFError:
        answer = ""
    return answer.strip().lower() in ("y", "yes")


def cmd_folders(ctx, args) -> int:
    rows = [{"path": f.path, "online": f.online, "last_scan_at": f.last_scan_at} for f in ctx.store.folders()]
    ctx.emit(rows, lambda r: "\n".join(f"{'online ' if x['online'] else 'OFFLINE'} {x['path']}" for x in r))
    return 0


def _indexer(ctx, args):
    from photosearch.app import build_indexer, default_analyzers

    settings = ctx.settings
    if args.no_analyze:
        analyzers = []
    else:
        include = args.analyzers.split(",") if args.analyzers else None
        try:
            analyzers = default_analyzers(settings, include=include)
        except ValueError as exc:  # unknown analyzer name
            raise PhotoSearchError(str(exc)) from None
    return build_indexer(ctx.store, settings, analyzers=analyzers)


def cmd_index(ctx, args) -> int:
    from photosearch.cli.progress import CancelOnInterrupt, IndexProgressPrinter

    if not ctx.store.folders():
        raise PhotoSearchError("no folders registered: run `photosearch add FOLDER` first")
    printer = IndexProgressPrinter(enabled=not args.no_progress)
    with CancelOnInterrupt() as cancel:
        if args.engine == "ray":
            from photosearch.scale.ray_index import run_ray_index

            include = args.analyzers.split(",") if args.analyzers else None
            report = run_ray_index(
                ctx.store,
                ctx.settings,
                args.workers,
                progress=printer,
                cancel=cancel,
                include=include,
                analyze=not args.no_analyze,
                retry_failed=args.retry_failed,
            )
        else:
            report = _indexer(ctx, args).run(progress=printer, cancel=cancel, retry_failed=args.retry_failed)
    data = report.as_dict()
    data["broken_analyzers"] = report.broken_analyzers()
    ctx.emit(data, _index_text)
    if report.cancelled:
        return 130
    return 1 if data["broken_analyzers"] else 0


def _index_text(d: dict) -> str:
    lines = [
        f"seen {d['seen']}, unchanged {d['unchanged']}, added {d['added']}, changed {d['changed']}, "
        f"moved {d['moved']}, deleted {d['deleted']}, failed {d['failed']}, analysed {d['analysed']}: "
        f"{d['photos']} photos in {d['elapsed_s']:.1f}s ({d['photos_per_s']:.1f} photos/s)"
    ]
    for reason, n in sorted(d["failed_by_reason"].items()):
        lines.append(f"  skipped {n} file(s): {reason}")
    for folder in d["offline_folders"]:
        lines.append(f"  offline (photos kept): {folder}")
    for warning in d.get("warnings", []):
        lines.append(f"  WARNING: {warning}")
    lines += [
        analysis_failure_line(name, row["failed"], row["first_error"], of=row["ok"] + row["failed"])
        for name, row in sorted(d["analyzers"].items())
        if row["failed"]
    ]
    lines += [
        f"  {name} not needed on {n} photo(s) (the gate saw nothing for it to find)"
        for name, n in sorted(d.get("gated", {}).items())
    ]
    if d["broken_analyzers"]:
        lines.append(
            f"{', '.join(d['broken_analyzers'])} failed on every photo: run `photosearch doctor` "
            "for the reason and the fix, then `photosearch index --retry-failed`"
        )
    if d["cancelled"]:
        lines.append("cancelled: run `photosearch index` again to continue")
    return "\n".join(lines)


def analysis_failure_line(name: str, failed: int, first_error: str | None, of: int | None = None) -> str:
    """`  analysis failed: detector on 21/21 photo(s) (first: AttributeError: ...)`."""
    total = f"/{of}" if of is not None else ""
    return f"  analysis failed: {name} on {failed}{total} photo(s) (first: {first_error})"


def cmd_watch(ctx, args) -> int:
    from photosearch.cli.progress import CancelOnInterrupt, IndexProgressPrinter
    from photosearch.ingest.watcher import FolderWatcher
    from photosearch.search_socket.server import SearchServer

    if not ctx.store.folders():
        raise PhotoSearchError("no folders registered: run `photosearch add FOLDER` first")
    indexer = _indexer(ctx, args)

    def on_update(report) -> None:
        d = report.as_dict()
        if ctx.json_output:
            import json

            print(json.dumps({"event": "indexed", **d}, default=str), flush=True)
        else:
            print(
                f"{time.strftime('%H:%M:%S')} added {d['added']} changed {d['changed']} moved {d['moved']} "
                f"deleted {d['deleted']} failed {d['failed']}",
                flush=True,
            )

    watcher = FolderWatcher(
        ctx.store,
        indexer,
        on_update=on_update,
        initial_index=not args.no_initial_index,
        progress=IndexProgressPrinter(),
    )
    # `photosearch search` in another process asks this one, whose search engine is warm
    server = contextlib.nullcontext() if args.no_serve else SearchServer(ctx.core, warm_up=True)
    with CancelOnInterrupt() as cancel, watcher, server:
        print(f"watching {len(watcher.watched)} folder(s); Ctrl-C to stop", file=sys.stderr, flush=True)
        deadline = time.monotonic() + args.duration if args.duration else None
        while not cancel() and (deadline is None or time.monotonic() < deadline):
            time.sleep(0.2)
    return 0


def cmd_status(ctx, args) -> int:
    data = ctx.store.status()  # the catalog alone: no query engine, no model runtime
    ctx.emit(data, _status_text)
    return 0


def _status_text(d: dict) -> str:
    lines = [
        f"photos {d['photos']} (analysed {d['analysed']}, deleted {d['deleted']}), failed files {d['failed']}"
    ]
    for reason, n in sorted(d["failed_by_reason"].items()):
        lines.append(f"  {reason}: {n}")
    lines += [
        analysis_failure_line(name, row["count"], row["first_error"])
        for name, row in sorted(d["analysis_failures"].items())
    ]
    issues = d.get("metadata_issues") or {}
    if issues.get("count"):
        lines.append(
            f"metadata partly skipped in {issues['count']} photo(s) (still indexed); first: {issues['first']}"
        )
    for f in d["folders"]:
        lines.append(f"  {'online ' if f['online'] else 'OFFLINE'} {f['path']}")
    return "\n".join(lines)
