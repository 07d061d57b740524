"""COCO object detector: SSD MobileNet v2 (frozen TF graph) run with OpenCV DNN -> `object` facts
above a threshold, and every class's best detection score (space "coco", see `score_vector`)."""

from __future__ import annotations

import numpy as np

from photosearch.models.base import Model
from photosearch.models.labels import COCO_LABELS, COCO_SPACE, score_vector
from photosearch.models.runtimes.opencv_dnn import read_tensorflow
from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.preprocess import clip_box, ensure_rgb, part_spans
from photosearch.vision.quality import SUBJECT, SUBJECT_MIN_FRACTION, dominant_colors


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


#: A part's box this close (a share of the part) to a side where the part was cut out of a panorama
#: shows a thing that goes on past it: the neighbouring part, or the whole photo, shows it whole.
CUT_MARGIN = 0.02
#: Neighbouring parts of a panorama share half a part, so a thing up to half a part wide is whole in
#: one of them.
PART_OVERLAP = 0.5
#: A box from one view lying this much (a share of its own area) inside a box of the same class from
#: another view is that box's thing seen again, and counts once.
SEEN_AGAIN = 0.7


def detect_views(model: SsdMobileNetDetector, rgb: np.ndarray, threshold: float) -> np.ndarray:
    """The model's rows for the whole photo and, for a panorama, each of its parts (squashed square,
    a 4.5:1 panorama's people were too narrow to find), in the whole photo's coordinates. A part's
    box cut by the part's edge is left out, and a thing found in two views counts once."""
    rgb = ensure_rgb(rgb)
    h, w = rgb.shape[:2]
    found = [model.predict(rgb)]
    wide = w >= h
    lo, hi = (2, 4) if wide else (3, 5)  # the long side's columns of [class, score, x0, y0, x1, y1]
    long_side = max(h, w)
    for a, b in part_spans(h, w, overlap=PART_OVERLAP):
        rows = model.predict(rgb[:, a:b] if wide else rgb[a:b]).copy()
        cut = ((a > 0) & (rows[:, lo] < CUT_MARGIN)) | ((b < long_side) & (rows[:, hi] > 1 - CUT_MARGIN))
        rows = rows[~cut]
        rows[:, [lo, hi]] = (a + rows[:, [lo, hi]] * (b - a)) / long_side
        found.append(rows)
    if len(found) == 1:
        return found[0]
    return _once(found, threshold)


def _once(found: list[np.ndarray], threshold: float) -> np.ndarray:
    """Every view's rows, less those above `threshold` that another view's stronger box of the same
    class holds (`SEEN_AGAIN`); the rows below it only say how likely each class is."""
    rows = np.concatenate(found)
    view = np.concatenate([np.full(len(r), i) for i, r in enumerate(found)])
    strong = np.flatnonzero(rows[:, 1] >= threshold)
    strong = strong[np.argsort(-rows[strong, 1], kind="stable")]
    dropped: set[int] = set()
    for n, i in enumerate(strong):
        if i in dropped:
            continue
        for j in strong[n + 1 :]:
            if j in dropped or view[j] == view[i] or rows[j, 0] != rows[i, 0]:
                continue
            x0, y0 = np.maximum(rows[i, 2:4], rows[j, 2:4])
            x1, y1 = np.minimum(rows[i, 4:6], rows[j, 4:6])
            inside = max(0.0, x1 - x0) * max(0.0, y1 - y0)
            area = max((rows[j, 4] - rows[j, 2]) * (rows[j, 5] - rows[j, 3]), 1e-9)
            if inside / area >= SEEN_AGAIN:
                dropped.add(int(j))
    return rows[[k for k in range(len(rows)) if k not in dropped]]


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
    """Writes `object` facts: COCO label, score, box [x0, y0, x1, y1] in 0..1 of the photo; and the
    main object's colours (`subject_colours`)."""

    name = "detector"
    # 2: every class's best score is kept (space "coco"); 3: the main object's colours; 4: a panorama
    # is read in parts too (`detect_views`)
    version = 4

    def __init__(self, settings=None, model: SsdMobileNetDetector | None = None):
        self.model = model or SsdMobileNetDetector(settings)
        p = self.model.manifest.preprocess
        self.threshold = float(p.get("score_threshold", 0.4))
        self.nms_iou = float(p.get("nms_iou", 0.5))
        self.max_objects = int(p.get("max_objects", 20))

    def available(self) -> bool:
        return self.model.available()

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        rows = detect_views(self.model, image.rgb, self.threshold)
        facts = self.facts(rows)
        return AnalysisResult(
            facts=facts + subject_colours(image.rgb, facts), embeddings={COCO_SPACE: score_vector(rows)}
        )

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


#: The main object: the largest box of at least this share of the frame ("red car", "flowers that
#: are not purple" are about it, not the whole frame).
SUBJECT_MIN_AREA = 0.04


def main_object(facts: list[FactRecord]) -> FactRecord | None:
    """The detected object a photo is most about: the largest box (ties: the more certain)."""
    boxed = [f for f in facts if f.kind == "object" and f.box]
    if not boxed:
        return None

    def area(f: FactRecord) -> float:
        x0, y0, x1, y1 = f.box
        return (x1 - x0) * (y1 - y0)

    best = max(boxed, key=lambda f: (area(f), f.score))
    return best if area(best) >= SUBJECT_MIN_AREA else None


def subject_colours(rgb: np.ndarray, facts: list[FactRecord]) -> list[FactRecord]:
    """`color` facts of the main object's box (`data.region = "subject"`, `data.of` = its label);
    they stand for the subject instead of the salient centre (`vision.quality`). None without a box."""
    main = main_object(facts)
    if main is None:
        return []
    rgb = ensure_rgb(rgb)
    h, w = rgb.shape[:2]
    x0, y0, x1, y1 = main.box
    top, left = int(y0 * h), int(x0 * w)
    crop = rgb[top : max(int(y1 * h), top + 1), left : max(int(x1 * w), left + 1)]
    return [
        FactRecord(
            kind="color",
            label=name,
            score=frac,
            data={"fraction": round(frac, 4), "rgb": hexrgb, "region": SUBJECT, "of": main.label},
        )
        for name, frac, hexrgb in dominant_colors(crop, min_fraction=SUBJECT_MIN_FRACTION)
    ]
