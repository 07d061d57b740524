"""Image-text encoder for ONNX CLIP/SigLIP exports in Immich's layout, and its analyzer.

Layout (``MODELS_DIR/NAME/``, as in Immich's Hugging Face repos, e.g. ``immich-app/ViT-B-32__openai``)::

    config.json                  open_clip model config: embed_dim, vision_cfg.image_size,
                                 text_cfg.context_length, text_cfg.tokenizer_kwargs.clean
    visual/model.onnx            input "image" float32 [B|1, 3, H, W]  -> output "embedding" [B, D]
    visual/preprocess_cfg.json   size, mean, std, interpolation, resize_mode (shortest|squash|longest),
                                 fill_color
    textual/model.onnx           OpenCLIP/SigLIP: input "text" int32 [B|1, context_length]
                                 M-CLIP (XLM-Roberta): "input_ids" + "attention_mask" int32
                                 -> output "embedding" [B, D]
    textual/tokenizer.json       Hugging Face `tokenizers` file
    textual/tokenizer_config.json  pad_token (padding to context_length, as Immich does)

Input/output names follow Immich's exporter (``torch.onnx.export(input_names=["image"]|["text"]|
["input_ids","attention_mask"], output_names=["embedding"])``); ``pixel_values``/``input_ids`` style
exports also work because names and dtypes are read from the session. Immich exports have a fixed batch
of 1 (dynamic axes disabled), so batches run in chunks of what the graph accepts.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.models.arrays import l2_normalize
from photosearch.models.base import Model
from photosearch.models.manifest import get_manifest, installed_with_role
from photosearch.models.runtimes.onnx import create_session
from photosearch.records import AnalysisResult, PhotoImage

OPENAI_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_STD = (0.26862954, 0.2613026, 0.2757771)
_RESAMPLE = {
    "bicubic": Image.Resampling.BICUBIC,
    "bilinear": Image.Resampling.BILINEAR,
    "nearest": Image.Resampling.NEAREST,
    "lanczos": Image.Resampling.LANCZOS,
    "box": Image.Resampling.BOX,
}


class ClipModelError(PhotoSearchError):
    """A CLIP model folder is missing files or has an unsupported layout."""


def space_name(model_name: str) -> str:
    return f"clip:{model_name}"


# ---- preprocessing (pure functions; parameters come from preprocess_cfg.json) -----------------
def preprocess_config(model_dir: Path, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Merge ``visual/preprocess_cfg.json`` (or the root ``config.json`` vision_cfg) with defaults."""
    cfg: dict[str, Any] = {
        "size": 224,
        "mean": list(OPENAI_MEAN),
        "std": list(OPENAI_STD),
        "interpolation": "bicubic",
        "resize_mode": "shortest",
        "fill_color": 0,
    }
    root_cfg = _read_json(model_dir / "config.json") or {}
    vision = root_cfg.get("vision_cfg") or {}
    if vision.get("image_size"):
        cfg["size"] = vision["image_size"]
    for key in ("image_mean", "image_std", "image_interpolation", "image_resize_mode"):
        if vision.get(key) is not None:
            cfg[key.replace("image_", "")] = vision[key]
    pre = _read_json(model_dir / "visual" / "preprocess_cfg.json")
    if pre:
        cfg.update({k: v for k, v in pre.items() if v is not None})
    if overrides:
        cfg.update({k: v for k, v in overrides.items() if k in cfg or k in ("size",)})
    return cfg


def _size_hw(size: Any) -> tuple[int, int]:
    if isinstance(size, (list, tuple)):
        return int(size[0]), int(size[-1])
    return int(size), int(size)


