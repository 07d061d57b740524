"""The search snapshot saved beside the catalog, so a new process need not read it from SQL again.

`<cache_dir>/snapshot/<catalog uid>.npz` (see `photosearch.array_files`: numpy arrays and JSON,
nothing that can run code) holds every field of a `Snapshot` for one catalog generation: per-row
columns as they are; lists of strings as one UTF-8 text plus each string's length; groups, people
and the rows of each person as concatenated arrays with offsets. The token index is rebuilt from the
groups (a few thousand labels: milliseconds). A file made for another uid, generation or `FORMAT`,
or one that is damaged or inconsistent, is not used (`read_snapshot` returns None and logs why).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

from photosearch import array_files
from photosearch.catalog.generation import Generation
from photosearch.query.resolvers.snapshot import Group, Snapshot, build_token_index

log = logging.getLogger(__name__)

#: Bump when what is saved changes.
FORMAT = 5

#: Per-row columns and their dtypes.
_COLUMNS = {
    "ids": np.int64,
    "taken": np.int64,
    "added": np.int64,
    "day": np.int32,
    "month": np.int32,
    "camera_code": np.int32,
    "lens_code": np.int32,
    "folder_code": np.int32,
    "lat": np.float64,
    "lon": np.float64,
    "phash": np.uint64,
    "has_phash": np.bool_,
    "face_count": np.int16,
    "width": np.int32,
    "height": np.int32,
    "file_bytes": np.int64,
    "place_code": np.int32,
}


class Damaged(ValueError):
    """The file's arrays do not make a snapshot."""


def snapshot_dir(settings) -> Path | None:
    """Where a data dir's saved snapshot lives (None without settings: nothing is saved)."""
    return None if settings is None else Path(settings.cache_dir) / "snapshot"


def _path(directory: Path, generation: Generation) -> Path:
    return Path(directory) / f"{generation.uid}.npz"


def _expect(generation: Generation) -> dict:
    return {"format": FORMAT, "uid": generation.uid, "generation": generation.value}


def is_current(directory: Path, generation: Generation) -> bool:
    """Whether the saved file is the one for this generation (its metadata only is read)."""
    meta = array_files.read_meta(_path(directory, generation))
    return meta is not None and all(meta.get(k) == v for k, v in _expect(generation).items())


# ------------------------------------------------------------------------------ strings


