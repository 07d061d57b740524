"""The open-vocabulary detector of visual content formulation (paper §3.1): when OWLv2 is pulled,
regions come from it, asked for the question's nouns (or, for a generic question, for what the
photo's tags and objects already name); otherwise, or when it finds nothing, the COCO detector's
`object` facts stay the regions."""

from __future__ import annotations

import logging
from typing import Protocol

import numpy as np

from photosearch.enrich.agents import is_generic
from photosearch.enrich.formulation import Observation
from photosearch.enrich.textutil import content_tokens

log = logging.getLogger(__name__)

OWL_MODEL = "owlv2-base-patch16"
_NOT_NOUNS = {
    "much",
    "many",
    "heavy",
    "long",
    "big",
    "old",
    "cost",
    "costs",
    "make",
    "makes",
    "made",
    "brand",
    "model",
    "name",
    "called",
    "say",
    "says",
    "mean",
    "means",
    "used",
    "use",
    "kind",
    "where",
    "who",
    "why",
    "when",
    "which",
    "whose",
    "here",
    "there",
    "one",
    "ones",
    "thing",
    "things",
    "weigh",
}


class OpenVocabularyDetector(Protocol):
    def detect(self, image_rgb: np.ndarray, queries: list[str], threshold: float | None = None) -> list: ...


def open_detector(settings, model_name: str = OWL_MODEL) -> OpenVocabularyDetector | None:
    """The pulled OWLv2 detector, or None (not pulled, or it cannot load)."""
    if settings is None:
        return None
    try:
        from photosearch.hub.pull import is_installed
        from photosearch.vision.owl import load_owl

        if not is_installed(settings, model_name):
            return None
        return load_owl(settings, model_name)
    except Exception as exc:  # a damaged pull: the COCO detector's regions serve
        log.info("open-vocabulary detector %s unavailable: %s", model_name, exc)
        return None


def detector_queries(question: str, observations: list[Observation], limit: int = 6) -> list[str]:
    """What to ask the detector for: the question's nouns, else the labels the photo already has."""
    words = (
        []
        if is_generic(question)
        else [w for w in content_tokens(question) if w not in _NOT_NOUNS and not w.isdigit()]
    )
    if not words:
        labels = [
            o.label
            for o in sorted(observations, key=lambda o: -o.score)
            if o.kind in ("object", "tag") and not (o.data or {}).get("hypernym")
        ]
        words = labels
    return list(dict.fromkeys(words))[:limit]


def detect_regions(
    detector: OpenVocabularyDetector | None,
    rgb: np.ndarray | None,
    question: str,
    observations: list[Observation],
) -> list[Observation]:
    """Observations with the open-vocabulary detections as the objects (the COCO ones when none)."""
    if detector is None or rgb is None:
        return observations
    queries = detector_queries(question, observations)
    try:
        found = detector.detect(rgb, queries) if queries else []
    except Exception as exc:
        log.warning("open-vocabulary detector failed: %s; using the COCO detector's objects", exc)
        return observations
    if not found:
        return observations
    objects = [
        Observation("object", d.label, float(d.score), [float(x) for x in d.box], {"detector": "owlv2"})
        for d in found
    ]
    return [o for o in observations if o.kind != "object"] + objects
