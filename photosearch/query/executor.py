"""Executes a plan's `where` tree: atoms → scored sets → set algebra.

* atom: a resolver (`photosearch.query.atoms`) gives photos with scores in 0..1;
* `not`: the active photos minus the set (score 1); inside an `and` it just subtracts;
* `or`: union, a photo keeps its best score;
* `and`: intersection; the combined score is the geometric mean of the graded (semantic)
  children's scores — filters (date, person, ...) score 1 and are neutral. `{"and": []}` is every
  active photo.

Only active photos exist for the executor (the snapshot holds nothing else).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from photosearch.errors import PhotoSearchError
from photosearch.query.atoms import resolve_atom
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet

OPERATORS = ("and", "or", "not")


@dataclass
class AtomHit:
    path: str
    negated: bool
    result: AtomResult
    ms: float


@dataclass
class Execution:
    result: ScoredSet
    atoms: list[AtomHit] = field(default_factory=list)

    def why(self, row: int) -> list[dict]:
        """What matched for one result row (atoms under a NOT explain nothing)."""
        out: list[dict] = []
        for hit in self.atoms:
            if hit.negated or hit.result.set.score_of(row) is None:
                continue
            for w in hit.result.explain(row):
                if w not in out:
                    out.append(w)
        return out

    def explain(self) -> list[dict]:
        """Per-atom hit counts and cut-off details, in plan order."""
        out = []
        for hit in self.atoms:
            entry = {"path": hit.path, "atom": hit.result.atom, "hits": len(hit.result.set),
                     "negated": hit.negated, "ms": round(hit.ms, 2)}
            if hit.result.info:
                entry["details"] = hit.result.info
            out.append(entry)
        return out


def union(sets: list[ScoredSet]) -> ScoredSet:
    sets = [s for s in sets if len(s)]
    if not sets:
        return ScoredSet.empty()
    if len(sets) == 1:
        return sets[0]
    return ScoredSet.best_of(sets, graded=any(s.graded for s in sets))


def intersect(sets: list[ScoredSet], universe: ScoredSet) -> ScoredSet:
    if not sets:
        return ScoredSet(universe.rows, universe.scores.copy(), graded=False)
    sets = sorted(sets, key=len)
    rows = sets[0].rows
    for s in sets[1:]:
        if rows.size == 0:
            break
        rows = np.intersect1d(rows, s.rows, assume_unique=True)
    graded = [s for s in sets if s.graded]
    if not graded or rows.size == 0:
        return ScoredSet(rows.astype(np.int32), np.ones(rows.size, np.float32), graded=bool(graded))
    logsum = np.zeros(rows.size, np.float64)
    for s in graded:
        idx = np.searchsorted(s.rows, rows)
        logsum += np.log(np.maximum(s.scores[idx], 1e-6))
    scores = np.exp(logsum / len(graded)).astype(np.float32)
    return ScoredSet(rows.astype(np.int32), scores, graded=True)


def subtract(a: ScoredSet, b: ScoredSet) -> ScoredSet:
    if len(b) == 0 or len(a) == 0:
        return a
    keep = ~np.isin(a.rows, b.rows, assume_unique=True)
    return ScoredSet(a.rows[keep], a.scores[keep], a.graded)


class Executor:
    """Runs `where` trees against one execution context (snapshot + indexes + encoders)."""

    def __init__(self, ctx: ExecContext):
        self.ctx = ctx

    def run(self, where: dict) -> Execution:
        ex = Execution(ScoredSet.empty())
        ex.result = self._node(where, "where", False, ex)
        return ex

    def _node(self, node: dict, path: str, negated: bool, ex: Execution) -> ScoredSet:
        if not isinstance(node, dict) or len(node) != 1:
            raise PhotoSearchError(f"invalid plan node at {path}: {node!r}")
        ((key, value),) = node.items()
        if key == "and":
            positives, negatives = [], []
            for i, child in enumerate(value):
                cpath = f"{path}.and[{i}]"
                if isinstance(child, dict) and set(child) == {"not"}:
                    negatives.append(self._node(child["not"], cpath + ".not", not negated, ex))
                else:
                    positives.append(self._node(child, cpath, negated, ex))
            out = intersect(positives, self.ctx.universe())
            for neg in negatives:
                out = subtract(out, neg)
            return out
        if key == "or":
            if not value:
                return ScoredSet.empty()
            return union([self._node(c, f"{path}.or[{i}]", negated, ex) for i, c in enumerate(value)])
        if key == "not":
            inner = self._node(value, path + ".not", not negated, ex)
            return subtract(self.ctx.universe(), inner)
        t0 = time.perf_counter()
        result = resolve_atom(node, self.ctx)
        ex.atoms.append(AtomHit(path, negated, result, (time.perf_counter() - t0) * 1000))
        return result.set


def plan_atoms(node: dict) -> list[dict]:
    """Every atom in a node tree."""
    if not isinstance(node, dict) or len(node) != 1:
        return []
    ((key, value),) = node.items()
    if key in ("and", "or"):
        return [a for c in value for a in plan_atoms(c)]
    if key == "not":
        return plan_atoms(value)
    return [node]
