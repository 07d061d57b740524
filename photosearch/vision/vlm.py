"""A local VLM (GGUF + mmproj through llama-cpp-python's multimodal chat handlers): captions and answers.

One `Llama` instance is not thread-safe, so each `VlmCaptioner` owns a worker thread and a queue; every
call (from the indexer, the GUI, the Chain of Search) is a job on that queue and waits for its result.
Images go to the model as downscaled JPEG data URIs. Structured answers use ``response_format`` with a
JSON schema (llama.cpp turns it into a grammar), so the output always parses.

The manifest's ``family`` picks the chat handler: ``qwen2.5-vl`` → `Qwen25VLChatHandler`, ``moondream`` →
`MoondreamChatHandler`, ``llava-1.5`` → `Llava15ChatHandler`, ``llava-1.6`` → `Llava16ChatHandler`,
``minicpm-v`` → `MiniCPMv26ChatHandler`, ``nanollava`` → `NanoLlavaChatHandler`, ``smolvlm`` (and anything
else libmtmd knows) → `MTMDChatHandler` where this llama-cpp-python has it, else `Llava15ChatHandler`.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import numpy as np
from PIL import Image

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.vision.analyzer import AnalysisResult, FactRecord, PhotoImage

log = logging.getLogger(__name__)

HANDLERS = {
    "qwen2.5-vl": "Qwen25VLChatHandler",
    "qwen2-vl": "Qwen25VLChatHandler",
    "moondream": "MoondreamChatHandler",
    "llava-1.5": "Llava15ChatHandler",
    "llava-1.6": "Llava16ChatHandler",
    "minicpm-v": "MiniCPMv26ChatHandler",
    "nanollava": "NanoLlavaChatHandler",
    "llama3-vision-alpha": "Llama3VisionAlphaChatHandler",
    "smolvlm": "MTMDChatHandler",
}
CAPTION_PROMPT = "Describe this photo in one or two plain sentences: the main subjects, the place and what is happening."
CAPTION_SCHEMA = {
    "type": "object",
    "properties": {"caption": {"type": "string"}, "objects": {"type": "array", "items": {"type": "string"}}},
    "required": ["caption", "objects"],
}


class VlmError(PhotoSearchError):
    """The VLM is missing, cannot load, or failed on a request."""


def handler_class_name(family: str) -> str:
    """The llama_cpp.llama_chat_format class for a manifest family (see module doc)."""
    name = HANDLERS.get(family.lower(), "MTMDChatHandler")
    try:
        from llama_cpp import llama_chat_format
    except ImportError:
        return name
    if not hasattr(llama_chat_format, name):
        name = "Llava15ChatHandler"
    return name


def image_data_uri(rgb: np.ndarray, max_side: int = 768, quality: int = 88) -> str:
    """RGB uint8 → ``data:image/jpeg;base64,...`` with the longest side at most ``max_side``."""
    img = Image.fromarray(np.ascontiguousarray(rgb[..., :3]).astype(np.uint8), "RGB")
    scale = max_side / max(img.size)
    if scale < 1:
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=quality)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def load_vlm_llama(settings: Settings, manifest, verbose: bool = False):
    """A `llama_cpp.Llama` with the family's chat handler, GGUF and mmproj from a pulled hub manifest."""
    try:
        import llama_cpp  # noqa: F401 - fail early with a clear message
        from llama_cpp import llama_chat_format
    except ImportError as exc:
        raise VlmError("the VLM needs llama-cpp-python (pip install llama-cpp-python)") from exc
    from photosearch.hub.pull import is_installed, model_dir
    from photosearch.hub.runtime import llama_gpu_layers

    if not is_installed(settings, manifest.name):
        raise VlmError(f"VLM {manifest.name!r} is not pulled; run `photosearch models pull {manifest.name}`")
    root = model_dir(settings, manifest.name)
    model_f = manifest.file_by_key("model")
    mmproj_f = manifest.file_by_key("mmproj")
    if model_f is None or mmproj_f is None:
        raise VlmError(f"manifest {manifest.name!r} needs files with keys 'model' and 'mmproj'")
    cls = getattr(llama_chat_format, handler_class_name(manifest.family))
    handler = cls(clip_model_path=str(root / mmproj_f.path), verbose=verbose)
    opts = manifest.options
    from photosearch.vision.llm_models import open_llama

    return open_llama(
        root / model_f.path,
        chat_handler=handler,
        n_ctx=int(opts.get("n_ctx", 4096)),
        n_gpu_layers=llama_gpu_layers(settings, opts),
        n_threads=max(1, int(settings.threads)),
        verbose=verbose,
    )


