"""Knowledge back into search: find what the local models are unsure about, learn it through the
Chain of Search, and store it as `knowledge` facts (entity, category, short facts, sources, date)
that concept search and the photo's `facts_text` embedding pick up."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

import numpy as np
from sqlalchemy import select

from photosearch.catalog.models import Analysis, Embedding, Fact, Photo
from photosearch.enrich.agents import _units, strip_citations
from photosearch.enrich.chain import ChainResult, SourceBook
from photosearch.enrich.stats import Meter, MeteredLLM, call_text, verdict
from photosearch.enrich.textutil import content_tokens, is_semantic, product_like
from photosearch.enrich.types import Region
from photosearch.records import AnalysisResult, FactRecord

log = logging.getLogger(__name__)

ANALYZER = "enrich"
VERSION = 1
DEFAULT_QUESTION = "what is this?"
FACTS_TEXT_SPACE = "facts_text"


# ---- what is worth learning -------------------------------------------------------------------
@dataclass
class Candidate:
    photo_id: int
    score: float  # higher = more worth a search
    reasons: list[str] = field(default_factory=list)


def find_candidates(
    store,
    *,
    limit: int | None = None,
    photo_ids: list[int] | None = None,
    force: bool = False,
    tag_threshold: float = 0.35,
    object_threshold: float = 0.5,
) -> list[Candidate]:
    """Photos with name-like OCR words, unsure tagger tops, or low-confidence objects."""
    with store.session() as s:
        q = select(Photo.id).where(Photo.state == "active")
        if photo_ids:
            q = q.where(Photo.id.in_(photo_ids))
        ids = list(s.scalars(q.order_by(Photo.id)))
        done = (
            set()
            if force
            else set(
                s.scalars(
                    select(Analysis.photo_id).where(
                        Analysis.analyzer == ANALYZER, Analysis.version >= VERSION, Analysis.status == "ok"
                    )
                )
            )
        )
        facts: dict[int, list[Fact]] = {}
        for f in s.scalars(
            select(Fact).where(Fact.photo_id.in_(ids), Fact.kind.in_(("tag", "object", "text")))
        ):
            facts.setdefault(f.photo_id, []).append(f)
    out: list[Candidate] = []
    for pid in ids:
        if pid in done:
            continue
        fs = facts.get(pid, [])
        reasons: list[str] = []
        score = 0.0
        names = [w for f in fs if f.kind == "text" for w in f.label.split() if product_like(w)]
        if names:
            reasons.append("name-like words: " + " ".join(dict.fromkeys(names)))
            score += 1.0 + 0.1 * min(len(names), 5)
        tags = [f.score for f in fs if f.kind == "tag" and not (f.data or {}).get("hypernym")]
        if tags and max(tags) < tag_threshold:
            reasons.append(f"unsure tagger (top {max(tags):.2f})")
            score += tag_threshold - max(tags) + 0.3
        low = [f for f in fs if f.kind == "object" and f.score < object_threshold]
        if low:
            reasons.append("unsure objects: " + ", ".join(f"{f.label} {f.score:.2f}" for f in low[:3]))
            score += 0.2 + 0.1 * len(low)
        if reasons:
            out.append(Candidate(pid, round(score, 3), reasons))
    out.sort(key=lambda c: -c.score)
    return out[:limit] if limit else out


# ---- what was learned -------------------------------------------------------------------------
@dataclass
class Learned:
    entity: str
    categories: list[str]
    facts: list[str]
    sources: list[dict]
    box: list[float] | None = None
    method: str = "extractive"

    @property
    def category(self) -> str:
        return self.categories[0] if self.categories else ""


_STOP_AT = r"(?:made|built|sold|produced|designed|manufactured|from|by|with|that|which|for|of|in|on|and|at|to|who|where)"
_DEF = re.compile(
    r"\b(?:is|are|was)\s+(?:a|an|the)\s+((?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+"
    + _STOP_AT
    + r"\b|\s*[.,;:()]|\s*$)",
    re.I,
)
_ADJ = {
    "new",
    "popular",
    "modern",
    "famous",
    "small",
    "large",
    "compact",
    "lightweight",
    "premium",
    "classic",
    "brand",
    "kind",
    "type",
    "model",
    "well-known",
    "leading",
    "german",
    "american",
    "british",
    "french",
    "italian",
    "japanese",
    "chinese",
    "first",
    "latest",
    "affordable",
    "high-end",
    "entry-level",
}


def extract_categories(knowledge: str, entity: str) -> list[str]:
    """Categories stated by definition sentences about the entity ("The X9 is an e-bike made by …")."""
    ent = set(content_tokens(entity))
    cats: list[str] = []
    for unit in _units(knowledge):
        s = strip_citations(unit)
        if ent and not ent & set(content_tokens(s)):
            continue
        for m in _DEF.finditer(s):
            phrase = m.group(1).strip().lower()
            words = [w for w in phrase.split() if w not in _ADJ]
            if not words or set(words) & ent:
                continue
            cats.append(" ".join(words))
            if len(words) > 1:
                cats.append(words[-1])  # head noun: "folding e-bike" → "e-bike"
            alias = re.match(r"\s*\(([\w\- ]{2,30})\)", s[m.end() :])
            if alias:
                cats.append(alias.group(1).strip().lower())
    return list(dict.fromkeys(c for c in cats if len(c) >= 2))


def _entity_form(subject: str, knowledge: str) -> str:
    m = re.search(re.escape(subject).replace(r"\ ", r"\s+"), strip_citations(knowledge), re.I)
    return m.group(0) if m else subject


def llm_category(llm, entity: str, knowledge: str) -> str | None:
    """The entity's category in one to three words, by a completion ("… is a kind of" → "camera drone"),
    kept only when the knowledge says it and it is not the entity's own name."""
    text = strip_citations(knowledge)
    start = f"The {entity}" if re.search(r"\d", entity) else entity
    prompt = (
        f"Text: {text[:1500]}\nQ: In one or two words, what kind of thing is {start}?\n"
        f"A: {start} is a kind of"
    )
    out = call_text(llm, prompt, 8, ["\n", ".", ","], "learn")
    cat = " ".join((out or "").lower().split()).strip(" .,;:\"'")
    cat = re.sub(r"^(an?|the)\s+", "", cat)
    ok = (
        bool(cat)
        and len(cat.split()) <= 3
        and re.search(r"\b" + re.escape(cat) + r"\b", text.lower()) is not None
        and not set(content_tokens(cat)) & set(content_tokens(entity))
        and not set(cat.split()) <= _ADJ
    )
    verdict(llm, "learn", ok)
    return cat if ok else None


