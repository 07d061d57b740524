"""Browsing the library without a request (Qt-free): the timeline's rows, the folder tree, a
folder's photos, and each photo's date and place in words.

`Core` exposes these; the GUI's timeline (gui/timeline_view.py), folder tree (gui/folder_tree.py)
and grid tooltips call them from worker threads.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import String, and_, func, select, type_coerce

from photosearch.catalog.models import Fact, Folder, Photo
from photosearch.catalog.store import Store

log = logging.getLogger(__name__)

#: Place facts in the order they win: GPS reverse-geocoded ("place") before what the file names.
PLACE_ANALYZERS = ("place", "embedded")
#: Ids per IN (...) list: well under every dialect's limit on bound parameters.
IDS_PER_QUERY = 900


@dataclass
class Timeline:
    """The whole library, newest first, photos without a date last: parallel lists, one per photo
    (100k photos cost a few MB; no object per photo)."""

    ids: list[int] = field(default_factory=list)
    #: ISO text "YYYY-MM-DD HH:MM:SS[.ffffff]" (its first 10 characters are the day), or None
    taken: list[str | None] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    places: list[str | None] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.ids)


def timeline(store: Store) -> Timeline:
    """Every active photo with its date taken, path and place name, in timeline order: one query."""
    order = (Photo.taken_at.desc().nullslast(), Photo.id.desc())
    place = (
        select(Fact.photo_id, Fact.analyzer, Fact.label)
        .where(Fact.kind == "place", Fact.analyzer.in_(PLACE_ANALYZERS))
        .subquery()
    )
    q = (
        # the date as the catalog's text: no datetime per row (a third of the time at 100k)
        select(Photo.id, type_coerce(Photo.taken_at, String), Photo.path, place.c.label, place.c.analyzer)
        .outerjoin(place, place.c.photo_id == Photo.id)
        .where(Photo.state == "active")
        .order_by(*order)
    )
    out = Timeline()
    words: dict[tuple, str | None] = {(None, None): None}  # labels repeat: name each once
    ids, taken_at, paths, places = out.ids, out.taken, out.paths, out.places
    with store.connect() as conn:
        last = None
        for pid, taken, path, label, analyzer in conn.execute(q):
            key = (label, analyzer)
            if key not in words:
                words[key] = place_words(label, analyzer) if label else None
            if pid == last:  # a second place fact of the same photo (joined rows stand together)
                if analyzer == "place" and label:
                    places[-1] = words[key]
                continue
            last = pid
            ids.append(pid)
            taken_at.append(taken if taken is None or isinstance(taken, str) else taken.isoformat(" "))
            paths.append(path)
            places.append(words[key])
    return out


def place_words(label: str, analyzer: str | None) -> str:
    """A place fact's label for people: GPS places ("Sintra, Lisbon, PT") name the country in full
    ("Sintra, Lisbon, Portugal"); what the file names is shown as written."""
    if analyzer != "place":
        return label
    from photosearch.query.places import COUNTRIES

    parts = [p for p in label.split(", ") if p]
    if parts and len(parts[-1]) == 2 and parts[-1].isupper():
        parts[-1] = COUNTRIES.get(parts[-1], (parts[-1],))[0]
    if len(parts) >= 3 and parts[0] == parts[1]:  # "Lisbon, Lisbon, Portugal"
        del parts[1]
    return ", ".join(parts)


def date_words(taken: datetime | str | None, *, time: bool = True) -> str:
    """ "Sat 14 March 2019, 10:30" (English names whatever the locale, as the rest of the app)."""
    if taken is None:
        return "No date"
    if isinstance(taken, str):
        taken = datetime.fromisoformat(taken)
    text = f"{DAY_NAMES[taken.weekday()]} {taken.day} {MONTH_NAMES[taken.month - 1]} {taken.year}"
    if time and (taken.hour or taken.minute or taken.second):
        text += f", {taken:%H:%M}"
    return text


MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def photo_info(store: Store, ids: list[int]) -> dict[int, dict]:
    """{id: {"taken": datetime | None, "place": str | None}} for the given photos (grid tooltips).

    Photos with GPS but no place fact yet (the indexer's places step has not run) are named by the
    offline geocoder here, so a place is never only coordinates."""
    out: dict[int, dict] = {}
    gps: dict[int, tuple[float, float]] = {}
    for start in range(0, len(ids), IDS_PER_QUERY):
        chunk = ids[start : start + IDS_PER_QUERY]
        with store.connect() as conn:
            for pid, taken, lat, lon in conn.execute(
                select(Photo.id, Photo.taken_at, Photo.gps_lat, Photo.gps_lon).where(Photo.id.in_(chunk))
            ):
                out[pid] = {"taken": taken, "place": None}
                if lat is not None and lon is not None:
                    gps[pid] = (float(lat), float(lon))
            for pid, analyzer, label in conn.execute(
                select(Fact.photo_id, Fact.analyzer, Fact.label).where(
                    Fact.photo_id.in_(chunk), Fact.kind == "place", Fact.analyzer.in_(PLACE_ANALYZERS)
                )
            ):
                if pid in out and (out[pid]["place"] is None or analyzer == "place"):
                    out[pid]["place"] = place_words(label, analyzer)
    unnamed = [pid for pid in gps if out[pid]["place"] is None]
    try:
        names = geocode_names([gps[p] for p in unnamed])
    except Exception as exc:  # noqa: BLE001 - the place index is a convenience: coordinates still show
        log.warning("cannot name the places of %d photos: %s", len(unnamed), exc)
        names = [None] * len(unnamed)
    for pid, name in zip(unnamed, names, strict=True):
        out[pid]["place"] = name
    return out


def geocode_names(coords: list[tuple[float, float]]) -> list[str | None]:
    """Offline place names for (lat, lon) pairs (GeoNames through reverse_geocoder)."""
    if not coords:
        return []
    from photosearch.query.resolvers.places import place_label, reverse_geocode

    return [place_words(place_label(p), "place") or None for p in reverse_geocode(coords)]


# ---- folders -------------------------------------------------------------------------------------
@dataclass
class FolderNode:
    """A folder that holds photos (or whose subfolders do): `count` includes its subfolders'."""

    path: str
    name: str
    count: int = 0
    own: int = 0
    online: bool = True
    children: list[FolderNode] = field(default_factory=list)


def folder_tree(store: Store) -> list[FolderNode]:
    """The watched folders, each with the subfolders that hold photos, and photo counts."""
    with store.connect() as conn:
        roots = [(p, bool(online)) for p, online in conn.execute(select(Folder.path, Folder.online))]
        own = Counter(
            os.path.dirname(p) for (p,) in conn.execute(select(Photo.path).where(Photo.state == "active"))
        )
    roots.sort()
    top: list[FolderNode] = []
    root_paths = {p for p, _ in roots}
    for root, online in roots:
        if _inside_another(root, root_paths):
            continue  # a watched folder inside another watched folder shows as its subfolder
        node = FolderNode(root, os.path.basename(root) or root, online=online and os.path.isdir(root))
        nodes = {root: node}
        for folder in sorted(f for f in own if f == root or f.startswith(root.rstrip(os.sep) + os.sep)):
            _node_for(folder, nodes, root).own = own[folder]
        _sum_counts(node)
        top.append(node)
    return top


def _inside_another(path: str, roots: set[str]) -> bool:
    return any(r != path and path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def _node_for(folder: str, nodes: dict[str, FolderNode], root: str) -> FolderNode:
    if folder in nodes:
        return nodes[folder]
    parent = _node_for(os.path.dirname(folder), nodes, root) if folder != root else None
    node = FolderNode(folder, os.path.basename(folder))
    nodes[folder] = node
    if parent is not None:
        parent.children.append(node)
    return node


def _sum_counts(node: FolderNode) -> int:
    node.children.sort(key=lambda n: n.name.lower())
    node.count = node.own + sum(_sum_counts(c) for c in node.children)
    return node.count


def folder_photos(store: Store, folder: str, *, subfolders: bool = True) -> list[dict]:
    """The photos in a folder (and its subfolders), newest first, as search results."""
    prefix = folder.rstrip(os.sep) + os.sep
    where = [Photo.state == "active", func.substr(Photo.path, 1, len(prefix)) == prefix]
    q = (
        select(Photo.id, Photo.path)
        .where(and_(*where))
        .order_by(Photo.taken_at.desc().nullslast(), Photo.id.desc())
    )
    with store.connect() as conn:
        rows = conn.execute(q).all()
    if not subfolders:
        rows = [r for r in rows if os.path.dirname(r[1]) == prefix[:-1]]
    return [{"id": pid, "path": path, "score": 1.0, "why": []} for pid, path in rows]
