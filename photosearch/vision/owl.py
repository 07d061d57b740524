"""Open-vocabulary detector: OWLv2 in ONNX — boxes for free-text queries.

Export layout (Hugging Face optimum / transformers.js, e.g. ``Xenova/owlv2-base-patch16-ensemble``;
the hub manifest puts ``onnx/model_quantized.onnx`` at ``model.onnx``)::

    model.onnx                inputs  input_ids int64 [Q, 16], pixel_values float32 [1, 3, S, S],
                                      attention_mask int64 [Q, 16]
                              outputs logits [1, P, Q], pred_boxes [1, P, 4] (cx, cy, w, h in 0..1 of the
                                      padded square), optional objectness_logits [1, P]; others ignored
    tokenizer.json, tokenizer_config.json   CLIP BPE tokenizer; padded to 16 with the pad token
    preprocessor_config.json  Owlv2ImageProcessor: size (960), image_mean/std (CLIP's), do_pad

Pixels come from `Owlv2ImageProcessor` itself (PIL backend, made from `preprocessor_config.json` by
`photosearch.models.processors`): rescale, pad bottom/right to a square with 0.0, anti-aliased
(Gaussian, SciPy) resize to S×S, normalise. Query ids come from `AutoTokenizer` padded to 16, as `Owlv2Processor` does.
Post-processing: sigmoid of the logits, best query per box, threshold, boxes mapped back from the padded
square to the photo (normalised x0, y0, x1, y1), per-label NMS.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.models.base import Model
from photosearch.models.manifest import get_manifest
from photosearch.models.processors import ProcessorError
from photosearch.models.runtimes.onnx import create_session
from photosearch.vision.detector import nms  # one greedy NMS for every detector


class DetectorError(PhotoSearchError):
    """The open-vocabulary detector is missing or has an unexpected layout."""


class Detection(NamedTuple):
    label: str
    score: float
    box: list[float]  # x0, y0, x1, y1 normalised to the photo


def owl_config(overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the detector adds to the processor: query length and template, threshold, NMS, top-k."""
    cfg = {
        "max_length": 16,
        "query_template": "a photo of a {}",
        "threshold": 0.2,
        "nms_iou": 0.3,
        "top_k": 50,
    }
    cfg.update({k: v for k, v in (overrides or {}).items() if k in cfg and v is not None})
    return cfg


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
        self.config = owl_config(preprocess)
        self._session: Any = None
        self._tokenizer: Any = None
        self._processor: Any = None

    def available(self) -> bool:
        return (self.model_dir / "model.onnx").is_file()

    def _load(self) -> None:
        path = self.model_dir / "model.onnx"
        if not path.is_file():
            raise DetectorError(f"{path} is missing; run `photosearch models pull {self.name}`")
        from photosearch.models import processors

        try:
            tokenizer = processors.tokenizer(self.model_dir)
            processor = processors.image_processor(self.model_dir)
        except ProcessorError as exc:
            raise DetectorError(f"{exc}; run `photosearch models pull {self.name}`") from exc
        sess = create_session(path, self.settings)
        names = {i.name for i in sess.get_inputs()}
        if not {"input_ids", "pixel_values"} <= names:
            raise DetectorError(f"{path}: expected inputs input_ids and pixel_values, found {sorted(names)}")
        self._session, self._tokenizer, self._processor = sess, tokenizer, processor

    def _close(self) -> None:
        self._session = self._tokenizer = self._processor = None

    def preprocess(self, image_rgb: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
        """([1, 3, S, S] float32 from Owlv2ImageProcessor, (height, width) of the photo)."""
        from photosearch.models.processors import pixel_values

        self.load()
        return pixel_values(self._processor, [image_rgb]), image_rgb.shape[:2]

    def tokenize(self, queries: list[str]) -> dict[str, np.ndarray]:
        from photosearch.models.processors import token_ids

        self.load()
        template = str(self.config["query_template"])
        texts = [template.format(q.strip()) for q in queries]
        ids, mask = token_ids(self._tokenizer, texts, int(self.config["max_length"]))
        types = {i.name: i.type for i in self._session.get_inputs()}
        out = {"input_ids": ids}
        if "attention_mask" in types:
            out["attention_mask"] = mask
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
        pixels, hw = self.preprocess(image_rgb)
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
