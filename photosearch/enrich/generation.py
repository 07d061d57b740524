"""Collaborative Generation (paper §3.3): the answer from the image (VLM) or the text bridge, the
question, every region's correlated formulation and the web knowledge of every round, citing [n]
the pages it used."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field

from photosearch.enrich.agents import _dupe, _units, is_generic, strip_citations
from photosearch.enrich.answering import (
    Intent,
    LocalKnowledge,
    answer_prefix,
    answers,
    entity_form,
    intent,
    repeats,
    unsupported_names,
)
from photosearch.enrich.chain import ChainResult, SourceBook
from photosearch.enrich.stats import call_json, call_text, is_chat, verdict
from photosearch.enrich.textutil import content_tokens, grounded, rank
from photosearch.enrich.types import Region

log = logging.getLogger(__name__)


@dataclass
class Answer:
    text: str
    citations: list[int] = field(default_factory=list)
    method: str = "extractive"  # vlm | llm | extractive | local


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


def generate(
    question: str,
    regions: list[Region],
    results: list[ChainResult],
    sources: SourceBook,
    *,
    llm=None,
    describer=None,
    image=None,
    embedder=None,
    local: LocalKnowledge | None = None,
) -> Answer:
    local = local or LocalKnowledge()
    want = intent(question)
    context = _context(question, regions, results, sources)
    knowledge = " ".join(x for res in results for x in res.knowledge if x)
    instruction = (
        "Answer the question about the photo using what it shows and the web knowledge. Cite the "
        "sources you use as [n]. One to three sentences."
    )
    extract = _extractive(question, want, regions, results, sources, embedder, local)
    if local.answers(want):  # the catalog names who is in the photo: no model is asked
        return extract
    if describer is not None and getattr(describer, "is_visual", False) and image is not None:
        whole = Region(index=-1, box=[0, 0, 1, 1], label="photo", crop=image)
        try:
            text = describer.describe(whole, f"{instruction}\n{context}", question).strip()
        except Exception as exc:
            log.info("the VLM answer failed: %s", exc)
            text = ""
        text = " ".join(text.split())
        seen = " ".join(r.formulation or r.description for r in regions)
        if text and _acceptable(text, want, results, sources, knowledge, seen):
            return Answer(text, _cited(text, sources), "vlm")
    if llm is not None and knowledge:
        answer = _llm_answer(llm, question, want, results, sources, knowledge)
        if answer is not None:
            return answer
    return extract


def _acceptable(
    text: str, want: Intent, results: list[ChainResult], sources: SourceBook, knowledge: str, seen: str = ""
) -> bool:
    """A model's answer (VLM or LLM) passes the extract's checks: no repeated fragments, grounded in
    the web knowledge (and `seen`, what the photo shows) when there is knowledge, the kind of statement
    asked for when any sentence of the knowledge gives it, and every [n] it cites a source of this request."""
    subject = results[0].subject if results else ""
    if repeats(text) or any(sources.get(int(n)) is None for n in re.findall(r"\[(\d+)\]", text)):
        return False
    if knowledge and not grounded(strip_citations(text), f"{knowledge} {seen}", 0.75):
        return False
    facts = _facts(results)
    return answers(text, want, subject) or not any(answers(u, want, subject) for _, u in facts)


def _facts(results: list[ChainResult]) -> list[tuple[str, str]]:
    """(subject, cited sentence) from every round's knowledge, each sentence once."""
    units: list[tuple[str, str]] = []
    seen: list[str] = []
    for res in results:
        for xw in res.knowledge:
            for u in _units(xw or ""):
                if len(strip_citations(u)) >= 12 and not _dupe(u, seen):
                    seen.append(u)
                    units.append((res.subject, u))
    return units


def _llm_answer(
    llm, question: str, want: Intent, results: list[ChainResult], sources: SourceBook, knowledge: str
) -> Answer | None:
    """A completion-style prompt ending in the start of the answer (the bundled model is a base model),
    validated like the extract: grounded in the knowledge, the kind of statement the question asks
    for, no repeated fragments."""
    facts = _facts(results)[:8]
    subject = results[0].subject if results else ""
    plain = strip_citations(knowledge)
    prefix = answer_prefix(question, want, entity_form(subject, plain))
    prompt = (
        "Facts:\n"
        + "\n".join(f"- {strip_citations(u).strip()}" for _, u in facts)
        + f"\nQuestion: {question.strip()}\nAnswer: {prefix}"
    )
    if not is_chat(llm):  # a base model continues the answer's first words
        rest = call_text(llm, prompt, 40, ["\n", "Question:", "Facts:"], "answer")
        text = f"{prefix} {rest.strip()}" if rest and rest.strip() else ""
    else:
        out = call_json(
            llm,
            [{"role": "user", "content": prompt + ' ... (JSON {"answer": ...})'}],
            {
                "type": "object",
                "properties": {"answer": {"type": "string", "minLength": 5, "maxLength": 400}},
                "required": ["answer"],
            },
            120,
            "answer",
        )
        text = (out or {}).get("answer", "")
    text = " ".join(text.split())
    if text and text[-1] not in ".!?]":
        text += "."
    ok = (
        bool(text)
        and _acceptable(text, want, results, sources, knowledge)
        and not unsupported_names(text, plain)
        and _informative(text, knowledge, [])
    )
    verdict(llm, "answer", ok)
    if not ok:
        return None
    cites = _cited(text, sources) or _support(text, knowledge, sources, entity_form(subject, plain))
    if cites and not _cited(text, sources):
        text += " " + "".join(f"[{c}]" for c in cites)
    return Answer(text.strip(), cites, "llm")


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