class VlmCaptioner:
    """Captioner/answerer over one llama.cpp chat model, serialised on its own worker thread.

    ``llama`` is anything with ``create_chat_completion(messages=..., ...)`` (a `llama_cpp.Llama`); or pass
    ``loader`` to build it lazily on the worker thread (the default loads the pulled hub model).
    Also an analyzer: ``name = "vlm"``, writing `Fact(kind="caption")`.
    """

    name = "vlm"
    version = 1

    def __init__(
        self,
        settings: Settings | None = None,
        model_name: str | None = None,
        *,
        llama: Any = None,
        loader: Callable[[], Any] | None = None,
        max_image_side: int | None = None,
        max_tokens: int = 160,
        temperature: float = 0.1,
    ):
        self.settings = settings or Settings()
        self.model_name = model_name or "vlm"
        self._llama = llama
        self._manifest = None
        if llama is None and loader is None:
            from photosearch.hub.manifest import get_manifest

            if model_name is None:
                raise VlmError("VlmCaptioner needs a model name, a llama object or a loader")
            self._manifest = get_manifest(self.settings, model_name)
            if self._manifest.role != "vlm":
                raise VlmError(f"{model_name!r} is a {self._manifest.role} model, not a VLM")
            loader = lambda: load_vlm_llama(self.settings, self._manifest)  # noqa: E731
        self._loader = loader
        opts = self._manifest.options if self._manifest is not None else {}
        self.max_image_side = int(max_image_side or opts.get("max_image_side", 768))
        self.max_tokens = max_tokens
        self.temperature = temperature
        self._jobs: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._closed = False

    # ---- the worker ----------------------------------------------------------------------------
    def _ensure_worker(self) -> None:
        with self._start_lock:
            if self._closed:
                raise VlmError("the VLM was closed")
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name=f"vlm:{self.model_name}", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                break
            fn, fut = job
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                if self._llama is None:
                    self._llama = self._loader()
                fut.set_result(fn(self._llama))
            except BaseException as exc:  # delivered to the caller
                fut.set_exception(exc)
        self._llama = None

    def submit(self, fn: Callable[[Any], Any]) -> Future:
        """Run ``fn(llama)`` on the worker; returns a Future."""
        self._ensure_worker()
        fut: Future = Future()
        self._jobs.put((fn, fut))
        return fut

    def close(self) -> None:
        with self._start_lock:
            self._closed = True
            if self._thread is not None:
                self._jobs.put(None)
                self._thread.join(timeout=30)
                self._thread = None

    # ---- requests ------------------------------------------------------------------------------
    def chat(self, messages: list[dict], *, schema: dict | None = None, max_tokens: int | None = None) -> str:
        """One chat completion on the worker; with ``schema`` the output is JSON matching it."""
        kwargs: dict[str, Any] = {
            "messages": messages,
            "max_tokens": max_tokens or self.max_tokens,
            "temperature": self.temperature,
        }
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}

        def run(llama):
            out = llama.create_chat_completion(**kwargs)
            return (out["choices"][0]["message"].get("content") or "").strip()

        try:
            return self.submit(run).result()
        except PhotoSearchError:
            raise
        except Exception as exc:
            raise VlmError(f"VLM {self.model_name!r} failed: {exc}") from exc

    def _image_messages(self, rgb: np.ndarray, prompt: str, system: str | None = None) -> list[dict]:
        msgs: list[dict] = []
        if system:
            msgs.append({"role": "system", "content": system})
        msgs.append({
            "role": "user",
            "content": [
                {"type": "image_url", "image_url": {"url": image_data_uri(rgb, self.max_image_side)}},
                {"type": "text", "text": prompt},
            ],
        })
        return msgs

    def ask_json(self, rgb: np.ndarray, prompt: str, schema: dict) -> dict:
        """A JSON object matching ``schema`` about the image."""
        text = self.chat(self._image_messages(rgb, prompt), schema=schema)
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise VlmError(f"VLM {self.model_name!r} returned invalid JSON: {text[:200]!r}") from exc
        if not isinstance(data, dict):
            raise VlmError(f"VLM {self.model_name!r} returned {type(data).__name__}, expected an object")
        return data

    def caption(self, rgb: np.ndarray) -> str:
        return self.chat(self._image_messages(rgb, CAPTION_PROMPT))

    def caption_structured(self, rgb: np.ndarray) -> dict:
        """``{"caption": str, "objects": [str]}`` (schema-constrained)."""
        return self.ask_json(rgb, CAPTION_PROMPT + " Also list the visible objects.", CAPTION_SCHEMA)

    def describe_region(self, image_rgb: np.ndarray, question: str) -> str:
        """A caption of a region crop conditioned on the user's question (Chain of Search, X_r)."""
        prompt = (
            f"The user asks: {question.strip()}\n"
            "Describe what this image region shows that matters for that question, in one or two sentences. "
            "Name brands, text, species or models if you can read or recognise them."
        )
        return self.chat(self._image_messages(image_rgb, prompt))

    def answer(self, image_rgb: np.ndarray, question: str, context: str = "") -> str:
        """Answer a question about the image, grounded in ``context`` (e.g. web knowledge)."""
        prompt = question.strip()
        if context.strip():
            prompt = (
                "Use the image and this background knowledge to answer.\n"
                f"Knowledge:\n{context.strip()}\n\nQuestion: {question.strip()}"
            )
        return self.chat(self._image_messages(image_rgb, prompt), max_tokens=max(self.max_tokens, 320))

    # ---- analyzer ------------------------------------------------------------------------------
    def analyze(self, image: PhotoImage) -> AnalysisResult:
        text = " ".join(self.caption(image.rgb).split())
        if not text:
            return AnalysisResult()
        return AnalysisResult(facts=[FactRecord(kind="caption", label=text[:512], score=1.0,
                                                data={"model": self.model_name})])

    def __del__(self):  # pragma: no cover - best effort
        try:
            if self._thread is not None and not self._closed:
                self._jobs.put(None)
        except Exception:
            pass
