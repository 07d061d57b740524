"""Wiring shared by the CLI and the GUI: which analyzers run and what happens after indexing."""

from __future__ import annotations

import copy
import logging
from collections.abc import Sequence
from dataclasses import asdict

import numpy as np

from photosearch.catalog.store import Store
from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.ingest.decode import open_image
from photosearch.ingest.indexer import Indexer, PostStep
from photosearch.ingest.pipeline import DEFAULT_GATES, Gate
from photosearch.models.manifest import installed_with_role
from photosearch.people import cluster_faces
from photosearch.query.resolvers.places import ensure_place_facts
from photosearch.query.resolvers.snapshot import persist_snapshot
from photosearch.query.resolvers.snapshot_file import snapshot_dir
from photosearch.records import PhotoImage
from photosearch.vectors import VectorIndexes
from photosearch.vision.analyzer import Analyzer, FactsAnalyzer
from photosearch.vision.clip import ClipAnalyzer, installed_clip_models
from photosearch.vision.registry import bundled_analyzers, facts_text_analyzer
from photosearch.vision.vlm import VlmCaptioner

log = logging.getLogger(__name__)


def default_analyzers(
    settings: Settings, include: Sequence[str] | None = None
) -> list[Analyzer | FactsAnalyzer]:
    """The bundled analyzers that can load here (missing model packages are skipped with a warning)."""
    pixel = [n for n in include if n != "facts_text"] if include is not None else None
    analyzers: list[Analyzer | FactsAnalyzer] = (
        list(bundled_analyzers(pixel_model_settings(settings), include=pixel)) if pixel != [] else []
    )
    if include is None:
        analyzers.extend(hub_analyzers(settings))
    if include is None or "facts_text" in include:
        facts = facts_text_analyzer(settings)  # runs last: it embeds what the others found
        if facts is not None:
            analyzers.append(facts)
    return analyzers


def pixel_model_settings(settings: Settings) -> Settings:
    """Settings for the bundled photo models: one thread fewer than `threads`, because while they
    run on one photo the decode workers read the next ones. On 2 cores (threads 2) that is one
    thread each: on 60 photos of 12 MP, 0.72 -> 0.59 CPU-s per photo against two model threads
    fighting the decoder for the second core (`python -m benchmarks.suite index --megapixels 12`).
    The text embedder and the LLM keep `threads`."""
    out = copy.copy(settings)
    out.threads = max(1, int(settings.threads) - 1)
    return out


def hub_analyzers(settings: Settings) -> list[Analyzer]:
    """Analyzers for pulled hub models: CLIP/SigLIP image embeddings, VLM captions."""
    out: list[Analyzer] = []
    try:
        out.extend(ClipAnalyzer(settings, name) for name in installed_clip_models(settings))
    except Exception as exc:  # a broken pull must not stop indexing
        log.warning("skipping CLIP analyzers: %s", exc)
    try:
        vlms = installed_with_role(settings, "vlm")
        if vlms:  # one VLM captions; more would only repeat the work
            out.append(VlmCaptioner(settings, vlms[0].name))
    except Exception as exc:
        log.warning("skipping the VLM captioner: %s", exc)
    return out


def default_post_steps(settings: Settings) -> list[tuple[str, PostStep]]:
    """After indexing: cluster new faces into people, write XMP sidecars (when the user opted in), geocode places, bring vector indexes in line, save
    the search snapshot (last: what the steps before wrote is in it)."""

    def people_step(store: Store, _report, progress, cancel):
        return asdict(cluster_faces(store, progress=None, cancel=cancel))

    def sidecars_step(store: Store, _report, progress, cancel):
        # Opt-in (settings.sidecar_writeback): names, tags, ratings, captions into XMP sidecars.
        from photosearch.metadata.sync import sync_sidecars

        return sync_sidecars(store, settings).as_dict()

    def places_step(store: Store, _report, progress, cancel):
        # At index time, so the first place search never geocodes the whole library.
        return {"geocoded": ensure_place_facts(store)}

    def vectors_step(store: Store, _report, progress, cancel):
        # Bring every space's usearch index in line now, so the first search after indexing is fast.
        indexes = VectorIndexes(store, settings)
        sizes = {}
        for space in indexes.spaces():
            if cancel and cancel():
                break
            index = indexes.get(space)
            sizes[space] = len(index) if index is not None else 0
        return sizes

    def snapshot_step(store: Store, _report, progress, cancel):
        # The search snapshot as a file, so a new process's first search reads it instead of SQL.
        return persist_snapshot(store, snapshot_dir(settings))

    return [
        ("people", people_step),
        ("sidecars", sidecars_step),
        ("places", places_step),
        ("vectors", vectors_step),
        ("snapshot", snapshot_step),
    ]


def image_embedder(settings: Settings):
    """path -> the tagger's 1280-d similarity vector, for photos not in the catalog (`similar FILE`)."""
    state: dict = {}

    def embed(path: str):
        if "tagger" not in state:
            found = default_analyzers(settings, include=["tagger"])
            if not found:
                raise PhotoSearchError("the tagger model is not installed: cannot embed a new photo")
            state["tagger"] = found[0]
        decoded = open_image(path, max_side=settings.analysis_max_side, max_pixels=settings.max_image_pixels)
        rgb = np.asarray(decoded.image, dtype=np.uint8)
        result = state["tagger"].analyze(PhotoImage(0, str(path), rgb, decoded.width, decoded.height))
        return result.embeddings["image"]

    return embed


def build_indexer(
    store: Store,
    settings: Settings,
    analyzers: Sequence[Analyzer | FactsAnalyzer] | None = None,
    post_steps: Sequence[tuple[str, PostStep]] | None = None,
    *,
    gates: Sequence[Gate] = DEFAULT_GATES,
) -> Indexer:
    """The indexer with the bundled analyzers and post steps; `gates=()` runs every analyzer on
    every photo (what indexing cost before the gates: `python -m benchmarks.suite index --gates both`)."""
    if analyzers is None:
        analyzers = default_analyzers(settings)
    if post_steps is None:
        post_steps = default_post_steps(settings)
    return Indexer(store, settings, analyzers, post_steps, gates=gates)
