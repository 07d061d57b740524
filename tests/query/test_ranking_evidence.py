"""Closest matches are ranked on the softmax models' probabilities raised to `RANK_POWER`: a scene
model's 0.13 on the very scene asked for outranks its 0.45 on a scene only loosely like it, though
the raw evidence (which alone decides what is confident) says the opposite."""

from __future__ import annotations

import numpy as np

from photosearch.query.resolvers.distributions import Affinity, ClassSpace, ranking_evidence


def _explain(kind: str) -> dict[str, tuple]:
    cs = ClassSpace("space", [("parking garage",), ("parking lot",), ("loading dock",)], kind)
    aff = Affinity(
        np.array([1.0, 0.3, 0.0], np.float32), {0: "exact", 1: "similar"}, np.array([True, False, False])
    )
    rows = np.array([0, 1])
    idx = np.array([[0, 2], [1, 2]])  # photo 0: the garage at 0.13; photo 1: the lot at 0.45
    prob = np.array([[0.13, 0.87], [0.45, 0.55]], np.float32)
    contrib = prob * aff.values[idx]
    return {"space": (cs, rows, idx, prob, contrib, aff)}


def test_the_class_asked_for_ranks_above_a_likelier_class_only_like_it():
    explain = _explain("softmax")
    raw = [float(explain["space"][4][i].sum()) for i in range(2)]
    assert raw[1] > raw[0]  # 0.135 beside 0.13: the raw evidence puts the parking lot first
    ranked = ranking_evidence(explain, 2)
    assert ranked[0] > ranked[1] > raw[1]


def test_a_models_independent_scores_rank_as_they_are():
    explain = _explain("scores")  # the detector's per-class scores are no softmax over classes
    ranked = ranking_evidence(explain, 2)
    np.testing.assert_allclose(ranked, [0.13, 0.135], rtol=1e-5)
