"""`photosearch models ...`: list models and verify their files.

`register()` creates the `models` group and keeps its sub-parsers in `SUBPARSERS`; the hub's
subcommands (`pull`, `remove`) are added by `cli/models_hub.py` through `add_subcommand()`.
"""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

SUBPARSERS: argparse._SubParsersAction | None = None


def add_subcommand(
    name: str, func: Callable[[Any, argparse.Namespace], int], help: str, json_flag: bool = True
) -> argparse.ArgumentParser:
    """Add `photosearch models NAME`; returns its parser for arguments."""
    if SUBPARSERS is None:
        raise RuntimeError("photosearch.cli.models.register() has not run")
    p = SUBPARSERS.add_parser(name, help=help, description=help)
    if json_flag:
        p.add_argument("--json", dest="local_json", action="store_true", help="print machine-readable JSON")
    p.set_defaults(func=func)
    return p


def register(subparsers: argparse._SubParsersAction) -> argparse._SubParsersAction:
    global SUBPARSERS
    parser = subparsers.add_parser("models", help="list, verify (and pull) the models PhotoSearch uses")
    parser.set_defaults(func=lambda ctx, args: (parser.print_help(), 2)[1])
    SUBPARSERS = parser.add_subparsers(dest="models_command", metavar="SUBCOMMAND")
    add_subcommand("list", cmd_list, "every model: role, tier, present, size, provider it would run on")
    verify = add_subcommand("verify", cmd_verify, "check models' files against their sha256")
    verify.add_argument("names", nargs="*", metavar="NAME", help="models to check (default: all present)")
    from photosearch.cli import models_hub  # it imports add_subcommand from here

    models_hub.register_subcommands(SUBPARSERS)
    return SUBPARSERS


def _json_mode(ctx, args) -> None:
    if getattr(args, "local_json", False):
        ctx.json_output = True


def _list_text(rows: list[dict[str, Any]]) -> str:
    header = ("NAME", "ROLE", "TIER", "PRESENT", "SIZE", "PROVIDER", "CHECKED BY")
    table = [header] + [
        (
            r["name"],
            r["role"],
            r["tier"],
            "yes" if r["present"] else "no",
            r["size"] if r["present"] or r["tier"] != "hub" else r["download_size"],
            r["provider"],
            r["integrity"],
        )
        for r in rows
    ]
    widths = [max(len(str(row[i])) for row in table) for i in range(len(header))]
    lines = ["  ".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in table]
    lines += [f"  {r['name']}: {r['missing']}" for r in rows if r["missing"] and r["tier"] != "hub"]
    lines += [
        f"  {r['name']}: {len(r['not_verified'])} file(s) not verified: no published checksum (--json says why)"
        for r in rows
        if r["not_verified"]
    ]
    if any(r["tier"] == "hub" and not r["present"] for r in rows):
        lines.append("  hub models download on request: photosearch models pull NAME")
    return "\n".join(lines)


def cmd_list(ctx, args) -> int:
    from photosearch.model_status import model_rows

    _json_mode(ctx, args)
    rows = model_rows(ctx.settings)
    ctx.emit({"models": rows}, lambda data: _list_text(data["models"]))
    return 0


def _hub_problems(settings, manifest) -> list[str]:
    """Pulled models are also checked against the digests recorded at pull time (trust on first use)."""
    from photosearch.hub import install_record, verify_model

    if install_record(settings, manifest.name) is None:  # placed by hand, not pulled: sha256 check only
        return []
    return verify_model(settings, manifest.name)


def cmd_verify(ctx, args) -> int:
    from photosearch.models.manifest import get_manifest, load_manifests

    _json_mode(ctx, args)
    settings = ctx.settings
    if args.names:
        manifests = [get_manifest(n, settings) for n in args.names]  # unknown name -> clear error
    else:
        manifests = list(load_manifests(settings).values())
    results = []
    failed = False
    for m in manifests:
        statuses = m.verify(settings)
        hub_problems = _hub_problems(settings, m) if m.tier == "hub" and m.present(settings) else []
        if hub_problems:
            state = "mismatch"
            failed = True
        elif not all(s.present for s in statuses):
            state = "absent"
            failed |= bool(args.names)  # asking for a model that is not there is a failure
        elif all(s.ok for s in statuses):
            state = "ok"
        else:
            state = "mismatch"
            failed = True
        results.append(
            {
                "name": m.name,
                "tier": m.tier,
                "status": state,
                "files": [
                    {
                        "key": s.key,
                        "path": str(s.path) if s.path else None,
                        "present": s.present,
                        "expected_sha256": s.expected_sha256,
                        "sha256": s.sha256,
                        "ok": s.ok,
                    }
                    for s in statuses
                ],
            }
        )

    def text(data: dict) -> str:
        lines = []
        for r in data["models"]:
            lines.append(f"{r['name']}: {r['status']}")
            for f in r["files"]:
                if f["present"] and not f["ok"]:
                    lines.append(f"  {f['path']}: sha256 {f['sha256']} != expected {f['expected_sha256']}")
                elif not f["present"]:
                    lines.append(f"  {f['path'] or f['key']}: missing")
        return "\n".join(lines)

    ctx.emit({"ok": not failed, "models": results}, text)
    return 1 if failed else 0
