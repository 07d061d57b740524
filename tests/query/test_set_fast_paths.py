"""The executor's dense fast paths give what the plain definitions give (random sets, many seeds)."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.query.executor import CONTENT_ONLY, NEAR_SHARE, intersect, soft_partial
from photosearch.query.resolvers.base import ScoredSet
from photosearch.query.resolvers.snapshot import Snapshot


def random_set(rng, n: int, share: float) -> ScoredSet:
    rows = np.flatnonzero(rng.random(n) < share).astype(np.int32)
    return ScoredSet(rows, rng.uniform(0.05, 1.0, rows.size).astype(np.float32), graded=True)


def reference_partial(hard, soft, anchored, near=None, weights=None) -> dict[int, float]:
    """Definition: in `hard`, some but not all soft sets (anchored: none counts too); weighted mean
    of the soft scores (missing = NEAR_SHARE of its score below the cut-off, else 0), at least
    CONTENT_ONLY when anchored, times the hard score."""
    weights = weights or [1.0] * len(soft)
    scores = [dict(zip(s.rows.tolist(), s.scores.tolist(), strict=True)) for s in soft]
    below = [
        {} if b is None else dict(zip(b.rows.tolist(), b.scores.tolist(), strict=True)) for b in near or []
    ]
    below += [{}] * (len(soft) - len(below))
    candidates = set().union(*scores) if not anchored or hard is None else set(hard.rows.tolist())
    hard_of = None if hard is None else dict(zip(hard.rows.tolist(), hard.scores.tolist(), strict=True))
    out = {}
    for r in candidates:
        if hard_of is not None and r not in hard_of:
            continue
        present = [w * d[r] for d, w in zip(scores, weights, strict=True) if r in d]
        if len(present) == len(soft) or (not present and not (anchored and hard is not None)):
            continue
        leaning = [
            w * NEAR_SHARE * b.get(r, 0.0)
            for d, b, w in zip(scores, below, weights, strict=True)
            if r not in d
        ]
        share = (sum(present) + sum(leaning)) / sum(weights)
        if anchored:
            share = max(share, CONTENT_ONLY)
        out[r] = share * (1.0 if hard_of is None else hard_of[r])
    return out


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("anchored", [False, True])
@pytest.mark.parametrize("with_hard", [False, True])
@pytest.mark.parametrize("with_near", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_soft_partial_matches_its_definition(seed, anchored, with_hard, with_near, weighted):
    rng = np.random.default_rng(seed)
    n = 2000
    soft = [random_set(rng, n, share) for share in rng.uniform(0.05, 0.5, int(rng.integers(1, 4)))]
    hard = random_set(rng, n, 0.4) if with_hard else None
    near = [random_set(rng, n, 0.3) if rng.random() < 0.8 else None for _ in soft] if with_near else None
    weights = [float(w) for w in rng.choice([0.5, 1.0], len(soft))] if weighted else None
    got = soft_partial(hard, soft, anchored, near, weights)
    want = reference_partial(hard, soft, anchored, near, weights) if (len(soft) >= 2 or anchored) else {}
    assert got.rows.tolist() == sorted(want)
    assert np.allclose(got.scores, [want[r] for r in got.rows.tolist()], atol=1e-5)


def test_a_thing_counts_more_than_its_colour_in_a_partial_match():
    """ "a yellow flower" with neither whole: a white flower before a yellow lemon."""
    from photosearch.query.executor import SOFT_WEIGHTS

    yellow = ScoredSet(np.array([1], np.int32), np.array([0.9], np.float32), graded=True)  # the lemon
    flower = ScoredSet(np.array([0], np.int32), np.array([0.9], np.float32), graded=True)  # white flower
    weights = [SOFT_WEIGHTS["color"], SOFT_WEIGHTS["concept"]]
    got = soft_partial(None, [yellow, flower], False, None, weights)
    assert got.rows.tolist() == [0, 1] and got.scores[0] > got.scores[1]


def test_a_partial_match_has_a_thing_not_only_a_colour():
    """ "red parrot" with one red parrot: a red plier (only the colour) is no partial match; a parrot
    of another colour is. Anchored (a person among the hard parts), anything of that person counts."""
    red = ScoredSet(
        np.array([0, 1], np.int32), np.array([0.9, 0.9], np.float32), graded=True
    )  # parrot, plier
    parrot = ScoredSet(
        np.array([0, 2], np.int32), np.array([0.9, 0.9], np.float32), graded=True
    )  # red, green
    got = soft_partial(None, [red, parrot], False, None, [0.5, 1.0], [False, True])
    assert got.rows.tolist() == [2]
    anna = ScoredSet(np.array([1, 2, 3], np.int32), np.ones(3, np.float32))  # the photos of Anna
    anchored = soft_partial(anna, [red, parrot], True, None, [0.5, 1.0], [False, True])
    assert anchored.rows.tolist() == [1, 2, 3]


def test_an_and_of_one_graded_set_keeps_its_scores():
    s = random_set(np.random.default_rng(3), 500, 0.3)
    universe = ScoredSet(np.arange(500, dtype=np.int32), np.ones(500, np.float32))
    out = intersect([s], universe)
    assert out.rows.tolist() == s.rows.tolist() and np.array_equal(out.scores, s.scores) and out.graded


def test_locate_finds_each_active_id_and_refuses_the_rest():
    rng = np.random.default_rng(5)
    ids = np.unique(rng.integers(1, 50_000, 3000)).astype(np.int64)
    snap = Snapshot.__new__(Snapshot)
    snap.ids, snap.cache = ids, {}
    asked = np.concatenate([rng.choice(ids, 400), rng.integers(-5, 60_000, 400)]).astype(np.int64)
    rows, found = snap.locate(asked)
    assert found.tolist() == np.isin(asked, ids).tolist()
    assert np.array_equal(ids[rows[found]], asked[found])
    assert np.array_equal(snap.rows_of(asked), rows[found])  # the active ones, in the order asked
    assert snap.locate(np.zeros(0, np.int64))[0].size == 0
