"""The `photosearch` command. Each command group lives in its own module with `register()`.

Start-up stays light: command modules import their heavy dependencies (SQLAlchemy, numpy, the
models) inside the functions that run a command, so `--help` and argument errors are instant.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys

from photosearch.cli.context import Context
from photosearch.errors import PhotoSearchError

# Modules that add commands: each defines register(subparsers) and sets args.func(ctx, args) -> int.
COMMAND_MODULES = [
    "photosearch.cli.library",
    "photosearch.cli.models",
    "photosearch.cli.search",
    "photosearch.cli.people",
    "photosearch.cli.query",
    "photosearch.cli.enrich",
    "photosearch.cli.evaluate",
    "photosearch.cli.doctor",
    "photosearch.cli.sidecars",
    "photosearch.cli.mark",
    "photosearch.cli.albums",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="photosearch", description="Private, offline-first photo search.")
    parser.add_argument(
        "--data-dir", help="where the catalog, thumbnails and indexes live (env PHOTOSEARCH_DATA_DIR)"
    )
    parser.add_argument("--db-url", help="any SQLAlchemy URL for the catalog (env PHOTOSEARCH_DB_URL)")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    _accept_json_everywhere(sub)
    return parser


def _accept_json_everywhere(subparsers: argparse._SubParsersAction) -> None:
    """`photosearch status --json` works as well as `photosearch --json status`."""
    for parser in set(subparsers.choices.values()):
        if "--json" not in parser._option_string_actions:
            parser.add_argument(
                "--json", action="store_true", default=argparse.SUPPRESS, help="print machine-readable JSON"
            )
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                _accept_json_everywhere(action)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        ctx = Context.from_args(args)
    except PhotoSearchError as exc:  # settings.json unusable: say which key, change nothing
        print(f"photosearch: error: {exc}", file=sys.stderr)
        return 1
    try:
        return int(args.func(ctx, args) or 0)
    except PhotoSearchError as exc:
        ctx.fail(str(exc))
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `photosearch search dog | head`: the reader has what it wanted
        _stdout_to_devnull()
        return 141
    except Exception as exc:
        message = _catalog_error_message(exc, ctx)
        if message is None:
            return _unexpected(exc, args, ctx)
        ctx.fail(message)
        return 1
    finally:
        ctx.close()
        _say_cache_problems()


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null so the interpreter's final flush raises nothing more."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _say_cache_problems() -> None:
    """Each cache folder that could not be used, once, as a plain warning (results are the same)."""
    problems = sys.modules.get("photosearch.cache_problems")
    if problems is None:  # no cache was touched
        return
    for sentence in problems.unsaid_cache_problems():
        print(f"photosearch: warning: {sentence}", file=sys.stderr)


def _unexpected(exc: Exception, args, ctx: Context) -> int:
    """A bug: one line that says so (the traceback with -v), never a wall of text; exit status 2."""
    where = f"photosearch {args.command}" if getattr(args, "command", None) else "photosearch"
    ctx.fail(
        f"{where} failed unexpectedly ({type(exc).__name__}: {exc}); this is a bug — "
        "run again with -v to see where, and report it"
    )
    if getattr(args, "verbose", 0):
        logging.getLogger("photosearch").error("traceback", exc_info=exc)
    return 2


def _catalog_error_message(exc: Exception, ctx: Context) -> str | None:
    """A catalog error that escaped the store's mapping, explained (still no traceback); else None.

    SQLAlchemy is imported here, not at start-up: only a command that opened the catalog can raise it."""
    from sqlalchemy.exc import DBAPIError

    if not isinstance(exc, DBAPIError):
        return None
    from photosearch.catalog.store import explain_catalog_error

    return str(explain_catalog_error(exc, ctx.settings.database_url))


if __name__ == "__main__":
    sys.exit(main())
