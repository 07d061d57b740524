"""The `compose` block as a small integer program (HiGHS), with a greedy fallback.

Variables: x_i ∈ {0,1} per candidate (the best `max_candidates` by relevance), c_g ∈ {0,1} per
coverage group. Maximise Σ rel_i·x_i + P·Σ c_g with P > Σ rel (covering one more group is worth
more than any relevance), subject to

* Σ x_i ≤ limit;
* x_a + x_b ≤ 1 for each near-duplicate pair (image-embedding cosine and/or phash Hamming);
* c_g ≤ Σ_{i∈g} x_i for each group of `per` (day/month/place/person): every group present is
  covered while the limit allows, otherwise as many as possible;
* Σ_{i∈g} x_i ≤ ceil(limit / #groups) when `diverse` (groups of `per`, else days).

With `per` and no `limit`, the limit is the number of groups ("one per day"). Only the best
`max_candidates` by relevance enter the program, plus the best candidate of the groups the cut
would lose (as many as the limit can still cover), so coverage never suffers from the cut. The solver has a time limit; on timeout or error the greedy heuristic answers and the result
says so: `{"solver": "highs"|"greedy"|"topk", "solve_ms", "fallback_reason"}`.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from dataclasses import dataclass

import numpy as np

from photosearch.query.plan import BY_DATE_SORTS, ORDERED_SORTS
from photosearch.query.resolvers.sizes import SORTED_BY, photo_sizes
from photosearch.query.resolvers.snapshot import NO_DATE, Snapshot
from photosearch.vectors.exact import top_k


@dataclass
class ComposeOptions:
    dup_cosine: float = 0.95  # image-embedding cosine alone that makes a near-duplicate
    dup_hamming: int = 4  # phash bits alone that make a near-duplicate
    both_cosine: float = 0.88  # ... or both moderately close
    both_hamming: int = 12
    time_limit_s: float = 1.0
    max_candidates: int = 400
    force_greedy: bool = False


_banner_lock = threading.Lock()
_banner_done = False


def new_highs():
    """A quiet HiGHS instance (its one-time banner would corrupt JSON on stdout)."""
    global _banner_done
    import highspy

    with _banner_lock:
        if not _banner_done:
            sys.stdout.flush()
            saved = os.dup(1)
            try:
                with open(os.devnull, "w") as devnull:
                    os.dup2(devnull.fileno(), 1)
                    h = highspy.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            _banner_done = True
        else:
            h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


# ------------------------------------------------------------------------------ near-duplicates


def hamming(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairwise Hamming distances of uint64 hashes (broadcasting)."""
    x = np.bitwise_xor(a, b)
    if hasattr(np, "bitwise_count"):
        return np.bitwise_count(x).astype(np.int32)
    x = x.astype(np.uint64)
    bits = np.unpackbits(x.view(np.uint8).reshape(*x.shape, 8), axis=-1)
    return bits.sum(axis=-1).astype(np.int32)


def duplicate_pairs(
    rows: np.ndarray, snap: Snapshot, image_index, opts: ComposeOptions
) -> list[tuple[int, int]]:
    """Index pairs (i < j) of near-duplicate candidates."""
    n = rows.size
    if n < 2:
        return []
    close = np.zeros((n, n), bool)
    cos = np.full((n, n), -1.0, np.float32)
    if image_index is not None and len(image_index):
        ids = snap.ids[rows]
        present = np.array([int(i) in image_index for i in ids], bool)
        if present.sum() >= 2:
            idx = np.flatnonzero(present)
            vecs = image_index.get_many(ids[idx])
            vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
            cos[np.ix_(idx, idx)] = vecs @ vecs.T
            close |= cos >= opts.dup_cosine
    has = snap.has_phash[rows]
    if has.sum() >= 2:
        idx = np.flatnonzero(has)
        h = snap.phash[rows[idx]]
        ham = np.full((n, n), 64, np.int32)
        ham[np.ix_(idx, idx)] = hamming(h[:, None], h[None, :])
        close |= ham <= opts.dup_hamming
        close |= (ham <= opts.both_hamming) & (cos >= opts.both_cosine)
    ii, jj = np.nonzero(np.triu(close, 1))
    return list(zip(ii.tolist(), jj.tolist(), strict=True))


# ------------------------------------------------------------------------------------ groups


#: The `per` groups a photo's date makes: one key each, from the snapshot's day and month columns.
TIME_GROUPS = ("day", "week", "month", "year")


