"""Open-vocabulary detector: OWLv2 in ONNX — boxes for free-text queries.

Export layout (Hugging Face optimum / transformers.js, e.g. ``Xenova/owlv2-base-patch16-ensemble``;
the hub manifest puts ``onnx/model_quantized.onnx`` at ``model.onnx``)::

    model.onnx                inputs  input_ids int64 [Q, 16], pixel_values float32 [1, 3, S, S],
                                      attention_mask int64 [Q, 16]
                              outputs logits [1, P, Q], pred_boxes [1, P, 4] (cx, cy, w, h in 0..1 of the
                                      padded square), optional objectness_logits [1, P]; others ignored
    tokenizer.json, tokenizer_config.json   CLIP BPE tokenizer; padded to 16 with the pad token
    preprocessor_config.json  size (960), image_mean/std (CLIP's)

Preprocessing as `Owlv2ImageProcessor`: scale to 0..1, pad bottom/right to a square with 0.0 (black, as transformers does), resize to
S×S, normalise. Post-processing: sigmoid of the logits, best query per box, threshold, boxes mapped back
from the padded square to the photo (normalised x0, y0, x1, y1), per-label NMS.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from PIL import Image

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.models.base import Model
from photosearch.models.manifest import get_manifest
from photosearch.models.runtimes.onnx import create_session
from photosearch.vision.detector import nms  # one greedy NMS for every detector

CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.2613026, 0.2757771)


class DetectorError(PhotoSearchError):
    """The open-vocabulary detector is missing or has an unexpected layout."""


class Detection(NamedTuple):
    label: str
    score: float
    box: list[float]  # x0, y0, x1, y1 normalised to the photo


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise DetectorError(f"cannot read {path}: {exc}") from exc
    return data if isinstance(data, dict) else {}


def owl_config(model_dir: Path, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    pre = _read_json(model_dir / "preprocessor_config.json")
    size = pre.get("size", 960)
    if isinstance(size, dict):
        size = size.get("height") or size.get("shortest_edge") or 960
    cfg = {
        "size": int(size),
        "mean": list(pre.get("image_mean", CLIP_MEAN)),
        "std": list(pre.get("image_std", CLIP_STD)),
        "pad_value": 0.0,  # transformers' Owlv2ImageProcessor pads with 0.0 (black), not 0.5 grey
        "max_length": 16,
        "query_template": "a photo of a {}",
        "threshold": 0.2,
        "nms_iou": 0.3,
        "top_k": 50,
    }
    cfg.update({k: v for k, v in (overrides or {}).items() if v is not None})
    return cfg


def preprocess_owl(rgb: np.ndarray, cfg: dict[str, Any]) -> tuple[np.ndarray, tuple[int, int]]:
    """RGB uint8 -> ([1,3,S,S] float32, (height, width)); pads bottom/right to a square first."""
    h, w = rgb.shape[:2]
    side = max(h, w)
    x = np.full((side, side, 3), float(cfg["pad_value"]), dtype=np.float32)
    x[:h, :w] = rgb[..., :3].astype(np.float32) / 255.0
    s = int(cfg["size"])
    if side != s:
        chans = [
            np.asarray(Image.fromarray(x[..., c], mode="F").resize((s, s), Image.Resampling.BILINEAR))
            for c in range(3)
        ]
        x = np.stack(chans, axis=-1)
    x = (x - np.asarray(cfg["mean"], np.float32)) / np.asarray(cfg["std"], np.float32)
    return x.transpose(2, 0, 1)[None].astype(np.float32), (h, w)


def postprocess_owl(
    logits: np.ndarray,
    pred_boxes: np.ndarray,
    queries: list[str],
    hw: tuple[int, int],
    cfg: dict[str, Any],
    threshold: float | None = None,
    objectness: np.ndarray | None = None,
) -> list[Detection]:
    """Model outputs -> detections on the original photo (see module doc)."""
    thr = float(cfg["threshold"] if threshold is None else threshold)
    probs = 1.0 / (1.0 + np.exp(-np.asarray(logits, np.float32)[0]))  # [P, Q]
    if probs.ndim != 2 or probs.shape[1] != len(queries):
        raise DetectorError(f"logits shape {np.shape(logits)} does not match {len(queries)} queries")
    best = probs.argmax(axis=1)
    scores = probs[np.arange(len(best)), best]
    if objectness is not None:  # OWLv2's objectness head: a weak prior, used only to break ties
        scores = scores * (0.9 + 0.1 / (1.0 + np.exp(-np.asarray(objectness, np.float32).reshape(-1))))
    cx, cy, bw, bh = (np.asarray(pred_boxes, np.float32)[0][:, k] for k in range(4))
    h, w = hw
    side = float(max(h, w))
    sx, sy = side / w, side / h  # padded-square fraction -> photo fraction
    xyxy = np.stack([(cx - bw / 2) * sx, (cy - bh / 2) * sy, (cx + bw / 2) * sx, (cy + bh / 2) * sy], axis=1)
    xyxy = np.clip(xyxy, 0.0, 1.0)
    keep_mask = (scores >= thr) & (xyxy[:, 2] > xyxy[:, 0]) & (xyxy[:, 3] > xyxy[:, 1])
    out: list[Detection] = []
    for q in np.unique(best[keep_mask]):
        idx = np.where(keep_mask & (best == q))[0]
        for k in nms(xyxy[idx], scores[idx], float(cfg["nms_iou"])):
            i = idx[k]
            out.append(Detection(queries[int(q)], float(scores[i]), [float(v) for v in xyxy[i]]))
    out.sort(key=lambda d: -d.score)
    return out[: int(cfg["top_k"])]


class OwlDetector(Model):
    """``detect(image_rgb, queries) -> [Detection(label, score, box)]``. Loads on first use; thread-safe
    (ONNX Runtime sessions are)."""

    thread_safe = True

    def __init__(
        self,
        model_dir: Path | str,
        settings: Settings | None = None,
        *,
        name: str | None = None,
        preprocess: dict[str, Any] | None = None,
    ):
        self.model_dir = Path(model_dir)
        super().__init__(settings, name=name or self.model_dir.name)
        self.config = owl_config(self.model_dir, preprocess)
        self._session: Any = None
        self._tokenizer: Any = None

    def available(self) -> bool:
        return (self.model_dir / "model.onnx").is_file()

    def _load(self) -> None:
        path = self.model_dir / "model.onnx"
        if not path.is_file():
            raise DetectorError(f"{path} is missing; run `photosearch models pull {self.name}`")
        tokenizer = self._load_tokenizer()
        sess = create_session(path, self.settings)
        names = {i.name for i in sess.get_inputs()}
        if not {"input_ids", "pixel_values"} <= names:
            raise DetectorError(f"{path}: expected inputs input_ids and pixel_values, found {sorted(names)}")
        self._session, self._tokenizer = sess, tokenizer

    def _close(self) -> None:
        self._session = self._tokenizer = None

    def _load_tokenizer(self):
        from tokenizers import Tokenizer

        path = self.model_dir / "tokenizer.json"
        if not path.is_file():
            raise DetectorError(f"{path} is missing; run `photosearch models pull {self.name}`")
        tok = Tokenizer.from_file(str(path))
        tcfg = _read_json(self.model_dir / "tokenizer_config.json")
        pad = tcfg.get("pad_token", "!")
        if isinstance(pad, dict):
            pad = pad.get("content")
        pad_id = tok.token_to_id(pad) if pad else None
        n = int(self.config["max_length"])
        tok.enable_padding(length=n, pad_id=pad_id or 0, pad_token=pad or "!")
        tok.enable_truncation(max_length=n)
        return tok

    def tokenize(self, queries: list[str]) -> dict[str, np.ndarray]:
        self.load()
        template = str(self.config["query_template"])
        encs = self._tokenizer.encode_batch([template.format(q.strip()) for q in queries])
        types = {i.name: i.type for i in self._session.get_inputs()}
        out = {"input_ids": np.array([e.ids for e in encs])}
        if "attention_mask" in types:
            out["attention_mask"] = np.array([e.attention_mask for e in encs])
        for k, v in out.items():
            out[k] = v.astype(np.int32 if "int32" in types[k] else np.int64)
        return out

    def detect(
        self, image_rgb: np.ndarray, queries: list[str], threshold: float | None = None
    ) -> list[Detection]:
        queries = [q for q in (q.strip() for q in queries) if q]
        if not queries:
            return []
        return self.predict(image_rgb, queries, threshold)

    def _predict(self, image_rgb: np.ndarray, queries: list[str], threshold: float | None) -> list[Detection]:
        sess = self._session
        pixels, hw = preprocess_owl(image_rgb, self.config)
        feeds = {"pixel_values": pixels, **self.tokenize(queries)}
        outs = {o.name: o for o in sess.get_outputs()}
        wanted = ["logits", "pred_boxes"] + (["objectness_logits"] if "objectness_logits" in outs else [])
        if not {"logits", "pred_boxes"} <= set(outs):
            raise DetectorError(f"{self.model_dir}/model.onnx: expected outputs logits and pred_boxes")
        res = dict(zip(wanted, sess.run(wanted, feeds), strict=True))
        return postprocess_owl(
            res["logits"],
            res["pred_boxes"],
            queries,
            hw,
            self.config,
            threshold,
            res.get("objectness_logits"),
        )


def load_owl(settings: Settings, model_name: str = "owlv2-base-patch16") -> OwlDetector:
    """The detector for a pulled hub model (manifest ``preprocess`` overrides the shipped config)."""
    manifest = get_manifest(model_name, settings, tier="hub")
    root = manifest.require_installed(settings)
    return OwlDetector(root, settings, name=model_name, preprocess=manifest.preprocess)
