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
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from photosearch.enrich.agents import Agents, _norm_q, _units
from photosearch.enrich.evidence import TopicGuard, clean_page, names_subject, useless_page
from photosearch.enrich.fetch import Fetcher
from photosearch.enrich.stats import Meter
from photosearch.enrich.types import Budget, Node, Page, Region
from photosearch.errors import Cancelled

log = logging.getLogger(__name__)


class SourceBook:
    """Pages used across all regions of one request, numbered for citations [n]."""

    def __init__(self):
        self.items: list[dict] = []
        self._by_url: dict[str, int] = {}
        self.pages: dict[str, Page | None] = {}  # fetched (or failed: None) this request, by URL

    def number(self, page: Page) -> int:
        n = self._by_url.get(page.url)
        if n is None:
            self.items.append(
                {"n": len(self.items) + 1, "url": page.url, "title": page.title, "kind": page.kind}
            )
            n = self._by_url[page.url] = len(self.items)
        elif page.kind == "page":  # the snippet's page was read later: cite it as a page
            self.items[n - 1]["kind"] = "page"
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
    fetch_attempts: int = 0
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
        meter: Meter | None = None,
    ):
        self.backend = backend
        self.agents = agents
        self.fetcher = fetcher
        self.budget = budget or Budget()
        self.progress = progress or (lambda _m: None)
        self.cancel = cancel or (lambda: False)
        self.clock = clock
        self.meter = meter or Meter()
        self._topic: TopicGuard | None = None  # per run: the best match to what the photo shows
        self._fit: dict[int, float] = {}  # source number -> how its definition fits the photo

    # ---- one page ---------------------------------------------------------------------------
    def _fetch(self, url: str, res: ChainResult, sources: SourceBook, deadline: float) -> Page | None:
        """The page at `url` (once per request: a URL seen before is not fetched again), given at most
        the time left before `deadline` (or the fetcher's own cap, when smaller)."""
        if url in sources.pages:
            return sources.pages[url]
        b = self.budget
        if res.pages_fetched >= b.max_pages:
            raise _Stop("page_budget")
        left = b.max_bytes - res.bytes_fetched
        if left <= 0:
            raise _Stop("byte_budget")
        page = None
        res.fetch_attempts += 1
        t0 = self.clock()
        try:
            own = getattr(self.backend, "fetch_page", None)
            if callable(own):
                page = own(url)
            if page is None and self.fetcher is not None and url.startswith(("http://", "https://")):
                page = self.fetcher.fetch(
                    url,
                    max_bytes=min(left, self.fetcher.max_bytes),
                    max_seconds=max(0.0, deadline - self.clock()),
                )
        except Exception as exc:
            self.meter.fetch_failures += 1
            if not isinstance(exc, _Stop):
                self.meter.failed(f"fetch failed: {exc}")
            sources.pages[url] = None
            raise
        finally:
            self.meter.fetches += 1
            self.meter.fetch_seconds += self.clock() - t0
        sources.pages[url] = page
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
    def _evidence(
        self,
        node: Node,
        picked: list[int],
        k: int,
        subject: str,
        res: ChainResult,
        sources: SourceBook,
        deadline: float,
    ) -> tuple[list[tuple[dict, Page]], _Stop | None]:
        """(selection entry, page) for the picked hits: the first k pages are fetched; a hit whose page
        is not fetched, cannot be, or teaches nothing (a paywall, a script-only page, a text that does
        not name the subject) is evidence through its title and snippet ("title. snippet")."""
        out: list[tuple[dict, Page]] = []
        stop: _Stop | None = None
        for rank_i, i in enumerate(picked):
            hit = node.hits[i]
            entry: dict = {"url": hit.url, "title": hit.title, "rank": i + 1}
            page = None
            if rank_i < k and stop is None and res.fetch_attempts < self.budget.max_fetch_attempts:
                self._check(deadline)
                try:
                    page = self._fetch(hit.url, res, sources, deadline)
                except _Stop as s:
                    stop = s
                    entry["error"] = "budget"
                except Exception as exc:
                    entry["error"] = str(exc)
                    res.errors.append(str(exc))
                if page is not None:
                    page.title = page.title or hit.title
                    entry["bytes"] = page.bytes
                    why = "empty page" if not page.text.strip() else useless_page(page, subject)
                    if why:
                        page = None
                        entry.setdefault("error", why)
            if page is None:
                text = _as_sentence(
                    ". ".join(t for t in (hit.title.strip().rstrip("."), hit.snippet.strip()) if t)
                )
                if not text.strip(". "):
                    node.selected.append(entry)
                    continue
                page = Page(url=hit.url, title=hit.title, text=text, bytes=0, kind="snippet")
                self.meter.snippets += 1
            out.append((entry, page))
        return out, stop

    def _filter(
        self, evidence: list[tuple[dict, Page]], subject: str, context: str, node: Node
    ) -> list[tuple[dict, Page, float | None]]:
        """Spam sentences out; spam pages, pages that do not name the subject and homonyms dropped.
        Each kept page comes with how well its definition of the subject fits the photo (or None)."""
        if self._topic is None:
            self._topic = TopicGuard(subject, context, self.agents.embedder)
        out = []
        for entry, page in evidence:
            clean = clean_page(page)
            if clean is None or not names_subject(clean.title + "\n" + clean.text, subject):
                node.selected.append(
                    {**entry, "dropped": "spam" if clean is None else "does not name the object"}
                )
                self.meter.filtered += 1
                continue
            sim = self._topic.similarity(f"{clean.title}. {clean.text[:3000]}")
            if self._topic.off_topic(sim):
                node.selected.append({**entry, "dropped": "about something else"})
                self.meter.filtered += 1
                continue
            out.append((entry, clean, sim))
        return out

    def _prune(self, text: str) -> str:
        """The text without the sentences that cite only sources judged off-topic since they were read."""
        if not text or self._topic is None:
            return text
        keep = []
        for unit in _units(text):
            cited = [int(c) for c in re.findall(r"\[(\d+)\]", unit)]
            if cited and all(self._topic.off_topic(self._fit.get(n)) for n in cited):
                self.meter.filtered += 1
                continue
            keep.append(unit)
        return " ".join(keep)

    def _search_node(
        self,
        node: Node,
        v0: str,
        subject: str,
        res: ChainResult,
        sources: SourceBook,
        deadline: float,
        context: str = "",
    ) -> None:
        b = self.budget
        if res.pages_fetched >= b.max_pages:
            raise _Stop("page_budget")
        if res.bytes_fetched >= b.max_bytes:
            raise _Stop("byte_budget")
        node.query = self.agents.build_query(subject, v0, node.question)
        self.progress(f"searching: {node.query}")
        t0 = self.clock()
        try:
            node.hits = list(self.backend.search(node.query, b.hits_per_query))[: b.hits_per_query]
        except Exception as exc:  # a failing backend is recorded, the chain goes on
            node.error = f"search failed: {exc}"
            res.errors.append(node.error)
            self.meter.search_failures += 1
            self.meter.failed(node.error)
            return
        finally:
            self.meter.queries += 1
            self.meter.query_seconds += self.clock() - t0
        k = min(b.pages_per_node, b.max_pages - res.pages_fetched)
        picked = self.agents.select(
            node.hits, v0, node.question, subject, node.parent_response, max(k, b.snippets_per_node)
        )
        found, stop = self._evidence(node, picked, k, subject, res, sources, deadline)
        evidence = self._filter(found, subject, context, node)
        pages: list[tuple[int, Page]] = []
        for entry, page, sim in evidence:
            n = sources.number(page)
            if sim is not None:
                self._fit[n] = sim
            node.selected.append({**entry, "source": n, "kind": page.kind})
            pages.append((n, page))
        if pages:
            self.progress(
                f"reading {sum(p.kind == 'page' for _, p in pages)} page(s), "
                f"{sum(p.kind == 'snippet' for _, p in pages)} snippet(s)"
            )
        node.response = self.agents.summarise(pages, node.question, subject) if pages else ""
        if stop is not None:
            raise stop

    # ---- the graph --------------------------------------------------------------------------
    def run(self, region: Region, question: str, sources: SourceBook | None = None) -> ChainResult:
        sources = sources if sources is not None else SourceBook()
        b = self.budget
        start = self.clock()
        deadline = start + b.seconds(self.agents.llm is not None)
        subject = region.subject()
        v0_text = region.formulation or region.description or subject
        res = ChainResult(region=region, subject=subject)
        self._topic, self._fit = None, {}
        context = " ".join(region.labels + ([region.caption] if region.caption else []))
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
                        v0_text,
                        question,
                        subject,
                        parent.question if k > 1 else None,
                        parent.response if k > 1 else "",
                        asked,
                        min(b.branching, room),
                    )
                    for q in qs:
                        asked.add(_norm_q(q))
                        new.append(
                            Node(
                                id=len(res.nodes) + len(new),
                                parent=parent.id,
                                round=k,
                                question=q,
                                parent_response=parent.response if k > 1 else "",
                            )
                        )
                if not new:
                    raise _Stop("node_budget" if len(res.nodes) - 1 >= b.max_nodes else "no_subquestions")
                res.nodes.extend(new)
                stop: _Stop | None = None
                for node in new:
                    try:
                        self._check(deadline)
                        self._search_node(node, v0_text, subject, res, sources, deadline, context)
                    except _Stop as s:
                        stop = s
                        break
                current = [r for r in (self._prune(n.response) for n in new) if r]
                earlier_responses = [self._prune(r) for r in earlier_responses]
                res.knowledge = [self._prune(x) for x in res.knowledge]
                merged = self.agents.merge(res.knowledge, earlier_responses, current, question, subject)
                res.knowledge.append(merged)
                earlier_responses += current
                answered = len(current) / len(new)
                ok, why = self.agents.sufficient(merged, question, subject, answered)
                res.rounds.append(
                    {
                        "round": k,
                        "nodes": [n.id for n in new],
                        "knowledge": merged,
                        "sufficient": ok,
                        "reason": why,
                    }
                )
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
        res.knowledge = [self._prune(x) for x in res.knowledge]  # homonyms recognised late are dropped too
        res.seconds = self.clock() - start
        return res


def _as_sentence(text: str) -> str:
    """A snippet as a sentence the summariser can take ("… and more…" cut, an end mark added)."""
    text = " ".join(text.replace("...", " ").replace("\u2026", " ").split())
    return text if not text or text[-1:] in ".!?" else text + "."
