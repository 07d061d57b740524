"""All vector indexes of a catalog: load, check against the catalog, rebuild or sync, update.

Spaces are the `embeddings.space` values (`image`, `facts_text`, `clip:<model>`, keyed by photo
id) plus `face` (face descriptors from the faces table, keyed by face id). Only active photos are
indexed. Two doors, one per kind of caller:

* writers (the indexer's `vectors` post step, `update_photos`, `remove_photos`): `get(space)`
  returns an index that matches the catalog: a missing or damaged file is rebuilt; a stale one
  (ids or `updated_at` differ from the sidecar) is synced incrementally and saved;
* searches: `open(space)` returns the saved index only when it matches the catalog and never
  builds, syncs or writes; otherwise `exact(space)` gives an exact brute-force search over the
  catalog's vectors instead. It matches when the catalog's generation is the one the writer
  recorded in the sidecar (one row read: nothing was written since the writer checked the index
  against the catalog's ids and stamps); where that is not so (another write since, a database
  without a generation), when one aggregate query (count and newest `updated_at`) agrees with it.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from datetime import datetime

import numpy as np
from sqlalchemy import func, select

from photosearch.catalog import generation
from photosearch.catalog.models import Embedding, Face, Photo
from photosearch.vectors.exact import ExactVectors
from photosearch.vectors.index import VectorIndex, ids_checksum, space_filename

log = logging.getLogger(__name__)

FACE_SPACE = "face"
#: How the post step builds an index (measured at 100k and 1M: docs/SCALE.md "Query speed"):
#: bfloat16 vectors (half the memory of float32, the same exponent range, hardware dot products),
#: 16 links per node, 64 candidates while linking (usearch's default, 128, makes the build slower).
DEFAULT_DTYPE = "bf16"
DEFAULT_CONNECTIVITY = 16
DEFAULT_EXPANSION_ADD = 64
#: Catalog rows read per chunk when loading a space's vectors.
READ_CHUNK = 50_000


def _ts(value: datetime | str | None) -> str | None:
    if value is None:
        return None
    return value.isoformat() if isinstance(value, datetime) else str(value)


def _vector_chunk(space: str, rows, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """(ids, float32 matrix) of (id, blob) rows; rows whose vector is not `dim` floats are skipped."""
    sizes = np.fromiter((len(r[1]) for r in rows), np.int64, len(rows))
    good = sizes == dim * 4
    if dim == 0:
        good[:] = False
    for i in np.flatnonzero(~good):
        log.warning(
            "%s: id %s has a %d-d vector, expected %s; skipped", space, rows[i][0], sizes[i] // 4, dim
        )
    ids = np.fromiter((r[0] for r, ok in zip(rows, good, strict=True) if ok), np.int64, int(good.sum()))
    blob = b"".join(r[1] for r, ok in zip(rows, good, strict=True) if ok)
    return ids, np.frombuffer(blob, np.float32).reshape(ids.size, dim)


class VectorIndexes:
    """Owns the usearch indexes of one catalog (a rebuildable cache of its vectors)."""

    def __init__(
        self,
        store,
        settings,
        *,
        dtype: str = DEFAULT_DTYPE,
        connectivity: int = DEFAULT_CONNECTIVITY,
        expansion_add: int = DEFAULT_EXPANSION_ADD,
        threads: int | None = None,
    ):
        self.store = store
        self.directory = settings.vectors_dir
        self.dtype = dtype
        self.connectivity = connectivity
        self.expansion_add = expansion_add
        self.threads = int(threads if threads is not None else getattr(settings, "threads", 0) or 0)
        self._loaded: dict[str, VectorIndex] = {}
        self._opened: dict[str, int] = {}  # space -> sidecar mtime of the file `open` last loaded
        self._checked: dict[str, list] = {}  # space -> generation at which `open` found it in line
        self._lock = threading.RLock()

    # ---- catalog readers -------------------------------------------------------------------
    def generation(self) -> list | None:
        """The catalog's generation as a sidecar records it ([uid, value]), or None (unknown)."""
        gen = generation.current(self.store)
        return gen.key() if gen is not None else None

    def spaces(self) -> list[str]:
        """Embedding spaces in the catalog (+ `face`): one index probe per space, not a table scan."""
        names: list[str] = []
        with self.store.session() as s:
            while name := s.scalar(
                select(func.min(Embedding.space)).where(Embedding.space > (names or [""])[-1])
            ):
                names.append(name)
            has_faces = s.scalar(select(Face.id).where(Face.descriptor.is_not(None)).limit(1)) is not None
        return names + ([FACE_SPACE] if has_faces else [])

    def catalog_state(self, space: str) -> tuple[int, str | None]:
        """(count, newest `updated_at`) of a space's active vectors, in one aggregate query."""
        with self.store.session() as s:
            if space == FACE_SPACE:
                n = s.scalar(
                    select(func.count(Face.id))
                    .join(Photo, Photo.id == Face.photo_id)
                    .where(Photo.state == "active", Face.descriptor.is_not(None))
                )
                return int(n or 0), None
            n, newest = s.execute(
                select(func.count(Embedding.photo_id), func.max(Embedding.updated_at))
                .join(Photo, Photo.id == Embedding.photo_id)
                .where(Photo.state == "active", Embedding.space == space)
            ).one()
        return int(n or 0), _ts(newest)

    def catalog_keys(self, space: str) -> tuple[np.ndarray, np.ndarray | None]:
        """Ids of active vectors of a space and (for photo spaces) their updated_at strings."""
        with self.store.session() as s:
            if space == FACE_SPACE:
                rows = s.execute(
                    select(Face.id)
                    .join(Photo, Photo.id == Face.photo_id)
                    .where(Photo.state == "active", Face.descriptor.is_not(None))
                ).all()
                return np.array([r[0] for r in rows], dtype=np.int64), None
            rows = s.execute(
                select(Embedding.photo_id, Embedding.updated_at)
                .join(Photo, Photo.id == Embedding.photo_id)
                .where(Photo.state == "active", Embedding.space == space)
            ).all()
        ids = np.array([r[0] for r in rows], dtype=np.int64)
        stamps = np.array([_ts(r[1]) or "" for r in rows], dtype=object)
        return ids, stamps

    def catalog_vectors(self, space: str, ids: Iterable[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(ids, float32 matrix) of active vectors of a space, optionally only some ids; read in
        chunks of `READ_CHUNK` rows, each turned into one matrix (no per-vector Python objects)."""
        wanted = None if ids is None else [int(i) for i in ids]
        if space == FACE_SPACE:
            q = (
                select(Face.id, Face.descriptor)
                .join(Photo, Photo.id == Face.photo_id)
                .where(Photo.state == "active", Face.descriptor.is_not(None))
            )
            if wanted is not None:
                q = q.where(Face.id.in_(wanted))
        else:
            q = (
                select(Embedding.photo_id, Embedding.vector)
                .join(Photo, Photo.id == Embedding.photo_id)
                .where(Photo.state == "active", Embedding.space == space)
            )
            if wanted is not None:
                q = q.where(Embedding.photo_id.in_(wanted))
        id_parts: list[np.ndarray] = []
        vec_parts: list[np.ndarray] = []
        dim: int | None = None
        with self.store.session() as s:
            for rows in s.execute(q.execution_options(yield_per=READ_CHUNK)).partitions():
                dim = dim or len(rows[0][1]) // 4
                part_ids, part_vecs = _vector_chunk(space, rows, dim)
                id_parts.append(part_ids)
                vec_parts.append(part_vecs)
        if not id_parts or not sum(p.size for p in id_parts):
            return np.zeros(0, np.int64), np.zeros((0, dim or 0), np.float32)
        return np.concatenate(id_parts), np.concatenate(vec_parts)

    # ---- search time: open, never build ------------------------------------------------------
    def open(self, space: str) -> VectorIndex | None:
        """The index of a space when it matches the catalog (in memory, else loaded from disk, e.g.
        after another process's post step saved it); None when it is missing, damaged or stale.
        Never builds, syncs or writes anything."""
        with self._lock:
            gen = self.generation()
            index = self._loaded.get(space)
            if index is not None and self._vouched(space, index, gen):
                return index
            saved_at = self.saved_at(space)
            if saved_at is not None and (index is None or self._opened.get(space) != saved_at):
                loaded = VectorIndex.load(self.directory, space)  # new on disk: a writer saved it
                self._opened[space] = saved_at
                if loaded is not None:
                    index, side = loaded
                    index._ids_sha1 = side.ids_sha1  # type: ignore[attr-defined]
                    self._loaded[space] = index  # a writer's `get` syncs it from here
                    self._checked.pop(space, None)
                    if self._vouched(space, index, gen):
                        return index
            if index is None:
                return None
            count, newest = self.catalog_state(space)
            if len(index) != count or index.max_updated != newest:
                log.info(
                    "vector index %s is stale (%d vectors, the catalog has %d)", space, len(index), count
                )
                return None
            if gen is not None:  # read before the count: a write since then changed it
                self._checked[space] = gen
            return index

    def _vouched(self, space: str, index: VectorIndex, gen: list | None) -> bool:
        """Whether the catalog is still at the generation a writer (sidecar) or `open` found it in line."""
        return gen is not None and gen in (index.generation, self._checked.get(space))

    def saved_at(self, space: str) -> int | None:
        """When a space's index was last saved (sidecar mtime, ns), or None: tells a search to reopen."""
        try:
            return (self.directory / space_filename(space)).with_suffix(".json").stat().st_mtime_ns
        except OSError:
            return None

    def exact(self, space: str) -> ExactVectors | None:
        """Exact search over a space's catalog vectors (read now); None when it has none."""
        ids, vecs = self.catalog_vectors(space)
        return ExactVectors(space, ids, vecs) if ids.size else None

    # ---- lifecycle -------------------------------------------------------------------------
    def get(self, space: str) -> VectorIndex | None:
        """The index of a space, consistent with the catalog; None when the space has no vectors."""
        with self._lock:
            gen = self.generation()  # before the keys: a write after this is not in what `gen` vouches
            ids, stamps = self.catalog_keys(space)
            max_updated = max(stamps) if stamps is not None and len(stamps) else None
            checksum = ids_checksum(ids)
            index = self._loaded.get(space)
            side_sha = getattr(index, "_ids_sha1", None) if index is not None else None
            if index is None:
                loaded = VectorIndex.load(self.directory, space, expansion_add=self.expansion_add)
                if loaded is not None:
                    index, side = loaded
                    side_sha = side.ids_sha1
                    if side.dtype != self.dtype and self.dtype:
                        index = None  # dtype changed in settings: rebuild
            if ids.size == 0:
                self._loaded.pop(space, None)
                return None
            changed = index is None or side_sha != checksum or index.max_updated != max_updated
            if index is None:
                index = self._rebuild(space)
            elif changed:
                self._sync(index, ids, stamps)
            index.max_updated = max_updated
            index._ids_sha1 = ids_checksum(index.keys())  # type: ignore[attr-defined]
            if changed or not self._saved(space):  # a replaced vector (same ids) is saved too
                index.generation = gen
                index.save(self.directory, index._ids_sha1)
            elif index.generation != gen:  # in line, the sidecar says since when: only it is rewritten
                index.record_generation(self.directory, gen)
            self._loaded[space] = index
            self._checked.pop(space, None)
            return index

    def _saved(self, space: str) -> bool:
        base = self.directory / space_filename(space)
        return base.with_suffix(".usearch").is_file() and base.with_suffix(".json").is_file()

    def rebuild(self, space: str, progress: Callable[[int, int], None] | None = None) -> VectorIndex | None:
        """Rebuild a space from the catalog, whatever is on disk."""
        with self._lock:
            self._loaded.pop(space, None)
            self._checked.pop(space, None)
            base = self.directory / space_filename(space)
            for suffix in (".usearch", ".json"):
                base.with_suffix(suffix).unlink(missing_ok=True)
            return self.get(space)

    def _new(self, space: str, dim: int) -> VectorIndex:
        return VectorIndex(
            space, dim, self.dtype, connectivity=self.connectivity, expansion_add=self.expansion_add
        )

    def _rebuild(self, space: str) -> VectorIndex:
        ids, vecs = self.catalog_vectors(space)
        log.info("building vector index %s from the catalog (%d vectors)", space, ids.size)
        index = self._new(space, vecs.shape[1])
        index.add(ids, vecs, threads=self.threads)
        return index

    def _sync(self, index: VectorIndex, ids: np.ndarray, stamps: np.ndarray | None) -> None:
        have = index.keys()
        gone = np.setdiff1d(have, ids)
        index.remove(gone)
        new = set(np.setdiff1d(ids, have).tolist())
        if stamps is not None and index.max_updated is not None:
            changed = ids[stamps > index.max_updated]
            new.update(int(i) for i in changed)
        if new:
            add_ids, vecs = self.catalog_vectors(index.space, sorted(new))
            if vecs.size and vecs.shape[1] != index.dim:
                rebuilt = self._rebuild(index.space)
                index.index, index.dim = rebuilt.index, rebuilt.dim
                return
            index.add(add_ids, vecs, threads=self.threads)
        log.info("synced vector index %s: -%d +%d", index.space, gone.size, len(new))

    # ---- incremental updates (called by the indexer) -----------------------------------------
    def update_photos(self, photo_ids: Iterable[int]) -> None:
        """Re-read the vectors of these photos from the catalog into every index (adds/replaces/removes)."""
        pids = [int(p) for p in photo_ids]
        if not pids:
            return
        with self._lock:
            for space in self.spaces():
                index = self.get(space)  # syncs everything that changed, these photos included
                if index is not None:
                    index.save(self.directory, getattr(index, "_ids_sha1", None))

    def remove_photos(self, photo_ids: Iterable[int]) -> int:
        """Drop deleted photos (and their faces) from every index on disk or in memory."""
        pids = [int(p) for p in photo_ids]
        if not pids:
            return 0
        with self.store.session() as s:
            face_ids = [int(f) for f in s.scalars(select(Face.id).where(Face.photo_id.in_(pids)))]
        removed = 0
        with self._lock:
            for space in set(self.spaces()) | set(self._loaded):
                index = self._loaded.get(space)
                if index is None:
                    loaded = VectorIndex.load(self.directory, space)
                    if loaded is None:
                        continue
                    index = loaded[0]
                n = index.remove(face_ids if space == FACE_SPACE else pids)
                self._checked.pop(space, None)
                if n:
                    removed += n
                    index._ids_sha1 = ids_checksum(index.keys())  # type: ignore[attr-defined]
                    index.save(self.directory, index._ids_sha1)
                self._loaded[space] = index
        return removed
