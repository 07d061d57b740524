"""`photosearch doctor`: load every model, run it on a real photo, say what is broken and how to fix it."""

from __future__ import annotations

import sys

from photosearch.errors import PhotoSearchError


def register(sub) -> None:
    p = sub.add_parser(
        "doctor", help="load and run every bundled and pulled model; OK or FAILED with the fix"
    )
    p.add_argument("models", nargs="*", metavar="NAME", help="check only these (default: every model)")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(ctx, args) -> int:
    from photosearch.health import check_models, failed, format_report

    def progress(name: str) -> None:
        if not ctx.json_output and sys.stderr.isatty():
            print(f"checking {name}…", file=sys.stderr, flush=True)

    try:
        checks = check_models(ctx.settings, include=args.models or None, progress=progress)
    except ValueError as exc:  # an unknown model name
        raise PhotoSearchError(str(exc)) from None
    bad = failed(checks)
    ctx.emit({"ok": not bad, "models": [c.as_dict() for c in checks]}, lambda _d: format_report(checks))
    return 1 if bad else 0
