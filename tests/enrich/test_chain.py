"""Chain of Search graph behaviour with an in-memory backend: early stop on sufficiency, budgets,
parent responses passed to children, dry run; plus formulation, agents and backends."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from photosearch.enrich.agents import Agents, coverage_sufficient
from photosearch.enrich.backends import (
    DuckDuckGoHTMLBackend,
    LocalCorpusBackend,
    MediaWikiBackend,
    RecordingBackend,
    SearxNGBackend,
    WebDisabled,
    make_backend,
)
from photosearch.enrich.cache import DiskCache
from photosearch.enrich.chain import ChainOfSearch, SourceBook
from photosearch.enrich.fetch import Fetcher
from photosearch.enrich.formulation import Observation, TextBridgeDescriber, build_regions, formulate
from photosearch.enrich.textutil import HashingEmbedder, product_like
from photosearch.enrich.types import Budget, Page, Region, SearchHit
from photosearch.models.llm import validate


class MemoryBackend:
    """Pages in memory; search = any query word in title/text; counts calls."""

    name = "memory"

    def __init__(self, pages: dict[str, tuple[str, str]]):
        self.pages = pages
        self.queries: list[str] = []
        self.fetched: list[str] = []

    def search(self, query, limit=8):
        self.queries.append(query)
        q = {w.lower() for w in query.split()}
        out = []
        for url, (title, text) in self.pages.items():
            words = {w.strip(".,").lower() for w in (title + " " + text).split()}
            if q & words:
                out.append(SearchHit(url, title, text[:120]))
        return out[:limit]

    def fetch_page(self, url):
        self.fetched.append(url)
        title, text = self.pages[url]
        return Page(url, title, text, len(text.encode()))


def region(words=("VOLTARO", "X9"), labels=()) -> Region:
    r = Region(index=0, box=[0, 0, 1, 1], words=list(words), labels=list(labels))
    r.description = r.formulation = 'the printed words "VOLTARO X9"'
    return r


DEFINING = {
    "mem://x9": ("Voltaro X9", "The Voltaro X9 is an e-bike made by Voltaro Mobility. It weighs 19 kg."),
    "mem://other": ("Voltaro company", "Voltaro Mobility builds bicycles in Rotterdam since 2019."),
}
VAGUE = {  # mentions the name, never says what it is
    f"mem://v{i}": (
        f"Voltaro X9 note {i}",
        f"Voltaro X9 owners met in town number {i} for coffee and stories.",
    )
    for i in range(12)
}


@pytest.fixture
def agents():
    return Agents(None, HashingEmbedder())


def test_sufficiency_stops_early(agents):
    backend = MemoryBackend(DEFINING)
    res = ChainOfSearch(backend, agents, budget=Budget(max_rounds=3)).run(region(), "what is this?")
    assert res.stop_reason == "sufficient"
    assert len(res.rounds) == 1 and res.rounds[0]["sufficient"]
    assert "e-bike" in res.final_knowledge
    assert all(n.round <= 1 for n in res.nodes)


def test_insufficient_knowledge_expands_until_round_budget(agents):
    backend = MemoryBackend(VAGUE)
    res = ChainOfSearch(backend, agents, budget=Budget(max_rounds=3, max_nodes=50, max_pages=100)).run(
        region(), "what is this?"
    )
    assert res.stop_reason == "max_rounds"
    assert [r["round"] for r in res.rounds] == [1, 2, 3]
    assert len(res.knowledge) == 3
    # X_w^(k) keeps everything known before
    assert all(len(res.knowledge[k]) >= len(res.knowledge[0]) * 0.5 for k in (1, 2))


def test_parent_responses_are_passed_to_children():
    seen: list[tuple[str, str]] = []

    class Spy(Agents):
        def select(self, hits, v0, sub_question, subject, parent_response, k):
            seen.append((sub_question, parent_response))
            return super().select(hits, v0, sub_question, subject, parent_response, k)

    backend = MemoryBackend(VAGUE)
    res = ChainOfSearch(
        backend, Spy(None, HashingEmbedder()), budget=Budget(max_rounds=2, max_nodes=20, max_pages=100)
    ).run(region(), "what is this?")
    by_id = {n.id: n for n in res.nodes}
    children = [n for n in res.nodes if n.round == 2]
    assert children
    for child in children:
        parent = by_id[child.parent]
        assert parent.round == 1 and parent.response
        assert child.parent_response == parent.response
        assert (child.question, parent.response) in seen
    assert all(pr == "" for q, pr in seen if any(n.question == q and n.round == 1 for n in res.nodes))


@pytest.mark.parametrize(
    "budget,reason",
    [
        (Budget(max_rounds=5, max_nodes=3, max_pages=100), "node_budget"),
        (Budget(max_rounds=5, max_nodes=50, max_pages=1), "page_budget"),
        (Budget(max_rounds=5, max_nodes=50, max_pages=100, max_bytes=100), "byte_budget"),
    ],
)
def test_budgets_hold(agents, budget, reason):
    backend = MemoryBackend(VAGUE)
    res = ChainOfSearch(backend, agents, budget=budget).run(region(), "what is this?")
    assert res.stop_reason == reason
    assert len(res.nodes) - 1 <= budget.max_nodes
    assert res.pages_fetched <= budget.max_pages
    assert res.bytes_fetched <= budget.max_bytes + max(len(t.encode()) for _, t in VAGUE.values())
    assert len(backend.fetched) == res.pages_fetched
    for n in res.nodes:
        assert len([p for p in n.selected if p.get("kind") == "page"]) <= budget.pages_per_node


def test_time_budget_with_a_fake_clock(agents):
    ticks = itertools.count(0, 7.0)  # every clock read costs 7 "seconds"
    res = ChainOfSearch(
        MemoryBackend(VAGUE), agents, budget=Budget(max_seconds=30, max_nodes=50), clock=lambda: next(ticks)
    ).run(region(), "what is this?")
    assert res.stop_reason == "time_budget"


def test_cancel_stops_the_chain(agents):
    from photosearch.errors import Cancelled

    with pytest.raises(Cancelled):
        ChainOfSearch(MemoryBackend(VAGUE), agents, cancel=lambda: True).run(region(), "what is this?")


def test_dry_run_records_queries_only(agents):
    rec = RecordingBackend()
    res = ChainOfSearch(rec, agents).run(region(), "what is this?")
    assert res.stop_reason == "dry_run"
    assert rec.queries_sent and all("VOLTARO X9" in q for q in rec.queries_sent)
    assert res.pages_fetched == 0


def test_sources_are_numbered_once_across_regions(agents):
    book = SourceBook()
    backend = MemoryBackend(DEFINING)
    ChainOfSearch(backend, agents).run(region(), "what is this?", book)
    ChainOfSearch(backend, agents).run(region(), "what is this?", book)
    urls = [s["url"] for s in book.items]
    assert len(urls) == len(set(urls)) and [s["n"] for s in book.items] == list(range(1, len(urls) + 1))


def test_selection_prefers_pages_about_the_object(agents):
    hits = [
        SearchHit("u1", "Zenfone X9", "The Zenfone X9 is a smartphone."),
        SearchHit("u2", "Voltaro X9", "The Voltaro X9 is an e-bike."),
        SearchHit("u3", "Cooking", "Pasta recipes for the week."),
    ]
    picked = agents.select(hits, "VOLTARO X9", "What is VOLTARO X9?", "VOLTARO X9", "", 1)
    assert picked == [1]


def test_coverage_sufficiency():
    assert coverage_sufficient("The Voltaro X9 is an e-bike.", "what is this?", "VOLTARO X9")[0]
    assert not coverage_sufficient("Voltaro X9 owners met for coffee.", "what is this?", "VOLTARO X9")[0]
    assert not coverage_sufficient("The Zenfone is a phone.", "what is this?", "VOLTARO X9")[0]
    assert coverage_sufficient("The Voltaro X9 is made by Voltaro Mobility.", "who makes it?", "VOLTARO X9")[
        0
    ]


# ---- formulation ------------------------------------------------------------------------------
def test_regions_from_detector_objects_with_words_people_colours():
    rgb = np.zeros((100, 200, 3), np.uint8)
    rgb[:, :100] = (200, 30, 30)
    obs = [
        Observation("object", "bicycle", 0.8, [0.0, 0.0, 0.5, 1.0], {"hypernyms": ["wheeled vehicle"]}),
        Observation("object", "person", 0.9, [0.55, 0.0, 1.0, 1.0]),
        Observation("text", "VOLTARO X9", 0.9, [0.1, 0.4, 0.4, 0.5]),
        Observation("person", "Anna", 0.9, [0.6, 0.1, 0.8, 0.3]),
        Observation("tag", "mountain bike", 0.3, None),
    ]
    regions = build_regions(obs, rgb)
    bike = next(r for r in regions if r.label == "bicycle")
    person = next(r for r in regions if r.label == "person")
    assert bike.words == ["VOLTARO", "X9"] and "wheeled vehicle" in bike.labels
    assert "red" in bike.colors and bike.crop.shape[1] == 100
    assert person.people == ["Anna"] and not person.words
    formulate(regions, "what brand is this bike?", TextBridgeDescriber())
    assert bike.description.startswith('the printed words "VOLTARO X9"')  # conditioned on the question
    assert "In the same photo:" in bike.formulation and person.description in bike.formulation
    assert bike.subject() == "VOLTARO X9"


def test_whole_image_when_nothing_detected():
    regions = build_regions([Observation("text", "VOLTARO X9", 0.9, [0.1, 0.3, 0.8, 0.5])], None)
    assert len(regions) == 1 and regions[0].box == [0.0, 0.0, 1.0, 1.0]
    assert regions[0].words == ["VOLTARO", "X9"]


def test_stray_text_gets_its_own_region():
    obs = [
        Observation("object", "dog", 0.9, [0.0, 0.0, 0.3, 0.3]),
        Observation("text", "ACME R2", 0.9, [0.6, 0.6, 0.9, 0.7]),
    ]
    regions = build_regions(obs, None)
    assert [r.label for r in regions] == ["dog", "printed text"] and regions[1].words == ["ACME", "R2"]


def test_product_like_words():
    assert all(product_like(w) for w in ["VOLTARO", "X9", "RX100", "iPhone"])
    assert not any(product_like(w) for w in ["the", "Sale", "SALE", "EXIT", "a"])


# ---- backends ---------------------------------------------------------------------------------
LOOP = ["127.0.0.0/8"]


def test_searxng_mediawiki_duckduckgo_against_the_test_web(web, settings):
    from .helpers import write_ebike_web

    write_ebike_web(web)
    f = Fetcher(allow_private=LOOP)
    sx = SearxNGBackend(web.base, f).search("Voltaro X9", 5)
    assert any(h.url.endswith("/wiki/voltaro-x9") for h in sx[:2]) and sx[0].snippet
    mw = MediaWikiBackend(f, api_url=web.url("/w/api.php")).search("Voltaro X9", 5)
    assert mw and "Voltaro" in mw[0].title and mw[0].url.startswith(web.url("/wiki/"))
    dd = DuckDuckGoHTMLBackend(f, base_url=web.url("/html/")).search("Voltaro X9", 5)
    assert [h.url for h in dd] == [h.url for h in sx]  # uddg redirect unwrapped


def test_search_results_are_cached(web, settings):
    from .helpers import write_ebike_web

    write_ebike_web(web)
    b = SearxNGBackend(web.base, Fetcher(allow_private=LOOP), DiskCache(settings.cache_dir / "c"))
    b.search("Voltaro", 5)
    b.search("Voltaro", 5)
    assert web.searched() == ["Voltaro"]


def test_local_corpus_backend_is_offline(tmp_path, embedder, loopback_only):
    (tmp_path / "x9.html").write_text(
        "<html><title>Voltaro X9</title><script>evil()</script>"
        "<p>The Voltaro X9 is an e-bike made in Rotterdam.</p></html>"
    )
    (tmp_path / "cats.md").write_text("# Cats\n\nA cat is a small domesticated carnivorous mammal.\n")
    (tmp_path / "notes.txt").write_text("Shopping list: milk, eggs, bread and coffee beans.\n")
    (tmp_path / "skip.bin").write_bytes(b"\x00\x01")
    b = LocalCorpusBackend(tmp_path, embedder=embedder)
    assert len(b.pages) == 3
    hits = b.search("Voltaro X9 e-bike", 3)
    assert hits[0].url.endswith("x9.html") and "evil" not in b.fetch_page(hits[0].url).text
    assert b.search("domesticated mammal", 3)[0].url.endswith("cats.md")
    res = ChainOfSearch(b, Agents(None, embedder)).run(region(), "what is this?")
    assert res.stop_reason == "sufficient" and "e-bike" in res.final_knowledge
    assert loopback_only == []


def test_make_backend_requires_opt_in(settings):
    with pytest.raises(WebDisabled, match="web_enabled"):
        make_backend(settings, "searxng")
    settings.web_enabled = True
    with pytest.raises(Exception, match="SearxNG URL"):
        make_backend(settings, "searxng")
    settings.search_url = "http://127.0.0.1:9"
    assert isinstance(make_backend(settings), SearxNGBackend)
    settings.web_enabled = False
    assert isinstance(make_backend(settings, "local", corpus=settings.data_dir), LocalCorpusBackend)


def test_schema_validation():
    schema = {
        "type": "object",
        "required": ["q"],
        "properties": {
            "q": {"type": "array", "maxItems": 2, "items": {"type": "integer", "minimum": 1, "maximum": 3}}
        },
    }
    assert validate({"q": [1, 3]}, schema)
    assert not validate({"q": [1, 4]}, schema)
    assert not validate({"q": [1, 2, 3]}, schema)
    assert not validate({}, schema)
    assert not validate({"q": [True]}, schema)
