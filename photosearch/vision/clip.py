"""Image-text encoder for ONNX CLIP/SigLIP exports in Immich's layout, and its analyzer.

Layout (``MODELS_DIR/NAME/``, as in Immich's Hugging Face repos, e.g. ``immich-app/ViT-B-32__openai``)::

    config.json                  open_clip model config: embed_dim, vision_cfg.image_size,
                                 text_cfg.context_length, text_cfg.tokenizer_kwargs.clean
    visual/model.onnx            input "image" float32 [B|1, 3, H, W]  -> output "embedding" [B, D]
    visual/preprocess_cfg.json   OpenCLIP's size, mean, std, interpolation, resize_mode (shortest|squash)
    textual/model.onnx           OpenCLIP/SigLIP: input "text" int32 [B|1, context_length]
                                 M-CLIP (XLM-Roberta): "input_ids" + "attention_mask" int32
                                 -> output "embedding" [B, D]
    textual/tokenizer.json       Hugging Face `tokenizers` file
    textual/tokenizer_config.json  special tokens, pad_token (padding to context_length, as Immich does)

Pixels and token ids come from transformers' reference processors made from these files
(`photosearch.models.processors`: the image processor OpenCLIP's config maps onto, `AutoTokenizer`);
only OpenCLIP's own text cleaning (`clean_text`) and NLLB-CLIP's language prefix are done here.

Input/output names follow Immich's exporter (``torch.onnx.export(input_names=["image"]|["text"]|
["input_ids","attention_mask"], output_names=["embedding"])``); ``pixel_values``/``input_ids`` style
exports also work because names and dtypes are read from the session. Immich exports have a fixed batch
of 1 (dynamic axes disabled), so batches run in chunks of what the graph accepts.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.models.arrays import l2_normalize
from photosearch.models.base import Model
from photosearch.models.manifest import get_manifest, installed_with_role
from photosearch.models.processors import ProcessorError, read_json
from photosearch.models.runtimes.onnx import create_session
from photosearch.records import AnalysisResult, PhotoImage


class ClipModelError(PhotoSearchError):
    """A CLIP model folder is missing files or has an unsupported layout."""


def space_name(model_name: str) -> str:
    return f"clip:{model_name}"


# ---- text cleaning (OpenCLIP's, before its tokenizer) --------------------------------------------
def clean_text(text: str, canonicalize: bool = False) -> str:
    """Whitespace-normalised text; SigLIP-style ``canonicalize`` also lowercases and drops punctuation."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if canonicalize:
        text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P")).lower()
        text = " ".join(text.split())
    return text


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        return read_json(path)
    except ProcessorError as exc:
        raise ClipModelError(str(exc)) from exc


def _np_int_type(ort_type: str):
    return np.int64 if "int64" in ort_type else np.int32


class ClipTower(Model):
    """One ONNX tower of a CLIP model (``visual`` or ``textual``), loaded on first use; the textual one also
    loads its tokenizer. Thread-safe (ONNX Runtime sessions are)."""

    thread_safe = True

    def __init__(self, encoder: ClipEncoder, tower: str):
        super().__init__(encoder.settings, name=f"{encoder.name}/{tower}")
        self.encoder = encoder
        self.tower = tower
        self.session: Any = None
        self.tokenizer: Any = None

    @property
    def path(self) -> Path:
        return self.encoder.model_dir / self.tower / "model.onnx"

    def available(self) -> bool:
        return self.path.is_file()

    def _load(self) -> None:
        if not self.path.is_file():
            raise ClipModelError(
                f"{self.path} is missing; run `photosearch models pull {self.encoder.name}` (or check the folder layout)"
            )
        if self.tower == "textual":
            self.tokenizer = self.encoder.load_tokenizer()
        self.session = create_session(self.path, self.settings)

    def _predict(self, feeds: dict[str, np.ndarray]) -> np.ndarray:
        """L2-normalised embeddings, run in chunks of what the graph accepts (Immich exports take 1)."""
        sess = self.session
        n = next(iter(feeds.values())).shape[0]
        limit = _batch_limit(sess) or max(1, int(getattr(self.settings, "batch_size", 32) or 32))
        out_name = sess.get_outputs()[0].name
        chunks = []
        for i in range(0, n, limit):
            part = {k: v[i : i + limit] for k, v in feeds.items()}
            rows = len(next(iter(part.values())))
            chunks.append(np.asarray(sess.run([out_name], part)[0], dtype=np.float32).reshape(rows, -1))
        return l2_normalize(np.concatenate(chunks, axis=0))

    def _close(self) -> None:
        self.session = self.tokenizer = None


def _batch_limit(sess) -> int | None:
    dim = sess.get_inputs()[0].shape[0]
    return dim if isinstance(dim, int) and dim > 0 else None


