"""Re-score a saved run (`eval.json`) with the current metrics, e.g. to compare a run made by an
older build on the figures added since (hit@k, empty-result rate, above-cut-off precision,
absent-concept false positives; a run older than the `below_cutoff` flag counts every result above):

    python -m photosearch.evaluate.rescore RUN/eval.json [--golden GOLDEN.yaml] [--k 5 --k 10]

`--golden` takes the judgements from a golden set file instead of the run (queries matched by id),
so two runs are scored against the same, current judgements; the file's photos need not be there
(`--golden resources/eval/real.yaml` works anywhere). A query the file does not judge keeps the run's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from photosearch.errors import PhotoSearchError
from photosearch.evaluate.golden import GoldenQuery
from photosearch.evaluate.runner import score_query, summarise


def rescore(
    run: dict, judgements: dict[str, dict[str, float]] | None = None, absent: set[str] | None = None
) -> dict:
    """The summary of a run's rows, scored again from their ranked paths and judgements (`absent`:
    the ids of absent-concept requests, else the run's own flags)."""
    rows = []
    for r in run["queries"]:
        relevant = dict(r["relevant"]) if judgements is None else judgements.get(r["id"], dict(r["relevant"]))
        is_absent = r["id"] in absent if absent is not None else bool(r.get("absent"))
        q = GoldenQuery(r["id"], r.get("request"), relevant, k=tuple(r["k"]), absent=is_absent)
        results = r.get("results") or []
        # full matches; runs older than the flags count every result above the cut-off
        above = [not x.get("below_cutoff", False) and not x.get("partial", False) for x in results]
        rows.append(dict(r, metrics=score_query(q, [x["path"] for x in results], above)))
    ks = sorted({k for r in run["queries"] for k in r["k"]})
    return summarise(rows, ks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="re-score a saved evaluation run")
    ap.add_argument("run", type=Path)
    ap.add_argument("--golden", type=Path, help="take the judgements from this golden set")
    ap.add_argument("--k", type=int, action="append", help="cut-offs to print (default 5 and 10)")
    args = ap.parse_args(argv)
    judgements, absent = None, None
    try:
        if args.golden:
            from photosearch.evaluate.golden import read_golden

            queries = read_golden(args.golden).queries  # photos not needed
            judgements = {q.id: q.relevant for q in queries}
            absent = {q.id for q in queries if q.absent}
        run = json.loads(args.run.read_text(encoding="utf-8"))
    except (PhotoSearchError, OSError, ValueError) as exc:
        print(f"rescore: error: {exc}", file=sys.stderr)
        return 2
    s = rescore(run, judgements, absent)
    ks = args.k or [5, 10]
    names = (
        [f"P@{k}" for k in ks]
        + [f"hit@{k}" for k in ks]
        + ["MRR"]
        + [f"nDCG@{k}" for k in ks]
        + ["empty_result_rate", "above_cutoff_precision", "absent_fp_rate"]
    )
    print(json.dumps({"queries": s["queries"], **{n: round(s[n], 4) for n in names if s.get(n) is not None}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
