"""Lazy thumbnails: workers decode `QImage`s, the GUI thread makes `QPixmap`s into an LRU cache.

Requests are served newest first (what is on screen now), at most `max_jobs` batches in flight,
and a bounded queue drops the oldest requests when the user scrolls faster than we decode.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import QImage, QImageReader, QPixmap

from photosearch.gui.bridge import TaskRunner
from photosearch.ingest.thumbnails import PANORAMA_LONGEST

log = logging.getLogger(__name__)

Resolver = Callable[[int], "str | None"]
#: A panorama's thumbnail in the grid shows its centre window this wide (2:1), not a thin strip.
PANORAMA_WINDOW = 2.0
#: ...where the window's pixels fill the cell enlarged at most this much.
WINDOW_MAX_ENLARGE = 1.25


def load_image(path: str | None, target: QSize, max_aspect: float | None = None) -> QImage | None:
    """Read an image file scaled to fit `target` (device pixels), EXIF orientation applied; with
    `max_aspect`, a wider (or taller) image shows its centre window of that aspect, filling more of
    `target` (a panorama in the grid).

    Qt reads the common formats itself (scaled while decoding); everything else the catalog holds
    (HEIC, AVIF, JPEG XL, RAW through its embedded preview) goes through the indexer's decoder.
    RAW files skip Qt, whose TIFF reader would show a DNG's tiny first-page thumbnail."""
    if not path:
        return None
    from photosearch.ingest.decode import is_raw_name

    image = None
    if not is_raw_name(path):
        reader = QImageReader(path)
        reader.setAutoTransform(True)
        size = reader.size()
        box = _read_box(size, target, max_aspect)
        if size.isValid() and (size.width() > box.width() or size.height() > box.height()):
            reader.setScaledSize(size.scaled(box, Qt.AspectRatioMode.KeepAspectRatio))
        image = reader.read()
    if image is None or image.isNull():
        image = _decoded_image(path, target, max_aspect)
    return image if image is None or max_aspect is None else _window(image, target, max_aspect)


def _read_box(size: QSize, target: QSize, max_aspect: float | None) -> QSize:
    """The box to read an image at: `target`, or for one wider than `max_aspect` a box as long as its
    centre window needs (that window then fills `target`)."""
    aspect = max(size.width(), size.height()) / max(1, min(size.width(), size.height()))
    if max_aspect is None or aspect <= max_aspect:
        return target
    grow = aspect / max_aspect
    if size.width() >= size.height():
        return QSize(round(target.width() * grow), target.height())
    return QSize(target.width(), round(target.height() * grow))


def _window(image: QImage, target: QSize, max_aspect: float) -> QImage:
    """The centre window of at most `max_aspect`, scaled to fit `target`; the whole image where it has
    too few pixels for a sharp window (a thumbnail made before panoramas got longer ones)."""
    w, h = image.width(), image.height()
    if min(w, h) == 0 or max(w, h) / min(w, h) <= max_aspect:
        return image
    cw, ch = (round(h * max_aspect), h) if w >= h else (w, round(w * max_aspect))
    fill = min(target.width() / cw, target.height() / ch)
    sharp = fill <= WINDOW_MAX_ENLARGE
    shown = image.copy((w - cw) // 2, (h - ch) // 2, cw, ch) if sharp else image
    if shown.width() > target.width() or shown.height() > target.height():
        shown = shown.scaled(
            target, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
        )
    return shown


def _decoded_image(path: str, target: QSize, max_aspect: float | None = None) -> QImage | None:
    """Formats Qt cannot read, through `ingest.decode.open_image` (the indexer's own decoder)."""
    from photosearch.errors import DecodeError
    from photosearch.ingest.decode import open_image

    longest = max(target.width(), target.height()) * (PANORAMA_LONGEST if max_aspect else 1)
    try:
        decoded = open_image(path, max_side=longest)
    except (DecodeError, OSError, MemoryError) as exc:
        log.info("cannot show %s: %s", path, exc)
        return None
    im = decoded.image
    box = _read_box(QSize(im.width, im.height), target, max_aspect)
    if im.width > box.width() or im.height > box.height():
        im = im.copy()
        im.thumbnail((box.width(), box.height()))
    data = im.convert("RGB").tobytes("raw", "RGB")
    return QImage(data, im.width, im.height, im.width * 3, QImage.Format.Format_RGB888).copy()


class ThumbnailCache(QObject):
    """`pixmap(key)` returns a cached pixmap or None and schedules a load; `ready(key)` fires later."""

    ready = Signal(int)

    def __init__(
        self,
        runner: TaskRunner,
        resolver: Resolver,
        *,
        size: int = 160,
        dpr: float = 1.0,
        capacity: int = 1500,
        max_queue: int = 600,
        batch: int = 24,
        max_jobs: int = 2,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.runner, self.resolver = runner, resolver
        self.size, self.dpr = size, dpr
        self.capacity, self.max_queue, self.batch, self.max_jobs = capacity, max_queue, batch, max_jobs
        self._cache: OrderedDict[int, QPixmap | None] = OrderedDict()
        self._queue: OrderedDict[int, None] = OrderedDict()
        self._inflight: set[int] = set()
        self._jobs = 0
        self.requested: set[int] = set()  # every key ever asked for (tests and diagnostics)

    def set_size(self, size: int, dpr: float | None = None) -> None:
        if dpr is not None:
            self.dpr = dpr
        if size != self.size:
            self.size = size
            self.clear()

    def clear(self) -> None:
        self._cache.clear()
        self._queue.clear()

    def pixmap(self, key: int) -> QPixmap | None:
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if key not in self._inflight:
            self.requested.add(key)
            self._queue[key] = None
            self._queue.move_to_end(key)
            while len(self._queue) > self.max_queue:
                self._queue.popitem(last=False)
            self._pump()
        return None

    def _pump(self) -> None:
        while self._jobs < self.max_jobs and self._queue:
            keys = []
            while self._queue and len(keys) < self.batch:
                key, _ = self._queue.popitem(last=True)  # newest first: what is visible now
                keys.append(key)
            self._inflight.update(keys)
            self._jobs += 1
            target = QSize(int(self.size * self.dpr), int(self.size * self.dpr))
            resolver = self.resolver

            def job(progress, cancel, keys=keys, target=target, resolver=resolver):
                for k in keys:
                    if cancel():
                        break
                    try:
                        image = load_image(resolver(k), target, PANORAMA_WINDOW)
                    except Exception:
                        image = None
                    progress((k, image))
                return keys

            self.runner.submit(
                job,
                name="thumbnails",
                on_progress=self._loaded,
                on_result=self._job_done,
                on_error=lambda _e, ks=keys: self._job_done(ks),
            )

    def _loaded(self, item) -> None:
        key, image = item
        pix = None
        if image is not None and not image.isNull():
            pix = QPixmap.fromImage(image)  # GUI thread
            pix.setDevicePixelRatio(self.dpr)
        self._cache[key] = pix
        self._inflight.discard(key)
        while len(self._cache) > self.capacity:
            self._cache.popitem(last=False)
        self.ready.emit(key)

    def _job_done(self, keys) -> None:
        self._jobs -= 1
        self._inflight.difference_update(keys or [])
        self._pump()
