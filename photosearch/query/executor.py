"""Executes a plan's `where` tree: atoms → scored sets → set algebra.

* atom: a resolver (`photosearch.query.atoms`) gives photos with scores in 0..1;
* `not`: the active photos minus the set (score 1); inside an `and` it just subtracts;
* `or`: union, a photo keeps its best score;
* `and`: intersection; the combined score is the geometric mean of the graded (semantic)
  children's scores — filters (date, person, ...) score 1 and are neutral. `{"and": []}` is every
  active photo.
* soft conjunction: at the root `and`, concept and colour atoms are soft unless the plan lists them in
  `required` (then they are hard, like the filters). Photos that pass every hard part and some
  but not all soft concepts are the *partial* matches (`Execution.partial`), scored by the mean
  of their soft scores with a missing concept counting 0, and shown after the photos that satisfy
  the whole request. When the hard part itself says what is in the photo (a required concept or
  a content filter), one soft concept is enough for partial matches, and a photo with none of
  the soft concepts is a partial match too ("dog, required, and zebra": the dogs, missing zebra).
* relaxed mode (closest matches): concept atoms also admit their best candidates below the
  calibrated cut-off (`AtomResult.near`), a people count the photos one person off; other filters
  stay hard.
* days_of: its own `where` is run first, strictly, and the days its photos were taken tell which
  photos the atom holds ("the day after the party").

Only active photos exist for the executor (the snapshot holds nothing else).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from photosearch.errors import PhotoSearchError
from photosearch.query.atoms import resolve_atom
from photosearch.query.plan import atoms
from photosearch.query.quantities import say
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet
from photosearch.query.resolvers.same_days import resolve_days_of

OPERATORS = ("and", "or", "not")


#: Atoms that describe what is in the photo by degree: soft in the root `and` (a photo with some of
#: them is a partial match). A colour is the frame's, not the subject's: soft like a concept.
SOFT_ATOMS = ("concept", "color")
#: What each soft atom counts in a partial match's score: the thing asked for more than its colour
#: ("a yellow flower": a white flower before a yellow lemon).
SOFT_WEIGHTS = {"concept": 1.0, "color": 0.5}


@dataclass
class AtomHit:
    path: str
    negated: bool
    result: AtomResult
    ms: float
    used: ScoredSet | None = None  # the set the algebra used (with the near set when relaxed)

    @property
    def scored(self) -> ScoredSet:
        return self.used if self.used is not None else self.result.set


@dataclass
class Execution:
    result: ScoredSet
    atoms: list[AtomHit] = field(default_factory=list)
    #: Photos that pass every filter and some, not all, soft concepts of the root `and`.
    partial: ScoredSet = field(default_factory=ScoredSet.empty)
    soft: list[tuple[str, ScoredSet]] = field(default_factory=list)  # (concept, its set) at the root

    def missing(self, row: int) -> list[str]:
        """The soft concepts a (partial) result row lacks."""
        return [value for value, s in self.soft if s.score_of(row) is None]

    def why(self, row: int) -> list[dict]:
        """What matched for one result row (atoms under a NOT explain nothing)."""
        out: list[dict] = []
        for hit in self.atoms:
            if hit.negated or hit.scored.score_of(row) is None:
                continue
            for w in hit.result.explain(row):
                if w not in out:
                    out.append(w)
        return out

    def explain(self) -> list[dict]:
        """Per-atom hit counts and cut-off details, in plan order."""
        out = []
        for hit in self.atoms:
            entry = {
                "path": hit.path,
                "atom": hit.result.atom,
                "hits": len(hit.result.set),
                "negated": hit.negated,
                "ms": round(hit.ms, 2),
            }
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


def member(rows: np.ndarray, of: np.ndarray) -> np.ndarray:
    """Which of `rows` are in `of` (both snapshot rows): a dense mask, O(rows + of), no sorting."""
    if rows.size == 0 or of.size == 0:
        return np.zeros(rows.size, bool)
    mask = np.zeros(int(max(rows.max(), of.max())) + 1, bool)
    mask[of] = True
    return mask[rows]


def intersect(sets: list[ScoredSet], universe: ScoredSet) -> ScoredSet:
    if not sets:
        return ScoredSet(universe.rows, universe.scores.copy(), graded=False)
    if len(sets) == 1:  # the geometric mean of one set is its scores (no lookup of 500k rows in itself)
        return sets[0]
    sets = sorted(sets, key=len)
    rows = sets[0].rows
    for s in sets[1:]:
        if rows.size == 0:
            break
        rows = rows[member(rows, s.rows)]
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
    keep = ~member(a.rows, b.rows)
    return ScoredSet(a.rows[keep], a.scores[keep], a.graded)


#: Filters that say what is *in* the photo: with one of them, a photo that matches it but none of
#: the request's concepts is still a partial match ("sign that says galleries": the words are there).
#: A people count says so when it asks for someone (`_anchors`): "people outdoors" with no photo sure
#: to be outdoors shows the photos of people.
CONTENT_FILTERS = ("text", "knowledge", "similar", "tag")
#: A partial match with none of the soft concepts scores this share of its hard parts' score.
CONTENT_ONLY = 0.25
#: What a partial match's missing concept counts of its evidence below the cut-off (ranking only).
NEAR_SHARE = 0.5


def soft_partial(
    hard: ScoredSet | None,
    soft: list[ScoredSet],
    anchored: bool = False,
    near: list[ScoredSet | None] | None = None,
    weights: list[float] | None = None,
    things: list[bool] | None = None,
) -> ScoredSet:
    """Photos in `hard` (None: no hard parts, every photo at score 1) with some but not all `soft`
    sets; score = mean of the soft scores (missing counts 0) times the hard set's score. With
    `anchored` (a required concept or a content filter among the hard parts), photos with none of
    the soft concepts count too, at `CONTENT_ONLY`. `near`: per soft set, its candidates below the
    cut-off; a photo's missing concept counts `NEAR_SHARE` of that evidence, so that among the
    photos of people "outdoors" is missing from, the ones that look a little outdoors come first.
    `weights`: what each soft set counts of the mean (`SOFT_WEIGHTS`; all 1 when None). `things`:
    which soft sets name a thing (a concept, not a colour); unless `anchored`, a partial match has one
    of them: of "red parrot", a red plier is no partial match (it is a closest one)."""
    if not soft or (hard is not None and len(hard) == 0) or (len(soft) < 2 and not anchored):
        return ScoredSet.empty()
    size = (
        int(max([hard.rows.max() if hard is not None else 0, *(s.rows.max() for s in soft if s.rows.size)]))
        + 1
    )
    # dense per-row sums over the soft sets: O(rows) scatters, no sorting or searching
    weights = weights or [1.0] * len(soft)
    total = np.zeros(size, np.float32)
    present = np.zeros(size, np.int8)
    for s, w in zip(soft, weights, strict=True):
        rows = s.rows.astype(np.intp)  # numpy converts int32 indices on every gather and scatter
        total[rows] += w * s.scores
        present[rows] += 1
    for s, leaning, w in zip(soft, near or [], weights, strict=False):
        if leaning is None or not len(leaning):
            continue
        below = leaning.rows[~member(leaning.rows, s.rows)] if len(s) else leaning.rows
        below = below[below < size].astype(np.intp)
        scores = leaning.scores[np.searchsorted(leaning.rows, below)]
        total[below] += w * NEAR_SHARE * scores
    keep = present < len(soft)
    if not anchored or hard is None:
        keep &= present > 0
        if things is not None and any(things):
            has_thing = np.zeros(size, bool)
            for s, thing in zip(soft, things, strict=True):
                if thing:
                    has_thing[s.rows.astype(np.intp)] = True
            keep &= has_thing
    if hard is not None:
        inside = np.zeros(size, bool)
        inside[hard.rows] = True
        keep &= inside
    cand = np.flatnonzero(keep).astype(np.int32)
    if cand.size == 0:
        return ScoredSet.empty()
    hard_scores = 1.0 if hard is None else hard.scores[np.searchsorted(hard.rows, cand)]
    share = np.maximum(total[cand] / sum(weights), CONTENT_ONLY if anchored else 0.0)
    return ScoredSet(cand, (share * hard_scores).astype(np.float32), graded=True)


class Executor:
    """Runs `where` trees against one execution context (snapshot + indexes + encoders).

    `required`: concept values that stay hard in the root `and`; `relaxed`: concept atoms admit
    their candidates below the cut-off (closest matches).
    """

    def __init__(self, ctx: ExecContext, *, required: Iterable[str] = (), relaxed: bool = False):
        self.ctx = ctx
        self.required = {" ".join(str(v).lower().split()) for v in required}
        self.relaxed = relaxed

    def _soft(self, node: dict) -> bool:
        if not isinstance(node, dict) or len(node) != 1:
            return False
        ((key, value),) = node.items()
        return key in SOFT_ATOMS and " ".join(str(value).lower().split()) not in self.required

    @staticmethod
    def _anchors(node: dict) -> bool:
        """A hard part that says what is in the photo: a required concept, a content filter, or a
        people count of at least one."""
        if not isinstance(node, dict) or len(node) != 1:
            return False
        ((key, value),) = node.items()
        if key == "faces":
            return isinstance(value, dict) and int(value.get("min") or 0) >= 1
        return key in (*SOFT_ATOMS, *CONTENT_FILTERS)

    def _near(self, node: dict) -> ScoredSet | None:
        """An atom's candidates below its cut-off, as resolved for this plan (None: it has none)."""
        result = self.ctx.atom_cache.get(json.dumps(node, sort_keys=True))
        return result.closest() if result is not None else None

    def run(self, where: dict) -> Execution:
        found = plan_atoms(where)
        self.ctx.prefetch_texts([str(a["concept"]) for a in found if "concept" in a])
        if not self.ctx.request_words:  # the context each concept word's sense is read in
            self.ctx.request_words = " ".join(str(a["concept"]) for a in found if "concept" in a)
        self.ctx.names_people = any("person" in a for a in found)
        ex = Execution(ScoredSet.empty())
        ex.result = self._node(where, "where", False, ex)
        return ex

    def _left_out(self, node: dict, path: str, negated: bool, ex: Execution) -> ScoredSet:
        """The photos a "not" leaves out; where it names a thing no photo surely or likely shows, the
        page says that nothing was left out for it."""
        inner = self._node(node, path, not negated, ex)
        if not len(inner) and isinstance(node, dict) and set(node) == {"concept"}:
            self.ctx.remarks.append(left_nothing_out(str(node["concept"])))
        return inner

    def _node(self, node: dict, path: str, negated: bool, ex: Execution) -> ScoredSet:
        if not isinstance(node, dict) or len(node) != 1:
            raise PhotoSearchError(f"invalid plan node at {path}: {node!r}")
        ((key, value),) = node.items()
        if key == "and":
            positives, negatives, soft, hard = [], [], [], []
            soft_nodes: list[dict] = []
            anchored = False  # a hard part says what is in the photo
            for i, child in enumerate(value):
                cpath = f"{path}.and[{i}]"
                if isinstance(child, dict) and set(child) == {"not"}:
                    negatives.append(self._left_out(child["not"], cpath + ".not", negated, ex))
                else:
                    got = self._node(child, cpath, negated, ex)
                    positives.append(got)
                    if path == "where" and not negated and self._soft(child):
                        soft.append(got)
                        soft_nodes.append(child)
                        ex.soft.append((str(next(iter(child.values()))), got))
                    else:
                        hard.append(got)
                        anchored |= path == "where" and not negated and self._anchors(child)
            out = intersect(positives, self.ctx.universe())
            for neg in negatives:
                out = subtract(out, neg)
            if len(soft) >= 2 or (soft and anchored):
                hard_set = intersect(hard, self.ctx.universe()) if hard else None
                partial = soft_partial(
                    hard_set,
                    soft,
                    anchored,
                    [self._near(c) for c in soft_nodes],
                    [SOFT_WEIGHTS[next(iter(c))] for c in soft_nodes],
                    [next(iter(c)) == "concept" for c in soft_nodes],
                )
                for neg in negatives:
                    partial = subtract(partial, neg)
                ex.partial = partial
            return out
        if key == "or":
            if not value:
                return ScoredSet.empty()
            return union([self._node(c, f"{path}.or[{i}]", negated, ex) for i, c in enumerate(value)])
        if key == "not":
            return subtract(self.ctx.universe(), self._left_out(value, path + ".not", negated, ex))
        t0 = time.perf_counter()
        key = json.dumps(node, sort_keys=True)
        result = self.ctx.atom_cache.get(key)
        if result is None:
            result = self.ctx.atom_cache[key] = self._resolve(node, path)
        used = result.set
        near = result.closest() if self.relaxed and not negated else None
        if near is not None and len(near):
            used = ScoredSet.best_of([result.set, near], graded=True)
        if negated and result.likely is not None and len(result.likely):
            # leaving a thing out goes further than finding it: a photo that probably shows it goes
            used = ScoredSet.best_of([result.set, result.likely], graded=True)
        ex.atoms.append(AtomHit(path, negated, result, (time.perf_counter() - t0) * 1000, used))
        return used

    def _resolve(self, atom: dict, path: str) -> AtomResult:
        """An atom's result; a days_of atom's `where` is run first, on its own and strictly (no
        closest matches, no soft parts: only photos that surely match tell a day), and again with
        its closest matches only when asked (what orders the closest matches where none is sure)."""
        if "days_of" not in atom:
            return resolve_atom(atom, self.ctx)
        where, inner_path = atom["days_of"]["where"], path + ".days_of"

        def run(relaxed: bool) -> ScoredSet:
            return Executor(self.ctx, relaxed=relaxed)._node(
                where, inner_path, False, Execution(ScoredSet.empty())
            )

        return resolve_days_of(atom, self.ctx, run(False), lambda: run(True))


def left_nothing_out(concept: str) -> str:
    """What "not <concept>" did where no photo shows the thing, surely or likely ("cats but not
    kittens", where no model tells a kitten from a cat): nothing, and the page says so."""
    return f"nothing was left out for “{say(concept)}”: no photo surely shows it"


def plan_atoms(node: dict) -> list[dict]:
    """Every atom in a node tree (none in a malformed node)."""
    return atoms(node) if isinstance(node, dict) and len(node) == 1 else []
