"""The agent roles of the Chain of Search (paper §3.2): planning (sub-questions), query building,
searching (page selection), summarising, knowledge merging, sufficiency judging.

Each role has an LLM path (JSON-constrained, validated, grounded in the given text) and a non-LLM
fallback (templates; BM25 + embedding ranking; extractive summaries; coverage-based sufficiency),
so the chain works with the bundled 270M model or with no model at all.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass

from photosearch.enrich.answering import repeats
from photosearch.enrich.stats import call_json, call_text, is_chat, verdict
from photosearch.enrich.textutil import content_tokens, grounded, rank, sentences, tokens
from photosearch.enrich.types import Page, SearchHit

log = logging.getLogger(__name__)

GENERIC_QUESTIONS = {"what is this", "what is that", "what is it", "what's this", "what is in the photo"}
_CITE = re.compile(r"\s*\[\d+(?:,\s*\d+)*\]")


def strip_citations(text: str) -> str:
    return _CITE.sub("", text)


def _norm_q(q: str) -> str:
    return " ".join(tokens(q))


def is_generic(question: str) -> bool:
    return _norm_q(question) in {_norm_q(g) for g in GENERIC_QUESTIONS}


@dataclass
class Stats:
    llm_ok: int = 0
    llm_fallback: int = 0


class Agents:
    """All roles; `llm=None` means every role uses its fallback."""

    def __init__(self, llm=None, embedder=None):
        self.llm = llm
        self.embedder = embedder
        self.stats = Stats()

    # -- helpers --------------------------------------------------------------------------------
    def _json(self, system: str, user: str, schema: dict, max_tokens: int = 200, *, role: str) -> dict | None:
        if self.llm is None:
            return None
        out = call_json(
            self.llm,
            [{"role": "system", "content": system}, {"role": "user", "content": user}],
            schema,
            max_tokens,
            role,
        )
        if out is None:
            self.stats.llm_fallback += 1
            verdict(self.llm, role, False)
        return out

    def _accept(self, ok: bool, role: str) -> bool:
        if self.llm is not None:
            verdict(self.llm, role, ok)
            if ok:
                self.stats.llm_ok += 1
            else:
                self.stats.llm_fallback += 1
        return ok

    # -- planning agent -------------------------------------------------------------------------
    def plan(
        self,
        v0: str,
        question: str,
        subject: str,
        parent_question: str | None,
        parent_response: str,
        asked: set[str],
        n: int,
    ) -> list[str]:
        """Sub-questions for a new round: from V0 (round 1) or from a parent node's response."""
        if n <= 0:
            return []
        good = [
            q
            for q in self._plan_llm(v0, question, subject, parent_question, parent_response, n)
            if _norm_q(q) not in asked
        ]
        templates = self._plan_templates(question, subject, parent_question, parent_response, asked, n)
        if self._accept(bool(good), "plan"):  # the LLM's first, the templates fill the branching
            return (good + [t for t in templates if _norm_q(t) not in {_norm_q(g) for g in good}])[:n]
        return templates

    def _plan_llm(
        self, v0: str, question: str, subject: str, parent_question: str | None, parent_response: str, n: int
    ) -> list[str]:
        """Sub-questions from the LLM: a completion of a numbered list of searches (a base model
        continues lists well), or JSON from a chat model; each must name the object and add a word."""
        if self.llm is None:
            return []
        subj = set(content_tokens(subject))
        raw: list[str] = []
        if not is_chat(self.llm):  # a base model continues a numbered list
            known = f"\nKnown: {strip_citations(parent_response)[:400]}" if parent_question else ""
            first = self._plan_templates(question, subject, parent_question, parent_response, set(), 1)
            prompt = (
                f"Photo: {v0[:300]}{known}\nWeb searches about the {subject}, to answer: {question}\n"
                f"1. {first[0] if first else subject}\n2. {subject}"
            )
            out = call_text(self.llm, prompt, 16, ["\n"], "plan")
            if out:
                raw = [f"{subject} {out.strip()}".strip()]
        else:
            out = self._json(
                "You plan web searches about an object in a photo. Propose short sub-questions that lead to "
                'the answer. Each must name the object. JSON {"questions": [...]}.',
                f"User question: {question}\nObject: {subject}\nWhat we know: {v0}\n"
                + (
                    f"Previous sub-question: {parent_question}\nIts answer: {parent_response}\n"
                    if parent_question
                    else ""
                )
                + f"Give at most {n} new sub-questions.",
                {
                    "type": "object",
                    "properties": {
                        "questions": {
                            "type": "array",
                            "maxItems": n + 2,
                            "minItems": 1,
                            "items": {"type": "string", "minLength": 8, "maxLength": 160},
                        }
                    },
                    "required": ["questions"],
                },
                role="plan",
            )
            raw = list((out or {}).get("questions", []))
        good: list[str] = []
        for q in raw:
            q = " ".join(q.split()).strip(" .")
            words = set(content_tokens(q))
            if (
                len(q) >= 8
                and (not subj or subj & words)
                and words - subj
                and not repeats(q)
                and q not in good
            ):
                good.append(q)
        return good[:n]

    def _plan_templates(
        self,
        question: str,
        subject: str,
        parent_question: str | None,
        parent_response: str,
        asked: set[str],
        n: int,
    ) -> list[str]:
        cands: list[str] = []
        if parent_question is None:
            if not is_generic(question):
                q = re.sub(r"\b(this|that|it)\b", subject, question, count=1, flags=re.I)
                cands.append(q if q.endswith("?") else q + "?")
            cands += [
                f"What is {subject}?",
                f"What kind of product is {subject}?",
                f"Who makes {subject}?",
                f"What is {subject} used for?",
            ]
        else:
            known = set(content_tokens(subject + " " + question + " " + parent_question))
            words = [
                w
                for w in content_tokens(strip_citations(parent_response))
                if w not in known and not w.isdigit()
            ]
            for term, _ in Counter(words).most_common(4):
                cands.append(f"What is the {term} of {subject}?")
            cands += [f"{subject} specifications?", f"{subject} review?", f"{subject} manufacturer?"]
        out = []
        for c in cands:
            if _norm_q(c) not in asked and c not in out:
                out.append(c)
        return out[:n]

    # -- query -------------------------------------------------------------------------------------
    @staticmethod
    def build_query(subject: str, formulation: str, sub_question: str, max_words: int = 10) -> str:
        """Search text from the formulation's subject and the sub-question (text only, short)."""
        words = subject.split()
        have = {w.lower() for w in words}
        for w in content_tokens(sub_question):
            if w not in have:
                words.append(w)
                have.add(w)
        if len(words) < 2:  # no name: borrow the formulation's most specific words
            for w in content_tokens(formulation):
                if w not in have:
                    words.append(w)
                    have.add(w)
        return " ".join(words[:max_words])

    # -- searching agent: selection --------------------------------------------------------------
    def select(
        self, hits: list[SearchHit], v0: str, sub_question: str, subject: str, parent_response: str, k: int
    ) -> list[int]:
        """Indices of at most k relevant hits, judged against V0, the sub-question and the parent's response."""
        if not hits or k <= 0:
            return []
        listing = "\n".join(f"{i + 1}. {h.title} — {h.snippet[:200]}" for i, h in enumerate(hits))
        out = self._json(
            "You pick the search results that help answer a sub-question about an object in a photo. "
            'JSON {"selected": [result numbers]}.',
            f"Object: {v0}\nSub-question: {sub_question}\n"
            + (f"Known so far: {parent_response}\n" if parent_response else "")
            + f"Results:\n{listing}\nPick at most {k}.",
            {
                "type": "object",
                "properties": {
                    "selected": {
                        "type": "array",
                        "maxItems": max(k, len(hits)),
                        "items": {"type": "integer", "minimum": 1, "maximum": len(hits)},
                    }
                },
                "required": ["selected"],
            },
            max_tokens=60,
            role="select",
        )
        subj = set(content_tokens(subject))
        if out:
            idx = [i - 1 for i in dict.fromkeys(out["selected"])]
            # validation: the pick must at least mention the object
            idx = [
                i
                for i in idx
                if not subj or subj & set(content_tokens(hits[i].title + " " + hits[i].snippet))
            ]
            if self._accept(bool(idx), "select"):
                return idx[:k]
        return self._select_fallback(hits, v0, sub_question, subject, parent_response, k)

    def _select_fallback(self, hits, v0, sub_question, subject, parent_response, k) -> list[int]:
        docs = [f"{h.title}. {h.snippet}" for h in hits]
        score = rank(f"{subject} {sub_question}", docs, self.embedder)
        score = 0.8 * score + 0.2 * rank(v0, docs, self.embedder)
        if parent_response:
            score = 0.75 * score + 0.25 * rank(strip_citations(parent_response), docs, self.embedder)
        subj = set(content_tokens(subject))
        ok = [
            i
            for i in score.argsort()[::-1]
            if score[i] >= 0.15 and (not subj or subj & set(content_tokens(docs[i])))
        ]
        return [int(i) for i in ok[:k]]

    # -- searching agent: summary ----------------------------------------------------------------
    def summarise(
        self, pages: list[tuple[int, Page]], sub_question: str, subject: str, max_sentences: int = 3
    ) -> str:
        """The node's response R from its selected pages (each (source number, page)), with [n] citations."""
        if not pages:
            return ""
        source_text = "\n".join(p.text[:6000] for _, p in pages)
        cites = "".join(f"[{n}]" for n, _ in pages)
        out = self._json(
            "Summarise what the pages say that answers the sub-question, in at most 2 sentences, using only "
            'the pages. JSON {"summary": ...}.',
            f"Sub-question: {sub_question}\n"
            + "\n\n".join(f"Page {n}: {p.title}\n{p.text[:2500]}" for n, p in pages),
            {
                "type": "object",
                "properties": {"summary": {"type": "string", "minLength": 10, "maxLength": 600}},
                "required": ["summary"],
            },
            role="summarise",
        )
        subj = set(content_tokens(subject))
        if out:
            s = " ".join(out["summary"].split())
            ok = grounded(s, source_text, 0.8) and (not subj or subj & set(content_tokens(s)))
            if self._accept(ok, "summarise"):
                return f"{s} {cites}"
        return self._extract(pages, f"{subject} {sub_question}", subject, max_sentences)

    def _extract(self, pages: list[tuple[int, Page]], query: str, subject: str, max_sentences: int) -> str:
        cands: list[tuple[int, str]] = []
        for n, p in pages:
            cands += [(n, s) for s in sentences(p.text[:20000])[:200]]
        if not cands:
            return ""
        score = rank(query, [s for _, s in cands], self.embedder)
        subj = set(content_tokens(subject))
        for i, (_, s) in enumerate(cands):
            if subj and subj <= set(content_tokens(s)):
                score[i] += 0.3
        best = [i for i in score.argsort()[::-1] if score[i] >= 0.2][:max_sentences]
        return " ".join(f"{cands[i][1]} [{cands[i][0]}]" for i in sorted(best))

    # -- knowledge merge -------------------------------------------------------------------------
    def merge(
        self,
        earlier: list[str],
        previous_responses: list[str],
        current: list[str],
        question: str,
        subject: str,
        max_sentences: int = 8,
    ) -> str:
        """X_w^(k) from all earlier knowledge, all earlier responses and this round's responses."""
        parts = [t for t in earlier + previous_responses + current if t]
        if not parts:
            return ""
        pool: list[str] = []
        for t in parts:
            for s in _units(t):
                if len(s) >= 15 and not _dupe(s, pool):
                    pool.append(s)
        out = self._json(
            "Merge these findings into a short factual paragraph that answers the question, using only "
            'the findings. JSON {"knowledge": ...}.',
            f"Question: {question}\nObject: {subject}\nFindings:\n"
            + "\n".join(f"- {strip_citations(s)}" for s in pool),
            {
                "type": "object",
                "properties": {"knowledge": {"type": "string", "minLength": 10, "maxLength": 900}},
                "required": ["knowledge"],
            },
            max_tokens=220,
            role="merge",
        )
        if out:
            k = " ".join(out["knowledge"].split())
            src = " ".join(pool)
            if self._accept(grounded(k, src, 0.85), "merge"):
                cites = sorted({int(c) for c in re.findall(r"\[(\d+)\]", src)})
                return k + (" " + "".join(f"[{c}]" for c in cites) if cites else "")
        if len(pool) <= max_sentences:
            return " ".join(pool)
        score = rank(f"{question} {subject}", [strip_citations(s) for s in pool], self.embedder)
        keep = sorted(score.argsort()[::-1][:max_sentences])
        return " ".join(pool[i] for i in keep)

    # -- sufficiency -----------------------------------------------------------------------------
    def sufficient(self, knowledge: str, question: str, subject: str, answered: float) -> tuple[bool, str]:
        """Is X_w^(k) enough to answer the question? (LLM vote above an evidence floor, else coverage)."""
        text = strip_citations(knowledge)
        floor = bool(text) and bool(set(content_tokens(subject)) & set(content_tokens(text)))
        out = self._json(
            'Decide if the knowledge answers the question. JSON {"sufficient": true|false}.',
            f"Question: {question}\nObject: {subject}\nKnowledge: {text[:3000]}",
            {"type": "object", "properties": {"sufficient": {"type": "boolean"}}, "required": ["sufficient"]},
            max_tokens=20,
            role="sufficient",
        )
        if out is not None and self._accept(True, "sufficient"):
            if out["sufficient"] and floor:
                return True, "llm judged the knowledge sufficient"
            if not out["sufficient"]:
                return False, "llm judged the knowledge insufficient"
        return coverage_sufficient(text, question, subject, answered)


