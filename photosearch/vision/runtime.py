"""One base class for every model: lazy, lock-protected load once; `predict`; `close`.

Subclasses implement `_load()` (open files, build sessions) and `_predict(...)`. Loading
happens on the first `predict` (or an explicit `load()`), exactly once even when many threads
ask at the same time. Runtimes that are not thread-safe (TFLite interpreters, cv2.dnn nets)
leave `thread_safe = False` and calls are serialised; ONNX Runtime sessions set it True.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from photosearch.config import Settings
from photosearch.vision.manifest import ModelManifest, get_manifest

log = logging.getLogger(__name__)


class Model(ABC):
    """A model described by a manifest in `models/`."""

    manifest_name: ClassVar[str] = ""
    thread_safe: ClassVar[bool] = False

    def __init__(self, settings: Settings | None = None, manifest: ModelManifest | None = None):
        self.settings = settings if settings is not None else Settings()
        self._manifest = manifest
        self._load_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._loaded = False
        self.load_ms: float | None = None

    @property
    def manifest(self) -> ModelManifest:
        if self._manifest is None:
            self._manifest = get_manifest(self.manifest_name, self.settings)
        return self._manifest

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def loaded(self) -> bool:
        return self._loaded

    def available(self) -> bool:
        """True when the model's files are installed (does not load it)."""
        try:
            return self.manifest.present(self.settings)
        except Exception:  # noqa: BLE001 - any manifest problem means "not available"
            return False

    def load(self) -> None:
        """Load once; later calls return at once. Raises `ModelUnavailable` when files are missing."""
        if self._loaded:
            return
        with self._load_lock:
            if self._loaded:
                return
            t0 = time.perf_counter()
            self._load()
            self.load_ms = (time.perf_counter() - t0) * 1000
            self._loaded = True
            log.debug("loaded %s in %.0f ms", self.manifest_name or type(self).__name__, self.load_ms)

    def predict(self, *args: Any, **kwargs: Any) -> Any:
        self.load()
        if self.thread_safe:
            return self._predict(*args, **kwargs)
        with self._run_lock:
            return self._predict(*args, **kwargs)

    def close(self) -> None:
        """Free the runtime; a later `predict` loads again."""
        with self._load_lock, self._run_lock:
            if self._loaded:
                self._close()
            self._loaded = False

    @abstractmethod
    def _load(self) -> None: ...

    @abstractmethod
    def _predict(self, *args: Any, **kwargs: Any) -> Any: ...

    def _close(self) -> None:  # noqa: B027 - optional hook, not abstract
        """Drop references to the runtime objects (override to release more)."""
        return None
