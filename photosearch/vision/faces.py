"""Faces analyzer: dlib HOG frontal detector, 5-point landmarks, 128-d ResNet descriptor.

Models come from the `face-recognition-models` package (dlib's own model files) and run on
`dlib-bin` (a prebuilt dlib). Descriptors of the same person are closer than ~0.6 (Euclidean);
`photosearch.people` clusters them into people.

The HOG detector finds frontal faces of about 80 px and up on the image as given; it upsamples
once (finding faces down to ~40 px) only when the image is small, and then requires a margin of
`upsampled_min_score` because upsampling brings false positives. The CNN detector is not used:
2-10 s a photo on a CPU.

Each face is also read for what it looks like (woman, man, girl, boy, baby, child, teenager, old
person: `vision/face_traits.py`) from chips aligned on the same landmarks; those words are facts of
kind "face" with the face's box.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from photosearch.config import Settings
from photosearch.models.base import Model
from photosearch.models.manifest import ModelManifest
from photosearch.records import AnalysisResult, FaceRecord, FactRecord, PhotoImage
from photosearch.vision.face_traits import FACT_KIND, FaceTraitsModel, trait_words

MANIFEST_NAME = "faces-dlib-resnet-v1"
DESCRIPTOR_DIM = 128


def margin_to_score(margin: float) -> float:
    """The detector's SVM margin (0 = on the boundary, ~1-3 = clear face) squashed to 0..1."""
    return 1.0 / (1.0 + math.exp(-2.0 * float(margin)))


@dataclass
class DetectedFace:
    """One face: its box in pixels (l, t, r, b), the detector's margin, its descriptor and the
    aligned chips asked for (side -> uint8 RGB chip)."""

    box: tuple[int, int, int, int]
    margin: float
    descriptor: np.ndarray
    chips: dict[int, np.ndarray] = field(default_factory=dict)


class FaceModel(Model):
    """`predict(rgb, chip_sides=(), chip_padding=0.2)` → [DetectedFace]."""

    manifest_name = MANIFEST_NAME
    thread_safe = False  # dlib objects are not safe to share between threads

    def __init__(self, settings: Settings | None = None, manifest: ModelManifest | None = None):
        super().__init__(settings, manifest)
        self._detector: Any = None
        self._shape: Any = None
        self._encoder: Any = None

    @property
    def params(self) -> dict[str, Any]:
        return self.manifest.preprocess

    def _load(self) -> None:
        landmarks = self.manifest.require("landmarks", self.settings)
        descriptor = self.manifest.require("descriptor", self.settings)
        import dlib

        self._detector = dlib.get_frontal_face_detector()
        self._shape = dlib.shape_predictor(str(landmarks))
        self._encoder = dlib.face_recognition_model_v1(str(descriptor))

    def _predict(
        self, rgb: np.ndarray, chip_sides: tuple[int, ...] = (), chip_padding: float = 0.2
    ) -> list[DetectedFace]:
        import dlib

        p = self.params
        img = np.ascontiguousarray(rgb)
        h, w = img.shape[:2]
        upsample = 1 if max(h, w) < int(p["upsample_below"]) else 0
        min_score = float(p["upsampled_min_score"] if upsample else p["min_score"])
        rects, margins, _ = self._detector.run(img, upsample, min(0.0, min_score))
        out = []
        for rect, margin in zip(rects, margins, strict=True):
            if margin < min_score:
                continue
            shape = self._shape(img, rect)
            chip = dlib.get_face_chip(img, shape, size=int(p["chip_size"]), padding=float(p["chip_padding"]))
            desc = np.asarray(self._encoder.compute_face_descriptor(chip), dtype=np.float32)
            box = (max(0, rect.left()), max(0, rect.top()), min(w, rect.right()), min(h, rect.bottom()))
            chips = {
                side: np.asarray(
                    dlib.extract_image_chip(img, dlib.get_face_chip_details(shape, side, chip_padding))
                )
                for side in chip_sides
            }
            out.append(DetectedFace(box, float(margin), desc, chips))
        return out

    def _close(self) -> None:
        self._detector = self._shape = self._encoder = None


class FaceAnalyzer:
    """Face boxes (0..1) with scores and 128-d descriptors (the `faces` table), and what each face
    looks like as `face` facts with its box."""

    name = "faces"
    # 2: woman, man, girl, boy, baby... facts (face_traits.py); 3: a panorama is read at a larger size
    # (`ingest.decode.fit_box`), so its people's faces are big enough to find
    version = 3

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        model: FaceModel | None = None,
        traits: FaceTraitsModel | None = None,
    ):
        self.settings = settings if settings is not None else Settings()
        self.model = model or FaceModel(self.settings)
        self.traits = traits or FaceTraitsModel(self.settings)

    def available(self) -> bool:
        """True when the model files are installed (loads nothing)."""
        return self.model.available() and self.traits.available()

    def load(self) -> None:
        self.model.load()
        self.traits.load()

    def close(self) -> None:
        self.model.close()
        self.traits.close()

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        rgb = image.rgb
        if rgb is None or rgb.ndim not in (2, 3) or rgb.size == 0:
            raise ValueError(f"photo {image.photo_id}: not an image array")
        if rgb.ndim == 2:
            rgb = np.stack([rgb] * 3, axis=-1)
        elif rgb.shape[2] == 4:
            rgb = rgb[..., :3]
        if rgb.dtype != np.uint8:
            raise ValueError(f"photo {image.photo_id}: expected uint8 pixels, got {rgb.dtype}")
        h, w = rgb.shape[:2]
        gender_side, age_side = self.traits.chip_sizes
        padding = float(self.traits.params["chip_padding"])
        found = self.model.predict(rgb, (gender_side, age_side), padding)
        traits = self.traits.predict(
            [f.chips[gender_side] for f in found], [f.chips[age_side] for f in found]
        )
        faces, facts = [], []
        for face, trait in zip(found, traits, strict=True):
            left, top, right, bottom = face.box
            box = [round(v, 5) for v in (left / w, top / h, right / w, bottom / h)]
            faces.append(FaceRecord(box=box, score=margin_to_score(face.margin), descriptor=face.descriptor))
            facts += [
                FactRecord(kind=FACT_KIND, label=word, score=p, box=box, data={"age": round(trait.age, 1)})
                for word, p in trait_words(trait)
            ]
        return AnalysisResult(facts=facts, faces=faces)
