"""Small value types shared by the enrich modules."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from photosearch.enrich.limits import SECONDS_WITH_LLM, SECONDS_WITHOUT_LLM


class EnrichError(Exception):
    """Base for enrich errors; subclasses of PhotoSearchError are raised where the user sees them."""


@dataclass
class SearchHit:
    """One search result: what a search backend returns."""

    url: str
    title: str = ""
    snippet: str = ""


@dataclass
class Page:
    """A fetched, cleaned page (text only)."""

    url: str
    title: str
    text: str
    bytes: int = 0
    kind: str = "page"  # page | snippet (a search result's title and snippet, when the page is not read)


@dataclass(eq=False)
class Region:
    """A region of interest in a photo, with what the local analyzers saw inside it."""

    index: int
    box: list[float]  # normalised x0, y0, x1, y1
    label: str = "photo"
    score: float = 1.0
    crop: np.ndarray | None = field(default=None, repr=False)
    labels: list[str] = field(default_factory=list)  # object/tag labels incl. hypernyms
    words: list[str] = field(default_factory=list)  # OCR text inside the box
    people: list[str] = field(default_factory=list)
    colors: list[str] = field(default_factory=list)
    caption: str = ""
    description: str = ""  # X_r: conditioned on the question
    formulation: str = ""  # X_c: correlated with the other regions

    def subject(self) -> str:
        """The most specific name we have for what is in the region."""
        from photosearch.enrich.textutil import product_like

        names = [w for w in self.words if product_like(w)]
        if names:
            return " ".join(dict.fromkeys(names))
        if self.words:
            return " ".join(self.words[:4])
        if self.labels:
            return self.labels[0]
        return self.label

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("crop", None)
        return d


BASE_MODEL_ROLES = ("plan", "answer", "learn")


@dataclass
class Budget:
    """Limits on one Chain of Search (per region)."""

    max_rounds: int = 3
    max_nodes: int = 8  # sub-question nodes, V0 excluded
    branching: int = 2  # sub-questions per expanded node
    hits_per_query: int = 8
    pages_per_node: int = 2  # the searching agent selects at most this many
    max_pages: int = 10  # fetched pages over the whole chain
    max_fetch_attempts: int = 12  # fetches tried (failures included); later hits count by their snippets
    snippets_per_node: int = 3  # hits per node whose title and snippet are evidence when not fetched
    max_bytes: int = 3_000_000  # fetched bytes over the whole chain
    max_seconds: float | None = None  # per photo; None: SECONDS_WITHOUT_LLM, or SECONDS_WITH_LLM with an LLM
    max_llm_calls: int | None = 6  # per photo: the bundled LLM takes seconds a call on 2 cores
    # roles that ask the LLM; the bundled gemma3-270m is a base model: completions for planning,
    # the answer and the learned category; None (every role) for an instruction-tuned LLM (LocalLLM.is_chat)
    llm_roles: tuple[str, ...] | None = BASE_MODEL_ROLES

    def seconds(self, with_llm: bool) -> float:
        """The time budget: the one set, else the default for running with or without an LLM."""
        if self.max_seconds is not None:
            return self.max_seconds
        return SECONDS_WITH_LLM if with_llm else SECONDS_WITHOUT_LLM


@dataclass
class Node:
    """A node of the search graph: V0 (formulation) or a sub-question and its response."""

    id: int
    parent: int | None
    round: int
    question: str = ""
    query: str = ""
    response: str = ""
    parent_response: str = ""  # what the searching agent saw of the parent (rounds > 1)
    hits: list[SearchHit] = field(default_factory=list)
    selected: list[dict] = field(default_factory=list)  # {"url","title","source"}
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "parent": self.parent,
            "round": self.round,
            "question": self.question,
            "query": self.query,
            "response": self.response,
            "parent_response": self.parent_response,
            "hits": [asdict(h) for h in self.hits],
            "selected": self.selected,
            "error": self.error,
        }