def extract_learned(result: ChainResult, sources: SourceBook, *, llm=None) -> Learned | None:
    """Entity, categories, short facts and sources from a region's chain."""
    knowledge = " ".join(x for x in result.knowledge if x)
    if not knowledge.strip():
        return None
    entity = _entity_form(result.subject, knowledge)
    ent = set(content_tokens(entity))
    units = [
        u
        for u in dict.fromkeys(_units(knowledge))
        if not ent or ent & set(content_tokens(strip_citations(u)))
    ]
    facts = [strip_citations(u).strip()[:240] for u in units][:3]
    cited = sorted({int(n) for u in units for n in re.findall(r"\[(\d+)\]", u)})
    srcs = [{"url": s["url"], "title": s["title"]} for s in (sources.get(n) for n in cited) if s]
    if not srcs:
        srcs = [
            {"url": p["url"], "title": p.get("title", "")}
            for n in result.nodes
            for p in n.selected
            if "source" in p
        ]
    cats = extract_categories(knowledge, entity)
    method = "extractive"
    if llm is not None:
        cat = llm_category(llm, entity, knowledge)
        if cat:
            cats = list(dict.fromkeys([cat, *cats, *([cat.split()[-1]] if len(cat.split()) > 1 else [])]))
            method = "llm"
    if not cats and not facts:
        return None
    return Learned(
        entity=entity,
        categories=cats[:4],
        facts=facts,
        sources=srcs,
        box=list(result.region.box),
        method=method,
    )


