"""Ranking and planner metrics, computed from a ranked list and graded relevance judgements.

`ranked` is the list of returned ids (best first); `relevant` maps relevant ids to a grade > 0
(binary judgements use grade 1). Every function is pure and defined on empty inputs.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence

from photosearch.query.plan import canonical_node, signed_atoms, validate_compose, validate_plan

Grades = Mapping[str, float]


def precision_at_k(ranked: Sequence[str], relevant: Grades, k: int) -> float:
    """Relevant hits among the first k, divided by k (missing ranks count as misses)."""
    if k <= 0:
        return 0.0
    return sum(1 for r in ranked[:k] if relevant.get(r, 0) > 0) / k


def recall_at_k(ranked: Sequence[str], relevant: Grades, k: int) -> float:
    """Share of the relevant photos found in the first k (1.0 when nothing is relevant)."""
    wanted = {r for r, g in relevant.items() if g > 0}
    if not wanted:
        return 1.0
    return len(wanted.intersection(ranked[:k])) / len(wanted)


def reciprocal_rank(ranked: Sequence[str], relevant: Grades) -> float:
    """1 / rank of the first relevant hit (0 when none)."""
    for i, r in enumerate(ranked, start=1):
        if relevant.get(r, 0) > 0:
            return 1.0 / i
    return 0.0


def dcg_at_k(gains: Sequence[float], k: int) -> float:
    """Discounted cumulative gain with exponential gain (2^g - 1) / log2(rank + 1)."""
    return sum((2.0**g - 1.0) / math.log2(i + 2) for i, g in enumerate(gains[:k]))


def ndcg_at_k(ranked: Sequence[str], relevant: Grades, k: int) -> float:
    """Normalised DCG at k with graded relevance (1.0 when nothing is relevant and nothing returned)."""
    ideal = dcg_at_k(sorted((g for g in relevant.values() if g > 0), reverse=True), k)
    if ideal == 0:
        return 1.0 if not ranked else 0.0
    return dcg_at_k([relevant.get(r, 0) for r in ranked], k) / ideal


def average_precision(ranked: Sequence[str], relevant: Grades) -> float:
    """Mean of precision at each relevant hit's rank, over all relevant photos (binary)."""
    wanted = {r for r, g in relevant.items() if g > 0}
    if not wanted:
        return 1.0
    hits, total = 0, 0.0
    for i, r in enumerate(ranked, start=1):
        if r in wanted:
            hits += 1
            total += hits / i
    return total / len(wanted)


def precision_recall_curve(ranked: Sequence[str], relevant: Grades) -> list[tuple[float, float]]:
    """(recall, precision) after each rank; the points of a PR curve."""
    wanted = {r for r, g in relevant.items() if g > 0}
    out, hits = [], 0
    for i, r in enumerate(ranked, start=1):
        hits += r in wanted
        out.append((hits / len(wanted) if wanted else 1.0, hits / i))
    return out


def above_cutoff_precision(ranked: Sequence[str], relevant: Grades, above: Sequence[bool]) -> float | None:
    """Relevant photos among the results shown above the cut-off (confident, not "closest"); None
    when no result was above it (the query abstained: nothing to be right or wrong about)."""
    confident = [r for r, a in zip(ranked, above, strict=True) if a]
    if not confident:
        return None
    return sum(1 for r in confident if relevant.get(r, 0) > 0) / len(confident)


def absent_false_positive(above: Sequence[bool]) -> bool:
    """A request for something the library does not hold answered with a confident result."""
    return any(above)


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100); 0.0 for no values."""
    if not values:
        return 0.0
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


# ---- planner metrics ----------------------------------------------------------------------------


def _atom_key(atom: dict) -> str:
    return json.dumps(atom, sort_keys=True, ensure_ascii=False).casefold()


def atom_multiset(node: dict) -> Counter:
    """The atoms of a plan (or node) as a multiset; a negated atom counts as `{"not": atom}`."""
    return Counter(_atom_key({"not": atom} if negated else atom) for atom, negated in signed_atoms(node))


def atom_prf(predicted: dict | None, expected: dict) -> tuple[float, float, float]:
    """Precision, recall and F1 of the predicted plan's atoms against the expected plan's."""
    want = atom_multiset(expected)
    got = atom_multiset(predicted) if predicted else Counter()
    if not want and not got:
        return 1.0, 1.0, 1.0
    common = sum((want & got).values())
    p = common / sum(got.values()) if got else 0.0
    r = common / sum(want.values()) if want else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def plan_exact_match(predicted: dict | None, expected: dict) -> bool:
    """Same meaning (order of and/or children ignored); compose compared only when expected sets it."""
    if not predicted:
        return False
    exp = validate_plan(
        {"version": 1, "where": expected.get("where", expected), "compose": expected.get("compose")}
    )
    pred = validate_plan(predicted)
    same_where = json.dumps(canonical_node(pred["where"]), sort_keys=True) == json.dumps(
        canonical_node(exp["where"]), sort_keys=True
    )
    if "compose" in expected:
        return same_where and validate_compose(expected["compose"]) == pred["compose"]
    return same_where
