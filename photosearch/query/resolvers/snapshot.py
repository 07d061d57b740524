"""Compact in-memory columns of the catalog for fast plan execution.

A `Snapshot` holds, for the active photos only (row r = position in the sorted id array):
dates, cameras, folders, GPS, perceptual hashes, face counts, people, place names, and inverted
maps (kind, folded label) -> (rows, scores) for every fact kind. It is built once per process and
reused until the catalog changes: the catalog's generation (`photosearch.catalog.generation`, one
row, changed by triggers on every write, a person's rename included) tells whether it did; where a
database has no generation, a signature query (counts and max ids) is compared at most every
`check_interval` seconds. With a directory (`snapshot_file.snapshot_dir(settings)`), a new process
reads the snapshot of the current generation from a file instead of SQL, and saves one it had to
read from SQL (`snapshot_file`); the indexer's `snapshot` post step saves it after indexing.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
import time
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
from sqlalchemy import text

from photosearch.catalog import generation
from photosearch.catalog.generation import Generation
from photosearch.query.resolvers.text import fold, tokens

log = logging.getLogger(__name__)

NO_DATE = np.iinfo(np.int64).min
EPOCH = datetime(1970, 1, 1)
#: Fact kinds whose labels can answer a concept atom, and their weights in the fused score.
#: keyword, title, description and credit are the photo's own words (EXIF/IPTC/XMP, metadata/).
CONCEPT_KINDS = {
    "tag": 1.0,
    "object": 1.0,
    "scene": 0.9,
    "keyword": 1.0,
    "caption": 0.8,
    "knowledge": 0.8,
    "title": 0.9,
    "description": 0.8,
    "text": 0.6,
    "credit": 0.6,
    "attribute": 0.9,
    "face": 0.9,
}


#: Fact kinds no atom searches by label: colours and places have their own columns; a photo's sidecar
#: signature, what was written to it and what could not be read of its metadata are one label per
#: photo (a group each would cost memory, not answer a search).
NOT_SEARCHED_KINDS = ("color", "place", "sidecar", "sidecar_written", "metadata_issue")


@dataclass
class Group:
    """All photos that carry one (kind, label) fact."""

    kind: str
    label: str
    rows: np.ndarray  # int32, sorted unique
    scores: np.ndarray  # float32, best score per row
    names: tuple[str, ...] = ()
    hypernym: bool = False
    extra: str = ""  # searchable text beyond the label (knowledge category/facts)


@dataclass
class Snapshot:
    ids: np.ndarray
    paths: list[str]
    taken: np.ndarray  # int64 epoch seconds or NO_DATE
    added: np.ndarray  # int64 epoch seconds of this computer's clock when the photo was catalogued
    day: np.ndarray  # int32 days since epoch, -1 unknown
    month: np.ndarray  # int32 year*12+month-1, -1 unknown
    camera_code: np.ndarray
    cameras: list[str]  # folded "make model"
    lens_code: np.ndarray  # int32 into lenses
    lenses: list[str]  # EXIF lens names as written ("" unknown)
    folder_code: np.ndarray
    folders: list[str]  # folded directory of the path
    lat: np.ndarray
    lon: np.ndarray
    phash: np.ndarray  # uint64
    has_phash: np.ndarray  # bool
    face_count: np.ndarray  # int16
    width: np.ndarray  # int32 pixels (EXIF orientation applied), 0 unknown
    height: np.ndarray  # int32 pixels, 0 unknown
    file_bytes: np.ndarray  # int64 size of the file, 0 unknown
    people: dict[str, np.ndarray]  # folded name -> rows
    person_names: dict[str, str]  # folded -> display name
    person_of_row: dict[int, list[str]]  # row -> folded names
    groups: dict[str, dict[str, Group]]  # kind -> folded label -> group
    token_index: dict[str, list[Group]]  # token -> groups of concept kinds
    place_code: np.ndarray  # int32 into places, -1 unknown
    places: list[dict]  # {"city","admin1","admin2","cc","country","sublocation","label"}
    camera_models: list[str] = field(default_factory=list)  # distinct EXIF models, as written
    loaded_at: float = field(default_factory=time.time)
    cache: dict = field(default_factory=dict)  # per-snapshot memo (calibration, indexes...)

    @property
    def n(self) -> int:
        return int(self.ids.size)

    def rows_of(self, photo_ids) -> np.ndarray:
        """Rows of photo ids (ids not active are dropped)."""
        rows, found = self.locate(photo_ids)
        return rows[found]

    def locate(self, photo_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(rows, found) of photo ids, aligned with them, through a dense id -> row table (built once
        per snapshot; 4 bytes per id): `np.isin` against every id of a 1M catalog cost ~4 ms per
        call, and 1024 binary searches over 1M ids ~1 ms of cache misses."""
        pid = np.asarray(photo_ids, dtype=np.int64)
        table = self._row_table()
        if pid.size == 0 or table.size == 0:
            return np.zeros(pid.size, np.int32), np.zeros(pid.size, bool)
        inside = (pid >= 0) & (pid < table.size)
        rows = np.full(pid.size, -1, np.int32)
        rows[inside] = table[pid[inside]]
        return np.maximum(rows, 0), rows >= 0

    def _row_table(self) -> np.ndarray:
        table = self.cache.get("row_table")
        if table is None:
            size = int(self.ids[-1]) + 1 if self.n else 0
            table = self.cache["row_table"] = np.full(size, -1, np.int32)
            table[self.ids] = np.arange(self.n, dtype=np.int32)
        return table

    def lacks_places(self) -> bool:
        """Whether an active photo with GPS has no place fact yet."""
        return bool(np.any(~np.isnan(self.lat) & (self.place_code < 0)))

    def year_range(self) -> tuple[int, int] | None:
        """First and last year with a dated photo, or None (computed once per snapshot)."""
        if "year_range" not in self.cache:
            known = self.taken[self.taken != NO_DATE]
            if known.size == 0:  # no dated photo (yet)
                self.cache["year_range"] = None
            else:
                years = (
                    known[[known.argmin(), known.argmax()]].astype("datetime64[s]").astype("datetime64[Y]")
                )
                self.cache["year_range"] = tuple(int(y) + 1970 for y in years.astype(np.int64))
        return self.cache["year_range"]

    def group(self, kind: str, label: str) -> Group | None:
        return self.groups.get(kind, {}).get(fold(label))


