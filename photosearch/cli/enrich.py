"""`photosearch ask PHOTO "QUESTION"` and `photosearch enrich`: the Vision Search Assistant.

Web search is opt-in (settings `web_enabled`, or `--web` for one command); only text queries leave
the machine, never images. `--dry-run` prints the queries that would be sent and sends nothing.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from photosearch.enrich.limits import SECONDS_WITH_LLM, SECONDS_WITHOUT_LLM
from photosearch.errors import PhotoSearchError


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--web", action="store_true", help="allow web search for this command (opt-in)")
    p.add_argument(
        "--backend",
        choices=["searxng", "wikipedia", "duckduckgo", "local"],
        help="search backend (default: settings search_backend; local with --corpus)",
    )
    p.add_argument("--search-url", help="SearxNG base URL (its JSON API must be enabled)")
    p.add_argument("--corpus", help="offline folder of HTML/Markdown/text pages to search instead of the web")
    p.add_argument(
        "--no-llm",
        action="store_true",
        help="use no language model (the non-LLM agents; no vision model for a local answer)",
    )
    p.add_argument("--dry-run", action="store_true", help="print the outgoing queries without sending them")
    p.add_argument("--max-rounds", type=int, default=3, help="rounds of the chain of search (default 3)")
    p.add_argument("--max-pages", type=int, default=10, help="pages fetched per region (default 10)")
    p.add_argument(
        "--max-seconds",
        type=float,
        default=None,
        help=f"time budget per photo (default {SECONDS_WITHOUT_LLM:g} without the LLM, {SECONDS_WITH_LLM:g} with it)",
    )
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")


def register(sub) -> None:
    p = sub.add_parser(
        "ask", help="ask a question about a photo (what it shows, from its analysis; web search opt-in)"
    )
    p.add_argument("photo", help="photo id or path")
    p.add_argument("question", nargs="?", default="what is this?")
    _common(p)
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser(
        "enrich", help="learn what the local models are unsure about, through the web (opt-in)"
    )
    p.add_argument("--limit", type=int, help="at most N photos")
    p.add_argument("--photo", action="append", default=[], help="only this photo (id or path; repeatable)")
    p.add_argument("--force", action="store_true", help="also photos enriched before")
    _common(p)
    p.set_defaults(func=cmd_enrich)


def _progress(ctx):
    return lambda msg: print(msg, file=sys.stderr) if not ctx.json_output else None


def _photo_id(ctx, ref: str) -> int:
    if ref.isdigit():
        from photosearch.catalog.models import is_row_id

        if not is_row_id(int(ref)):
            raise PhotoSearchError(f"no photo has the id {ref}")
        return int(ref)
    photo = ctx.store.photo_by_path(ref)
    if photo is None:
        raise PhotoSearchError(f"{ref} is not in the catalog; add its folder and run `photosearch index`")
    return photo.id


def build(ctx, args):
    """(assistant, backend, embedder) for these options."""
    from photosearch.enrich.assistant import Assistant, default_describer
    from photosearch.enrich.backends import RecordingBackend, make_backend
    from photosearch.enrich.detect import open_detector
    from photosearch.enrich.fetch import Fetcher
    from photosearch.enrich.textutil import get_embedder
    from photosearch.enrich.types import Budget
    from photosearch.models import llm as local_llm

    if getattr(args, "json", False):
        ctx.json_output = True
    settings = dataclasses.replace(ctx.settings)
    if args.web:
        settings.web_enabled = True
    if args.search_url:
        settings.search_url = args.search_url
    settings.ensure_dirs()
    embedder = get_embedder(settings)
    fetcher = Fetcher.from_settings(settings)
    if args.dry_run:
        backend = RecordingBackend()
    else:
        backend = make_backend(settings, args.backend, corpus=args.corpus, embedder=embedder, fetcher=fetcher)
    llm = (
        None if args.no_llm else local_llm.get_llm(settings)
    )  # settings.llm_model, a pulled hub LLM, bundled
    budget = Budget(
        max_rounds=max(1, args.max_rounds),
        max_pages=max(0, args.max_pages),
        max_seconds=None if args.max_seconds is None else max(1.0, args.max_seconds),
    )
    if llm is not None and llm.is_chat:  # an instruction-tuned model: every agent role may use it
        budget.llm_roles = None
    assistant = Assistant(
        ctx.store,
        backend,
        llm=llm,
        embedder=embedder,
        fetcher=fetcher,
        budget=budget,
        detector=open_detector(settings),
        describer=default_describer(settings, llm),
    )
    return assistant, backend, embedder, settings


def stage_line(st: dict, seconds: float | None = None, stages: dict | None = None) -> str:
    """Per-stage figures: queries, fetches, snippets, filtered evidence, LLM calls (accepted), seconds."""
    line = (
        f"queries {st.get('queries', 0)} ({st.get('query_seconds', 0):.1f}s), fetches {st.get('fetches', 0)} "
        f"({st.get('fetch_failures', 0)} failed, {st.get('fetch_seconds', 0):.1f}s), snippets "
        f"{st.get('snippets', 0)}, filtered {st.get('filtered', 0)}, LLM calls {st.get('llm_calls', 0)} "
        f"({st.get('llm_accepted', 0)} accepted, {st.get('llm_seconds', 0):.1f}s)"
    )
    if stages:
        line += "; " + ", ".join(f"{k} {v:.1f}s" for k, v in stages.items())
    if seconds is not None:
        line += f"; total {seconds:.1f}s"
    if st.get("failure_reasons"):
        line += "\nwhy searches or pages failed: " + "; ".join(st["failure_reasons"])
    return line


def _ask_text(d: dict) -> str:
    lines = [d["answer"], ""]
    for s in d["sources"]:
        kind = " (search-result snippet)" if s.get("kind") == "snippet" else ""
        lines.append(f"[{s['n']}] {s['title']} — {s['url']}{kind}")
    lines.append("")
    lines.append(f"queries sent: {len(d['graph']['queries'])}; stop: {d['graph']['stop_reason']}")
    st = d.get("stats") or {}
    if st:
        lines.append(stage_line(st, d.get("seconds"), st.get("stage_seconds")))
    return "\n".join(lines).strip()


def _local_text(d: dict) -> str:
    return "\n".join([*d["sentences"], "", "(from what PhotoSearch found in this photo; nothing was sent)"])


def cmd_ask(ctx, args) -> int:
    """Web off (the default) and no corpus: the local answer, the same sentences as the app's Ask panel."""
    if not (args.web or ctx.settings.web_enabled or args.corpus or args.dry_run):
        from photosearch.ask.local import answer_locally

        if getattr(args, "json", False):
            ctx.json_output = True
        pid = _photo_id(ctx, args.photo)
        say = _progress(ctx)
        data = answer_locally(
            ctx.store,
            ctx.settings,
            pid,
            args.question,
            progress=lambda item: say(item[1]) if item[0] == "step" else None,
            use_vlm=not args.no_llm,
        )
        ctx.emit(data, _local_text)
        return 0
    assistant, backend, _, _ = build(ctx, args)
    pid = _photo_id(ctx, args.photo)
    result = assistant.ask(pid, args.question, progress=_progress(ctx))
    data = result.to_json()
    if args.dry_run:
        data = {
            "dry_run": True,
            "queries": list(getattr(backend, "queries_sent", [])),
            "regions": data["regions"],
        }
        ctx.emit(
            data, lambda d: "would send (nothing was sent):\n" + "\n".join(f"  {q}" for q in d["queries"])
        )
        return 0
    ctx.emit(data, _ask_text)
    return 0


