"""The Chain of Search (paper §3.2): a directed graph per region, grown round by round.

V0 holds the correlated formulation. Each round the planning agent proposes sub-questions from
V0 (round 1) or from every node of the previous round (later rounds); each becomes a child node
whose query combines the formulation's subject and the sub-question. The searching agent selects at
most a few pages (judged against V0, the sub-question and — after round 1 — the parent's response),
fetches and cleans them and summarises them into the node's response. The round's responses are
merged with all earlier knowledge and responses into X_w^(k); the agent then judges sufficiency and
stops, or expands from the current nodes. Budgets bound rounds, nodes, pages, bytes and time.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from photosearch.enrich.agents import Agents, _norm_q
from photosearch.enrich.fetch import Fetcher
from photosearch.enrich.types import Budget, Node, Page, Region
from photosearch.errors import Cancelled

log = logging.getLogger(__name__)


class SourceBook:
    """Pages used across all regions of one request, numbered for citations [n]."""

    def __init__(self):
        self.items: list[dict] = []
        self._by_url: dict[str, int] = {}

    def number(self, page: Page) -> int:
        n = self._by_url.get(page.url)
        if n is None:
            self.items.append({"n": len(self.items) + 1, "url": page.url, "title": page.title})
            n = self._by_url[page.url] = len(self.items)
        return n

    def get(self, n: int) -> dict | None:
        return self.items[n - 1] if 0 < n <= len(self.items) else None


@dataclass
class ChainResult:
    region: Region
    subject: str
    nodes: list[Node] = field(default_factory=list)
    rounds: list[dict] = field(default_factory=list)
    knowledge: list[str] = field(default_factory=list)  # X_w^(k), k = 1..
    stop_reason: str = ""
    pages_fetched: int = 0
    bytes_fetched: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)

    @property
    def final_knowledge(self) -> str:
        return self.knowledge[-1] if self.knowledge else ""

    def to_json(self) -> dict:
        return {
            "region": self.region.to_json(),
            "subject": self.subject,
            "nodes": [n.to_json() for n in self.nodes],
            "edges": [[n.parent, n.id] for n in self.nodes if n.parent is not None],
            "rounds": self.rounds,
            "knowledge": self.knowledge,
            "stop_reason": self.stop_reason,
            "pages_fetched": self.pages_fetched,
            "bytes_fetched": self.bytes_fetched,
            "seconds": round(self.seconds, 3),
            "errors": self.errors,
        }


class _Stop(Exception):
    def __init__(self, reason: str):
        self.reason = reason


class ChainOfSearch:
    def __init__(
        self,
        backend,
        agents: Agents,
        fetcher: Fetcher | None = None,
        budget: Budget | None = None,
        *,
        progress: Callable[[str], None] | None = None,
        cancel: Callable[[], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.backend = backend
        self.agents = agents
        self.fetcher = fetcher
        self.budget = budget or Budget()
        self.progress = progress or (lambda _m: None)
        self.cancel = cancel or (lambda: False)
        self.clock = clock

    # ---- one page ---------------------------------------------------------------------------
    def _fetch(self, url: str, res: ChainResult) -> Page | None:
        b = self.budget
        if res.pages_fetched >= b.max_pages:
            raise _Stop("page_budget")
        left = b.max_bytes - res.bytes_fetched
        if left <= 0:
            raise _Stop("byte_budget")
        page = None
        own = getattr(self.backend, "fetch_page", None)
        if callable(own):
            page = own(url)
        if page is None and self.fetcher is not None and url.startswith(("http://", "https://")):
            page = self.fetcher.fetch(url, max_bytes=min(left, self.fetcher.max_bytes))
        if page is None:
            return None
        res.pages_fetched += 1
        res.bytes_fetched += page.bytes
        if page.bytes > left:  # keep the budget exact
            page.text = page.text[:left]
        return page

    def _check(self, deadline: float) -> None:
        if self.cancel():
            raise Cancelled("the search was cancelled")
        if self.clock() > deadline:
            raise _Stop("time_budget")

    # ---- one node ---------------------------------------------------------------------------
    def _search_node(self, node: Node, v0: str, subject: str, res: ChainResult, sources: SourceBook,
                     deadline: float) -> None:
        b = self.budget
        if res.pages_fetched >= b.max_pages:
            raise _Stop("page_budget")
        if res.bytes_fetched >= b.max_bytes:
            raise _Stop("byte_budget")
        node.query = self.agents.build_query(subject, v0, node.question)
        self.progress(f"searching: {node.query}")
        try:
            node.hits = list(self.backend.search(node.query, b.hits_per_query))[: b.hits_per_query]
        except Exception as exc:  # a failing backend is recorded, the chain goes on
            node.error = f"search failed: {exc}"
            res.errors.append(node.error)
            return
        k = min(b.pages_per_node, b.max_pages - res.pages_fetched)
        picked = self.agents.select(node.hits, v0, node.question, subject, node.parent_response, k)
        pages: list[tuple[int, Page]] = []
        for i in picked:
            self._check(deadline)
            hit = node.hits[i]
            entry = {"url": hit.url, "title": hit.title, "rank": i + 1}
            try:
                page = self._fetch(hit.url, res)
            except _Stop:
                node.selected.append({**entry, "error": "budget"})
                raise
            except Exception as exc:
                entry["error"] = str(exc)
                res.errors.append(str(exc))
                node.selected.append(entry)
                continue
            if page is None or not page.text.strip():
                node.selected.append({**entry, "error": "empty page"})
                continue
            if not page.title:
                page.title = hit.title
            n = sources.number(page)
            node.selected.append({**entry, "source": n, "bytes": page.bytes})
            pages.append((n, page))
        node.response = self.agents.summarise(pages, node.question, subject) if pages else ""

    # ---- the graph --------------------------------------------------------------------------
    def run(self, region: Region, question: str, sources: SourceBook | None = None) -> ChainResult:
        sources = sources if sources is not None else SourceBook()
        b = self.budget
        start = self.clock()
        deadline = start + b.max_seconds
        subject = region.subject()
        v0_text = region.formulation or region.description or subject
        res = ChainResult(region=region, subject=subject)
        v0 = Node(id=0, parent=None, round=0, question=question, response=v0_text)
        res.nodes.append(v0)
        frontier = [v0]
        asked: set[str] = set()
        earlier_responses: list[str] = []
        try:
            for k in range(1, b.max_rounds + 1):
                self._check(deadline)
                new: list[Node] = []
                for parent in frontier:
                    room = b.max_nodes - (len(res.nodes) - 1) - len(new)
                    if room <= 0:
                        break
                    qs = self.agents.plan(
                        v0_text, question, subject,
                        parent.question if k > 1 else None,
                        parent.response if k > 1 else "",
                        asked, min(b.branching, room),
                    )
                    for q in qs:
                        asked.add(_norm_q(q))
                        new.append(Node(id=len(res.nodes) + len(new), parent=parent.id, round=k, question=q,
                                        parent_response=parent.response if k > 1 else ""))
                if not new:
                    raise _Stop("node_budget" if len(res.nodes) - 1 >= b.max_nodes else "no_subquestions")
                res.nodes.extend(new)
                stop: _Stop | None = None
                for node in new:
                    try:
                        self._check(deadline)
                        self._search_node(node, v0_text, subject, res, sources, deadline)
                    except _Stop as s:
                        stop = s
                        break
                current = [n.response for n in new if n.response]
                merged = self.agents.merge(res.knowledge, earlier_responses, current, question, subject)
                res.knowledge.append(merged)
                earlier_responses += current
                answered = len(current) / len(new)
                ok, why = self.agents.sufficient(merged, question, subject, answered)
                res.rounds.append({
                    "round": k, "nodes": [n.id for n in new], "knowledge": merged,
                    "sufficient": ok, "reason": why,
                })
                self.progress(f"round {k}: {why}")
                if ok:
                    raise _Stop("sufficient")
                if stop is not None:
                    raise stop
                if all(not n.hits for n in new) and getattr(self.backend, "name", "") == "dry-run":
                    raise _Stop("dry_run")
                frontier = [n for n in new if n.response] or new
            raise _Stop("max_rounds")
        except _Stop as s:
            res.stop_reason = s.reason
        res.seconds = self.clock() - start
        return res