# ---------------------------------------------------------------------------------- loading


def taken_at(snap: Snapshot, row: int) -> str | None:
    """When the photo of a snapshot row was taken, as ISO text (None: no date)."""
    return seconds_text(snap.taken[row])


def seconds_text(seconds) -> str | None:
    """A time column's value (seconds from EPOCH, on the photo's or this computer's clock) as ISO
    text; None for NO_DATE."""
    t = int(seconds)
    return None if t == NO_DATE else (EPOCH + timedelta(seconds=t)).isoformat()


def _to_epoch(value) -> int:
    if value is None:
        return NO_DATE
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return NO_DATE
    if value.tzinfo is not None:
        value = value.replace(tzinfo=None)
    return int((value - EPOCH).total_seconds())


#: Seconds in which this computer's clock keeps one offset from UTC: time zones change theirs on a
#: whole minute (Newfoundland did at 00:01).
_OFFSET_STEP = 60


def _on_this_clock(utc: np.ndarray) -> np.ndarray:
    """UTC times the catalog wrote (`catalog.models.utcnow`, as `_to_epoch` counts them) on this
    computer's clock, so that "added today" means today here: each time plus the offset its
    minute had (one `localtime` per minute, not per photo: 1M photos are added in a few sittings)."""
    out = utc.copy()
    known = utc != NO_DATE
    if known.any():
        steps, which = np.unique(utc[known] // _OFFSET_STEP, return_inverse=True)
        out[known] = utc[known] + np.array([_offset(int(q) * _OFFSET_STEP) for q in steps], np.int64)[which]
    return out


def _offset(seconds: int) -> int:
    """This computer's offset from UTC at that time (0 where the platform cannot say: year 1, 9999)."""
    try:
        return time.localtime(seconds).tm_gmtoff
    except (OverflowError, OSError, ValueError):
        return 0


def _phash_int(value: str | None) -> int | None:
    if not value:
        return None
    try:
        return int(value, 16) & 0xFFFFFFFFFFFFFFFF
    except ValueError:
        return None


def _codes(values: list[str]) -> tuple[np.ndarray, list[str]]:
    uniq: dict[str, int] = {}
    codes = np.fromiter((uniq.setdefault(v, len(uniq)) for v in values), dtype=np.int32, count=len(values))
    return codes, list(uniq)


def load_snapshot(conn) -> Snapshot:
    """Read the active catalog into columns (one pass per table)."""
    t0 = time.perf_counter()
    rows = conn.execute(
        text(
            "SELECT id, path, taken_at, camera_make, camera_model, gps_lat, gps_lon, phash, added_at, "
            "width, height, size, lens FROM photos WHERE state = 'active' ORDER BY id"
        )
    ).all()
    n = len(rows)
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=n)
    paths = [r[1] for r in rows]
    taken = np.fromiter((_to_epoch(r[2]) for r in rows), dtype=np.int64, count=n)
    added = _on_this_clock(np.fromiter((_to_epoch(r[8]) for r in rows), dtype=np.int64, count=n))
    known = taken != NO_DATE
    day = np.full(n, -1, np.int32)
    day[known] = (taken[known] // 86400).astype(np.int32)
    month = np.full(n, -1, np.int32)
    if known.any():
        dt = taken[known].astype("datetime64[s]")
        years = dt.astype("datetime64[Y]").astype(np.int64) + 1970
        months = dt.astype("datetime64[M]").astype(np.int64) % 12
        month[known] = (years * 12 + months).astype(np.int32)
    camera_code, cameras = _codes([_fold(f"{r[3] or ''} {r[4] or ''}") for r in rows])
    lens_code, lenses = _codes([" ".join((r[12] or "").split()) for r in rows])
    folder_code, folders = _codes([_fold(os.path.dirname(r[1] or "")) for r in rows])
    lat = np.array([np.nan if r[5] is None else r[5] for r in rows], dtype=np.float64)
    lon = np.array([np.nan if r[6] is None else r[6] for r in rows], dtype=np.float64)
    hashes = [_phash_int(r[7]) for r in rows]
    has_phash = np.array([h is not None for h in hashes], dtype=bool)
    phash = np.array([h or 0 for h in hashes], dtype=np.uint64)
    width = np.fromiter((max(r[9] or 0, 0) for r in rows), dtype=np.int32, count=n)
    height = np.fromiter((max(r[10] or 0, 0) for r in rows), dtype=np.int32, count=n)
    file_bytes = np.fromiter((max(r[11] or 0, 0) for r in rows), dtype=np.int64, count=n)

    def rows_for(photo_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pos = np.clip(np.searchsorted(ids, photo_ids), 0, max(n - 1, 0))
        ok = (ids[pos] == photo_ids) if n else np.zeros(photo_ids.size, bool)
        return pos.astype(np.int32), ok

    # ---- faces and people
    face_rows = conn.execute(
        text("SELECT f.photo_id, p.name FROM faces f LEFT JOIN people p ON p.id = f.person_id")
    ).all()
    face_count = np.zeros(n, np.int16)
    people: dict[str, list[int]] = {}
    person_names: dict[str, str] = {}
    person_of_row: dict[int, list[str]] = {}
    if face_rows and n:
        fpid = np.fromiter((r[0] for r in face_rows), dtype=np.int64, count=len(face_rows))
        pos, ok = rows_for(fpid)
        np.add.at(face_count, pos[ok], 1)
        for (_, name), r, good in zip(face_rows, pos.tolist(), ok.tolist(), strict=True):
            if good and name:
                key = fold(name)
                person_names.setdefault(key, name)
                people.setdefault(key, []).append(r)
                names = person_of_row.setdefault(r, [])
                if key not in names:
                    names.append(key)
    people_arr = {k: np.unique(np.array(v, dtype=np.int32)) for k, v in people.items()}

    # ---- facts
    groups, token_index, place_code, places = _load_facts(conn, rows_for, n)
    snap = Snapshot(
        ids=ids,
        paths=paths,
        taken=taken,
        added=added,
        day=day,
        month=month,
        camera_code=camera_code,
        cameras=cameras,
        folder_code=folder_code,
        folders=folders,
        lat=lat,
        lon=lon,
        phash=phash,
        has_phash=has_phash,
        face_count=face_count,
        width=width,
        height=height,
        file_bytes=file_bytes,
        people=people_arr,
        person_names=person_names,
        person_of_row=person_of_row,
        groups=groups,
        token_index=token_index,
        place_code=place_code,
        places=places,
        camera_models=sorted({r[4] for r in rows if r[4]}),
        lens_code=lens_code,
        lenses=lenses,
    )
    log.info("catalog snapshot: %d photos loaded in %.0f ms", n, (time.perf_counter() - t0) * 1000)
    return snap


#: `fold` remembered: a catalog's labels, cameras and folders repeat (7.1 M facts at 1M photos hold a
#: few thousand distinct labels), and folding each one again was the largest cost of a snapshot.
_fold = functools.lru_cache(maxsize=1 << 16)(fold)


def _load_facts(conn, rows_for, n: int):
    """(groups, token index, place code per row, places) from the facts of active photos."""
    groups = _fact_groups(conn, rows_for)
    _add_knowledge_text(conn, groups)
    place_code, places = _load_places(conn, rows_for, n)
    return groups, build_token_index(groups), place_code, places


def _fact_names(names, hyper, sqlite: bool) -> tuple[str | None, bool]:
    """(names JSON text, hypernym flag) of one fact row, on SQLite (json_extract) or elsewhere (whole data)."""
    if names and not sqlite and isinstance(names, (dict, str)):
        data = names if isinstance(names, dict) else _json(names)
        if isinstance(data, dict):
            return json.dumps(data.get("names") or []), bool(data.get("hypernym"))
        return None, bool(hyper)
    return names, bool(hyper)


def _fact_groups(conn, rows_for) -> dict[str, dict[str, Group]]:
    """Every (kind, folded label) of the active photos' facts (not `NOT_SEARCHED_KINDS`) as a `Group`."""
    sqlite = conn.dialect.name == "sqlite"
    names_expr = "json_extract(f.data, '$.names')" if sqlite else "f.data"
    hyper_expr = "json_extract(f.data, '$.hypernym')" if sqlite else "NULL"
    result = conn.execute(
        text(
            f"SELECT f.photo_id, f.kind, f.label, f.score, {names_expr}, {hyper_expr} FROM facts f "
            "JOIN photos p ON p.id = f.photo_id WHERE p.state = 'active' AND f.kind NOT IN "
            f"({', '.join(repr(k) for k in NOT_SEARCHED_KINDS)})"
        )
    )
    acc: dict[tuple[str, str], list] = {}
    meta: dict[tuple[str, str], list] = {}
    parsed_names: dict[str, tuple[str, ...]] = {}
    for pid, kind, label, score, names, hyper in result:
        key = (kind, _fold(label))
        entry = acc.get(key)
        if entry is None:
            entry = acc[key] = [[], []]
            meta[key] = [label, (), False]
        entry[0].append(pid)
        entry[1].append(score if score is not None else 1.0)
        if not sqlite:  # SQLite hands the two JSON fields over already (json_extract)
            names, hyper = _fact_names(names, hyper, sqlite)
        if names:
            if names not in parsed_names:
                val = _json(names)
                parsed_names[names] = tuple(str(x) for x in val) if isinstance(val, list) else ()
            meta[key][1] = parsed_names[names]
        if hyper:
            meta[key][2] = True
    groups: dict[str, dict[str, Group]] = {}
    for key, (pids, scores) in acc.items():
        pos, ok = rows_for(np.array(pids, dtype=np.int64))
        r, s = pos[ok], np.array(scores, dtype=np.float32)[ok]
        order = np.lexsort((-s, r))
        r, s = r[order], s[order]
        first = np.ones(r.size, bool)
        first[1:] = r[1:] != r[:-1]
        label, names, hyper = meta[key]
        groups.setdefault(key[0], {})[key[1]] = Group(key[0], label, r[first], s[first], names, hyper)
    return groups


def _add_knowledge_text(conn, groups: dict[str, dict[str, Group]]) -> None:
    """Knowledge facts' category and fact text are searchable too (`Group.extra`)."""
    for label, data in conn.execute(
        text(
            "SELECT f.label, f.data FROM facts f JOIN photos p ON p.id = f.photo_id "
            "WHERE p.state = 'active' AND f.kind = 'knowledge'"
        )
    ):
        data = _json(data) if isinstance(data, str) else (data or {})
        g = groups.get("knowledge", {}).get(fold(label))
        if g is not None and isinstance(data, dict):
            bits = [str(data.get("category") or "")]
            facts = data.get("facts")
            bits.extend(str(x) for x in facts) if isinstance(facts, list) else bits.append(str(facts or ""))
            g.extra = (g.extra + " " + " ".join(bits)).strip()


def file_names(snap) -> list[str]:
    """Per row, the photo's file name without its folders, folded (any case and accents; cached)."""
    names = snap.cache.get("file_names")
    if names is None:
        names = snap.cache["file_names"] = [fold(os.path.basename(p)) for p in snap.paths]
    return names


def rows_with(snap, kinds: tuple[str, ...]) -> np.ndarray:
    """Mask of the photos holding any fact of these kinds (cached per snapshot)."""
    key = ("rows_with", kinds)
    if key not in snap.cache:
        mask = np.zeros(snap.n, bool)
        for kind in kinds:
            for g in snap.groups.get(kind, {}).values():
                mask[g.rows] = True
        snap.cache[key] = mask
    return snap.cache[key]


def build_token_index(groups: dict[str, dict[str, Group]]) -> dict[str, list[Group]]:
    """Word token -> the concept kinds' groups whose label, names or extra text carry it."""
    token_index: dict[str, list[Group]] = {}
    for kind in CONCEPT_KINDS:
        for g in groups.get(kind, {}).values():
            toks = set(tokens(g.label))
            for nm in g.names:
                toks.update(tokens(nm))
            if g.extra:
                toks.update(tokens(g.extra))
            for t in toks:
                token_index.setdefault(t, []).append(g)
    return token_index


def _load_places(conn, rows_for, n: int) -> tuple[np.ndarray, list[dict]]:
    """Place code per row (-1 unknown) and the places (facts of kind "place", written by the places step)."""
    place_code = np.full(n, -1, np.int32)
    places: list[dict] = []
    seen: dict[str, int] = {}
    pids: list[int] = []
    codes: list[int] = []
    for pid, label, data in conn.execute(
        text(
            "SELECT f.photo_id, f.label, f.data FROM facts f JOIN photos p ON p.id = f.photo_id "
            "WHERE p.state = 'active' AND f.kind = 'place' "
            # a place the file names first, so the GPS place (analyzer "place") wins where both are
            "ORDER BY CASE WHEN f.analyzer = 'place' THEN 1 ELSE 0 END"
        )
    ):
        if label not in seen:
            d = _json(data) if isinstance(data, str) else (data or {})
            seen[label] = len(places)
            places.append(
                {
                    k: (d or {}).get(k, "")
                    for k in ("city", "admin1", "admin2", "cc", "country", "sublocation")
                }
                | {"label": label}
            )
        pids.append(pid)
        codes.append(seen[label])
    if pids:
        pos, ok = rows_for(np.array(pids, dtype=np.int64))
        place_code[pos[ok]] = np.array(codes, dtype=np.int32)[ok]
    return place_code, places


def _json(value):
    if value is None or isinstance(value, (dict, list)):
        return value
    try:
        return json.loads(value)
    except (TypeError, ValueError):
        return None


# ---------------------------------------------------------------------------------- caching


class _Entry:
    def __init__(self):
        self.snapshot: Snapshot | None = None
        self.version: object = None
        self.checked_at = 0.0
        self.saved: tuple | None = None  # (directory, version) this snapshot was saved in (or tried)
        self.lock = threading.Lock()


_entries: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_entries_lock = threading.Lock()


def _version(store) -> object:
    """The catalog's `Generation` (one row read), or where it has none a signature of its tables."""
    gen = generation.current(store)
    if gen is not None:
        return gen
    with store.connect() as conn:
        return tuple(
            conn.execute(
                text(
                    "SELECT (SELECT count(*) FROM photos), (SELECT max(updated_at) FROM photos), "
                    "(SELECT count(*) FROM facts), (SELECT max(id) FROM facts), (SELECT count(*) FROM faces), "
                    "(SELECT max(id) FROM faces), (SELECT count(*) FROM people), (SELECT max(ran_at) FROM analyses)"
                )
            ).one()
        )


def get_snapshot(store, *, directory: Path | None = None, check_interval: float = 1.0) -> Snapshot:
    """The current snapshot of a store's catalog, reloaded when the catalog changed.

    With `directory` (`snapshot_file.snapshot_dir(settings)`) and a catalog generation, a new
    snapshot is first looked for there, and one read from SQL is saved there for the next process."""
    from photosearch.query.resolvers import snapshot_file

    with _entries_lock:
        entry = _entries.get(store)
        if entry is None:
            entry = _entries[store] = _Entry()
    with entry.lock:
        now = time.monotonic()
        if (
            entry.snapshot is not None
            and not isinstance(entry.version, Generation)
            and now - entry.checked_at < check_interval
        ):
            return entry.snapshot
        version = _version(store)
        entry.checked_at = now
        if entry.snapshot is None or version != entry.version:
            snap = None
            if directory is not None and isinstance(version, Generation):
                snap = snapshot_file.read_snapshot(directory, version)
            entry.saved = (directory, version) if snap is not None else None
            if snap is None:
                with store.connect() as conn:
                    snap = load_snapshot(conn)
            entry.snapshot, entry.version = snap, version
        if directory is not None and isinstance(version, Generation) and entry.saved != (directory, version):
            entry.saved = (directory, version)  # tried once: a cache dir that cannot be written costs no more
            _save(store, directory, version, entry.snapshot)
        return entry.snapshot


def _save(store, directory: Path, version: Generation, snap: Snapshot) -> None:
    """Save the entry's snapshot, read at `version`, when the catalog is still at `version` (no write
    committed since the read began, so it holds no half of one) and the file is not already there."""
    from photosearch.query.resolvers import snapshot_file

    if generation.current(store) != version:
        log.info("the catalog changed while its snapshot was read: not saved")
        return
    if not snapshot_file.is_current(directory, version):
        snapshot_file.write_snapshot(directory, version, snap)


def current_snapshot(store) -> Snapshot | None:
    """The loaded snapshot of a store when it is still current; None otherwise (loads nothing)."""
    with _entries_lock:
        entry = _entries.get(store)
    if entry is None or entry.snapshot is None:
        return None
    with entry.lock:
        if entry.snapshot is None or _version(store) != entry.version:
            return None
        return entry.snapshot


def persist_snapshot(store, directory: Path) -> dict:
    """Make sure `directory` holds the snapshot of the catalog as it is now (the indexer's last post
    step, so the first search of the next process reads it instead of SQL). A process that searches
    keeps the snapshot it loads; one that only indexes (`photosearch watch`) writes it and lets it go
    (hundreds of MB at 1M photos)."""
    from photosearch.query.resolvers import snapshot_file

    gen = generation.current(store)
    if gen is None:
        return {"saved": False, "reason": "the catalog has no generation (this database gets no triggers)"}
    if snapshot_file.is_current(directory, gen):
        return {"saved": True, "photos": None, "up_to_date": True}
    with _entries_lock:
        searches = store in _entries
    if searches:
        snap = get_snapshot(store, directory=directory)
    else:
        with store.connect() as conn:
            snap = load_snapshot(conn)
        _save(store, directory, gen, snap)
    return {"saved": snapshot_file.is_current(directory, gen), "photos": snap.n, "up_to_date": False}


def invalidate(store) -> None:
    """Forget the snapshot of a store (the next search reloads it)."""
    with _entries_lock:
        entry = _entries.get(store)
    if entry is not None:
        with entry.lock:
            entry.snapshot = None
            entry.version = None
            entry.saved = None
