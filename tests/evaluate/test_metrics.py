"""Metric functions against hand-computed cases."""

from __future__ import annotations

import math

import pytest

from photosearch.evaluate import metrics as M

RANKED = ["a", "x", "b", "y", "c"]
REL = {"a": 1, "b": 1, "c": 1, "d": 1}


def test_precision_and_recall_at_k():
    assert M.precision_at_k(RANKED, REL, 1) == 1.0
    assert M.precision_at_k(RANKED, REL, 3) == pytest.approx(2 / 3)
    assert M.precision_at_k(RANKED, REL, 10) == pytest.approx(3 / 10)  # short lists count misses
    assert M.recall_at_k(RANKED, REL, 3) == pytest.approx(2 / 4)
    assert M.recall_at_k(RANKED, REL, 5) == pytest.approx(3 / 4)
    assert M.recall_at_k([], {}, 5) == 1.0


def test_reciprocal_rank():
    assert M.reciprocal_rank(["x", "y", "b"], REL) == pytest.approx(1 / 3)
    assert M.reciprocal_rank(["x", "y"], REL) == 0.0


def test_average_precision_hand_computed():
    # hits at ranks 1, 3, 5 -> (1/1 + 2/3 + 3/5) / 4 relevant
    assert M.average_precision(RANKED, REL) == pytest.approx((1 + 2 / 3 + 3 / 5) / 4)
    assert M.average_precision(["x"], REL) == 0.0


def test_ndcg_with_grades():
    rel = {"a": 3, "b": 2, "c": 1}
    ranked = ["b", "x", "a"]
    dcg = (2**2 - 1) / math.log2(2) + 0 + (2**3 - 1) / math.log2(4)
    idcg = (2**3 - 1) / math.log2(2) + (2**2 - 1) / math.log2(3) + (2**1 - 1) / math.log2(4)
    assert M.ndcg_at_k(ranked, rel, 3) == pytest.approx(dcg / idcg)
    assert M.ndcg_at_k(["a", "b", "c"], rel, 3) == pytest.approx(1.0)
    # order matters with grades: the less relevant first scores lower
    assert M.ndcg_at_k(["c", "b", "a"], rel, 3) < M.ndcg_at_k(["a", "b", "c"], rel, 3)
    assert M.ndcg_at_k(["b"], rel, 1) == pytest.approx(3 / 7)


def test_pr_curve_and_percentile():
    assert M.precision_recall_curve(["a", "x"], {"a": 1, "b": 1}) == [(0.5, 1.0), (0.5, 0.5)]
    assert M.percentile([1, 2, 3, 4], 50) == pytest.approx(2.5)
    assert M.percentile([10.0], 95) == 10.0
    assert M.percentile([], 50) == 0.0


def test_atom_f1_and_exact_match():
    expected = {"where": {"and": [{"concept": "cat"}, {"not": {"quality": "blurry"}}]}}
    same_other_order = {"version": 1, "where": {"and": [{"not": {"quality": "blurry"}}, {"concept": "cat"}]}}
    assert M.plan_exact_match(same_other_order, expected)
    assert M.atom_prf(same_other_order, expected) == (1.0, 1.0, 1.0)
    # the negation is part of the atom: a positive "blurry" does not match "not blurry"
    wrong = {"version": 1, "where": {"and": [{"concept": "cat"}, {"quality": "blurry"}]}}
    p, r, f = M.atom_prf(wrong, expected)
    assert (p, r, f) == (0.5, 0.5, 0.5)
    assert not M.plan_exact_match(wrong, expected)
    extra = {
        "version": 1,
        "where": {"and": [{"concept": "cat"}, {"not": {"quality": "blurry"}}, {"place": "Italy"}]},
    }
    p, r, f = M.atom_prf(extra, expected)
    assert p == pytest.approx(2 / 3) and r == 1.0 and f == pytest.approx(0.8)
    assert M.atom_prf(None, expected) == (0.0, 0.0, 0.0)
    assert not M.plan_exact_match(None, expected)


def test_above_cutoff_precision_and_absent_false_positives():
    ranked, above = ["a", "x", "b", "y"], [True, True, False, False]
    assert M.above_cutoff_precision(ranked, REL, above) == pytest.approx(1 / 2)  # a right, x wrong
    assert M.above_cutoff_precision(ranked, REL, [False] * 4) is None  # abstained: not scored
    assert M.above_cutoff_precision(["a", "b"], REL, [True, True]) == 1.0
    assert M.absent_false_positive([False, False]) is False
    assert M.absent_false_positive([False, True]) is True
    assert M.absent_false_positive([]) is False


def test_summary_scores_absent_requests_apart():
    from photosearch.evaluate.golden import GoldenQuery
    from photosearch.evaluate.runner import score_query, summarise

    found = GoldenQuery("cat", "cat", {"a": 1.0}, k=(1, 5))
    zebra = GoldenQuery("absent: zebra", "zebra", {}, k=(1, 5), absent=True)
    rows = [
        {"metrics": score_query(found, ["a", "x"], [True, True]), "error": None, "latency_ms": [1.0]},
        {
            "metrics": score_query(zebra, ["x", "y"], [False, False]),
            "error": None,
            "latency_ms": [1.0],
            "absent": True,
        },
        {"metrics": score_query(zebra, ["x"], [True]), "error": None, "latency_ms": [1.0], "absent": True},
    ]
    s = summarise(rows, (1, 5))
    assert s["hit@5"] == 1.0 and s["MRR"] == 1.0  # absent requests do not count as misses
    assert s["above_cutoff_precision"] == pytest.approx(0.5) and s["above_cutoff_queries"] == 1
    assert s["absent_queries"] == 2 and s["absent_fp_rate"] == pytest.approx(0.5)
