"""LiteRT (TensorFlow Lite) interpreters, CPU with XNNPACK."""

from __future__ import annotations

import warnings
from pathlib import Path

from photosearch.config import Settings
from photosearch.models.manifest import ModelUnavailable

PROVIDER = "LiteRT CPU (XNNPACK)"


def open_interpreter(
    path: Path | str, settings: Settings | None = None, *, preserve_all_tensors: bool = False
):
    """An allocated `Interpreter` for a .tflite file, with `settings.threads` threads. Not thread-safe: one
    invoke at a time. `preserve_all_tensors` keeps intermediate tensors readable (a feature layer)."""
    try:
        from ai_edge_litert.interpreter import Interpreter
    except ImportError as exc:
        raise ModelUnavailable(
            f"LiteRT is not installed (needed by {Path(path).name}); pip install ai-edge-litert"
        ) from exc
    threads = max(1, int(settings.threads if settings is not None else 2))
    with warnings.catch_warnings():
        # preserve_all_tensors warns that it is "for debugging"; callers ask for it to read one tensor.
        warnings.simplefilter("ignore")
        interp = Interpreter(
            model_path=str(path), num_threads=threads, experimental_preserve_all_tensors=preserve_all_tensors
        )
    interp.allocate_tensors()
    return interp
