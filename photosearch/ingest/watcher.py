"""Live watching: watchdog events, debounced, settled, then an incremental index of just those paths.

The same engine serves `photosearch watch` and the GUI. A file counts as written when
its size and mtime stop changing for `settle_s`; half-written files are never ingested. An event on
an XMP sidecar (`photo.jpg.xmp`, `photo.xmp`) queues the photos it belongs to: the scan sees the
sidecar changed and their embedded metadata is read again.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from photosearch.catalog.store import Store
from photosearch.ingest.decode import may_be_image_name
from photosearch.ingest.indexer import Indexer, IndexReport
from photosearch.metadata.sidecar import is_sidecar_name, photos_of_sidecar

log = logging.getLogger(__name__)


@dataclass
class _Pending:
    first_seen: float
    last_event: float
    signature: tuple[int, float] | None = None
    stable_since: float | None = None


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: FolderWatcher):
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a folder's listing changed: the file events say what changed, without a rescan
        paths = [event.src_path]
        dest = getattr(event, "dest_path", "")
        if dest:
            paths.append(dest)
        log.debug("watch event: %s %s", event.event_type, paths)
        for raw in paths:
            path = os.fsdecode(raw)
            name = os.path.basename(path)
            if self.watcher.is_hidden(path):
                continue  # like the full scan: hidden files and folders are not photos to catalog
            if event.is_directory or may_be_image_name(name):
                self.watcher.touch(path)
            elif is_sidecar_name(name):  # an XMP sidecar: its photos' metadata is read again
                for photo in photos_of_sidecar(path):
                    self.watcher.touch(photo)


class FolderWatcher:
    """Watches the registered folders and keeps the catalog in line.

    `on_update(report)` is called after each incremental index (from the watcher thread).
    """

    def __init__(
        self,
        store: Store,
        indexer: Indexer,
        debounce_s: float = 0.3,
        settle_s: float = 0.5,
        poll_s: float = 0.1,
        on_update: Callable[[IndexReport], None] | None = None,
        initial_index: bool = False,
        progress=None,
    ):
        self.store = store
        self.indexer = indexer
        self.debounce_s = debounce_s
        self.settle_s = settle_s
        self.poll_s = poll_s
        self.on_update = on_update
        # With initial_index, the catch-up scan runs on the watcher thread after the observer is
        # live, so nothing written between "scan" and "watch" is missed.
        self.initial_index = initial_index
        self.progress = progress
        self._pending: dict[str, _Pending] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._observer = None
        self._thread: threading.Thread | None = None
        self.watched: list[str] = []

    def is_hidden(self, path: str) -> bool:
        """Is any part of `path` below its watched folder hidden (a dot name)?"""
        for root in self.watched:
            prefix = root.rstrip(os.sep) + os.sep
            if path.startswith(prefix):
                return any(part.startswith(".") for part in path[len(prefix) :].split(os.sep))
        return os.path.basename(path).startswith(".")

    def touch(self, path: str) -> None:
        now = time.monotonic()
        with self._lock:
            item = self._pending.get(path)
            if item is None:
                self._pending[path] = _Pending(now, now)
            else:  # a new event restarts the wait: the file must hold still again for settle_s
                item.last_event, item.signature, item.stable_since = now, None, None

    def start(self) -> None:
        self._observer = Observer()
        handler = _Handler(self)
        self.watched = []
        for folder in self.store.folders():
            if os.path.isdir(folder.path):
                self._observer.schedule(handler, folder.path, recursive=True)
                self.watched.append(folder.path)
            else:
                log.warning("folder %s is offline; not watching it", folder.path)
        self._observer.start()
        self._thread = threading.Thread(target=self._loop, name="watch-settle", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=30)

    def __enter__(self) -> FolderWatcher:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def _ready_paths(self) -> list[str]:
        """Paths whose events are quiet for debounce_s and whose size/mtime held for settle_s."""
        now = time.monotonic()
        ready = []
        with self._lock:
            for path, item in list(self._pending.items()):
                if now - item.last_event < self.debounce_s:
                    continue
                try:
                    st = os.stat(path)
                    signature = (st.st_size, st.st_mtime)
                except OSError:
                    signature = None  # gone: a delete or the source of a move
                if signature != item.signature:
                    item.signature, item.stable_since = signature, now
                    if signature is not None:
                        continue
                if signature is None or now - (item.stable_since or now) >= self.settle_s:
                    ready.append(path)
                    del self._pending[path]
        return ready

    def _expand_directories(self, paths: list[str]) -> list[str]:
        """A folder that appeared (mkdir, move-in) queues its images so each one settles on its own."""
        out = []
        for path in paths:
            if os.path.isdir(path):
                for root, dirs, files in os.walk(path):
                    dirs[:] = [d for d in dirs if not d.startswith(".")]
                    for name in files:
                        if may_be_image_name(name) and not name.startswith("."):
                            self.touch(os.path.join(root, name))
            else:
                out.append(path)
        return out

    def _loop(self) -> None:
        if self.initial_index:
            try:
                report = self.indexer.run(progress=self.progress, cancel=self._stop.is_set)
                if self.on_update:
                    self.on_update(report)
            except Exception:
                log.exception("watch: the catch-up index failed")
        while not self._stop.is_set():
            ready = self._expand_directories(self._ready_paths())
            if ready:
                log.debug("watch: indexing %s", ready)
                try:
                    report = self.indexer.run(only_paths=ready, cancel=self._stop.is_set)
                    log.info("watch: %s", report.as_dict())
                    if self.on_update:
                        self.on_update(report)
                except Exception:
                    log.exception("watch: indexing %d paths failed", len(ready))
            self._stop.wait(self.poll_s)
