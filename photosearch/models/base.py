"""One base class for every model: lazy, lock-protected load once; `predict`; `close`.

Subclasses implement `_load()` (open files, build sessions with `photosearch.models.runtimes`) and
`_predict(...)`. Loading happens on the first `predict` (or an explicit `load()`), exactly once even when
many threads ask at the same time. Runtimes that are not thread-safe (LiteRT interpreters, cv2.dnn nets,
dlib, llama.cpp) leave `thread_safe = False` and calls are serialised; ONNX Runtime sessions set it True.

A model is described by a manifest (`manifest_name`, or one passed in), or — for a folder or a file
given directly (a hub export unpacked by hand, a GGUF path) — by a `name` alone; such a model says
whether it is `available()` itself.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from photosearch.config import Settings
from photosearch.models.manifest import ManifestError, ModelManifest, get_manifest

log = logging.getLogger(__name__)


class Model(ABC):
    """A model with a lazy, locked load."""

    manifest_name: ClassVar[str] = ""
    thread_safe: ClassVar[bool] = False

    def __init__(
        self,
        settings: Settings | None = None,
        manifest: ModelManifest | None = None,
        *,
        name: str | None = None,
    ):
        self.settings = settings if settings is not None else Settings()
        self._manifest = manifest
        self._name = name
        self._load_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._loaded = False
        self.load_ms: float | None = None

    @property
    def manifest(self) -> ModelManifest:
        if self._manifest is None:
            if not self.manifest_name:
                raise ManifestError(f"{type(self).__name__} {self._name or ''} has no manifest")
            self._manifest = get_manifest(self.manifest_name, self.settings)
        return self._manifest

    @property
    def has_manifest(self) -> bool:
        return self._manifest is not None or bool(self.manifest_name)

    @property
    def name(self) -> str:
        if self._name:
            return self._name
        return self.manifest.name if self.has_manifest else type(self).__name__

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
            log.debug(
                "loaded %s in %.0f ms", self._name or self.manifest_name or type(self).__name__, self.load_ms
            )

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


@runtime_checkable
class TextEmbedder(Protocol):
    """What ranks and embeds text: the bundled MiniLM (`photosearch.vision.text_embedder`) or a stand-in."""

    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...
