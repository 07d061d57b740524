"""Mark-and-sweep listing: what is new, changed, unchanged or gone in the registered folders.

A file is listed when its extension is one the app reads, or its first bytes carry an image
signature (`ingest.signatures`): a photo with an odd name is catalogued or recorded, never ignored.

Listing only stats files (cheap); reading, hashing and decoding happen later in the
indexer's workers. A folder that is missing is reported offline and its photos are
left alone (an unmounted drive is not a delete).
"""

from __future__ import annotations

import bisect
import errno
import logging
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from sqlalchemy import select

from photosearch.catalog.models import Fact, FileIssue, Folder, Photo
from photosearch.catalog.store import Store, owning_folder
from photosearch.files import NotARegularFile, require_regular
from photosearch.ingest.decode import is_image_file, is_image_name
from photosearch.ingest.paths import from_db_path, to_db_path
from photosearch.ingest.signatures import sniff_file, worth_sniffing
from photosearch.metadata.sidecar import sidecar_index, sidecar_paths, signature

log = logging.getLogger(__name__)


@dataclass
class FileEntry:
    path: str  # OS path (may hold surrogates); use to_db_path() for the catalog
    folder_id: int
    size: int
    mtime: float
    sidecars: str | None = None  # the signature of its XMP sidecars (metadata.sidecar.signature)


@dataclass
class ListingIssue:
    path: str
    folder_id: int | None
    reason: str
    message: str


@dataclass
class ScanPlan:
    """The result of listing: work for the indexer."""

    to_ingest: list[FileEntry] = field(default_factory=list)  # new or changed files
    vanished: dict[str, int] = field(default_factory=dict)  # db path -> photo id, not seen on disk
    changed_paths: set[str] = field(
        default_factory=set
    )  # db paths of catalogued files whose size/mtime changed
    # db path -> photo id: unchanged files whose XMP sidecars changed (their metadata is read again)
    sidecar_changed: dict[str, int] = field(default_factory=dict)
    unchanged: int = 0
    known_failed: int = 0
    seen: int = 0
    issues: list[ListingIssue] = field(default_factory=list)
    offline_folders: list[str] = field(default_factory=list)
    online_folder_ids: list[int] = field(default_factory=list)


