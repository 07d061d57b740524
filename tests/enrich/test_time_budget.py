"""Time: 20 s per photo without the LLM and 60 s with it by default; each fetch gets the time left
(or the fetcher's own cap when smaller); `enrich` searches without generating an answer."""

from __future__ import annotations

import itertools
import time

import pytest

from photosearch.cli import build_parser
from photosearch.enrich.agents import Agents
from photosearch.enrich.chain import ChainOfSearch, SourceBook
from photosearch.enrich.fetch import Fetcher, FetchFailed
from photosearch.enrich.textutil import HashingEmbedder
from photosearch.enrich.types import Budget, Page, Region, SearchHit
from tests.enrich.helpers import silent_server

LOOPBACK = ["127.0.0.1/32"]


def test_default_budgets_per_photo():
    assert Budget().seconds(with_llm=False) == 20.0
    assert Budget().seconds(with_llm=True) == 60.0
    assert Budget(max_seconds=5.0).seconds(with_llm=True) == 5.0
    for cmd in (["ask", "1"], ["enrich"]):
        assert build_parser().parse_args(cmd).max_seconds is None  # the default follows the LLM
        assert build_parser().parse_args([*cmd, "--max-seconds", "7"]).max_seconds == 7.0


class _SearchOnly:
    name = "search-only"

    def search(self, query, limit=8):
        return [
            SearchHit(f"http://a.example/{i}", f"Voltaro X9 page {i}", "The Voltaro X9.") for i in range(3)
        ]


class _RecordingFetcher:
    """Follows `Fetcher.fetch`'s protocol and records the time each fetch was given."""

    max_bytes = 1_000_000

    def __init__(self):
        self.given: list[float] = []

    def fetch(self, url, *, max_bytes=None, max_seconds=None):
        self.given.append(max_seconds)
        return Page(url, "Voltaro X9", "The Voltaro X9 is an e-bike made by Voltaro Mobility.", bytes=60)


def test_each_fetch_gets_the_time_left_in_the_budget():
    ticks = itertools.count(0.0, 1.0)  # every clock read costs a second
    fetcher = _RecordingFetcher()
    region = Region(index=0, box=[0, 0, 1, 1], words=["VOLTARO", "X9"])
    region.description = region.formulation = 'the printed words "VOLTARO X9"'
    ChainOfSearch(
        _SearchOnly(),
        Agents(None, HashingEmbedder()),
        fetcher,
        Budget(max_seconds=30.0, max_rounds=2),
        clock=lambda: next(ticks),
    ).run(region, "what is this?", SourceBook())
    assert len(fetcher.given) >= 2
    assert all(0 < g < 30.0 for g in fetcher.given)
    assert fetcher.given == sorted(fetcher.given, reverse=True)  # the time left shrinks


def test_a_fetch_stops_when_the_time_left_runs_out_not_at_the_fetchers_cap():
    with silent_server() as url:
        f = Fetcher(allow_private=LOOPBACK, read_timeout=30.0, max_seconds=30.0)
        t0 = time.monotonic()
        with pytest.raises(FetchFailed, match="took too long"):
            f.fetch(url, max_seconds=0.5)
        assert time.monotonic() - t0 < 3.0
