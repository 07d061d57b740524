"""Sessions per runtime: ONNX Runtime (`onnx`), LiteRT (`litert`), OpenCV DNN (`opencv_dnn`), llama.cpp
(`llama`). Each module makes its runtime's session objects with the thread count and accelerator the
settings ask for; `provider_for` says what a model would run on (`photosearch models list`)."""

from __future__ import annotations

from typing import Any

from photosearch.config import Settings
from photosearch.models.runtimes import litert, llama, onnx, opencv_dnn

# What the runtimes without a choice of accelerator run on.
RUNTIME_PROVIDERS = {
    "tflite": litert.PROVIDER,
    "opencv-dnn": opencv_dnn.PROVIDER,
    "dlib": "dlib CPU",
    "gguf": "llama.cpp",
    "data": "-",
}


def provider_for(manifest: Any, settings: Settings | None = None) -> str:
    """``CUDAExecutionProvider``/``CPUExecutionProvider`` for ONNX models; ``llama.cpp GPU (all layers)``,
    ``llama.cpp GPU (N layers)``, ``llama.cpp CPU`` or ``llama.cpp not installed`` for GGUF; the fixed
    provider of the other runtimes. Accepts a `ModelManifest` or a dict."""
    fmt = _runtime_of(manifest)
    if fmt == "gguf":
        return llama.provider(settings, dict(_get(manifest, "options") or {}))
    if fmt == "onnx":
        return onnx.provider(settings)
    return RUNTIME_PROVIDERS.get(fmt, fmt)


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def _runtime_of(manifest: Any) -> str:
    fmt = _get(manifest, "runtime")
    if isinstance(fmt, str) and fmt:
        return fmt.lower()
    paths = [str(_get(f, "path") or f) for f in _get(manifest, "files") or []]
    return "gguf" if any(p.endswith(".gguf") for p in paths) else "onnx"
