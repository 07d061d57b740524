"""Which accelerator a hub model will run on: ONNX Runtime providers (shared with the bundled tier via
`photosearch.vision.onnx_session`) and llama.cpp GPU offload."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.vision import onnx_session


def onnx_providers(settings: Settings | None = None) -> list[str]:
    """CUDA first (onnxruntime-gpu + a CUDA device + settings.gpu), CPU always last."""
    return onnx_session.choose_providers(settings)


def onnx_session_for(path: Path | str, settings: Settings | None = None):
    """An ``InferenceSession`` on the best provider (falls back to CPU if CUDA fails to start)."""
    return onnx_session.create_session(path, settings)


@functools.lru_cache(maxsize=1)
def llama_gpu_offload() -> bool | None:
    """True if llama-cpp-python was built with GPU offload, False if CPU-only, None if not installed."""
    try:
        import llama_cpp
    except ImportError:
        return None
    try:
        return bool(llama_cpp.llama_supports_gpu_offload())
    except Exception:  # noqa: BLE001 - an odd build means "no offload"
        return False


def llama_gpu_layers(settings: Settings | None = None, options: dict[str, Any] | None = None) -> int:
    """``n_gpu_layers`` for llama.cpp: 0 without offload or with ``settings.gpu`` off; else the manifest's
    ``options.gpu_layers``; else -1 (all layers)."""
    if settings is not None and not getattr(settings, "gpu", True):
        return 0
    if not llama_gpu_offload():
        return 0
    if options and options.get("gpu_layers") is not None:
        return int(options["gpu_layers"])
    return -1


def provider_for(manifest: Any, settings: Settings | None = None) -> str:
    """What `models list` shows: ``CUDAExecutionProvider``/``CPUExecutionProvider`` for ONNX models;
    ``llama.cpp GPU (all layers)``, ``llama.cpp GPU (N layers)``, ``llama.cpp CPU`` or
    ``llama.cpp not installed`` for GGUF. Accepts a `HubManifest`, a `ModelManifest` or a dict."""
    fmt = _format_of(manifest)
    if fmt == "gguf":
        if llama_gpu_offload() is None:
            return "llama.cpp not installed (pip install llama-cpp-python)"
        layers = llama_gpu_layers(settings, _options_of(manifest))
        if layers == 0:
            return "llama.cpp CPU"
        return "llama.cpp GPU (all layers)" if layers < 0 else f"llama.cpp GPU ({layers} layers)"
    if fmt == "onnx":
        if not onnx_session.available_providers():
            return "unavailable (pip install onnxruntime)"
        return onnx_providers(settings)[0]
    return onnx_session.RUNTIME_PROVIDERS.get(fmt, fmt)


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def _options_of(manifest: Any) -> dict[str, Any]:
    opts = _get(manifest, "options")
    if opts is None:  # a shared ModelManifest keeps unknown fields in .extra
        opts = (_get(manifest, "extra") or {}).get("options")
    return dict(opts or {})


def _format_of(manifest: Any) -> str:
    fmt = _get(manifest, "runtime")
    if isinstance(fmt, str) and fmt:
        return fmt.lower()
    files = _get(manifest, "files") or []
    paths = [str(_get(f, "path") or f) for f in files]
    return "gguf" if any(p.endswith(".gguf") for p in paths) else "onnx"
