"""`photosearch models pull NAME` and `photosearch models remove NAME` (hub tier).

Added to the `models` group by `photosearch.cli.models` (it calls `register_subcommands`).
"""

from __future__ import annotations

import argparse
import sys


def register_subcommands(models_subparsers: argparse._SubParsersAction) -> None:
    pull = models_subparsers.add_parser(
        "pull",
        help="download a hub model (resumable, sha256-checked)",
        description="Download a hub model's files from its manifest source into the data dir. "
        "Interrupted downloads resume; HF_ENDPOINT selects a Hugging Face mirror.",
    )
    pull.add_argument("name", metavar="NAME", help="model name (see `photosearch models list`)")
    pull.add_argument("--force", action="store_true", help="download again even if installed")
    pull.add_argument("--json", dest="local_json", action="store_true", help="print machine-readable JSON")
    pull.set_defaults(func=cmd_pull)
    remove = models_subparsers.add_parser("remove", help="delete a pulled hub model from disk")
    remove.add_argument("name", metavar="NAME")
    remove.add_argument("--json", dest="local_json", action="store_true", help="print machine-readable JSON")
    remove.set_defaults(func=cmd_remove)


class _Bar:
    """progress(done, total, message) -> a tqdm bar on a terminal, a line per file otherwise."""

    def __init__(self, name: str, stream=None):
        self.stream = stream or sys.stderr
        self.name = name
        self.bar = None
        self.last_msg = None

    def __call__(self, done: int, total: int | None, message: str) -> None:
        if not self.stream.isatty():
            if message != self.last_msg:
                print(f"{self.name}: {message}", file=self.stream)
                self.last_msg = message
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=total, unit="B", unit_scale=True, desc=self.name, file=self.stream)
        if total and self.bar.total != total:
            self.bar.total = total
        self.bar.set_postfix_str(message[-40:], refresh=False)
        self.bar.update(done - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def cmd_pull(ctx, args) -> int:
    from photosearch.hub import pull_model
    from photosearch.models.manifest import get_manifest
    from photosearch.models.runtimes import provider_for

    if getattr(args, "local_json", False):
        ctx.json_output = True
    manifest = get_manifest(args.name, ctx.settings, tier="hub")  # unknown -> a clear error listing the known
    bar = _Bar(manifest.name) if not ctx.json_output else None
    from photosearch.cli.progress import CancelOnInterrupt

    cancel_cm = CancelOnInterrupt()
    try:
        with cancel_cm:
            report = pull_model(ctx.settings, manifest, progress=bar, cancel=cancel_cm, force=args.force)
    finally:
        if bar is not None:
            bar.close()
    data = {
        "name": report.name,
        "path": str(report.path),
        "already_present": report.already_present,
        "downloaded_bytes": report.downloaded_bytes,
        "files": report.files,
        "not_verified": [{"path": p, "reason": why} for p, why in report.not_verified],
        "provider": provider_for(manifest, ctx.settings),
    }

    def text(d: dict) -> str:
        if d["already_present"]:
            return f"{d['name']} is already installed in {d['path']}"
        lines = [f"{d['name']}: installed in {d['path']} ({len(d['files'])} files, runs on {d['provider']})"]
        for item in d["not_verified"]:
            lines.append(
                f"  not verified: {item['path']} ({item['reason']}); its checksum was recorded now and is "
                "checked from now on"
            )
        return "\n".join(lines)

    ctx.emit(data, text)
    return 0


def cmd_remove(ctx, args) -> int:
    from photosearch.hub import remove_model

    if getattr(args, "local_json", False):
        ctx.json_output = True
    removed = remove_model(ctx.settings, args.name)
    ctx.emit(
        {"name": args.name, "removed": removed},
        f"removed {args.name}" if removed else f"{args.name} was not installed",
    )
    return 0 if removed else 1
