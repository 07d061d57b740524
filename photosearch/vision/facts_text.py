"""A photo's facts as one short text, embedded with MiniLM -> embedding space "facts_text".

It runs after every other analyzer, because it reads their facts: it is a `FactsAnalyzer`
(vision/analyzer.py), not a pixel analyzer, and the indexing pipeline drives it explicitly:

    ft = FactsTextAnalyzer(settings)                 # registry.facts_text_analyzer(settings)
    # after the photo's other analyzers wrote their results (and again when knowledge or
    # user tags change), with *all* the photo's facts (any analyzer, incl. "user"/"enrich"):
    result = ft.analyze_facts(facts)                 # or ft.analyze_facts_batch([facts, ...])
    store.write_analysis(s, photo_id, ft.name, ft.version, result)

An empty fact list yields an empty result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from photosearch.models.base import TextEmbedder
from photosearch.models.labels import SCENE_SIDES
from photosearch.records import AnalysisResult
from photosearch.vision.text_embedder import get_text_embedder

SPACE = "facts_text"
MAX_TAGS = 8
MAX_OBJECTS = 8
#: The scenes named: the likely ones (a scene model spreads its belief over neighbours: beach, coast,
#: ocean), never where the camera stood (indoors or outdoors says little of what is in the photo and,
#: said of every photo, blurs every text's embedding toward the others).
MAX_SCENES = 2
SCENE_MIN = 0.5
MAX_TEXT_CHARS = 200
MAX_KNOWLEDGE_CHARS = 300


def _fact(f) -> tuple[str, str, float, dict]:
    """Accept FactRecord or catalog Fact rows alike."""
    return f.kind, str(f.label), float(f.score if f.score is not None else 1.0), dict(f.data or {})


def _unique(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = item.strip().lower()
        if key and key not in seen:
            seen.add(key)
            out.append(item.strip())
    return out


def facts_to_text(facts: Sequence) -> str:
    """Caption, tags, objects, scenes, words in the photo, learned knowledge, the file's title, caption and
    keywords, user tags — in that order."""
    by_kind: dict[str, list[tuple[str, float, dict]]] = {}
    for f in facts:
        kind, label, score, data = _fact(f)
        by_kind.setdefault(kind, []).append((label, score, data))
    for items in by_kind.values():
        items.sort(key=lambda t: -t[1])
    parts: list[str] = []
    captions = _unique(label for label, _, _ in by_kind.get("caption", []))
    if captions:
        parts.append(captions[0].rstrip(".") + ".")
    tags = by_kind.get("tag", [])
    direct = [label for label, _, d in tags if not d.get("hypernym")]
    hyper = [label for label, _, d in tags if d.get("hypernym")]
    tag_words = _unique(direct[:3] + hyper + direct[3:])[:MAX_TAGS]
    if tag_words:
        parts.append("Tags: " + ", ".join(tag_words) + ".")
    objects = _unique(label for label, _, _ in by_kind.get("object", []))[:MAX_OBJECTS]
    if objects:
        parts.append("Objects: " + ", ".join(objects) + ".")
    scenes = _unique(
        label
        for label, score, data in by_kind.get("scene", [])
        if score >= SCENE_MIN and label not in SCENE_SIDES
    )[:MAX_SCENES]
    if scenes:
        parts.append("Scene: " + ", ".join(scenes) + ".")
    words = " ".join(_unique(label for label, _, _ in by_kind.get("text", [])))
    if words:
        parts.append("Text: " + words[:MAX_TEXT_CHARS] + ".")
    for label, _, data in by_kind.get("knowledge", [])[:2]:
        extra = " ".join(str(v) for v in (data.get("category"), data.get("facts")) if v)
        parts.append(("Known: " + label + (": " + extra if extra else ""))[:MAX_KNOWLEDGE_CHARS] + ".")
    # the photo's own words (its file or sidecar): title, caption, keywords
    titles = _unique(label for kind in ("title", "description") for label, _, _ in by_kind.get(kind, []))
    if titles:
        parts.append(" ".join(t.rstrip(".") + "." for t in titles[:3])[:MAX_TEXT_CHARS])
    keywords = _unique(label for label, _, _ in by_kind.get("keyword", []))[:MAX_TAGS]
    if keywords:
        parts.append("Keywords: " + ", ".join(keywords) + ".")
    user = _unique(label for label, _, _ in by_kind.get("user_tag", []))
    if user:
        parts.append("User tags: " + ", ".join(user) + ".")
    kinds = [label for label, _, _ in by_kind.get("kind", []) if label != "photo"]
    if kinds:
        parts.append("A " + kinds[0] + ".")
    return " ".join(parts)


class FactsTextAnalyzer:
    """Embeds `facts_to_text(facts)`; see the module docstring for how the indexer runs it."""

    name = "facts_text"
    version = 4  # 4: the scene model's likely scenes are in the text

    def __init__(self, settings=None, embedder: TextEmbedder | None = None):
        self.embedder = embedder or get_text_embedder(settings)

    def available(self) -> bool:
        return self.embedder.available()

    def embed_facts_batch(self, fact_lists: Sequence[Sequence]) -> np.ndarray:
        texts = [facts_to_text(f) for f in fact_lists]
        idx = [i for i, t in enumerate(texts) if t]
        vecs = np.asarray(self.embedder.embed([texts[i] for i in idx]), dtype=np.float32) if idx else None
        dim = vecs.shape[1] if vecs is not None else self.embedder.dim
        out = np.zeros((len(texts), dim), dtype=np.float32)
        if vecs is not None:
            out[idx] = vecs
        return out

    def analyze_facts(self, facts: Sequence) -> AnalysisResult:
        return self.analyze_facts_batch([facts])[0]

    def analyze_facts_batch(self, fact_lists: Sequence[Sequence]) -> list[AnalysisResult]:
        vecs = self.embed_facts_batch(fact_lists)
        return [
            AnalysisResult(embeddings={SPACE: vecs[i]}) if facts_to_text(f) else AnalysisResult()
            for i, f in enumerate(fact_lists)
        ]
