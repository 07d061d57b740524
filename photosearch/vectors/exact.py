"""Exact (brute-force) vector search over a matrix: a space's vectors read from the catalog.

This is what search falls back to while a space's usearch index is missing or stale (the indexer's
`vectors` post step builds and updates indexes; a search never does), and it is the rclip-style
baseline of the benchmarks: every vector in memory, one numpy dot product, top-k. It answers the
same calls as `VectorIndex` (`keys`, `get`, `get_many`, `search`, `in`, `len`), plus the batch
`index.search(vectors, k)` that `duplicates` uses.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from photosearch.vectors.index import normalise


@dataclass
class BatchMatches:
    keys: np.ndarray  # (q, k) int64
    distances: np.ndarray  # (q, k) float32, 1 - cosine


class ExactVectors:
    """Unit vectors of one space keyed by catalog ids, searched exactly."""

    def __init__(self, space: str, keys, vectors: np.ndarray):
        keys = np.asarray(keys, dtype=np.int64).ravel()
        order = np.argsort(keys, kind="stable")
        self.space = space
        self._keys = keys[order]
        self.vectors = normalise(np.asarray(vectors, np.float32).reshape(keys.size, -1)[order])
        self.dim = int(self.vectors.shape[1]) if self.vectors.ndim == 2 else 0
        self.index = _Batch(self)  # `duplicates` batch-searches `index.index` like a usearch Index

    def __len__(self) -> int:
        return int(self._keys.size)

    def __contains__(self, key: int) -> bool:
        return self._position(np.array([key], np.int64))[1][0]

    def _position(self, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pos = np.clip(np.searchsorted(self._keys, keys), 0, max(self._keys.size - 1, 0))
        ok = (self._keys[pos] == keys) if self._keys.size else np.zeros(keys.size, bool)
        return pos, ok

    def keys(self) -> np.ndarray:
        return self._keys.copy()

    def get(self, key: int) -> np.ndarray | None:
        pos, ok = self._position(np.array([key], np.int64))
        return self.vectors[pos[0]].copy() if ok[0] else None

    def get_many(self, keys) -> np.ndarray:
        """Vectors of keys that are all present, as a (k, dim) float32 matrix."""
        pos, _ = self._position(np.asarray(keys, np.int64).ravel())
        return self.vectors[pos]

    def search(self, vector: np.ndarray, k: int = 10, *, exact: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Nearest ids and their cosine similarities, best first (always exact)."""
        n = len(self)
        if n == 0 or k <= 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = normalise(np.asarray(vector, np.float32).reshape(1, -1))[0]
        sims = self.vectors @ q
        top = top_k(sims, k)
        return self._keys[top], sims[top].astype(np.float32)


class _Batch:
    """`search(vectors, k)` over many queries at once, shaped like usearch's batch matches."""

    def __init__(self, owner: ExactVectors):
        self.owner = owner

    def search(self, vectors: np.ndarray, k: int) -> BatchMatches:
        o = self.owner
        sims = normalise(np.atleast_2d(vectors)) @ o.vectors.T
        k = min(int(k), len(o))
        top = np.argsort(-sims, axis=1, kind="stable")[:, :k]
        return BatchMatches(o._keys[top], (1.0 - np.take_along_axis(sims, top, axis=1)).astype(np.float32))


def top_k(scores: np.ndarray, k: int, ties: np.ndarray | None = None) -> np.ndarray:
    """Indices of the k highest scores, best first, equal scores by `ties` (default: the index), as
    a full stable sort would order them, in O(n + k log k)."""
    n = scores.size
    k = min(int(k), n)
    ties = np.arange(n) if ties is None else np.asarray(ties)
    if k <= 0:
        return np.zeros(0, np.int64)
    if k == n:
        cand = np.arange(n)
    else:
        kth = np.partition(scores, n - k)[n - k]  # the k-th highest score
        above = np.flatnonzero(scores > kth)
        level = np.flatnonzero(scores == kth)
        need = k - above.size
        if level.size > need:
            level = level[np.argpartition(ties[level], need - 1)[:need]]
        cand = np.concatenate([above, level])
    return cand[np.lexsort((ties[cand], -scores[cand]))]
