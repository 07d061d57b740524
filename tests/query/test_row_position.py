"""Looking a row up in a sorted row array (why strings, `ScoredSet.score_of`) with any integer key."""

from __future__ import annotations

import numpy as np

from photosearch.query.resolvers.base import ScoredSet, position


def test_position_matches_searchsorted_for_any_key_type():
    rows = np.array([2, 5, 9, 40], np.int32)
    for key in (0, 2, 3, 9, 40, 41, np.int64(5), np.int32(9)):
        assert position(rows, key) == int(np.searchsorted(rows, int(key)))
    assert position(np.zeros(0, np.int32), 7) == 0


def test_score_of_finds_present_rows_only():
    s = ScoredSet(np.array([1, 4, 7], np.int32), np.array([0.5, 0.25, 1.0], np.float32))
    assert s.score_of(4) == 0.25 and s.score_of(np.int64(7)) == 1.0
    assert s.score_of(5) is None and s.score_of(8) is None and s.score_of(0) is None