def group_keys(per: str, rows: np.ndarray, snap: Snapshot) -> list[list]:
    """For each candidate, the keys of its `per` groups (empty when unknown)."""
    if per in TIME_GROUPS:
        return [[int(k)] if k >= 0 else [] for k in _time_keys(per, rows, snap).tolist()]
    out: list[list] = []
    for r in rows.tolist():
        if per == "place":
            code = int(snap.place_code[r])
            if code >= 0:
                out.append([snap.places[code].get("label")])
            elif not math.isnan(snap.lat[r]):
                out.append([(round(float(snap.lat[r]), 1), round(float(snap.lon[r]), 1))])
            else:
                out.append([])
        elif per == "person":
            out.append(list(snap.person_of_row.get(r, [])))
        else:
            raise ValueError(f"unknown per {per!r}")
    return out


def group_best(per: str, rows: np.ndarray, snap: Snapshot) -> np.ndarray:
    """Index (into `rows`, in the order the page prefers) of each `per` group's first candidate, sorted.

    Day, month and year keys go through `np.unique` (fast on 100k rows); place and person keys are built
    per row."""
    if per in TIME_GROUPS:
        keys = _time_keys(per, rows, snap)
        known = np.flatnonzero(keys >= 0)
        _, first = np.unique(keys[known], return_index=True)
        return np.sort(known[first])
    best: dict = {}
    for i, ks in enumerate(group_keys(per, rows, snap)):
        for k in ks:
            best.setdefault(k, i)
    return np.array(sorted(set(best.values())), dtype=np.int64)


def count_groups(per: str, rows: np.ndarray, snap: Snapshot) -> int:
    """How many `per` groups the rows fall into."""
    if per in TIME_GROUPS:
        keys = _time_keys(per, rows, snap)
        return int(np.unique(keys[keys >= 0]).size)
    return len(_groups(group_keys(per, rows, snap)))