# ---- into the catalog -------------------------------------------------------------------------
def knowledge_records(learned: list[Learned], question: str = DEFAULT_QUESTION) -> list[FactRecord]:
    now = datetime.now(UTC).isoformat(timespec="seconds")
    recs: list[FactRecord] = []
    for item in learned:
        base = {
            "entity": item.entity,
            "category": item.category,
            "categories": item.categories,
            "facts": item.facts,
            "sources": item.sources,
            "learned_at": now,
            "question": question,
            "method": item.method,
        }
        label = f"{item.entity} ({item.category})" if item.category else item.entity
        recs.append(FactRecord("knowledge", label, 1.0, item.box, {**base, "role": "entity"}))
        for cat in item.categories:  # one fact per category, so a concept search for it matches
            recs.append(
                FactRecord("knowledge", cat, 0.9, item.box, {**base, "category": cat, "role": "category"})
            )
    return recs


def facts_text_of(s, photo_id: int) -> str:
    """The text a photo's facts make (labels, learned facts), for the facts_text embedding."""
    parts: list[str] = []
    for f in s.scalars(select(Fact).where(Fact.photo_id == photo_id).order_by(Fact.kind, Fact.id)):
        if f.kind in ("quality",):
            continue
        parts.append(f.label)
        if f.kind == "knowledge" and (f.data or {}).get("role") == "entity":
            parts += list((f.data or {}).get("facts", []))[:3]
    return "; ".join(dict.fromkeys(p for p in parts if p))


def refresh_facts_text(store, photo_id: int, embedder, settings=None) -> bool:
    """Re-embed the photo's facts_text (space "facts_text") now that its facts changed: through the
    shared `FactsTextAnalyzer` when present, else an upsert of our own with the same embedder."""
    if embedder is None or not is_semantic(embedder):
        log.info("no sentence embedder installed: facts_text of photo %d not refreshed", photo_id)
        return False
    try:
        from photosearch.vision.facts_text import FactsTextAnalyzer
    except ImportError:
        FactsTextAnalyzer = None  # noqa: N806
    with store.session() as s:
        facts = list(s.scalars(select(Fact).where(Fact.photo_id == photo_id)))
        if FactsTextAnalyzer is not None:
            ft = FactsTextAnalyzer(settings, embedder=embedder)
            store.write_analysis(s, photo_id, ft.name, ft.version, ft.analyze_facts(facts))
            return True
        text = facts_text_of(s, photo_id)
        if not text:
            return False
        vec = np.asarray(embedder.embed([text])[0], dtype=np.float32).ravel()
        row = s.get(Embedding, (photo_id, FACTS_TEXT_SPACE))
        if row is None:
            s.add(
                Embedding(
                    photo_id=photo_id,
                    space=FACTS_TEXT_SPACE,
                    analyzer=FACTS_TEXT_SPACE,
                    dim=vec.size,
                    vector=vec.tobytes(),
                )
            )
        else:
            row.dim, row.vector = vec.size, vec.tobytes()
    return True


def store_knowledge(
    store,
    photo_id: int,
    learned: list[Learned],
    *,
    embedder=None,
    settings=None,
    question: str = DEFAULT_QUESTION,
) -> int:
    """Replace this photo's learned knowledge; refresh its facts_text. Returns the facts written."""
    recs = knowledge_records(learned, question)
    with store.session() as s:
        if not recs and s.scalar(select(Fact.id).where(Fact.photo_id == photo_id, Fact.analyzer == ANALYZER)):
            return 0  # nothing new learned: keep what an earlier run learned
        store.write_analysis(s, photo_id, ANALYZER, VERSION, AnalysisResult(facts=recs))
    if recs:
        refresh_facts_text(store, photo_id, embedder, settings)
    return len(recs)


