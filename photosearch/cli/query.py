"""Planning commands: `plan "REQUEST"` and `golden add|list`."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

from photosearch.errors import PhotoSearchError
from photosearch.files import read_regular
from photosearch.query.plan import MAX_PLAN_BYTES


def register(sub) -> None:
    p = sub.add_parser(
        "plan", help="show the plan a request compiles to (edit it and run with search --plan)"
    )
    p.add_argument("request", help='e.g. "Anna and the dog at the beach last summer, not the blurry ones"')
    p.add_argument("--now", help="today's date for relative dates (YYYY-MM-DD)")
    p.add_argument(
        "--person",
        action="append",
        default=[],
        metavar="NAME",
        help="a known person (repeatable); with a catalog, its named people are known too",
    )
    p.add_argument("--no-catalog", action="store_true", help="do not read people/years from the catalog")
    p.add_argument(
        "--llm",
        metavar="MODEL",
        help="LLM for low-confidence requests: a pulled hub LLM's name, a GGUF path, or 'bundled'",
    )
    p.add_argument("--no-llm", action="store_true", help="parser and golden library only")
    p.add_argument(
        "--json", action="store_true", dest="local_json", help="print JSON (same as global --json)"
    )
    p.set_defaults(func=cmd_plan)

    g = sub.add_parser("golden", help="the golden library of verified request → plan pairs")
    cmds = g.add_subparsers(dest="golden_command", metavar="ACTION")
    g.set_defaults(func=lambda ctx, args: (g.print_help(), 2)[1])
    a = cmds.add_parser("add", help="save a verified plan for a request to your golden library")
    a.add_argument("request")
    a.add_argument("planfile", help="plan JSON or YAML file ('-' reads stdin)")
    a.add_argument("--now", help="the date the plan's relative dates were resolved against")
    a.add_argument("--person", action="append", default=[], metavar="NAME")
    a.add_argument("--json", action="store_true", dest="local_json")
    a.set_defaults(func=cmd_golden_add)
    b = cmds.add_parser("list", help="list golden pairs (bundled and yours)")
    b.add_argument("--user", action="store_true", help="only your own pairs")
    b.add_argument("--json", action="store_true", dest="local_json")
    b.set_defaults(func=cmd_golden_list)


def _parse_now(value: str | None) -> date:
    if not value:
        return date.today()
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise PhotoSearchError(f"--now {value!r} is not a date YYYY-MM-DD") from None


def _catalog_exists(settings) -> bool:
    url = settings.database_url
    if url.startswith("sqlite:///"):
        return Path(url.removeprefix("sqlite:///")).is_file()
    return True


def cmd_plan(ctx, args) -> int:
    from photosearch.query.parser import PlanContext
    from photosearch.query.plan import dumps_plan, plan_to_text
    from photosearch.query.planner import Planner, planning_context

    if args.local_json:
        ctx.json_output = True
    now = _parse_now(args.now)
    if not args.request.strip():
        raise PhotoSearchError("the request is empty")
    if args.llm:
        ctx.settings.llm_model = args.llm
    context = PlanContext(people=list(args.person))
    if not args.no_catalog and _catalog_exists(ctx.settings):
        context = planning_context(ctx.store, ctx.settings, people=args.person)
    result = Planner(ctx.settings, use_llm=False if args.no_llm else None).plan(
        args.request, now=now, context=context
    )

    def text(r) -> str:
        lines = [plan_to_text(r.plan), f"(source: {r.source}, confidence {r.confidence:.2f})"]
        lines += [f"note: {n}" for n in r.notes]
        lines.append(dumps_plan(r.plan))  # stable key order: edit it and run `search --plan`
        return "\n".join(lines)

    if ctx.json_output:
        ctx.emit(result.plan)
        for n in result.notes:
            print(f"note: {n}", file=sys.stderr)
    else:
        ctx.emit(result.to_dict(), text(result))
    return 0


def _read_plan(path: str) -> dict:
    import yaml

    try:
        raw = sys.stdin.read() if path == "-" else read_regular(path, MAX_PLAN_BYTES).decode("utf-8")
    except OSError as exc:
        raise PhotoSearchError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise PhotoSearchError(f"{path} is not UTF-8 text ({exc.reason})") from None
    if len(raw) > MAX_PLAN_BYTES:
        raise PhotoSearchError(
            f"{path} is over {MAX_PLAN_BYTES} bytes; a plan holds at most {MAX_PLAN_BYTES}"
        )
    try:
        data = yaml.safe_load(raw)  # JSON is YAML
    except yaml.YAMLError as exc:
        raise PhotoSearchError(f"{path}: not valid JSON or YAML: {exc}") from None
    if isinstance(data, dict) and "plan" in data and "where" not in data:
        data = data["plan"]
    if not isinstance(data, dict):
        raise PhotoSearchError(f"{path}: expected a plan object with 'where'")
    return {"version": 1, **data}


def cmd_golden_add(ctx, args) -> int:
    from photosearch.query.golden import add_user_example, user_file
    from photosearch.query.plan import plan_to_text

    if args.local_json:
        ctx.json_output = True
    plan = _read_plan(args.planfile)
    ex = add_user_example(ctx.settings, args.request, plan, now=_parse_now(args.now), people=args.person)
    ctx.emit(
        {"request": ex.request, "plan": ex.plan, "file": str(user_file(ctx.settings))},
        f"saved: {ex.request!r} → {plan_to_text(ex.plan)}\n  in {user_file(ctx.settings)}",
    )
    return 0


def cmd_golden_list(ctx, args) -> int:
    from photosearch.query.golden import load_bundled, load_user
    from photosearch.query.plan import plan_to_text

    if args.local_json:
        ctx.json_output = True
    examples = load_user(ctx.settings) if args.user else load_bundled() + load_user(ctx.settings)
    data = [
        {"request": e.request, "source": e.source, "now": e.now.isoformat(), "plan": e.plan} for e in examples
    ]
    ctx.emit(
        data,
        "\n".join(f"[{e.source}] {e.request}\n    {plan_to_text(e.plan)}" for e in examples)
        + f"\n{len(examples)} pairs",
    )
    return 0