def _time_keys(per: str, rows: np.ndarray, snap: Snapshot) -> np.ndarray:
    """Each row's day, week (Monday to Sunday), month (year*12+month-1) or year; -1 where the photo
    has no date."""
    if per == "day":
        return snap.day[rows]
    if per == "week":  # day 0, 1 January 1970, was a Thursday: three days into its week
        days = snap.day[rows]
        return np.where(days >= 0, (days + 3) // 7, -1)
    months = snap.month[rows]
    return np.where(months >= 0, months // 12, -1) if per == "year" else months


def _groups(keys: list[list]) -> dict:
    groups: dict = {}
    for i, ks in enumerate(keys):
        for k in ks:
            groups.setdefault(k, []).append(i)
    return groups


# ------------------------------------------------------------------------------------ solvers


@dataclass
class Problem:
    scores: np.ndarray
    limit: int
    pairs: list[tuple[int, int]]
    cover: list[list[int]]  # groups that need coverage
    caps: list[tuple[list[int], int]]  # (members, max picks)


def objective(p: Problem, picked: list[int]) -> tuple[int, float]:
    """(covered groups, total relevance) of a selection."""
    s = set(picked)
    covered = sum(1 for g in p.cover if s.intersection(g))
    return covered, float(p.scores[list(s)].sum()) if s else 0.0


def feasible(p: Problem, picked: list[int]) -> bool:
    s = set(picked)
    if len(s) > p.limit:
        return False
    if any(a in s and b in s for a, b in p.pairs):
        return False
    return all(len(s.intersection(m)) <= cap for m, cap in p.caps)


def solve_greedy(p: Problem) -> list[int]:
    """Coverage first (groups in order of their best candidate), then fill by relevance."""
    n = p.scores.size
    order = np.argsort(-p.scores, kind="stable").tolist()
    conflicts: dict[int, set[int]] = {}
    for a, b in p.pairs:
        conflicts.setdefault(a, set()).add(b)
        conflicts.setdefault(b, set()).add(a)
    cap_of: dict[int, list[int]] = {}
    counts = [0] * len(p.caps)
    for ci, (members, _cap) in enumerate(p.caps):
        for i in members:
            cap_of.setdefault(i, []).append(ci)
    picked: list[int] = []
    chosen = set()

    def can(i: int) -> bool:
        if i in chosen or len(picked) >= p.limit or conflicts.get(i, set()) & chosen:
            return False
        return all(counts[ci] < p.caps[ci][1] for ci in cap_of.get(i, []))

    def take(i: int) -> None:
        picked.append(i)
        chosen.add(i)
        for ci in cap_of.get(i, []):
            counts[ci] += 1

    best_of = sorted(range(len(p.cover)), key=lambda g: -max(p.scores[m] for m in p.cover[g]))
    for g in best_of:
        if chosen.intersection(p.cover[g]):
            continue
        for i in sorted(p.cover[g], key=lambda m: -p.scores[m]):
            if can(i):
                take(i)
                break
    for i in order:
        if len(picked) >= min(p.limit, n):
            break
        if can(i):
            take(i)
    return picked


def solve_highs(p: Problem, time_limit_s: float) -> tuple[list[int] | None, str | None]:
    """Optimal selection, or (None, reason) on timeout/failure."""
    import highspy

    n, m = p.scores.size, len(p.cover)
    big = float(p.scores.sum()) + 1.0
    h = new_highs()
    h.setOptionValue("time_limit", float(time_limit_s))
    h.setOptionValue("mip_rel_gap", 1e-6)
    lp = highspy.HighsLp()
    lp.num_col_ = n + m
    lp.col_cost_ = np.concatenate([-p.scores.astype(np.float64), np.full(m, -big)])
    lp.col_lower_ = np.zeros(n + m)
    lp.col_upper_ = np.ones(n + m)
    starts, index, value, lo, hi = [0], [], [], [], []

    def row(cols: list[int], vals: list[float], lower: float, upper: float) -> None:
        index.extend(cols)
        value.extend(vals)
        starts.append(len(index))
        lo.append(lower)
        hi.append(upper)

    row(list(range(n)), [1.0] * n, -highspy.kHighsInf, float(p.limit))
    for a, b in p.pairs:
        row([a, b], [1.0, 1.0], -highspy.kHighsInf, 1.0)
    for g, members in enumerate(p.cover):
        row([n + g, *members], [1.0] + [-1.0] * len(members), -highspy.kHighsInf, 0.0)
    for members, cap in p.caps:
        row(list(members), [1.0] * len(members), -highspy.kHighsInf, float(cap))
    lp.num_row_ = len(lo)
    lp.row_lower_ = np.array(lo, dtype=np.float64)
    lp.row_upper_ = np.array(hi, dtype=np.float64)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_ = np.array(starts, dtype=np.int32)
    lp.a_matrix_.index_ = np.array(index, dtype=np.int32)
    lp.a_matrix_.value_ = np.array(value, dtype=np.float64)
    lp.a_matrix_.num_col_ = n + m
    lp.a_matrix_.num_row_ = len(lo)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * (n + m)
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kTimeLimit:
        return None, f"time limit {time_limit_s:.3g}s reached"
    if status != highspy.HighsModelStatus.kOptimal:
        return None, f"solver status {h.modelStatusToString(status)}"
    x = np.asarray(h.getSolution().col_value[:n])
    return [int(i) for i in np.flatnonzero(x > 0.5)], None


# ------------------------------------------------------------------------------------ compose


def order_key(rows: np.ndarray, sort: str, snap: Snapshot) -> np.ndarray:
    """Per row, the key an ordered sort puts first when smallest: the date taken (ascending for
    date_asc), when it was added (added_desc), the file's bytes or the pixels (size_*, pixels_*);
    rows without the value last (infinity)."""
    if sort in BY_DATE_SORTS:
        value = (snap.added if sort == "added_desc" else snap.taken)[rows]
        unknown = value == NO_DATE
    else:
        value = photo_sizes(snap)[SORTED_BY[sort]][rows]
        unknown = np.isnan(value)
    key = value.astype(np.float64)
    key = key if sort.endswith("_asc") else -key
    key[unknown] = np.inf
    return key


def sort_rows(
    rows: np.ndarray, scores: np.ndarray, sort: str, snap: Snapshot
) -> tuple[np.ndarray, np.ndarray]:
    if sort in ORDERED_SORTS:
        order = np.lexsort((-scores, order_key(rows, sort, snap)))
    else:
        order = np.lexsort((rows, -scores))
    return rows[order], scores[order]


def first_in_order(rows: np.ndarray, scores: np.ndarray, k: int, sort: str, snap: Snapshot) -> np.ndarray:
    """Indices of the `k` first matches in an ordered sort (the newest, the largest...), those without
    the value last, ties by score: a partition on the key first, so a page of a million matches
    sorts only its own rows."""
    if k >= rows.size:
        return np.arange(rows.size)
    key = order_key(rows, sort, snap)
    kth = np.partition(key, k - 1)[k - 1]
    cand = np.flatnonzero(key <= kth)  # every row tied with the k-th too
    order = np.lexsort((rows[cand], -scores[cand], key[cand]))
    return cand[order[:k]]


def _one_per_group(per: str, rows: np.ndarray, snap: Snapshot, page_cap: int | None, info: dict) -> int:
    """ "one per day" without a limit: as many results as there are groups, at most `page_cap`
    (0 when there are no groups at all)."""
    n_groups = count_groups(per, rows, snap)
    if not n_groups:
        return 0
    page = min(n_groups, int(page_cap)) if page_cap else n_groups
    info["limit_from_groups"] = page
    return page


def compose(
    rows: np.ndarray,
    scores: np.ndarray,
    block: dict | None,
    snap: Snapshot,
    *,
    image_index=None,
    options: ComposeOptions | None = None,
    page_cap: int | None = None,
) -> tuple[np.ndarray, np.ndarray, dict]:
    """Pick and order results. Returns (rows, scores, composer info). `page_cap`: at most this many
    results, whatever the block asks (the caller's page)."""
    opts = options or ComposeOptions()
    block = block or {}
    t0 = time.perf_counter()
    limit = block.get("limit")
    per = block.get("per")
    diverse = bool(block.get("diverse"))
    dedupe = bool(block.get("exclude_near_duplicates"))
    sort = block.get("sort") or "relevance"
    info: dict = {"solver": "topk", "solve_ms": 0.0, "fallback_reason": None, "candidates": int(rows.size)}
    limit_n = min(int(limit) if limit else int(rows.size), int(page_cap or rows.size or 1))
    if not (per or diverse or dedupe) or rows.size == 0:
        if sort in ORDERED_SORTS:  # the page is the newest (largest...) matches, not the best
            best = first_in_order(rows, scores, limit_n, sort, snap)
        else:
            best = top_k(scores, limit_n, ties=rows)  # the page only: no sort of every candidate
        rows, scores = sort_rows(rows[best], scores[best], sort, snap)
        info["solve_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        return rows, scores, info
    if per and not limit:
        limit_n = _one_per_group(per, rows, snap, page_cap, info) or limit_n
    ordered = sort in ORDERED_SORTS
    # candidates in the order the page prefers: "newest first, one per day" wants the latest days
    rows, scores = sort_rows(rows, scores, sort if ordered else "relevance", snap)
    cap = max(opts.max_candidates, 4 * limit_n) if limit else opts.max_candidates
    if rows.size > cap:
        keep = np.arange(cap)
        if per:  # groups the cut would lose keep their best candidate, as many as the limit can cover
            best = group_best(per, rows, snap)
            missing = best[best >= cap]
            need = limit_n - int((best < cap).sum())
            if need > 0 and missing.size:
                keep = np.union1d(keep, missing[: 2 * need])  # 2x: slack for near-duplicate conflicts
        info["truncated_to"] = int(keep.size)
        rows, scores = rows[keep], scores[keep]
    limit_n = min(limit_n, rows.size)
    pairs = duplicate_pairs(rows, snap, image_index, opts) if dedupe else []
    cover: list[list[int]] = []
    caps: list[tuple[list[int], int]] = []
    if per:
        groups = _groups(group_keys(per, rows, snap))
        cover = list(groups.values())
        info["groups"] = len(cover)
    if diverse:
        dgroups = _groups(group_keys(per or "day", rows, snap))
        if dgroups:
            cap_n = max(1, math.ceil(limit_n / len(dgroups)))
            caps = [(m, cap_n) for m in dgroups.values() if len(m) > cap_n]
            info["max_per_group"] = cap_n
    # an ordered sort weighs each candidate by its place in that order (newest, largest worth most)
    weights = np.linspace(1.0, 0.5, rows.size) if ordered else np.asarray(scores, np.float64)
    problem = Problem(weights, limit_n, pairs, cover, caps)
    info["duplicate_pairs"] = len(pairs)
    picked: list[int] | None = None
    if opts.force_greedy:
        info["fallback_reason"] = "greedy requested"
    else:
        try:
            picked, reason = solve_highs(problem, opts.time_limit_s)
            if picked is None:
                info["fallback_reason"] = reason
            else:
                info["solver"] = "highs"
        except Exception as exc:  # noqa: BLE001 - a solver failure must not lose the results
            info["fallback_reason"] = f"solver failed: {exc}"
    if picked is None:
        picked = solve_greedy(problem)
        info["solver"] = "greedy"
    covered, total = objective(problem, picked)
    info |= {"covered_groups": covered, "objective": round(total, 4)}
    sel = np.array(sorted(picked), dtype=np.int64)
    out_rows, out_scores = rows[sel], scores[sel]
    out_rows, out_scores = sort_rows(out_rows, out_scores, sort, snap)
    info["solve_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return out_rows, out_scores, info
