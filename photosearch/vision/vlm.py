"""A local VLM (GGUF + mmproj through llama-cpp-python's multimodal chat handlers): captions and answers.

The model is a `VisionLLM`: the one local LLM class (`photosearch.models.llm.LocalLLM`: lazy load, one
lock, so calls from the indexer, the GUI and the Chain of Search run one at a time) with the family's
chat handler and projector. `VlmCaptioner` asks it: images go as downscaled JPEG data URIs; structured
answers use a JSON schema (llama.cpp turns it into a grammar), so the output always parses.

The manifest's ``family`` picks the chat handler and its prompt format (`vision/vlm_prompts.py`: each
family's own format, proved against its reference in tests/hub/test_hub_vlm_prompts.py); the handler's
text to libmtmd is kept (`VisionLLM.last_prompt`) so the doctor can check what a pulled model received.
"""

from __future__ import annotations

import base64
import io
import json
import logging
from typing import Any

import numpy as np
from PIL import Image

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.models.llm import LlmChoice, LocalLLM
from photosearch.models.manifest import ModelManifest, get_manifest
from photosearch.models.runtimes import llama
from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.vlm_prompts import PromptRecorder, handler_class

log = logging.getLogger(__name__)

CAPTION_PROMPT = (
    "Describe this photo in one or two plain sentences: the main subjects, the place and what is happening."
)


class VlmError(PhotoSearchError):
    """The VLM is missing, cannot load, or failed on a request."""


def image_data_uri(rgb: np.ndarray, max_side: int = 768, quality: int = 88) -> str:
    """RGB uint8 → ``data:image/jpeg;base64,...`` with the longest side at most ``max_side``."""
    img = Image.fromarray(np.ascontiguousarray(rgb[..., :3]).astype(np.uint8), "RGB")
    scale = max_side / max(img.size)
    if scale < 1:
        img = img.resize(
            (max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.Resampling.LANCZOS
        )
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=quality)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


class VisionLLM(LocalLLM):
    """A pulled hub VLM: its GGUF (file key ``model``) and projector (``mmproj``) through the family's chat
    handler. Always a chat model."""

    def __init__(self, settings: Settings | None, manifest: ModelManifest):
        if manifest.role != "vlm":
            raise VlmError(f"{manifest.name!r} is a {manifest.role} model, not a VLM")
        super().__init__(
            settings, LlmChoice(manifest.name, "hub", None, dict(manifest.options), True, manifest)
        )
        self._prompts: PromptRecorder | None = None

    def available(self) -> bool:
        return llama.available() and self.manifest.present(self.settings)

    def _load(self) -> None:
        llama.require(f"the VLM {self.name!r}")
        manifest = self.manifest
        root = manifest.require_installed(self.settings)
        model_f, mmproj_f = manifest.find_file("model"), manifest.find_file("mmproj")
        if model_f is None or mmproj_f is None:
            raise VlmError(f"manifest {manifest.name!r} needs files with keys 'model' and 'mmproj'")
        cls = handler_class(manifest.family)
        handler = cls(clip_model_path=str(root / mmproj_f.path), verbose=False)
        self._prompts = handler._mtmd_cpp = PromptRecorder(handler._mtmd_cpp)
        self._llama = llama.open_llama(root / model_f.path, chat_handler=handler, **self.open_kwargs())

    @property
    def last_prompt(self) -> str | None:
        """The text (images as libmtmd's media marker) the chat handler last gave the model."""
        return self._prompts.last if self._prompts is not None else None


class VlmCaptioner:
    """Captioner/answerer over a chat model with vision: the pulled hub VLM ``model_name``, or ``llm`` (a
    `LocalLLM`), or ``llama`` (a `llama_cpp.Llama` or anything with ``create_chat_completion``).
    Also an analyzer: ``name = "vlm"``, writing `Fact(kind="caption")`.
    """

    name = "vlm"
    version = 1

    def __init__(
        self,
        settings: Settings | None = None,
        model_name: str | None = None,
        *,
        llm: LocalLLM | None = None,
        llama: Any = None,
        max_image_side: int | None = None,
        max_tokens: int = 160,
        temperature: float = 0.1,
    ):
        self.settings = settings or Settings()
        self.model_name = model_name or "vlm"
        if llm is None and llama is not None:
            llm = LocalLLM.wrap(llama, name=self.model_name, settings=self.settings)
        if llm is None:
            if model_name is None:
                raise VlmError("VlmCaptioner needs a model name, an LLM or a llama object")
            llm = VisionLLM(self.settings, get_manifest(model_name, self.settings, tier="hub"))
        self.llm = llm
        self.max_image_side = int(max_image_side or llm.options.get("max_image_side", 768))
        self.max_tokens = max_tokens
        self.temperature = temperature

    def close(self) -> None:
        """Free the model; a later request loads it again."""
        self.llm.close()

    # ---- requests ------------------------------------------------------------------------------
    def chat(self, messages: list[dict], *, schema: dict | None = None, max_tokens: int | None = None) -> str:
        """One chat completion; with ``schema`` the output is JSON matching it."""
        try:
            return self.llm.chat(
                messages,
                schema=schema,
                max_tokens=max_tokens or self.max_tokens,
                temperature=self.temperature,
            ).strip()
        except PhotoSearchError:
            raise
        except Exception as exc:
            raise VlmError(f"VLM {self.model_name!r} failed: {exc}") from exc

    def _image_messages(self, rgb: np.ndarray, prompt: str, system: str | None = None) -> list[dict]:
        msgs: list[dict] = []
        if system:
            msgs.append({"role": "system", "content": system})
        msgs.append(
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": image_data_uri(rgb, self.max_image_side)}},
                    {"type": "text", "text": prompt},
                ],
            }
        )
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
        return AnalysisResult(
            facts=[FactRecord(kind="caption", label=text[:512], score=1.0, data={"model": self.model_name})]
        )
