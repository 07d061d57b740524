"""Which bundled analyzers can run here, in run order. Missing models are skipped, never fatal."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterable
from typing import Protocol

from photosearch.config import Settings
from photosearch.vision.analyzer import Analyzer
from photosearch.vision.facts_text import FactsTextAnalyzer

log = logging.getLogger(__name__)


class BundledAnalyzer(Analyzer, Protocol):
    """A bundled pixel analyzer: says whether its model is installed here."""

    def available(self) -> bool: ...


# name -> (module, class). Order is run order: cheap/global first (embedded reads the file's own
# metadata and sidecars, no pixels), OCR late (it may use the
# others' signals), quality last among pixel analyzers. facts_text is not here: it needs the
# other analyzers' facts (see photosearch.vision.facts_text and facts_text_analyzer()).
BUNDLED: dict[str, tuple[str, str]] = {
    "embedded": ("photosearch.metadata.analyzer", "EmbeddedMetadataAnalyzer"),  # the file's own words
    "tagger": ("photosearch.vision.tagger", "TaggerAnalyzer"),
    "scenes": ("photosearch.vision.scenes", "ScenesAnalyzer"),  # where: beach, kitchen, windmill
    "detector": ("photosearch.vision.detector", "DetectorAnalyzer"),
    "ocr": ("photosearch.vision.ocr", "OcrAnalyzer"),
    "faces": ("photosearch.vision.faces", "FaceAnalyzer"),
    "quality": ("photosearch.vision.quality", "QualityAnalyzer"),
}


def load_analyzer_class(entry: tuple[str, str]) -> Callable[[Settings], BundledAnalyzer]:
    """The analyzer class a `BUNDLED` entry names (raises what importing it raises)."""
    module_name, cls_name = entry
    return getattr(importlib.import_module(module_name), cls_name)


def _build(name: str, settings: Settings) -> Analyzer | None:
    module_name, cls_name = BUNDLED[name]
    try:
        cls = load_analyzer_class(BUNDLED[name])
    except Exception as exc:  # noqa: BLE001 - a broken or missing module must not stop indexing
        log.warning("skipping analyzer %s: cannot import %s.%s (%s)", name, module_name, cls_name, exc)
        return None
    try:
        analyzer = cls(settings)
        if not analyzer.available():
            log.warning("skipping analyzer %s: its model is not installed (run `photosearch doctor`)", name)
            return None
    except Exception as exc:  # noqa: BLE001
        log.warning("skipping analyzer %s: %s", name, exc)
        return None
    return analyzer


def bundled_analyzers(settings: Settings, include: Iterable[str] | None = None) -> list[Analyzer]:
    """The bundled analyzers that can run, in run order; `include` limits them by name."""
    wanted = list(BUNDLED) if include is None else list(include)
    unknown = [n for n in wanted if n not in BUNDLED and n != "facts_text"]
    if unknown:
        raise ValueError(f"unknown analyzer(s) {', '.join(unknown)}; known: {', '.join(BUNDLED)}")
    out: list[Analyzer] = []
    for name in BUNDLED:
        if name in wanted:
            analyzer = _build(name, settings)
            if analyzer is not None:
                out.append(analyzer)
    return out


def facts_text_analyzer(settings: Settings) -> FactsTextAnalyzer | None:
    """The facts_text analyzer (run last, with the photo's facts), or None when MiniLM is missing."""
    try:
        analyzer = FactsTextAnalyzer(settings)
        if not analyzer.available():
            log.warning("skipping analyzer facts_text: the text embedder is not installed")
            return None
        return analyzer
    except Exception as exc:  # noqa: BLE001
        log.warning("skipping analyzer facts_text: %s", exc)
        return None
