"""One usearch index for one embedding space, with a sidecar that makes staleness detectable.

The index file `<space>.usearch` is a cache of catalog vectors keyed by catalog ids (photo id,
or face id for the `face` space). The sidecar `<space>.json` records what it was built from:
count, dim, dtype, a checksum of the sorted ids, the newest `updated_at` seen, the size and
CRC32 of the index file, so a missing, stale or damaged file is detected before it is used, and
the catalog generation (`photosearch.catalog.generation`) a writer last found it in line with: a
search trusts a file whose generation is the catalog's current one without asking the catalog more.

Indexes are always loaded with `Index.restore` (a writable copy in memory), never `view=True`:
adding to a memory-mapped view can crash the process.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import zlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np


def _usearch_index():
    """usearch's `Index` class, imported on first use (a search that opens no index never pays the
    ~0.1 s of onnxruntime + usearch). onnxruntime must be loaded before usearch: importing it after
    usearch segfaults (ORT 1.32, usearch 2.26)."""
    import onnxruntime  # noqa: F401 - a core dependency; the order is the point
    from usearch.index import Index

    return Index


log = logging.getLogger(__name__)

DTYPES = ("f32", "bf16", "f16", "i8")
#: Vectors per `Index.add` call: each call runs on `threads` cores; batches bound the float32 copy.
ADD_BATCH = 100_000
SIDECAR_VERSION = 1


def ids_checksum(ids: np.ndarray) -> str:
    """A stable checksum of a set of integer ids (order-independent)."""
    arr = np.unique(np.asarray(ids, dtype=np.int64))
    return hashlib.sha1(arr.tobytes()).hexdigest()


def file_crc32(path: Path) -> int:
    crc = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            crc = zlib.crc32(chunk, crc)
    return crc


@dataclass
class Sidecar:
    space: str
    dim: int
    dtype: str
    count: int
    ids_sha1: str
    max_updated: str | None
    file_size: int
    file_crc32: int
    version: int = SIDECAR_VERSION
    generation: list | None = None  # [catalog uid, generation] the index was last found in line with


def read_sidecar(path: Path) -> Sidecar | None:
    """A sidecar file, or None when it is missing or not one of this version."""
    try:
        side = Sidecar(**json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError) as exc:
        if path.exists():
            log.warning("cannot read %s (%s)", path, exc)
        return None
    return side if side.version == SIDECAR_VERSION else None


def _write_sidecar(base: Path, side: Sidecar) -> None:
    tmp = base.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(asdict(side)), encoding="utf-8")
    os.replace(tmp, base.with_suffix(".json"))


def space_filename(space: str) -> str:
    """`clip:ViT-B-32` -> `clip_ViT-B-32` (safe on every file system)."""
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in space)


class VectorIndex:
    """A cosine usearch index over L2-normalised vectors of one space."""

    def __init__(
        self,
        space: str,
        dim: int,
        dtype: str = "f32",
        *,
        connectivity: int | None = None,
        expansion_add: int | None = None,
    ):
        if dtype not in DTYPES:
            raise ValueError(f"unknown vector dtype {dtype!r}; use one of {', '.join(DTYPES)}")
        self.space = space
        self.dim = int(dim)
        self.dtype = dtype
        self.index = _usearch_index()(
            ndim=self.dim, metric="cos", dtype=dtype, connectivity=connectivity, expansion_add=expansion_add
        )
        self.max_updated: str | None = None
        #: The catalog generation ([uid, value]) this content is in line with; None when unknown.
        self.generation: list | None = None
        #: The sidecar of the file this content was loaded from or saved to; None once it changed.
        self.sidecar: Sidecar | None = None

    # ---- content ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.index)

    def __contains__(self, key: int) -> bool:
        return bool(self.index.contains(int(key)))

    def keys(self) -> np.ndarray:
        return np.asarray(self.index.keys, dtype=np.int64) if len(self.index) else np.zeros(0, np.int64)

    def add(
        self,
        keys,
        vectors: np.ndarray,
        *,
        threads: int = 0,
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        """Add (or replace) vectors under catalog ids: one multi-threaded usearch call per batch of
        `ADD_BATCH` vectors (`threads` 0: every core), `progress(done, total)` after each."""
        keys = np.asarray(keys, dtype=np.uint64).ravel()
        if keys.size == 0:
            return
        vecs = np.asarray(vectors, dtype=np.float32).reshape(keys.size, -1)
        if vecs.shape[1] != self.dim:
            raise ValueError(f"{self.space}: vectors have {vecs.shape[1]} dims, the index {self.dim}")
        if len(self.index):
            self.remove(keys)
        self.generation = self.sidecar = None
        for lo in range(0, keys.size, ADD_BATCH):
            hi = min(keys.size, lo + ADD_BATCH)
            self.index.add(keys[lo:hi], normalise(vecs[lo:hi]), threads=threads)
            if progress:
                progress(hi, keys.size)

    def remove(self, keys) -> int:
        """Remove ids (missing ones are ignored); returns how many were present."""
        keys = np.asarray(keys, dtype=np.uint64).ravel()
        if keys.size == 0 or not len(self.index):
            return 0
        present = keys[np.asarray(self.index.contains(keys), dtype=bool).reshape(-1)]
        if present.size:
            self.index.remove(present)
            self.generation = self.sidecar = None
        return int(present.size)

    def get(self, key: int) -> np.ndarray | None:
        if not self.index.contains(int(key)):
            return None
        return np.asarray(self.index.get(int(key)), dtype=np.float32)

    def get_many(self, keys) -> np.ndarray:
        """Vectors of keys that are all present, as a (k, dim) float32 matrix."""
        keys = np.asarray(keys, dtype=np.uint64).ravel()
        if keys.size == 0:
            return np.zeros((0, self.dim), np.float32)
        got = self.index.get(keys, dtype=np.float32)
        if isinstance(got, np.ndarray) and got.ndim == 2:
            return got.astype(np.float32, copy=False)
        return np.vstack([np.asarray(g, dtype=np.float32).reshape(1, -1) for g in got])

    def search(
        self, vector: np.ndarray, k: int = 10, *, exact: bool = False
    ) -> tuple[np.ndarray, np.ndarray]:
        """Nearest ids and their cosine similarities (1 = identical direction), best first."""
        n = len(self.index)
        if n == 0 or k <= 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        q = normalise(np.asarray(vector, dtype=np.float32).reshape(1, -1))[0]
        m = self.index.search(q, min(int(k), n), exact=exact)
        keys = np.asarray(m.keys, dtype=np.int64)
        sims = 1.0 - np.asarray(m.distances, dtype=np.float32)
        return keys, sims

    # ---- persistence -----------------------------------------------------------------------
    def save(self, directory: Path, ids_sha1: str | None = None) -> Path:
        """Write index + sidecar atomically (temp file, then rename)."""
        directory.mkdir(parents=True, exist_ok=True)
        base = directory / space_filename(self.space)
        path = base.with_suffix(".usearch")
        tmp = base.with_suffix(".usearch.tmp")
        self.index.save(str(tmp))
        os.replace(tmp, path)
        side = Sidecar(
            space=self.space,
            dim=self.dim,
            dtype=self.dtype,
            count=len(self),
            ids_sha1=ids_sha1 or ids_checksum(self.keys()),
            max_updated=self.max_updated,
            file_size=path.stat().st_size,
            file_crc32=file_crc32(path),
            generation=self.generation,
        )
        _write_sidecar(base, side)
        self.sidecar = side
        return path

    def record_generation(self, directory: Path, generation: list | None) -> None:
        """Record that this index, unchanged since it was saved or loaded, is in line with the catalog
        at `generation`: only the sidecar is rewritten when the file on disk is this index's (else
        the whole index is saved)."""
        self.generation = generation
        base = directory / space_filename(self.space)
        on_disk = read_sidecar(base.with_suffix(".json"))
        if (
            self.sidecar is None
            or on_disk is None
            or replace(on_disk, generation=None) != replace(self.sidecar, generation=None)
        ):
            self.save(directory, self.sidecar.ids_sha1 if self.sidecar else None)
            return
        self.sidecar = replace(on_disk, generation=generation)
        _write_sidecar(base, self.sidecar)

    @classmethod
    def load(
        cls, directory: Path, space: str, *, expansion_add: int | None = None
    ) -> tuple[VectorIndex, Sidecar] | None:
        """Load a saved index (writable copy). None when missing, damaged or inconsistent.
        The file does not keep the build's `expansion_add` (usearch restores its default, 128): a
        writer passes its own for the vectors it adds later."""
        base = directory / space_filename(space)
        path, side_path = base.with_suffix(".usearch"), base.with_suffix(".json")
        if not path.is_file() or not side_path.is_file():
            return None
        side = read_sidecar(side_path)
        if side is None or side.space != space:
            return None
        try:
            if path.stat().st_size != side.file_size or file_crc32(path) != side.file_crc32:
                log.warning("vector index %s is damaged (checksum mismatch); rebuilding", path)
                return None
            meta = _usearch_index().metadata(str(path))
            if meta is None or int(meta["dimensions"]) != side.dim:
                return None
            index = _usearch_index().restore(str(path), view=False)
            if index is None or len(index) != side.count:
                return None
        except (OSError, ValueError, TypeError, KeyError, RuntimeError) as exc:
            log.warning("cannot load vector index %s (%s); rebuilding", path, exc)
            return None
        obj = cls.__new__(cls)
        obj.space, obj.dim, obj.dtype = space, side.dim, side.dtype
        obj.index = index
        if expansion_add:
            index.expansion_add = int(expansion_add)
        obj.max_updated = side.max_updated
        obj.generation, obj.sidecar = side.generation, side
        return obj, side


def normalise(vecs: np.ndarray) -> np.ndarray:
    """Row-wise L2 normalisation (zero rows stay zero)."""
    vecs = np.asarray(vecs, dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    return vecs / norms