def lookup_knowledge(store, text: str, *, embedder=None, limit: int = 20) -> list[dict]:
    """Photos whose learned knowledge matches `text` (label words, else facts_text similarity)."""
    want = set(content_tokens(text))
    hits: dict[int, dict] = {}
    with store.session() as s:
        for f in s.scalars(select(Fact).where(Fact.kind == "knowledge")):
            have = set(content_tokens(f.label))
            if want and want <= have:
                h = hits.setdefault(f.photo_id, {"photo_id": f.photo_id, "score": 0.0, "why": []})
                h["score"] = max(h["score"], 1.0)
                h["why"].append({"label": f.label, "sources": (f.data or {}).get("sources", [])})
        if embedder is not None and is_semantic(embedder) and text.strip():
            q = np.asarray(embedder.embed([text])[0], dtype=np.float32)
            q /= np.linalg.norm(q) + 1e-9
            for row in s.scalars(select(Embedding).where(Embedding.space == FACTS_TEXT_SPACE)):
                v = np.frombuffer(row.vector, dtype=np.float32)
                if v.size != q.size:
                    continue
                sim = float(v @ q / (np.linalg.norm(v) + 1e-9))
                h = hits.setdefault(row.photo_id, {"photo_id": row.photo_id, "score": 0.0, "why": []})
                h["score"] = max(h["score"], sim)
                h.setdefault("facts_text_similarity", round(sim, 4))
    return sorted(hits.values(), key=lambda h: -h["score"])[:limit]


# ---- the enrich run ---------------------------------------------------------------------------
@dataclass
class EnrichReport:
    candidates: int = 0
    searched: int = 0
    learned: list[dict] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)
    dry_run: bool = False
    photos: list[dict] = field(
        default_factory=list
    )  # per photo: seconds, stage seconds, queries, fetches, LLM
    totals: dict = field(default_factory=dict)


def uncertain_regions(regions: list[Region], object_threshold: float = 0.5) -> list[Region]:
    """Regions with name-like words or unsure labels (the ones worth asking the web about)."""
    named = [r for r in regions if any(product_like(w) for w in r.words)]
    unsure = [r for r in regions if r.label not in ("photo", "printed text") and r.score < object_threshold]
    return list(dict.fromkeys(named + unsure)) or regions[:1]


def enrich(
    store,
    assistant,
    *,
    limit: int | None = None,
    photo_ids: list[int] | None = None,
    force: bool = False,
    dry_run: bool = False,
    embedder=None,
    settings=None,
    question: str = DEFAULT_QUESTION,
    progress: Callable[[str], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> EnrichReport:
    """Run the chain for each candidate photo and store what was learned."""
    report = EnrichReport(dry_run=dry_run)
    cands = find_candidates(store, limit=limit, photo_ids=photo_ids, force=force)
    report.candidates = len(cands)
    total = Meter()
    for i, cand in enumerate(cands):
        if cancel and cancel():
            break
        if progress:
            progress(f"[{i + 1}/{len(cands)}] photo {cand.photo_id}: {'; '.join(cand.reasons)}")
        try:
            meter = Meter()
            result = assistant.ask(
                cand.photo_id,
                question,
                progress=progress,
                cancel=cancel,
                meter=meter,
                choose=uncertain_regions,
                answer=False,  # what is learned comes from the chains, not from an answer
            )
        except Exception as exc:
            if exc.__class__.__name__ == "Cancelled":
                raise
            log.warning("skipping photo %d: %s", cand.photo_id, exc)
            report.skipped.append({"photo_id": cand.photo_id, "reason": str(exc)})
            continue
        report.searched += 1
        report.queries += result.queries
        if dry_run:
            continue
        t0 = time.monotonic()
        llm = (
            MeteredLLM(assistant.llm, meter, roles=assistant.budget.llm_roles)
            if assistant.llm is not None
            else None
        )
        learned = [x for x in (extract_learned(c, result.sources, llm=llm) for c in result.chains) if x]
        stages = {**result.stage_seconds, "learning": time.monotonic() - t0}
        total.add(meter)
        report.photos.append(
            {
                "photo_id": cand.photo_id,
                "seconds": round(sum(stages.values()), 3),
                "stage_seconds": {k: round(v, 3) for k, v in stages.items()},
                **meter.to_json(),
            }
        )
        n = store_knowledge(
            store, cand.photo_id, learned, embedder=embedder, settings=settings, question=question
        )
        for item in learned:
            report.learned.append(
                {
                    "photo_id": cand.photo_id,
                    "entity": item.entity,
                    "categories": item.categories,
                    "facts": item.facts,
                    "sources": item.sources,
                    "method": item.method,
                    "facts_written": n,
                    "stop_reason": result.stop_reason,
                }
            )
    report.totals = {**total.to_json(), "seconds": round(sum(p["seconds"] for p in report.photos), 3)}
    return report
