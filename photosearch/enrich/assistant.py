"""Vision Search Assistant: formulation → Chain of Search per region → collaborative generation,
for one photo of the catalog and one question."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sqlalchemy import select

from photosearch.catalog.models import Face, Fact, Person, Photo
from photosearch.enrich.agents import Agents
from photosearch.enrich.answering import LocalKnowledge, intent
from photosearch.enrich.chain import ChainOfSearch, ChainResult, SourceBook
from photosearch.enrich.detect import detect_regions
from photosearch.enrich.formulation import (
    Describer,
    Observation,
    TextBridgeDescriber,
    VlmDescriber,
    build_regions,
    formulate,
)
from photosearch.enrich.generation import Answer, generate
from photosearch.enrich.stats import Meter, MeteredLLM
from photosearch.enrich.textutil import content_tokens
from photosearch.enrich.types import Budget, Region
from photosearch.errors import PhotoSearchError

log = logging.getLogger(__name__)


def load_observations(store, photo_id: int) -> tuple[Photo, list[Observation]]:
    """A photo's facts and named faces as observations."""
    with store.session() as s:
        photo = s.get(Photo, photo_id)
        if photo is None or photo.state != "active":
            raise PhotoSearchError(f"no photo with id {photo_id} in the catalog")
        obs = [
            Observation(f.kind, f.label, float(f.score), list(f.box) if f.box else None, dict(f.data or {}))
            for f in s.scalars(select(Fact).where(Fact.photo_id == photo_id, Fact.kind != "knowledge"))
        ]
        for face, name in s.execute(
            select(Face, Person.name)
            .outerjoin(Person, Person.id == Face.person_id)
            .where(Face.photo_id == photo_id)
        ):
            obs.append(Observation("person", name or "a person", float(face.score), list(face.box)))
    return photo, obs


def local_knowledge(store, photo_id: int, regions: list[Region]) -> LocalKnowledge:
    """Named people, entities learned earlier and printed words of the photo."""
    people = [p for r in regions for p in r.people if p and p != "a person"]
    words = [w for r in regions for w in r.words]
    entities: list[dict] = []
    with store.session() as s:
        for f in s.scalars(select(Fact).where(Fact.photo_id == photo_id, Fact.kind == "knowledge")):
            d = dict(f.data or {})
            if d.get("role") == "entity" and d.get("entity"):
                entities.append(
                    {
                        "entity": d["entity"],
                        "category": d.get("category", ""),
                        "facts": list(d.get("facts", [])),
                    }
                )
    return LocalKnowledge(list(dict.fromkeys(people)), entities, list(dict.fromkeys(words)))


def load_rgb(path: str, max_side: int = 1280) -> np.ndarray | None:
    """The photo's pixels for cropping (None when the file is offline or unreadable)."""
    try:
        from photosearch.ingest.decode import load_rgb as decode  # type: ignore

        return decode(path, max_side)
    except ImportError:
        pass
    except Exception as exc:
        log.info("cannot decode %s: %s", path, exc)
        return None
    try:
        from PIL import Image, ImageOps

        with Image.open(path) as im:
            im = ImageOps.exif_transpose(im).convert("RGB")
            im.thumbnail((max_side, max_side))
            return np.asarray(im)
    except Exception as exc:
        log.info("cannot read %s: %s", path, exc)
        return None


@dataclass
class AskResult:
    question: str
    photo_id: int
    answer: Answer
    regions: list[Region]
    chains: list[ChainResult]
    sources: SourceBook
    queries: list[str] = field(default_factory=list)
    seconds: float = 0.0
    llm: str | None = None
    meter: Meter = field(default_factory=Meter)
    stage_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def stop_reason(self) -> str:
        reasons = [c.stop_reason for c in self.chains]
        return reasons[0] if len(set(reasons)) == 1 else ",".join(reasons) if reasons else "no_regions"

    def to_json(self) -> dict:
        nodes, summaries, selected, rounds = [], [], [], []
        for c in self.chains:
            for n in c.nodes:
                nodes.append({"region": c.region.index, **n.to_json()})
                if n.parent is not None:
                    summaries.append(
                        {
                            "region": c.region.index,
                            "node": n.id,
                            "question": n.question,
                            "summary": n.response,
                        }
                    )
                    selected += [{"region": c.region.index, "node": n.id, **p} for p in n.selected]
            rounds += [{"region": c.region.index, **r} for r in c.rounds]
        cited = set(self.answer.citations)
        return {
            "photo_id": self.photo_id,
            "question": self.question,
            "answer": self.answer.text,
            "answer_method": self.answer.method,
            "llm": self.llm,
            "sources": [{**s, "cited": s["n"] in cited} for s in self.sources.items],
            "regions": [r.to_json() for r in self.regions],
            "graph": {
                "nodes": nodes,
                "queries": self.queries,
                "selected_pages": selected,
                "summaries": summaries,
                "rounds": rounds,
                "stop_reason": self.stop_reason,
                "chains": [c.to_json() for c in self.chains],
            },
            "seconds": round(self.seconds, 3),
            "stats": {
                **self.meter.to_json(),
                "stage_seconds": {k: round(v, 3) for k, v in self.stage_seconds.items()},
            },
        }