def _units(text: str) -> list[str]:
    """Cited sentences ("... . [2]") of a response or knowledge text."""
    out = []
    for chunk in re.split(r"(?<=\])\s+(?=\S)", text):
        out += [
            c.strip()
            for c in (re.split(r"(?<=[.!?])\s+", chunk) if "[" not in chunk else [chunk])
            if c.strip()
        ]
    return out


def _dupe(s: str, pool: list[str]) -> bool:
    a = set(content_tokens(strip_citations(s)))
    for p in pool:
        b = set(content_tokens(strip_citations(p)))
        if a and b and len(a & b) / len(a | b) >= 0.8:
            return True
    return False


def coverage_sufficient(text: str, question: str, subject: str, answered: float = 1.0) -> tuple[bool, str]:
    """Coverage rule: the knowledge names the object and holds the kind of statement the question asks for."""
    subj = set(content_tokens(subject))
    toks = set(content_tokens(text))
    if not text:
        return False, "no knowledge yet"
    if subj and len(subj & toks) / len(subj) < 0.99:
        return False, "the knowledge does not name the object"
    low = text.lower()
    q = _norm_q(question)
    subject_sents = [s.lower() for s in re.split(r"(?<=[.!?])\s+", text) if subj & set(content_tokens(s))]
    if q.startswith(("what", "which")) or is_generic(question):
        if any(re.search(r"\b(is|are|was)\s+(a|an|the)\b", s) for s in subject_sents):
            return True, "found a definition of the object"
        return False, "no definition of the object yet"
    if q.startswith("who"):
        ok = re.search(r"\b(by|made|makes|founded|manufactur\w*|designed|built)\b", low)
        return (bool(ok), "found who" if ok else "no maker yet")
    if q.startswith("where"):
        ok = re.search(r"\b(in|located|from|based)\s+[A-Z]", text)
        return (bool(ok), "found a place" if ok else "no place yet")
    if q.startswith("when"):
        ok = re.search(r"\b(1[89]\d\d|20\d\d)\b", text)
        return (bool(ok), "found a date" if ok else "no date yet")
    qt = set(content_tokens(question)) - subj
    cov = len(qt & toks) / len(qt) if qt else 1.0
    if cov >= 0.6 and answered >= 0.5:
        return True, f"covers {cov:.0%} of the question"
    return False, f"covers {cov:.0%} of the question"
