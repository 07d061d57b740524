"""`assert_same_snapshot`: two catalog snapshots hold the same data, field by field."""

from __future__ import annotations

import dataclasses

import numpy as np

from photosearch.query.resolvers.snapshot import Snapshot


def _same_group(a, b, where: str) -> None:
    assert (a.kind, a.label, a.names, a.hypernym, a.extra) == (
        b.kind,
        b.label,
        b.names,
        b.hypernym,
        b.extra,
    ), where
    assert a.rows.dtype == b.rows.dtype and np.array_equal(a.rows, b.rows), where
    assert a.scores.dtype == b.scores.dtype and np.array_equal(a.scores, b.scores), where


def assert_same_snapshot(a: Snapshot, b: Snapshot) -> None:
    for f in dataclasses.fields(Snapshot):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name in ("loaded_at", "cache"):
            continue
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f.name
        elif f.name == "people":
            assert list(x) == list(y), f.name
            for k in x:
                assert x[k].dtype == y[k].dtype and np.array_equal(x[k], y[k]), k
        elif f.name == "groups":
            assert list(x) == list(y) and all(list(x[k]) == list(y[k]) for k in x), f.name
            for kind in x:
                for label in x[kind]:
                    _same_group(x[kind][label], y[kind][label], f"{kind}/{label}")
        elif f.name == "token_index":
            assert list(x) == list(y), f.name
            for tok in x:
                assert [(g.kind, g.label) for g in x[tok]] == [(g.kind, g.label) for g in y[tok]], tok
                assert all(any(g is h for h in b.groups[g.kind].values()) for g in y[tok]), tok
        else:
            assert x == y, f.name
            if isinstance(x, dict):
                assert list(x) == list(y), f"{f.name}: order"