def _within(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def walk_images(root: str, folder_id: int, library: Iterable[str] = ()) -> Iterator[FileEntry | ListingIssue]:
    """Yield image files under `root`, following directory links once (loops are reported)."""
    visited: set[tuple[int, int]] = set()
    stack = [root]
    while stack:
        current = stack.pop()
        try:
            st = os.stat(current)
        except OSError as exc:
            yield ListingIssue(
                current, folder_id, _reason(exc), f"cannot open folder {current}: {exc.strerror}"
            )
            continue
        key = (st.st_dev, st.st_ino)
        if key in visited:
            yield ListingIssue(
                current, folder_id, "symlink_loop", f"{current} links back to a folder already scanned"
            )
            continue
        visited.add(key)
        try:
            entries = list(os.scandir(current))
        except OSError as exc:
            yield ListingIssue(current, folder_id, _reason(exc), f"cannot list {current}: {exc.strerror}")
            continue
        sidecars_here = sidecar_index(e.name for e in entries)
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.startswith("."):
                continue  # hidden files and our own temp files
            if entry.is_symlink():
                verdict = _symlink_verdict(entry.path, current, library)
                if isinstance(verdict, ListingIssue):
                    verdict.folder_id = folder_id
                    yield verdict
                    continue
                if verdict == "skip":
                    continue
            try:
                if entry.is_dir(follow_symlinks=True):
                    stack.append(entry.path)
                    continue
            except OSError as exc:
                yield ListingIssue(
                    entry.path, folder_id, _reason(exc), f"cannot stat {entry.path}: {exc.strerror}"
                )
                continue
            item = _listed_file(entry, folder_id, sidecars_here)
            if item is not None:
                yield item


def _listed_file(
    entry: os.DirEntry, folder_id: int, sidecars_here: dict | None
) -> FileEntry | ListingIssue | None:
    """A listed non-folder: a photo to catalogue (with its sidecars' signature), an issue to
    record, or None (not an image)."""
    claimed = is_image_name(entry.name)  # else its first bytes decide
    if not claimed and not worth_sniffing(entry.name):
        return None
    try:
        st = entry.stat(follow_symlinks=True)
    except OSError as exc:
        return ListingIssue(entry.path, folder_id, _reason(exc), f"cannot stat {entry.path}: {exc.strerror}")
    if not stat.S_ISREG(st.st_mode):  # a FIFO, socket or device: never opened, not even sniffed
        return _not_a_file(entry.path, folder_id, st) if claimed else None
    if not (claimed or sniff_file(entry.path)):
        return None
    sidecars = signature(sidecar_paths(entry.path, sidecars_here)) if sidecars_here else None
    return FileEntry(entry.path, folder_id, st.st_size, st.st_mtime, sidecars)


def _not_a_file(path: str, folder_id: int | None, st: os.stat_result) -> ListingIssue:
    """A listing issue for a path named like a photo that is no regular file (never opened)."""
    try:
        require_regular(path, st)
    except NotARegularFile as exc:
        return ListingIssue(path, folder_id, NotARegularFile.reason, str(exc))
    raise AssertionError("a regular file is no listing issue")


def _symlink_verdict(path: str, parent: str, library: Iterable[str]):
    """A link to a place already in the library is skipped (its target is catalogued under its
    real path: no duplicate photo); a link to an ancestor is a loop; other links are followed."""
    try:
        os.stat(path)
    except OSError as exc:
        return ListingIssue(path, None, _reason(exc), f"cannot follow the link {path}: {exc.strerror}")
    real = os.path.realpath(path)
    if os.path.isdir(real) and _within(os.path.realpath(parent), [real]):
        return ListingIssue(path, None, "symlink_loop", f"{path} links back to a folder that contains it")
    roots = [os.path.realpath(r) for r in library]
    return "skip" if _within(real, roots) else "follow"


# A file that failed for one of these reasons fails the same way until it changes; others
# (permissions, I/O errors on a flaky drive) are retried on the next run, and so are the failures
# a setting decides (too_large, too_many_pixels: both are checked before the file is read, so a
# retry costs a stat and a header, and a raised limit takes effect on the next run).
STICKY_REASONS = frozenset({"corrupt", "not_an_image", "truncated", "empty_file", "no_pixels"})


def _folder_state(path: str, had_photos: bool, device: int | None) -> tuple[bool, int | None]:
    """(online, st_dev to remember). A folder is offline when it is missing or unreadable, or
    when it is empty where photos were *and* sits on another device than it did: the look of an
    unplugged drive's mount point. Emptied on the same device, it is online (really emptied or
    moved away); with no device on record (an older catalog) an empty folder stays offline."""
    try:
        st = os.stat(path)
        if not stat.S_ISDIR(st.st_mode):
            return False, None
        with os.scandir(path) as entries:
            empty = not any(True for _ in entries)
    except OSError:
        return False, None
    if not empty or not had_photos:
        return True, st.st_dev
    return (device is not None and st.st_dev == device), None


def _unreachable_root(path: str, unreachable: set[str]) -> str | None:
    """`path` itself or the nearest ancestor of it in `unreachable` (O(depth), not O(issues))."""
    while True:
        if path in unreachable:
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symlink_loop"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission_denied"
    if exc.errno == errno.ENOENT:
        return "vanished"
    return "unreadable"


#: db path -> (photo id, size, mtime, state, folder id) of every catalogued photo.
Known = dict[str, tuple[int, int, float, str, int | None]]


def plan_scan(
    store: Store,
    only_paths: Iterable[str] | None = None,
    retry_failed: bool = False,
    sidecars: bool = False,
) -> ScanPlan:
    """List registered folders (or just `only_paths`) and compare with the catalog.

    A file is unchanged when its size and mtime match the catalog's active row, or the
    recorded failure for that path (a bad file is not re-read every run unless asked). With
    `sidecars` (the run reads embedded metadata), an unchanged file whose XMP sidecars differ from
    those last read (added, edited, removed) is read again and listed in `sidecar_changed`.
    """
    plan = ScanPlan()
    with store.session() as s:
        folders = list(s.scalars(select(Folder)))
        _check_folders(s, folders, plan)
        known: Known = {
            row.path: (row.id, row.size, row.mtime, row.state, row.folder_id)
            for row in s.execute(
                select(Photo.path, Photo.id, Photo.size, Photo.mtime, Photo.state, Photo.folder_id)
            )
        }
        failed = (
            {}
            if retry_failed
            else {
                row.path: (row.size, row.mtime)
                for row in s.execute(
                    select(FileIssue.path, FileIssue.size, FileIssue.mtime, FileIssue.reason)
                )
                if row.reason in STICKY_REASONS
            }
        )
        read_sidecars = (
            dict(s.execute(select(Fact.photo_id, Fact.label).where(Fact.kind == "sidecar")).all())
            if sidecars
            else None
        )
    online_ids = set(plan.online_folder_ids)
    online_folders = [f for f in folders if f.id in online_ids]
    seen: dict[str, FileEntry] = {}
    if only_paths is None:
        for folder in online_folders:
            for item in walk_images(folder.path, folder.id, [f.path for f in online_folders]):
                _collect(item, seen, plan, online_folders)
        candidates = {p: v for p, v in known.items() if v[3] == "active" and v[4] in online_ids}
    else:
        candidates = _list_paths(only_paths, known, online_folders, seen, plan)
    _compare(seen, known, failed, candidates, plan, read_sidecars)
    _find_vanished(candidates, plan)
    plan.seen = len(seen)
    return plan


def _check_folders(s, folders: list[Folder], plan: ScanPlan) -> None:
    """Which registered folders are online now (recording it, and the device they are on)."""
    populated = {
        fid for (fid,) in s.execute(select(Photo.folder_id).where(Photo.state == "active").distinct())
    }
    for folder in folders:
        online, device = _folder_state(folder.path, folder.id in populated, folder.device)
        if folder.online != online:
            folder.online = online
        if device is not None and folder.device != device:
            folder.device = device
        if online:
            plan.online_folder_ids.append(folder.id)
        else:
            plan.offline_folders.append(folder.path)


def _list_paths(
    only_paths: Iterable[str],
    known: Known,
    online_folders: list[Folder],
    seen: dict[str, FileEntry],
    plan: ScanPlan,
) -> Known:
    """List just these paths (the watcher's events); returns the catalogued photos they cover."""
    candidates: Known = {}
    library = [f.path for f in online_folders]
    active_sorted = sorted(p for p, v in known.items() if v[3] == "active")
    for raw in only_paths:
        path = os.path.abspath(raw)
        folder = owning_folder(path, online_folders)
        if folder is None:
            continue
        db_path = to_db_path(path)
        if db_path in known and known[db_path][3] == "active":
            candidates[db_path] = known[db_path]
        prefix = db_path.rstrip(os.sep) + os.sep  # everything under a vanished or new directory
        for i in range(bisect.bisect_left(active_sorted, prefix), len(active_sorted)):
            if not active_sorted[i].startswith(prefix):
                break
            candidates[active_sorted[i]] = known[active_sorted[i]]
        if os.path.isdir(path):
            for item in walk_images(path, folder.id, library):
                _collect(item, seen, plan, online_folders)
        elif is_image_file(path):
            _collect_file(path, folder, seen, plan, online_folders)
    return candidates


def _collect_file(
    path: str, folder: Folder, seen: dict[str, FileEntry], plan: ScanPlan, online_folders: list[Folder]
) -> None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        plan.issues.append(ListingIssue(path, folder.id, _reason(exc), f"cannot stat {path}: {exc}"))
        return
    if not stat.S_ISREG(st.st_mode):
        plan.issues.append(_not_a_file(path, folder.id, st))
        return
    sidecars = signature(sidecar_paths(path))
    _collect(FileEntry(path, folder.id, st.st_size, st.st_mtime, sidecars), seen, plan, online_folders)


def _compare(
    seen: dict[str, FileEntry],
    known: Known,
    failed: dict[str, tuple],
    candidates: Known,
    plan: ScanPlan,
    read_sidecars: dict[int, str] | None = None,
) -> None:
    """Each listed file is unchanged, a known failure, or work (new or changed); what was seen
    is no candidate for vanishing. With `read_sidecars` (photo id -> signature of the sidecars last
    read), an unchanged file whose sidecars changed is work too."""
    for path, entry in seen.items():
        db_path = to_db_path(path)
        row = known.get(db_path)
        if row and row[3] == "active" and row[1] == entry.size and abs(row[2] - entry.mtime) < 1e-6:
            if read_sidecars is not None and read_sidecars.get(row[0]) != entry.sidecars:
                plan.sidecar_changed[db_path] = row[0]
                plan.to_ingest.append(entry)
            else:
                plan.unchanged += 1
        elif db_path in failed and failed[db_path] == (entry.size, entry.mtime):
            plan.known_failed += 1
        else:
            plan.to_ingest.append(entry)
            if row and row[3] == "active":
                plan.changed_paths.add(db_path)
        candidates.pop(db_path, None)


def _find_vanished(candidates: Known, plan: ScanPlan) -> None:
    """Catalogued photos not listed and gone from disk vanished. A subfolder or linked drive that
    could not be read (unplugged, EACCES, EIO) is offline like a root: its photos are kept."""
    unreachable = {to_db_path(i.path) for i in plan.issues}
    plan.vanished = {}
    for p, v in candidates.items():
        root = _unreachable_root(p, unreachable) if unreachable else None
        if root is not None:
            if root not in plan.offline_folders:
                plan.offline_folders.append(root)
        elif not os.path.lexists(from_db_path(p)):
            plan.vanished[p] = v[0]


def _collect(item, seen: dict[str, FileEntry], plan: ScanPlan, folders: list[Folder]) -> None:
    if isinstance(item, ListingIssue):
        plan.issues.append(item)
        return
    owner = owning_folder(item.path, folders)
    if owner is not None:
        item.folder_id = owner.id
    seen[item.path] = item
