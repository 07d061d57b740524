"""`photosearch search`, `similar`, `duplicates`."""

from __future__ import annotations

import json
import logging
import sys
from datetime import date
from pathlib import Path

from photosearch.errors import PhotoSearchError
from photosearch.files import read_regular
from photosearch.query.evidence_words import why_words
from photosearch.query.plan import MAX_PLAN_BYTES, PlanError, parse_plan_json
from photosearch.search_socket.client import served_search

#: The line before the closest matches below the cut-off: when nothing was confident, and after confident ones.
CLOSEST_SEPARATOR = "-- no confident match — closest: --"
BELOW_CUTOFF_SEPARATOR = "-- below the cut-off — closest: --"


def _why_text(why: list[dict]) -> str:
    """All of a result's evidence in words, with how each word of the request reached its label."""
    return why_words(why, most=None, routes=True)


def _result_line(r: dict) -> str:
    line = f"{r['score']:.3f}  {r['path']}  [{_why_text(r.get('why', []))}]"
    if r.get("partial"):
        line += "  (partial: no " + ", ".join(r.get("missing") or []) + ")"
    return line


def _results_text(data: dict) -> str:
    lines = []
    separated = False
    unmet = "; ".join((data.get("explain") or {}).get("unmet") or [])
    for r in data["results"]:
        if r.get("below_cutoff") and not separated:
            separator = BELOW_CUTOFF_SEPARATOR if lines else CLOSEST_SEPARATOR
            lines.append(separator.replace("no confident match", unmet) if unmet and not lines else separator)
            separated = True
        lines.append(_result_line(r))
    if unmet and (lines and not separated or not data["results"]):
        lines.insert(0, f"-- {unmet} --")
    comp = data.get("composer") or {}
    res = data["results"]
    full = sum(1 for r in res if not r.get("partial") and not r.get("below_cutoff"))
    partial = sum(1 for r in res if r.get("partial") and not r.get("below_cutoff"))
    closest = sum(1 for r in res if r.get("below_cutoff"))
    lines.append(
        f"{full} of {data.get('matched', len(res))} matches "
        + (f"+ {partial} partial " if partial else "")
        + (f"+ {closest} closest " if closest else "")
        + f"in {data['timing_ms'].get('total', 0):.0f} ms (composer: {comp.get('solver', '-')})"
    )
    if "explain" in data and data["explain"].get("atoms") and data.get("plan"):
        lines.insert(0, "plan: " + json.dumps(data["plan"], ensure_ascii=False))
        for a in data["explain"]["atoms"]:
            lines.insert(1, f"  {json.dumps(a['atom'], ensure_ascii=False)}: {a['hits']} photos")
    remarks = (data.get("explain") or {}).get("remarks") or []
    return "\n".join([*(f"note: {r}" for r in remarks), *lines])


def _search(ctx, args) -> int:
    plan = None
    if args.plan:
        path = Path(args.plan)
        try:
            raw = read_regular(path, MAX_PLAN_BYTES)  # a FIFO is refused, never waited on
            if len(raw) > MAX_PLAN_BYTES:
                raise PlanError(f"it is over {MAX_PLAN_BYTES} bytes; a plan holds at most {MAX_PLAN_BYTES}")
            plan = parse_plan_json(raw)
        except PlanError as exc:
            raise PlanError(f"cannot read the plan {path}: {exc}") from None
        except OSError as exc:
            raise PhotoSearchError(f"cannot read the plan {path}: {exc.strerror or exc}") from exc
    now = None
    if args.now:
        try:
            now = date.fromisoformat(args.now)
        except ValueError:
            raise PhotoSearchError(f"--now must be YYYY-MM-DD, got {args.now!r}") from None
    request = " ".join(" ".join(args.request).split()) if args.request else None
    if plan is None and not request:
        raise PhotoSearchError('give a request (photosearch search "tabby cat") or --plan FILE')
    if args.limit is not None and args.limit < 1:
        raise PhotoSearchError("--limit must be at least 1")
    if plan is not None and args.limit is not None:  # --limit wins over the plan's own
        plan.setdefault("compose", {})["limit"] = args.limit
    served = served_search(ctx.settings, request, plan, args.limit, explain=args.explain, now=now)
    if served is not None:  # a running `photosearch watch` or app answered: its engine is warm
        logging.getLogger(__name__).debug("search answered by the process serving %s", ctx.settings.data_dir)
        data = served.result
    else:
        data = ctx.core.search(request, plan, args.limit, explain=args.explain, now=now)
    if not args.explain:  # what could not be met and how the request was read stay
        ex = data.get("explain", {})
        data["explain"] = {"unmet": ex.get("unmet", []), "remarks": ex.get("remarks", [])}
    ctx.emit(data, _results_text)
    for sentence in served.cache_problems if served is not None else ():
        print(f"photosearch: warning: {sentence}", file=sys.stderr)  # as the CLI says its own
    return 0


def _similar(ctx, args) -> int:
    data = ctx.core.similar(args.photo, limit=args.limit)
    ctx.emit(
        data,
        lambda d: (
            "\n".join(
                f"{r['score']:.3f}  {r['path']}" + ("  (near-duplicate)" if r.get("near_duplicate") else "")
                for r in d["results"]
            )
            or "nothing similar"
        ),
    )
    return 0


def _duplicates(ctx, args) -> int:
    from photosearch.query.search import duplicates

    groups = duplicates(ctx.store, ctx.settings)
    ctx.emit(
        {"groups": groups},
        lambda d: (
            "\n\n".join("\n".join(p["path"] for p in g["photos"]) for g in d["groups"])
            or "no near-duplicates"
        ),
    )
    return 0


def register(sub) -> None:
    p = sub.add_parser("search", help="search photos by a request or an edited plan")
    p.add_argument("request", nargs="*", help='what to find, e.g. "tabby cat"')
    p.add_argument(
        "--limit", type=int, default=None, help="at most N results (default: the plan's limit, else 50)"
    )
    p.add_argument("--plan", help="run this plan JSON file instead of planning the request")
    p.add_argument("--explain", action="store_true", help="include the plan with per-atom hit counts")
    p.add_argument("--now", help="today's date for relative dates (YYYY-MM-DD)")
    p.add_argument("--json", dest="json_sub", action="store_true", help="machine-readable JSON output")
    p.set_defaults(func=_with_json(_search))
    p = sub.add_parser("similar", help="photos that look like a photo (path or id)")
    p.add_argument("photo")
    p.add_argument("--limit", type=int, default=None, help="at most N photos (default: 20, as the app shows)")
    p.add_argument("--json", dest="json_sub", action="store_true", help="machine-readable JSON output")
    p.set_defaults(func=_with_json(_similar))
    p = sub.add_parser("duplicates", help="near-duplicate groups (image embedding + perceptual hash)")
    p.add_argument("--json", dest="json_sub", action="store_true", help="machine-readable JSON output")
    p.set_defaults(func=_with_json(_duplicates))


def _with_json(func):
    """Accept --json after the command too (`photosearch search x --json`)."""

    def run(ctx, args) -> int:
        if getattr(args, "json_sub", False):
            ctx.json_output = True
        if getattr(args, "limit", None) is None and func is _search and not getattr(args, "plan", None):
            args.limit = 50
        return func(ctx, args)

    return run
