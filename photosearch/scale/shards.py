"""Vector indexes in shards: build per-shard usearch indexes, search across them, merge them.

A photo goes to shard `id % num_shards`, so each worker (or machine) can build its shard
independently from the catalog rows it owns. Searching asks every shard for its top k and merges
by similarity (ties by id), which equals searching one index over all vectors when each shard
search is exact, and matches it up to HNSW's approximation otherwise. `merge()` folds the shards
into one `VectorIndex` when a single file is wanted (e.g. to ship to a desktop).

On disk: DIR/manifest.json plus DIR/shard-000/, DIR/shard-001/, … each a `VectorIndex` save
(`<space>.usearch` + sidecar with checksums).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from photosearch.vectors.index import VectorIndex

MANIFEST = "manifest.json"


def shard_of(keys, num_shards: int) -> np.ndarray:
    return (np.asarray(keys, dtype=np.int64) % int(num_shards)).astype(np.int64)


def merge_topk(parts: Sequence[tuple[np.ndarray, np.ndarray]], k: int) -> tuple[np.ndarray, np.ndarray]:
    """Merge (ids, similarities) lists into the global top k: similarity descending, then id."""
    if not parts:
        return np.zeros(0, np.int64), np.zeros(0, np.float32)
    ids = np.concatenate([np.asarray(p[0], np.int64) for p in parts])
    sims = np.concatenate([np.asarray(p[1], np.float32) for p in parts])
    order = np.lexsort((ids, -sims))[:k]
    return ids[order], sims[order]


class ShardedIndex:
    """N `VectorIndex` shards of one embedding space."""

    def __init__(self, space: str, dim: int, num_shards: int, dtype: str = "f32"):
        if num_shards < 1:
            raise ValueError("num_shards must be >= 1")
        self.space, self.dim, self.dtype = space, int(dim), dtype
        self.shards = [VectorIndex(space, dim, dtype) for _ in range(num_shards)]

    @property
    def num_shards(self) -> int:
        return len(self.shards)

    def __len__(self) -> int:
        return sum(len(s) for s in self.shards)

    def add(self, keys, vectors: np.ndarray, *, threads: int = 0) -> None:
        keys = np.asarray(keys, dtype=np.int64).ravel()
        vectors = np.asarray(vectors, dtype=np.float32).reshape(keys.size, -1)
        where = shard_of(keys, self.num_shards)

        def build(i: int) -> None:
            mask = where == i
            if mask.any():
                self.shards[i].add(keys[mask], vectors[mask], threads=threads or 1)

        with ThreadPoolExecutor(max_workers=min(self.num_shards, os.cpu_count() or 1)) as pool:
            list(pool.map(build, range(self.num_shards)))

    def remove(self, keys) -> int:
        keys = np.asarray(keys, dtype=np.int64).ravel()
        where = shard_of(keys, self.num_shards)
        return sum(self.shards[i].remove(keys[where == i]) for i in range(self.num_shards))

    def search(self, vector: np.ndarray, k: int = 10, *, exact: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Top k ids and cosine similarities across all shards."""
        return merge_topk([s.search(vector, k, exact=exact) for s in self.shards if len(s)], k)

    def merge(self) -> VectorIndex:
        """One index holding every shard's vectors."""
        out = VectorIndex(self.space, self.dim, self.dtype)
        for s in self.shards:
            keys = s.keys()
            if keys.size:
                out.add(keys, s.get_many(keys))
        return out

    # ---- persistence -------------------------------------------------------------------------
    def save(self, directory: Path | str) -> Path:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        for i, s in enumerate(self.shards):
            s.save(d / f"shard-{i:03d}")
        manifest = {"space": self.space, "dim": self.dim, "dtype": self.dtype, "num_shards": self.num_shards,
                    "counts": [len(s) for s in self.shards], "routing": "id % num_shards"}
        tmp = d / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        os.replace(tmp, d / MANIFEST)
        return d

    @classmethod
    def load(cls, directory: Path | str) -> ShardedIndex:
        d = Path(directory)
        try:
            manifest = json.loads((d / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise FileNotFoundError(f"no shard manifest in {d}: {exc}") from None
        obj = cls(manifest["space"], manifest["dim"], manifest["num_shards"], manifest["dtype"])
        for i in range(obj.num_shards):
            if manifest["counts"][i] == 0:
                continue
            loaded = VectorIndex.load(d / f"shard-{i:03d}", obj.space)
            if loaded is None:
                raise ValueError(f"shard {i} of {d} is missing or damaged; rebuild it from the catalog")
            obj.shards[i] = loaded[0]
        return obj


def build_from_catalog(store, settings, space: str, num_shards: int, *, dtype: str = "f32",
                       directory: Path | str | None = None) -> ShardedIndex:
    """Shard one space's active vectors from the catalog (and save them when `directory` is given)."""
    from photosearch.vectors.manager import VectorIndexes

    ids, vecs = VectorIndexes(store, settings).catalog_vectors(space)
    if ids.size == 0:
        raise ValueError(f"the catalog has no vectors in space {space!r}")
    sharded = ShardedIndex(space, vecs.shape[1], num_shards, dtype)
    sharded.add(ids, vecs)
    if directory is not None:
        sharded.save(directory)
    return sharded


def _build_shard_task(space: str, dim: int, dtype: str, keys: np.ndarray, vecs: np.ndarray, directory: str) -> int:
    index = VectorIndex(space, dim, dtype)
    index.add(keys, vecs)
    index.save(Path(directory))
    return len(index)


def build_with_ray(keys, vectors: np.ndarray, space: str, num_shards: int, directory: Path | str,
                   *, dtype: str = "f32") -> ShardedIndex:
    """Build and save each shard in its own Ray task (Ray must be initialised), then load them."""
    import ray

    keys = np.asarray(keys, dtype=np.int64).ravel()
    vectors = np.asarray(vectors, dtype=np.float32).reshape(keys.size, -1)
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    where = shard_of(keys, num_shards)
    task = ray.remote(num_cpus=1)(_build_shard_task)
    refs = [task.remote(space, vectors.shape[1], dtype, keys[where == i], vectors[where == i], str(d / f"shard-{i:03d}"))
            for i in range(num_shards)]
    counts = ray.get(refs)
    manifest = {"space": space, "dim": int(vectors.shape[1]), "dtype": dtype, "num_shards": num_shards,
                "counts": counts, "routing": "id % num_shards"}
    (d / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return ShardedIndex.load(d)