def preprocess_image(rgb: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """RGB uint8 HxWx3 -> float32 3xHxW, resized per ``resize_mode`` and normalised with mean/std."""
    img = Image.fromarray(np.ascontiguousarray(rgb[..., :3]).astype(np.uint8), "RGB")
    h, w = _size_hw(cfg["size"])
    resample = _RESAMPLE.get(str(cfg.get("interpolation", "bicubic")).lower(), Image.Resampling.BICUBIC)
    mode = str(cfg.get("resize_mode", "shortest"))
    if mode == "squash":
        img = img.resize((w, h), resample=resample)
    elif mode == "shortest":
        scale = max(w / img.width, h / img.height)
        nw, nh = max(w, round(img.width * scale)), max(h, round(img.height * scale))
        img = img.resize((nw, nh), resample=resample)
        left, top = (nw - w) // 2, (nh - h) // 2
        img = img.crop((left, top, left + w, top + h))
    elif mode == "longest":
        scale = min(w / img.width, h / img.height)
        nw, nh = max(1, round(img.width * scale)), max(1, round(img.height * scale))
        img = img.resize((nw, nh), resample=resample)
        fill = cfg.get("fill_color", 0)
        fill = tuple(fill) if isinstance(fill, (list, tuple)) else (int(fill),) * 3
        canvas = Image.new("RGB", (w, h), fill)
        canvas.paste(img, ((w - nw) // 2, (h - nh) // 2))
        img = canvas
    else:
        raise ClipModelError(f"unsupported resize_mode {mode!r} in preprocess_cfg.json")
    x = np.asarray(img, dtype=np.float32) / 255.0
    mean = np.asarray(cfg["mean"], dtype=np.float32)
    std = np.asarray(cfg["std"], dtype=np.float32)
    return ((x - mean) / std).transpose(2, 0, 1).astype(np.float32)


def clean_text(text: str, canonicalize: bool = False) -> str:
    """Whitespace-normalised text; SigLIP-style ``canonicalize`` also lowercases and drops punctuation."""
    text = " ".join(unicodedata.normalize("NFC", text).split())
    if canonicalize:
        text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P")).lower()
        text = " ".join(text.split())
    return text


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ClipModelError(f"cannot read {path}: {exc}") from exc
    return data if isinstance(data, dict) else None


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
    def image_config(self) -> dict[str, Any]:
        return preprocess_config(self.model_dir, self._overrides)

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
        from tokenizers import Tokenizer

        tdir = self.model_dir / "textual"
        path = tdir / "tokenizer.json"
        if not path.is_file():
            raise ClipModelError(f"{path} is missing; run `photosearch models pull {self.name}`")
        tok = Tokenizer.from_file(str(path))
        tcfg = _read_json(tdir / "tokenizer_config.json") or {}
        pad = tcfg.get("pad_token")
        if isinstance(pad, dict):
            pad = pad.get("content")
        pad_id = tok.token_to_id(pad) if pad else None
        if pad_id is None:
            pad, pad_id = (pad or "<pad>"), 0
        tok.enable_padding(length=self.context_length, pad_id=pad_id, pad_token=pad)
        tok.enable_truncation(max_length=self.context_length)
        return tok

    def close(self) -> None:
        self.visual.close()
        self.textual.close()

    # ---- inference -----------------------------------------------------------------------------
    def preprocess(self, rgb: np.ndarray) -> np.ndarray:
        return preprocess_image(rgb, self.image_config)

    def encode_images(self, images: list[np.ndarray]) -> np.ndarray:
        """L2-normalised image embeddings, one row per RGB uint8 image."""
        self.visual.load()
        if not images:
            return np.zeros((0, self.dim), dtype=np.float32)
        pixels = np.stack([self.preprocess(im) for im in images])
        return self.visual.predict({self.visual.session.get_inputs()[0].name: pixels})

    def tokenize(self, texts: list[str]) -> dict[str, np.ndarray]:
        self.textual.load()
        prefix = ""
        if self.language and self.name.startswith("nllb"):
            prefix = self.language  # NLLB-CLIP expects a FLORES-200 code before the text
        encs = self.textual.tokenizer.encode_batch([prefix + clean_text(t, self.canonicalize) for t in texts])
        feeds: dict[str, np.ndarray] = {}
        for inp in self.textual.session.get_inputs():
            dtype = _np_int_type(inp.type)
            if inp.name == "attention_mask":
                feeds[inp.name] = np.array([e.attention_mask for e in encs], dtype=dtype)
            elif inp.name in ("text", "input_ids", "input"):
                feeds[inp.name] = np.array([e.ids for e in encs], dtype=dtype)
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