def default_describer(settings, llm=None) -> Describer:
    """The first pulled vision-language model describes regions from their pixels; without one, the
    text bridge describes them from what the bundled analyzers saw (phrased by `llm` when given)."""
    from photosearch.models.manifest import installed_with_role
    from photosearch.vision.vlm import VlmCaptioner

    vlms = installed_with_role(settings, "vlm")
    if vlms:
        return VlmDescriber(VlmCaptioner(settings, vlms[0].name))
    return TextBridgeDescriber(llm)


class Assistant:
    """Ask about a photo. Dependencies are passed in (backend, LLM, describer, embedder, fetcher)."""

    def __init__(
        self,
        store,
        backend,
        *,
        llm=None,
        describer: Describer | None = None,
        embedder=None,
        fetcher=None,
        budget: Budget | None = None,
        max_regions: int = 4,
        search_regions: int = 2,
        detector=None,
    ):
        self.store = store
        self.backend = backend
        self.llm = llm
        self.describer = describer or TextBridgeDescriber(llm)
        self.embedder = embedder
        self.fetcher = fetcher
        self.budget = budget or Budget()
        self.max_regions = max_regions
        self.search_regions = search_regions
        self.detector = detector  # open-vocabulary (OWLv2) when pulled; None: the COCO detector's facts

    def regions_for(self, photo_id: int, question: str, llm=None) -> tuple[list[Region], np.ndarray | None]:
        """Regions with their question-conditioned descriptions and correlated formulations (paper §3.1);
        `llm` (e.g. a metered one) replaces the text bridge's own."""
        describer = self.describer
        if llm is not None and isinstance(describer, TextBridgeDescriber):
            describer = TextBridgeDescriber(llm)
        photo, obs = load_observations(self.store, photo_id)
        rgb = load_rgb(photo.path) if (describer.is_visual or Path(photo.path).exists()) else None
        obs = detect_regions(self.detector, rgb, question, obs)
        owl = any((o.data or {}).get("detector") == "owlv2" for o in obs)
        regions = build_regions(obs, rgb, max_regions=self.max_regions, min_object_score=0.1 if owl else 0.25)
        formulate(regions, question, describer)
        return regions, rgb

    def pick_regions(self, regions: list[Region], question: str) -> list[Region]:
        """The regions worth a web search: named things first, then those the question mentions."""
        q = set(content_tokens(question))

        def key(r: Region) -> tuple:
            mentions = len(q & set(content_tokens(" ".join(r.labels + r.words))))
            return (-mentions, -bool(r.words), -r.score)

        return sorted(regions, key=key)[: self.search_regions]

    def ask(
        self,
        photo_id: int,
        question: str,
        *,
        regions: list[Region] | None = None,
        progress: Callable[[str], None] | None = None,
        cancel: Callable[[], bool] | None = None,
        meter: Meter | None = None,
        choose: Callable[[list[Region]], list[Region]] | None = None,
        answer: bool = True,
    ) -> AskResult:
        """Answer `question` about the photo; `choose` narrows the regions searched (enrich: the unsure
        ones); `answer=False` searches only (enrich learns from the chains and never reads an answer)."""
        t0 = time.monotonic()
        say = progress or (lambda _m: None)
        meter = meter or Meter()
        llm = (
            MeteredLLM(self.llm, meter, self.budget.max_llm_calls, self.budget.llm_roles)
            if self.llm is not None
            else None
        )
        stages: dict[str, float] = {}
        question = question.strip() or "what is this?"
        rgb = None
        if regions is None:
            say("formulating: regions of the photo and what they show")
            regions, rgb = self.regions_for(photo_id, question, llm)
        stages["formulation"] = time.monotonic() - t0
        local = local_knowledge(self.store, photo_id, regions)
        agents = Agents(llm, self.embedder)
        sources = SourceBook()
        chains: list[ChainResult] = []
        budget = self.budget
        total = budget.seconds(self.llm is not None)
        t1 = time.monotonic()
        if local.answers(intent(question)):
            say("answered from the catalog: no web search needed")
        else:
            for region in self.pick_regions(choose(regions) if choose else regions, question):
                spent = time.monotonic() - t0
                per = Budget(**{**budget.__dict__, "max_seconds": max(0.0, total - spent)})
                say(f"chain of search for region {region.index + 1}: {region.subject()}")
                chain = ChainOfSearch(
                    self.backend, agents, self.fetcher, per, progress=progress, cancel=cancel, meter=meter
                )
                chains.append(chain.run(region, question, sources))
        stages["search"] = time.monotonic() - t1
        reply = Answer("", [], "none")
        if answer:
            t2 = time.monotonic()
            say("answering")
            reply = generate(
                question,
                regions,
                chains,
                sources,
                llm=llm,
                describer=self.describer,
                image=rgb,
                embedder=self.embedder,
                local=local,
            )
            stages["generation"] = time.monotonic() - t2
        queries = [n.query for c in chains for n in c.nodes if n.query]
        return AskResult(
            question,
            photo_id,
            reply,
            regions,
            chains,
            sources,
            queries,
            time.monotonic() - t0,
            getattr(self.llm, "name", None),
            meter,
            stages,
        )
