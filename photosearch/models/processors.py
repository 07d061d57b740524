"""The reference processors of hub models: transformers' image processors and tokenizers, made from the
model's own config files, so a hub model is fed exactly as its authors feed it.

transformers is installed without torch (the `hub` extra) and imported only here, inside the functions
that load a hub model: start-up and the bundled tier never import it. Without torchvision, transformers
5 has only its PIL image processors (`backend="pil"`, the old `use_fast=False`); those are the ones used.

* A folder with a `preprocessor_config.json` (Hugging Face layout: OWLv2, ...) gets
  `AutoImageProcessor.from_pretrained(folder, backend="pil")`.
* An OpenCLIP/Immich export carries its preprocessing in `visual/preprocess_cfg.json` (OpenCLIP's
  `PreprocessCfg`: size, mean, std, interpolation, resize_mode). It maps onto the transformers processor
  that does the same thing: `resize_mode` "shortest" (resize the short side, centre crop) is
  `CLIPImageProcessor`; "squash" (resize to the square, no crop) is `SiglipImageProcessor`. OpenCLIP's
  "longest" (letterbox) has no transformers processor and is refused.
* Tokenisers: `AutoTokenizer.from_pretrained(folder)` from `tokenizer.json` and `tokenizer_config.json`
  (special tokens, padding token, normaliser), padded to the model's fixed length.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import numpy as np

from photosearch.errors import PhotoSearchError

RESAMPLE = {"nearest": 0, "lanczos": 1, "bilinear": 2, "bicubic": 3, "box": 4, "hamming": 5}
OPENAI_MEAN = (0.48145466, 0.4578275, 0.40821073)
OPENAI_STD = (0.26862954, 0.26130258, 0.27577711)


class ProcessorError(PhotoSearchError):
    """A hub model's processor config is missing, unreadable or asks for something no processor does."""


def _quiet_transformers() -> None:
    """transformers warns that torch is absent on every import; PhotoSearch never uses torch."""
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    for name in ("transformers", "transformers.utils.import_utils"):
        logging.getLogger(name).setLevel(logging.ERROR)


def read_json(path: Path) -> dict[str, Any] | None:
    """A JSON object from `path`, None when the file is absent; a clear error when it is unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise ProcessorError(f"cannot read {path}: {exc}") from exc
    return data if isinstance(data, dict) else None


def open_clip_preprocess(model_dir: Path, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """OpenCLIP's preprocessing of an Immich export: `visual/preprocess_cfg.json`, else the root
    `config.json`'s vision_cfg, else OpenCLIP's defaults (OpenAI mean/std, bicubic, shortest)."""
    cfg: dict[str, Any] = {
        "size": 224,
        "mean": list(OPENAI_MEAN),
        "std": list(OPENAI_STD),
        "interpolation": "bicubic",
        "resize_mode": "shortest",
    }
    vision = (read_json(model_dir / "config.json") or {}).get("vision_cfg") or {}
    if vision.get("image_size"):
        cfg["size"] = vision["image_size"]
    cfg.update(
        {k: v for k, v in (read_json(model_dir / "visual" / "preprocess_cfg.json") or {}).items() if v}
    )
    cfg.update({k: v for k, v in (overrides or {}).items() if k in cfg and v is not None})
    return cfg


def _hw(size: Any) -> tuple[int, int]:
    if isinstance(size, (list, tuple)):
        return int(size[0]), int(size[-1])
    return int(size), int(size)


def processor_config_from_open_clip(cfg: dict[str, Any]) -> dict[str, Any]:
    """The `preprocessor_config.json` of the transformers processor that does what OpenCLIP's `cfg` does."""
    h, w = _hw(cfg["size"])
    interpolation = str(cfg.get("interpolation", "bicubic")).lower()
    if interpolation not in RESAMPLE:
        raise ProcessorError(f"unsupported interpolation {interpolation!r} in preprocess_cfg.json")
    common = {
        "do_resize": True,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": True,
        "image_mean": [float(v) for v in cfg["mean"]],
        "image_std": [float(v) for v in cfg["std"]],
        "resample": RESAMPLE[interpolation],
        "do_convert_rgb": True,
    }
    mode = str(cfg.get("resize_mode", "shortest"))
    if mode == "shortest":
        if h != w:
            raise ProcessorError(f"resize_mode 'shortest' needs a square size, not {cfg['size']}")
        return {
            "image_processor_type": "CLIPImageProcessor",
            **common,
            "size": {"shortest_edge": h},
            "do_center_crop": True,
            "crop_size": {"height": h, "width": w},
        }
    if mode == "squash":
        return {"image_processor_type": "SiglipImageProcessor", **common, "size": {"height": h, "width": w}}
    raise ProcessorError(f"resize_mode {mode!r} has no transformers image processor")


def image_processor_from_config(config: dict[str, Any]):
    """A transformers image processor (PIL backend) from a `preprocessor_config.json` dict."""
    _quiet_transformers()
    import transformers

    kind = str(config.get("image_processor_type") or "").removesuffix("Fast")
    cls = getattr(transformers, f"{kind}Pil", None) or getattr(transformers, kind, None)
    if cls is None:
        raise ProcessorError(f"unknown image processor {kind!r}")
    kwargs = {k: v for k, v in config.items() if k not in ("image_processor_type", "processor_class")}
    return cls(**kwargs)


def image_processor(model_dir: Path, overrides: dict[str, Any] | None = None):
    """The image processor of a hub model folder: its `preprocessor_config.json`, else its OpenCLIP config
    mapped onto the matching transformers processor (see the module doc)."""
    model_dir = Path(model_dir)
    hf = read_json(model_dir / "preprocessor_config.json")
    if hf is not None:
        _quiet_transformers()
        from transformers import AutoImageProcessor

        return AutoImageProcessor.from_pretrained(str(model_dir), backend="pil")
    return image_processor_from_config(
        processor_config_from_open_clip(open_clip_preprocess(model_dir, overrides))
    )


def pixel_values(processor, images: list[np.ndarray], **kwargs: Any) -> np.ndarray:
    """float32 [N, 3, H, W]: what the processor makes of RGB uint8 images."""
    out = processor(
        images=[np.ascontiguousarray(im[..., :3]) for im in images], return_tensors="np", **kwargs
    )
    return np.asarray(out["pixel_values"], dtype=np.float32)


def tokenizer(folder: Path):
    """`AutoTokenizer` from a folder's `tokenizer.json` + `tokenizer_config.json` (+ special tokens map)."""
    folder = Path(folder)
    if not (folder / "tokenizer.json").is_file():
        raise ProcessorError(f"{folder / 'tokenizer.json'} is missing")
    _quiet_transformers()
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(folder))


def token_ids(tok, texts: list[str], length: int) -> tuple[np.ndarray, np.ndarray]:
    """(input_ids, attention_mask) int64 [N, length]: padded with the tokenizer's pad token and truncated
    to `length`, as the model's processor feeds a fixed-length text tower."""
    if tok.pad_token is None:
        raise ProcessorError("the tokenizer has no padding token; its tokenizer_config.json names none")
    enc = tok(list(texts), padding="max_length", max_length=length, truncation=True, return_tensors="np")
    return np.asarray(enc["input_ids"], dtype=np.int64), np.asarray(enc["attention_mask"], dtype=np.int64)