def cmd_enrich(ctx, args) -> int:
    from photosearch.enrich.knowledge import enrich

    assistant, backend, embedder, settings = build(ctx, args)
    ids = [_photo_id(ctx, r) for r in args.photo] or None
    report = enrich(
        ctx.store,
        assistant,
        limit=args.limit,
        photo_ids=ids,
        force=args.force or bool(ids),
        dry_run=args.dry_run,
        embedder=embedder,
        settings=settings,
        progress=_progress(ctx),
    )
    data = dataclasses.asdict(report)
    if args.dry_run:
        data["queries"] = list(getattr(backend, "queries_sent", []))

    def text(d: dict) -> str:
        if d["dry_run"]:
            return f"{d['candidates']} photo(s) to enrich; would send (nothing was sent):\n" + "\n".join(
                f"  {q}" for q in d["queries"]
            )
        lines = [f"{d['candidates']} candidate(s), {d['searched']} searched, {len(d['learned'])} learned"]
        for item in d["learned"]:
            src = item["sources"][0]["url"] if item["sources"] else "no source"
            lines.append(
                f"  photo {item['photo_id']}: {item['entity']} — {', '.join(item['categories'])} ({src})"
            )
        for s in d["skipped"]:
            lines.append(f"  skipping photo {s['photo_id']}: {s['reason']}")
        for p in d.get("photos", []):
            lines.append(f"  photo {p['photo_id']}: " + stage_line(p, p["seconds"], p["stage_seconds"]))
        if d.get("totals"):
            lines.append("  all: " + stage_line(d["totals"], d["totals"].get("seconds")))
        return "\n".join(lines)

    ctx.emit(data, text)
    return 0
