"""COCO object detector: SSD MobileNet v2 (frozen TF graph) run with OpenCV DNN -> `object` facts
above a threshold, and every class's best detection score (space "coco", see `score_vector`)."""

from __future__ import annotations

import numpy as np

from photosearch.models.base import Model
from photosearch.models.labels import COCO_LABELS, COCO_SPACE, score_vector
from photosearch.models.runtimes.opencv_dnn import read_tensorflow
from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.preprocess import clip_box, ensure_rgb


class SsdMobileNetDetector(Model):
    """`predict(rgb) -> (N, 6)` rows of [class_id, score, x0, y0, x1, y1], boxes normalised."""

    manifest_name = "detector-ssd-mobilenet-v2-coco"
    thread_safe = False  # a cv2.dnn.Net is not re-entrant

    def _load(self) -> None:
        pb = self.manifest.require("model", self.settings)
        pbtxt = self.manifest.require("config", self.settings)
        self._net = read_tensorflow(pb, pbtxt, self.settings)

    def _predict(self, rgb: np.ndarray) -> np.ndarray:
        import cv2

        p = self.manifest.preprocess
        size = tuple(p.get("size", [300, 300]))
        blob = cv2.dnn.blobFromImage(ensure_rgb(rgb), size=size, swapRB=bool(p.get("swap_rb", False)))
        self._net.setInput(blob)
        out = self._net.forward().reshape(-1, 7)  # [image_id, class_id, score, x0, y0, x1, y1]
        return out[:, 1:].astype(np.float32)

    def _close(self) -> None:
        self._net = None


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """Greedy non-maximum suppression; returns kept indices, best first."""
    order = list(np.argsort(-scores))
    keep: list[int] = []
    while order:
        i = order.pop(0)
        keep.append(int(i))
        rest = []
        for j in order:
            xx0, yy0 = max(boxes[i, 0], boxes[j, 0]), max(boxes[i, 1], boxes[j, 1])
            xx1, yy1 = min(boxes[i, 2], boxes[j, 2]), min(boxes[i, 3], boxes[j, 3])
            inter = max(0.0, xx1 - xx0) * max(0.0, yy1 - yy0)
            area_i = (boxes[i, 2] - boxes[i, 0]) * (boxes[i, 3] - boxes[i, 1])
            area_j = (boxes[j, 2] - boxes[j, 0]) * (boxes[j, 3] - boxes[j, 1])
            if inter / max(area_i + area_j - inter, 1e-9) < iou:
                rest.append(j)
        order = rest
    return keep


class DetectorAnalyzer:
    """Writes `object` facts: COCO label, score, box [x0, y0, x1, y1] in 0..1 of the photo."""

    name = "detector"
    version = 2  # 2: every class's best score is kept (space "coco")

    def __init__(self, settings=None, model: SsdMobileNetDetector | None = None):
        self.model = model or SsdMobileNetDetector(settings)
        p = self.model.manifest.preprocess
        self.threshold = float(p.get("score_threshold", 0.4))
        self.nms_iou = float(p.get("nms_iou", 0.5))
        self.max_objects = int(p.get("max_objects", 20))

    def available(self) -> bool:
        return self.model.available()

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        rows = self.model.predict(image.rgb)
        return AnalysisResult(facts=self.facts(rows), embeddings={COCO_SPACE: score_vector(rows)})

    def analyze_batch(self, images: list[PhotoImage]) -> list[AnalysisResult]:
        return [self.analyze(img) for img in images]

    def facts(self, rows: np.ndarray) -> list[FactRecord]:
        rows = rows[(rows[:, 1] >= self.threshold) & np.isin(rows[:, 0].astype(int), list(COCO_LABELS))]
        facts: list[FactRecord] = []
        for cls in np.unique(rows[:, 0].astype(int)):
            sub = rows[rows[:, 0].astype(int) == cls]
            boxes = np.array([clip_box(b) for b in sub[:, 2:6]], dtype=np.float32)
            for k in nms(boxes, sub[:, 1], self.nms_iou):
                box = boxes[k]
                if box[2] - box[0] <= 0 or box[3] - box[1] <= 0:
                    continue
                facts.append(
                    FactRecord(
                        kind="object",
                        label=COCO_LABELS[int(cls)],
                        score=float(sub[k, 1]),
                        box=[float(v) for v in box],
                        data={"coco_id": int(cls)},
                    )
                )
        facts.sort(key=lambda f: -f.score)
        return facts[: self.max_objects]
