"""llama.cpp (llama-cpp-python) for GGUF models: whether it is installed, GPU offload, and the one place a
`llama_cpp.Llama` is made."""

from __future__ import annotations

import atexit
import functools
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.models.manifest import ModelUnavailable

INSTALL = "pip install llama-cpp-python"


def available() -> bool:
    """True when llama-cpp-python imports here."""
    try:
        import llama_cpp  # noqa: F401
    except Exception:  # noqa: BLE001 - a broken build is as good as none
        return False
    return True


def require(what: str = "this model") -> None:
    """Raise `ModelUnavailable` with the fix when llama-cpp-python is missing."""
    if not available():
        raise ModelUnavailable(f"llama-cpp-python is not installed (needed by {what}); {INSTALL}")


@functools.lru_cache(maxsize=1)
def gpu_offload() -> bool | None:
    """True if llama-cpp-python was built with GPU offload, False if CPU-only, None if not installed."""
    try:
        import llama_cpp
    except ImportError:
        return None
    try:
        return bool(llama_cpp.llama_supports_gpu_offload())
    except Exception:  # noqa: BLE001 - an odd build means "no offload"
        return False


def gpu_layers(settings: Settings | None = None, options: dict[str, Any] | None = None) -> int:
    """``n_gpu_layers``: 0 without offload or with ``settings.gpu`` off; else the manifest's
    ``options.gpu_layers``; else -1 (all layers)."""
    if settings is not None and not getattr(settings, "gpu", True):
        return 0
    if not gpu_offload():
        return 0
    if options and options.get("gpu_layers") is not None:
        return int(options["gpu_layers"])
    return -1


def provider(settings: Settings | None = None, options: dict[str, Any] | None = None) -> str:
    """What `models list` shows for a GGUF model."""
    if gpu_offload() is None:
        return "llama.cpp not installed (pip install llama-cpp-python)"
    layers = gpu_layers(settings, options)
    if layers == 0:
        return "llama.cpp CPU"
    return "llama.cpp GPU (all layers)" if layers < 0 else f"llama.cpp GPU ({layers} layers)"


def open_llama(model_path: str | Path, **kwargs: Any):
    """A `llama_cpp.Llama`, closed before interpreter shutdown (llama-cpp-python's own finaliser fails once
    its module globals are gone). Raises `ModelUnavailable` when llama-cpp-python or the file is missing."""
    require(Path(model_path).name)
    if not Path(model_path).is_file():
        raise ModelUnavailable(f"the GGUF file {model_path} is missing")
    import llama_cpp

    llm = llama_cpp.Llama(model_path=str(model_path), **kwargs)
    atexit.register(_close_quietly, llm)
    return llm


def _close_quietly(llm) -> None:
    try:
        llm.close()
    except Exception:  # noqa: BLE001 - already closed, or half-torn-down at exit
        pass
