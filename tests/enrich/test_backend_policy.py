"""Review fixes in the web backends: a local SearxNG gets its own narrowly allowed fetcher (pages keep
the strict policy), and the DuckDuckGo cache key includes the limit."""

from __future__ import annotations

import pytest

from photosearch.enrich.backends import (
    DuckDuckGoHTMLBackend,
    SearxNGBackend,
    make_backend,
    search_host_fetcher,
)
from photosearch.enrich.cache import DiskCache
from photosearch.enrich.fetch import Fetcher, FetchFailed, FetchRefused

from .helpers import write_ebike_web


@pytest.fixture
def local_searx(web, settings):
    write_ebike_web(web)
    settings.web_enabled = True
    settings.search_url = web.base  # a SearxNG on 127.0.0.1
    assert settings.allow_private_addresses is False
    return make_backend(settings, "searxng")


def test_local_searxng_works_without_allowing_private_pages(local_searx, web, loopback_only):
    hits = local_searx.search("Voltaro X9", 5)
    assert any(h.url.endswith("/wiki/voltaro-x9") for h in hits)
    assert web.searched() == ["Voltaro X9"]
    # the result pages are on a loopback address too: the page fetcher still refuses them
    with pytest.raises(FetchRefused, match="private"):
        local_searx.fetcher.fetch(hits[0].url)
    assert not any(r["path"].startswith("/wiki") for r in web.requests)
    assert loopback_only == []


def test_search_fetcher_reaches_only_the_search_host(local_searx, web):
    sf = local_searx.search_fetcher
    assert sf is not local_searx.fetcher
    with pytest.raises(FetchRefused, match="127.0.0.2"):  # another loopback address: not the search host
        sf.get(f"http://127.0.0.2:{web.port}/search?q=x&format=json")
    with pytest.raises(FetchRefused, match="10.1.2.3"):
        sf.get("http://10.1.2.3/search")


def test_search_fetcher_follows_no_redirects(web):
    web.raw("/moved/search", 302, {"Location": "/search?q=Voltaro&format=json"}, b"")
    b = SearxNGBackend(web.url("/moved"), Fetcher(), search_fetcher=search_host_fetcher(web.url("/moved")))
    with pytest.raises(FetchFailed, match="too many redirects"):
        b.search("Voltaro", 3)
    assert web.searched() == []


def test_search_fetcher_keeps_the_page_fetchers_limits():
    like = Fetcher(connect_timeout=1.0, read_timeout=2.0, max_seconds=3.0, max_bytes=1234)
    sf = search_host_fetcher("http://127.0.0.1:9/", like)
    assert (sf.timeout, sf.max_seconds, sf.max_bytes, sf.max_redirects) == ((1.0, 2.0), 3.0, 1234, 0)
    assert sf.policy.refusal("127.0.0.1") is None and sf.policy.refusal("127.0.0.2") is not None
    assert search_host_fetcher("http://unresolvable.invalid/").policy.refusal("127.0.0.1") is not None


def test_duckduckgo_cache_key_includes_the_limit(web, settings):
    write_ebike_web(web)
    b = DuckDuckGoHTMLBackend(
        Fetcher(allow_private=["127.0.0.0/8"]),
        base_url=web.url("/html/"),
        cache=DiskCache(settings.cache_dir / "ddg"),
    )
    one = b.search("Voltaro X9", 1)
    more = b.search("Voltaro X9", 5)
    assert len(one) == 1 and len(more) > 1
    assert b.search("Voltaro X9", 5) == more  # same limit: from the cache
    assert sum(r["path"] == "/html/" for r in web.requests) == 2