class ClipEncoder:
    """A CLIP model folder: two `ClipTower` models that load separately (indexing needs only the image
    tower, search only the text tower)."""

    def __init__(
        self,
        model_dir: Path | str,
        settings: Settings | None = None,
        *,
        name: str | None = None,
        preprocess: dict[str, Any] | None = None,
        language: str | None = None,
    ):
        self.model_dir = Path(model_dir)
        self.settings = settings if settings is not None else Settings()
        self.name = name or self.model_dir.name
        self._overrides = dict(preprocess or {})
        self.language = language or self._overrides.get("language")
        self.visual = ClipTower(self, "visual")
        self.textual = ClipTower(self, "textual")

    # ---- configuration ----------------------------------------------------------------------
    @cached_property
    def model_config(self) -> dict[str, Any]:
        return _read_json(self.model_dir / "config.json") or {}

    @cached_property
    def image_processor(self):
        """The transformers image processor made from this folder's config (models/processors.py)."""
        from photosearch.models import processors

        try:
            return processors.image_processor(self.model_dir, self._overrides)
        except ProcessorError as exc:
            raise ClipModelError(f"{self.name}: {exc}") from exc

    @property
    def context_length(self) -> int:
        text_cfg = self.model_config.get("text_cfg") or {}
        return int(self._overrides.get("context_length") or text_cfg.get("context_length") or 77)

    @property
    def canonicalize(self) -> bool:
        kwargs = (self.model_config.get("text_cfg") or {}).get("tokenizer_kwargs") or {}
        return kwargs.get("clean") == "canonicalize"

    @property
    def providers(self) -> list[str]:
        sess = self.visual.session or self.textual.session
        return list(sess.get_providers()) if sess is not None else []

    def load_tokenizer(self):
        """`AutoTokenizer` from ``textual/`` (tokenizer.json, tokenizer_config.json)."""
        from photosearch.models import processors

        try:
            return processors.tokenizer(self.model_dir / "textual")
        except ProcessorError as exc:
            raise ClipModelError(f"{exc}; run `photosearch models pull {self.name}`") from exc

    def close(self) -> None:
        self.visual.close()
        self.textual.close()

    # ---- inference -----------------------------------------------------------------------------
    def preprocess(self, rgb: np.ndarray) -> np.ndarray:
        """float32 [3, H, W]: what the image processor makes of one RGB uint8 image."""
        return self.preprocess_batch([rgb])[0]

    def preprocess_batch(self, images: list[np.ndarray]) -> np.ndarray:
        from photosearch.models.processors import pixel_values

        return pixel_values(self.image_processor, images)

    def encode_images(self, images: list[np.ndarray]) -> np.ndarray:
        """L2-normalised image embeddings, one row per RGB uint8 image."""
        self.visual.load()
        if not images:
            return np.zeros((0, self.dim), dtype=np.float32)
        pixels = self.preprocess_batch(images)
        return self.visual.predict({self.visual.session.get_inputs()[0].name: pixels})

    def text_inputs(self, texts: list[str]) -> list[str]:
        """The strings the tokenizer sees: OpenCLIP's text cleaning (``canonicalize`` for SigLIP), and
        NLLB-CLIP's FLORES-200 language code before the text."""
        prefix = self.language if (self.language and self.name.startswith("nllb")) else ""
        return [prefix + clean_text(t, self.canonicalize) for t in texts]

    def tokenize(self, texts: list[str]) -> dict[str, np.ndarray]:
        """The text tower's feeds: token ids and attention mask from the tokenizer, padded to the model's
        context length, in the dtypes the graph declares."""
        from photosearch.models.processors import token_ids

        self.textual.load()
        ids, mask = token_ids(self.textual.tokenizer, self.text_inputs(texts), self.context_length)
        feeds: dict[str, np.ndarray] = {}
        for inp in self.textual.session.get_inputs():
            dtype = _np_int_type(inp.type)
            if inp.name == "attention_mask":
                feeds[inp.name] = mask.astype(dtype)
            elif inp.name in ("text", "input_ids", "input"):
                feeds[inp.name] = ids.astype(dtype)
            else:
                raise ClipModelError(f"{self.textual.path}: unexpected input {inp.name!r}")
        return feeds

    def encode_texts(self, texts: list[str]) -> np.ndarray:
        """L2-normalised text embeddings, one row per text."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self.textual.predict(self.tokenize(list(texts)))

    def encode_text(self, text: str) -> np.ndarray:
        return self.encode_texts([text])[0]

    @property
    def dim(self) -> int:
        d = self.model_config.get("embed_dim")
        if d:
            return int(d)
        self.visual.load()
        shape = self.visual.session.get_outputs()[0].shape
        return int(shape[-1]) if isinstance(shape[-1], int) else 0


# ---- hub integration -------------------------------------------------------------------------------
_encoders: dict[tuple[str, str], ClipEncoder] = {}
_encoders_lock = threading.Lock()


def load_clip(settings: Settings, model_name: str) -> ClipEncoder:
    """The shared encoder for a pulled hub model (one per models dir + name)."""
    key = (str(settings.models_dir), model_name)
    with _encoders_lock:
        enc = _encoders.get(key)
        if enc is None:
            manifest = get_manifest(model_name, settings, tier="hub")
            overrides = dict(manifest.preprocess)
            overrides.pop("embedding_dim", None)
            root = manifest.require_installed(settings)
            enc = ClipEncoder(root, settings, name=model_name, preprocess=overrides)
            _encoders[key] = enc
        return enc


def installed_clip_models(settings: Settings) -> list[str]:
    """Pulled hub models with role ``clip``, by name."""
    return [m.name for m in installed_with_role(settings, "clip")]


class ClipAnalyzer:
    """Analyzer writing one L2-normalised image embedding per photo into space ``clip:<model>``."""

    version = 1

    def __init__(self, settings: Settings, model_name: str, encoder: ClipEncoder | None = None):
        self.settings = settings
        self.model_name = model_name
        self.name = f"clip:{model_name}"
        self.space = space_name(model_name)
        self._encoder = encoder

    @property
    def encoder(self) -> ClipEncoder:
        if self._encoder is None:
            self._encoder = load_clip(self.settings, self.model_name)
        return self._encoder

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        return self.analyze_batch([image])[0]

    def analyze_batch(self, images: list[PhotoImage]) -> list[AnalysisResult]:
        vecs = self.encoder.encode_images([im.rgb for im in images])
        return [AnalysisResult(embeddings={self.space: v}) for v in vecs]