def _pack(strings: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(UTF-8 bytes of all strings joined, each string's length in characters)."""
    joined = "".join(strings).encode("utf-8", "surrogatepass")  # file names may hold lone surrogates
    return np.frombuffer(joined, np.uint8), np.fromiter(map(len, strings), np.int64, len(strings))


def _unpack(blob: np.ndarray, lengths: np.ndarray) -> list[str]:
    joined = blob.tobytes().decode("utf-8", "surrogatepass")
    if lengths.ndim != 1 or (lengths.size and lengths.min() < 0) or int(lengths.sum()) != len(joined):
        raise Damaged("string lengths do not add up")
    ends = np.cumsum(lengths).tolist()
    starts = [0, *ends[:-1]] if ends else []
    return [joined[a:b] for a, b in zip(starts, ends, strict=True)]


def _offsets(sizes) -> np.ndarray:
    out = np.zeros(len(sizes) + 1, np.int64)
    np.cumsum(np.asarray(sizes, np.int64), out=out[1:])
    return out


def _check_offsets(offsets: np.ndarray, total: int, count: int) -> None:
    if (
        offsets.shape != (count + 1,)
        or offsets[0] != 0
        or offsets[-1] != total
        or np.any(np.diff(offsets) < 0)
    ):
        raise Damaged("offsets do not match their arrays")


def _check_range(values: np.ndarray, low: int, high: int, what: str) -> None:
    if values.size and (values.min() < low or values.max() >= high):
        raise Damaged(f"{what} out of range")


# ------------------------------------------------------------------------------ encode


def encode(snap: Snapshot) -> tuple[dict[str, np.ndarray], dict]:
    """(arrays, JSON metadata) of a snapshot."""
    arrays: dict[str, np.ndarray] = {name: np.ascontiguousarray(getattr(snap, name)) for name in _COLUMNS}
    for name in ("paths", "cameras", "folders", "camera_models", "lenses"):
        arrays[f"{name}_text"], arrays[f"{name}_len"] = _pack(list(getattr(snap, name)))
    # people: folded name -> rows, display names, and each row's names in their own order
    keys = list(snap.people)
    code = {k: i for i, k in enumerate(keys)}
    arrays["people_text"], arrays["people_len"] = _pack(keys)
    arrays["people_shown_text"], arrays["people_shown_len"] = _pack([snap.person_names[k] for k in keys])
    person_rows = [snap.people[k] for k in keys]
    arrays["people_rows"] = np.concatenate(person_rows).astype(np.int32) if keys else np.zeros(0, np.int32)
    arrays["people_offsets"] = _offsets([r.size for r in person_rows])
    arrays["row_people_rows"] = np.fromiter(snap.person_of_row, np.int32, len(snap.person_of_row))
    arrays["row_people_offsets"] = _offsets([len(v) for v in snap.person_of_row.values()])
    arrays["row_people_codes"] = np.fromiter(
        (code[k] for names in snap.person_of_row.values() for k in names), np.int32
    )
    # groups, kind by kind, in their dicts' order
    kinds = list(snap.groups)
    groups = [(kind, key, g) for kind in kinds for key, g in snap.groups[kind].items()]
    arrays["group_kind"] = np.array([kinds.index(kind) for kind, _, _ in groups], np.int32)
    arrays["group_key_text"], arrays["group_key_len"] = _pack([key for _, key, _ in groups])
    arrays["group_label_text"], arrays["group_label_len"] = _pack([g.label for _, _, g in groups])
    arrays["group_extra_text"], arrays["group_extra_len"] = _pack([g.extra for _, _, g in groups])
    arrays["group_hypernym"] = np.array([g.hypernym for _, _, g in groups], np.bool_)
    arrays["group_names_text"], arrays["group_names_len"] = _pack(
        [nm for _, _, g in groups for nm in g.names]
    )
    arrays["group_names_offsets"] = _offsets([len(g.names) for _, _, g in groups])
    arrays["group_rows"] = (
        np.concatenate([g.rows for _, _, g in groups]).astype(np.int32) if groups else np.zeros(0, np.int32)
    )
    arrays["group_scores"] = (
        np.concatenate([g.scores for _, _, g in groups]).astype(np.float32)
        if groups
        else np.zeros(0, np.float32)
    )
    arrays["group_offsets"] = _offsets([g.rows.size for _, _, g in groups])
    meta = {"n": snap.n, "kinds": kinds, "places": snap.places}
    return arrays, meta


# ------------------------------------------------------------------------------ decode


def decode(arrays: dict[str, np.ndarray], meta: dict) -> Snapshot:
    """The snapshot `encode` saved; `Damaged` when the arrays do not make one."""
    n = meta.get("n")
    kinds, places = meta.get("kinds"), meta.get("places")
    if not isinstance(n, int) or not isinstance(kinds, list) or not isinstance(places, list):
        raise Damaged("metadata lacks n, kinds or places")
    if not all(isinstance(p, dict) for p in places) or not all(isinstance(k, str) for k in kinds):
        raise Damaged("places or kinds are not what was saved")

    def get(name: str, dtype) -> np.ndarray:
        arr = arrays.get(name)
        if arr is None or arr.dtype != np.dtype(dtype) or arr.ndim != 1:
            raise Damaged(f"{name} is missing or not 1-d {np.dtype(dtype)}")
        return arr

    def strings(name: str) -> list[str]:
        return _unpack(get(f"{name}_text", np.uint8), get(f"{name}_len", np.int64))

    cols = {name: get(name, dtype) for name, dtype in _COLUMNS.items()}
    if any(c.size != n for c in cols.values()):
        raise Damaged("columns differ in length")
    if n > 1 and np.any(np.diff(cols["ids"]) <= 0):
        raise Damaged("ids are not sorted")
    paths, cameras, folders, camera_models, lenses = (
        strings(s) for s in ("paths", "cameras", "folders", "camera_models", "lenses")
    )
    if len(paths) != n:
        raise Damaged("paths differ in length")
    _check_range(cols["camera_code"], 0, len(cameras), "camera codes")
    _check_range(cols["lens_code"], 0, len(lenses), "lens codes")
    _check_range(cols["folder_code"], 0, len(folders), "folder codes")
    _check_range(cols["place_code"], -1, len(places), "place codes")

    keys, shown = strings("people"), strings("people_shown")
    if len(shown) != len(keys):
        raise Damaged("people and their names differ in length")
    rows, offsets = get("people_rows", np.int32), get("people_offsets", np.int64)
    _check_offsets(offsets, rows.size, len(keys))
    _check_range(rows, 0, n, "people rows")
    people = {k: rows[offsets[i] : offsets[i + 1]] for i, k in enumerate(keys)}
    row_rows, row_offsets = get("row_people_rows", np.int32), get("row_people_offsets", np.int64)
    codes = get("row_people_codes", np.int32)
    _check_offsets(row_offsets, codes.size, row_rows.size)
    _check_range(row_rows, 0, n, "rows with people")
    _check_range(codes, 0, len(keys), "person codes")
    names = [keys[c] for c in codes.tolist()]
    bounds = row_offsets.tolist()
    person_of_row = {r: names[bounds[i] : bounds[i + 1]] for i, r in enumerate(row_rows.tolist())}

    group_kind = get("group_kind", np.int32)
    count = group_kind.size
    _check_range(group_kind, 0, len(kinds), "group kinds")
    gkeys, labels, extras = strings("group_key"), strings("group_label"), strings("group_extra")
    hyper = get("group_hypernym", np.bool_)
    gnames = strings("group_names")
    name_offsets = get("group_names_offsets", np.int64)
    grows, gscores, goffsets = (
        get("group_rows", np.int32),
        get("group_scores", np.float32),
        get("group_offsets", np.int64),
    )
    if not len(gkeys) == len(labels) == len(extras) == hyper.size == count or gscores.size != grows.size:
        raise Damaged("group arrays differ in length")
    _check_offsets(name_offsets, len(gnames), count)
    _check_offsets(goffsets, grows.size, count)
    _check_range(grows, 0, n, "group rows")
    groups: dict[str, dict[str, Group]] = {kind: {} for kind in kinds}
    nb, gb = name_offsets.tolist(), goffsets.tolist()
    for i, k in enumerate(group_kind.tolist()):
        kind = kinds[k]
        groups[kind][gkeys[i]] = Group(
            kind,
            labels[i],
            grows[gb[i] : gb[i + 1]],
            gscores[gb[i] : gb[i + 1]],
            tuple(gnames[nb[i] : nb[i + 1]]),
            bool(hyper[i]),
            extras[i],
        )
    return Snapshot(
        paths=paths,
        cameras=cameras,
        folders=folders,
        people=people,
        person_names=dict(zip(keys, shown, strict=True)),
        person_of_row=person_of_row,
        groups=groups,
        token_index=build_token_index(groups),
        places=places,
        camera_models=camera_models,
        lenses=lenses,
        **cols,
    )


# ------------------------------------------------------------------------------ files


def write_snapshot(directory: Path, generation: Generation, snap: Snapshot) -> bool:
    """Save a snapshot read at `generation` (replacing this catalog's earlier file); False when it
    cannot be written. Files of other catalogs in the directory are removed (one catalog per data dir)."""
    t0 = time.perf_counter()
    arrays, meta = encode(snap)
    path = _path(directory, generation)
    if not array_files.save(path, arrays, meta | _expect(generation)):
        return False
    for other in Path(directory).glob("*.npz"):
        if other != path:
            other.unlink(missing_ok=True)
    log.info(
        "saved the snapshot of %d photos to %s in %.0f ms", snap.n, path, (time.perf_counter() - t0) * 1e3
    )
    return True


def read_snapshot(directory: Path, generation: Generation) -> Snapshot | None:
    """The saved snapshot of this generation, or None (missing, another generation, damaged)."""
    t0 = time.perf_counter()
    path = _path(directory, generation)
    got = array_files.load(path, _expect(generation))
    if got is None:
        return None
    meta, arrays = got
    try:
        snap = decode(arrays, meta)
    except (ValueError, IndexError, KeyError, TypeError) as exc:  # Damaged, bad UTF-8, odd arrays
        log.warning("ignoring %s: %s", path, exc)
        return None
    log.info(
        "catalog snapshot: %d photos read from %s in %.0f ms", snap.n, path, (time.perf_counter() - t0) * 1e3
    )
    return snap
