"""Planner benchmark on the golden library: speed and accuracy, parser-only vs planner vs LLM.

    python -m benchmarks.planner [--llm gemma3-270m] [--llm-sample 40]

Accuracy is leave-one-out: a golden pair never steers its own request. Exact match compares plans
with children order ignored; atom-F1 (`evaluate.metrics.atom_prf`) compares
the multisets of (polarity, atom).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from benchmarks.stats import percentile
from photosearch.evaluate.metrics import atom_prf
from photosearch.query.golden import GoldenLibrary, load_bundled
from photosearch.query.parser import LOW_CONFIDENCE, parse_detailed
from photosearch.query.plan import plans_equal


def evaluate(plan_fn, examples) -> dict:
    times, exact, f1s, sources = [], 0, [], Counter()
    for ex in examples:
        t = time.perf_counter()
        plan, source = plan_fn(ex)
        times.append((time.perf_counter() - t) * 1000)
        sources[source] += 1
        exact += plans_equal(plan, ex.plan)
        f1s.append(atom_prf(plan, ex.plan)[2])
    return {
        "n": len(examples),
        "exact": exact / max(len(examples), 1),
        "atom_f1": statistics.mean(f1s) if f1s else 0,
        "p50_ms": percentile(times, 50),
        "p95_ms": percentile(times, 95),
        "sources": dict(sources),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llm", help="GGUF path or 'gemma3-270m' to also measure the LLM planner")
    ap.add_argument("--llm-sample", type=int, default=40, help="requests for the LLM-on-everything run")
    ap.add_argument("--embedder", action="store_true", help="use the MiniLM embedder for nearest examples")
    args = ap.parse_args(argv)

    from photosearch.config import Settings
    from photosearch.query.planner import Planner

    tmp = tempfile.mkdtemp(prefix="ps-bench-")
    settings = Settings(data_dir=Path(tmp))
    examples = load_bundled()
    library = GoldenLibrary(examples, settings=settings, use_embedder=args.embedder)

    # warm-up: gazetteer, dateparser, compiled patterns (one-off costs reported separately)
    t = time.perf_counter()
    parse_detailed("Anna in Paris last summer", now=examples[0].now, context=examples[0].context())
    library.skeleton_matches("")
    warm_ms = (time.perf_counter() - t) * 1000

    def parser_only(ex):
        return parse_detailed(ex.request, now=ex.now, context=ex.context()).plan, "parser"

    planner = Planner(settings, library=library, use_llm=False)

    def planned(ex):
        r = planner.plan(ex.request, now=ex.now, context=ex.context(), exclude_self=True)
        return r.plan, r.source

    low = [
        ex
        for ex in examples
        if parse_detailed(ex.request, now=ex.now, context=ex.context()).confidence < LOW_CONFIDENCE
    ]
    print(f"golden pairs: {len(examples)}  (low-confidence parses: {len(low)}); warm-up {warm_ms:.0f} ms")
    rows = [
        ("parser only", evaluate(parser_only, examples)),
        ("parser + golden (no LLM)", evaluate(planned, examples)),
    ]

    if args.llm:
        from photosearch.query.llm_planner import planner_llm

        settings.llm_model = args.llm
        llm = planner_llm(settings)
        llm_planner = Planner(settings, library=library, llm=llm)

        def with_llm(ex):
            r = llm_planner.plan(ex.request, now=ex.now, context=ex.context(), exclude_self=True)
            return r.plan, r.source

        rows.append(("parser + golden + LLM", evaluate(with_llm, examples)))
        from photosearch.query.llm_planner import plan_with_llm

        sample = examples[:: max(1, len(examples) // args.llm_sample)][: args.llm_sample]

        def llm_all(ex):
            parse = parse_detailed(ex.request, now=ex.now, context=ex.context())
            key = ex.request.lower()
            shots = [e for e, _ in library.nearest(ex.request, k=5) if e.request.lower() != key][:4]
            plan, _ = plan_with_llm(ex.request, parse.plan, shots, llm, now_text=ex.now.isoformat())
            return (plan, "llm") if plan is not None else (parse.plan, "fallback")

        rows.append((f"LLM on every request (sample {len(sample)})", evaluate(llm_all, sample)))
        rows.append((f"parser only (same sample {len(sample)})", evaluate(parser_only, sample)))

    print(f"{'planner':44s} {'n':>4s} {'exact':>7s} {'atomF1':>7s} {'p50 ms':>8s} {'p95 ms':>8s}  sources")
    for name, r in rows:
        print(
            f"{name:44s} {r['n']:4d} {r['exact']:7.1%} {r['atom_f1']:7.3f} {r['p50_ms']:8.2f} {r['p95_ms']:8.2f}"
            f"  {r['sources']}"
        )
    print(f"nearest-example backend: {library.backend}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