def _support(text: str, knowledge: str, sources: SourceBook, subject: str = "") -> list[int]:
    """The sources of the knowledge sentences the answer draws on (two shared words beyond the subject)."""
    words = set(content_tokens(text)) - set(content_tokens(subject))
    cites: set[int] = set()
    for unit in _units(knowledge):
        if len(words & set(content_tokens(strip_citations(unit)))) >= 2:
            cites |= set(_cited(unit, sources))
    return sorted(cites)


_SAYING = {"photo", "shows", "reads"}
_MISSING = {  # what a question of each kind asks for, as "the pages found do not give ..." says it
    "money": "its price",
    "weight": "its weight",
    "length": "that measure",
    "power": "its power or capacity",
    "number": "that number",
    "date": "a date",
    "place": "a place",
    "maker": "who makes it",
    "person": "a name",
}


def _nothing_found(results: list[ChainResult]) -> str:
    """ "No web knowledge was found." and, when searches or fetches failed, why (the first reason)."""
    errors = list(dict.fromkeys(e for r in results for e in r.errors))
    if not errors:
        return "No web knowledge was found."
    more = f" (and {len(errors) - 1} more failure{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return f"No web knowledge was found: {errors[0]}{more}."


def _seen(regions: list[Region]) -> str:
    """What the photo shows, plainly: "a person and a flag"."""
    heads = list(dict.fromkeys((r.labels[0] if r.labels else r.caption or "") for r in regions))
    heads = [h for h in heads if h][:4]
    if not heads:
        return ""
    items = [
        h if h.split()[0].lower() in ("a", "an", "the") else f"{'an' if h[0].lower() in 'aeiou' else 'a'} {h}"
        for h in heads
    ]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _extractive(
    question: str,
    want: Intent,
    regions: list[Region],
    results: list[ChainResult],
    sources: SourceBook,
    embedder,
    local: LocalKnowledge,
) -> Answer:
    """The sentences that answer the question: local knowledge stated plainly, then at most two web
    sentences of the kind asked for (ranked by relevance), never the same fact twice."""
    said = local.statements(want)
    if want.kind not in ("person", "definition"):
        said = []  # the question asks for something else: local facts would only dilute the answer
    if local.answers(want):
        return Answer(" ".join(said), [], "local")
    units = _facts(results)
    if not units:
        seen = _seen(regions)
        base = " ".join(said) or (
            f"The photo shows {seen}." if seen else "Nothing in the photo was recognised."
        )
        return Answer(f"{base} {_nothing_found(results)}", [], "extractive")
    subject = results[0].subject if results else ""
    query = f"{subject} {question}" if not is_generic(question) else f"what is {subject}"
    score = rank(query, [f"{s} {strip_citations(u)}" for s, u in units], embedder)
    fits = [answers(u, want, s) for s, u in units]
    for i, (s, u) in enumerate(units):
        if set(content_tokens(s)) <= set(content_tokens(u)):
            score[i] += 0.2
        if fits[i]:
            score[i] += 0.6
    order = [int(i) for i in score.argsort()[::-1]]
    best = [order[0]]
    for i in order[1:]:
        if len(best) >= 2:
            break
        if (
            fits[i]
            and (want.kind == "definition" or not fits[best[0]])
            and not _dupe(units[i][1], [units[j][1] for j in best])
        ):
            best.append(i)
    web = " ".join(units[i][1] for i in sorted(best))
    if not any(fits) and want.kind in _MISSING:  # say so before the best other sentence
        web = f"The pages found do not give {_MISSING[want.kind]}. {web}"
    if said:  # a local statement the web sentence already makes is not said twice
        have = set(content_tokens(strip_citations(web)))
        said = [x for x in said if not set(content_tokens(x)) - _SAYING <= have]
    text = " ".join([*said, web]).strip()
    return Answer(text, _cited(text, sources), "extractive")
