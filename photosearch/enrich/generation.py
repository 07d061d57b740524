"""Collaborative Generation (paper §3.3): the answer from the image (VLM) or the text bridge, the
question, every region's correlated formulation and the web knowledge of every round, citing [n]
the pages it used."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from photosearch.enrich.agents import _units, is_generic, strip_citations
from photosearch.enrich.chain import ChainResult, SourceBook
from photosearch.enrich.textutil import content_tokens, grounded, rank
from photosearch.enrich.types import Region


@dataclass
class Answer:
    text: str
    citations: list[int] = field(default_factory=list)
    method: str = "extractive"  # vlm | llm | extractive


def _cited(text: str, sources: SourceBook) -> list[int]:
    return sorted({int(n) for n in re.findall(r"\[(\d+)\]", text) if sources.get(int(n))})


def _context(question: str, regions: list[Region], results: list[ChainResult], sources: SourceBook) -> str:
    lines = [f"Question: {question}", "What the photo shows:"]
    lines += [f"- region {r.index + 1}: {r.formulation or r.description}" for r in regions]
    for res in results:
        for k, xw in enumerate(res.knowledge, 1):
            if xw:
                lines.append(f"Web knowledge about {res.subject}, round {k}: {xw}")
    if sources.items:
        lines.append("Sources: " + "; ".join(f"[{s['n']}] {s['title']}" for s in sources.items))
    return "\n".join(lines)


def generate(question: str, regions: list[Region], results: list[ChainResult], sources: SourceBook,
             *, llm=None, describer=None, image=None, embedder=None) -> Answer:
    context = _context(question, regions, results, sources)
    knowledge = " ".join(x for res in results for x in res.knowledge if x)
    evidence = knowledge + " " + " ".join(r.formulation or r.description for r in regions)
    instruction = ("Answer the question about the photo using what it shows and the web knowledge. Cite the "
                   "sources you use as [n]. One to three sentences.")
    if describer is not None and getattr(describer, "is_visual", False) and image is not None:
        whole = Region(index=-1, box=[0, 0, 1, 1], label="photo", crop=image)
        try:
            text = describer.describe(whole, f"{instruction}\n{context}", question).strip()
        except Exception:
            text = ""
        if text:
            return Answer(text, _cited(text, sources), "vlm")
    if llm is not None:
        out = llm.complete_json(
            [{"role": "system", "content": instruction + ' JSON {"answer": ...}.'}, {"role": "user", "content": context}],
            {"type": "object", "properties": {"answer": {"type": "string", "minLength": 5, "maxLength": 800}},
             "required": ["answer"]},
            max_tokens=200,
        )
        text = " ".join((out or {}).get("answer", "").split())
        if text and grounded(strip_citations(text), evidence, 0.75) and _informative(text, knowledge, regions):
            cites = _cited(text, sources)
            if not cites and knowledge:  # cite the knowledge sentences the answer draws on
                cites = _support(text, knowledge, sources)
                text += " " + "".join(f"[{c}]" for c in cites) if cites else ""
            return Answer(text.strip(), cites, "llm")
    return _extractive(question, regions, results, sources, embedder)


def _informative(text: str, knowledge: str, regions: list[Region]) -> bool:
    """A small LLM may answer with something true but empty ("the printed words"): when the web
    taught us something, the answer must carry at least one word that only the web knowledge has."""
    words = set(content_tokens(strip_citations(text)))
    if len(words) < 3:
        return False
    if not knowledge:
        return True
    seen = set(content_tokens(" ".join(r.formulation or r.description for r in regions)))
    return bool(words & (set(content_tokens(knowledge)) - seen))


def _support(text: str, knowledge: str, sources: SourceBook) -> list[int]:
    words = set(content_tokens(text))
    cites: set[int] = set()
    for unit in _units(knowledge):
        if len(words & set(content_tokens(strip_citations(unit)))) >= 2:
            cites |= set(_cited(unit, sources))
    return sorted(cites)


def _extractive(question, regions, results, sources, embedder) -> Answer:
    units: list[tuple[str, str]] = []  # (subject, cited sentence)
    for res in results:
        if res.final_knowledge:
            units += [(res.subject, u) for u in _units(res.final_knowledge)]
    if not units:
        seen = "; ".join(r.formulation or r.description for r in regions if (r.formulation or r.description))
        return Answer(f"From the photo alone: {seen or 'nothing recognisable'}. No web knowledge was found.", [],
                      "extractive")
    subject = results[0].subject if results else ""
    query = f"{subject} {question}" if not is_generic(question) else f"what is {subject}"
    score = rank(query, [f"{s} {strip_citations(u)}" for s, u in units], embedder)
    for i, (s, u) in enumerate(units):
        if set(content_tokens(s)) <= set(content_tokens(u)):
            score[i] += 0.2
        if re.search(r"\b(is|are|was)\s+(a|an|the)\b", u) and is_generic(question):
            score[i] += 0.2
    best = sorted(int(i) for i in score.argsort()[::-1][:2])
    text = " ".join(units[i][1] for i in best)
    return Answer(text, _cited(text, sources), "extractive")
