"""Search backends behind one protocol: `search(query, limit) -> list[SearchHit]`.

SearxNG JSON API (the default when a URL is configured), Wikipedia/MediaWiki API, DuckDuckGo HTML,
and a local corpus (a folder of HTML/Markdown/text files, BM25 + embeddings) that never leaves the
machine. Web backends go through the guarded `Fetcher` and are opt-in (`settings.web_enabled`).
A backend may also offer `fetch_page(url) -> Page | None` for its own pages.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Protocol, runtime_checkable
from urllib.parse import parse_qs, quote, urlencode, urlsplit

from photosearch.enrich.cache import DiskCache
from photosearch.enrich.clean import html_to_text, to_text
from photosearch.enrich.fetch import Fetcher, FetchFailed, resolve
from photosearch.enrich.textutil import rank, sentences
from photosearch.enrich.types import Page, SearchHit
from photosearch.errors import PhotoSearchError

log = logging.getLogger(__name__)

ENABLE_HINT = (
    "web search is off (PhotoSearch is private by default). To let it send text queries (never images) "
    'to a search engine, pass --web for this command or set "web_enabled": true in {path}; '
    "or search an offline folder of pages with --backend local --corpus DIR"
)


class WebDisabled(PhotoSearchError):
    """Web search was asked for but the user has not opted in."""


@runtime_checkable
class SearchBackend(Protocol):
    name: str

    def search(self, query: str, limit: int = 8) -> list[SearchHit]: ...


class _CachedWeb:
    def __init__(self, fetcher: Fetcher, cache: DiskCache | None):
        self.fetcher = fetcher
        self.cache = cache
        self.queries_sent: list[str] = []

    def _cached(self, key: str, produce) -> list[SearchHit]:
        if self.cache is not None:
            hit = self.cache.get("search", key)
            if hit is not None:
                return [SearchHit(**h) for h in hit]
        hits = produce()
        if self.cache is not None:
            self.cache.put("search", key, [h.__dict__ for h in hits])
        return hits


def search_host_fetcher(base_url: str, like: Fetcher | None = None) -> Fetcher:
    """A fetcher for a search service's own API: it may reach the configured host's resolved
    addresses (a self-hosted SearxNG on localhost or the LAN) and nothing else private; it follows
    no redirects. Page fetches keep their own, strict policy."""
    parts = urlsplit(base_url)
    allowed: list[str] = []
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        if parts.hostname:
            allowed = [ip.split("%", 1)[0] for ip in resolve(parts.hostname, port)]
    except (ValueError, FetchFailed) as exc:  # unresolvable now: the search itself will say so
        log.warning("search host %s: %s", base_url, exc)
    kw = {}
    if like is not None:
        kw = {
            "connect_timeout": like.timeout[0],
            "read_timeout": like.timeout[1],
            "max_seconds": like.max_seconds,
            "max_bytes": like.max_bytes,
        }
    return Fetcher(allow_private=allowed, max_redirects=0, **kw)


class SearxNGBackend(_CachedWeb):
    """A SearxNG instance's JSON API (`/search?q=...&format=json`; enable the json format there).

    `search_fetcher` (default: `fetcher`) sends the queries; `make_backend` gives it one allowed
    only the configured host, so a local instance does not need private addresses for pages."""

    name = "searxng"

    def __init__(
        self,
        base_url: str,
        fetcher: Fetcher,
        cache: DiskCache | None = None,
        *,
        search_fetcher: Fetcher | None = None,
    ):
        super().__init__(fetcher, cache)
        self.base_url = base_url.rstrip("/")
        self.search_fetcher = search_fetcher or fetcher

    def search(self, query: str, limit: int = 8) -> list[SearchHit]:
        url = f"{self.base_url}/search?{urlencode({'q': query, 'format': 'json'})}"

        def produce() -> list[SearchHit]:
            self.queries_sent.append(query)
            _, _, body = self.search_fetcher.get(url, accept=("application/json", "text/json"))
            data = json.loads(body)
            hits = []
            for r in data.get("results", [])[:limit]:
                if isinstance(r, dict) and isinstance(r.get("url"), str):
                    hits.append(SearchHit(r["url"], str(r.get("title") or ""), str(r.get("content") or "")))
            return hits

        return self._cached(f"{self.name}|{url}|{limit}", produce)


class MediaWikiBackend(_CachedWeb):
    """Wikipedia (or any MediaWiki) search API; pages come back as plain-text extracts."""

    name = "wikipedia"

    def __init__(
        self,
        fetcher: Fetcher,
        api_url: str = "https://en.wikipedia.org/w/api.php",
        cache: DiskCache | None = None,
    ):
        super().__init__(fetcher, cache)
        self.api_url = api_url
        parts = urlsplit(api_url)
        self.article_base = f"{parts.scheme}://{parts.netloc}/wiki/"

    def search(self, query: str, limit: int = 8) -> list[SearchHit]:
        params = {
            "action": "query",
            "list": "search",
            "srsearch": query,
            "format": "json",
            "srlimit": str(limit),
            "utf8": "1",
        }
        url = f"{self.api_url}?{urlencode(params)}"

        def produce() -> list[SearchHit]:
            self.queries_sent.append(query)
            _, _, body = self.fetcher.get(url, accept=("application/json",))
            results = json.loads(body).get("query", {}).get("search", [])
            return [
                SearchHit(
                    self.article_base + quote(r["title"].replace(" ", "_")),
                    r["title"],
                    html_to_text(r.get("snippet", ""))[1],
                )
                for r in results[:limit]
                if isinstance(r, dict) and r.get("title")
            ]

        return self._cached(f"{self.name}|{url}", produce)

    def fetch_page(self, url: str) -> Page | None:
        if not url.startswith(self.article_base):
            return None
        title = url[len(self.article_base) :].replace("_", " ")
        params = {
            "action": "query",
            "prop": "extracts",
            "explaintext": "1",
            "titles": title,
            "format": "json",
            "redirects": "1",
        }
        _, _, body = self.fetcher.get(f"{self.api_url}?{urlencode(params)}", accept=("application/json",))
        pages = json.loads(body).get("query", {}).get("pages", {})
        for p in pages.values():
            text = p.get("extract") or ""
            if text:
                return Page(url=url, title=p.get("title", title), text=text, bytes=len(text))
        return None


class DuckDuckGoHTMLBackend(_CachedWeb):
    """DuckDuckGo's no-JavaScript HTML results page."""

    name = "duckduckgo"

    def __init__(
        self,
        fetcher: Fetcher,
        base_url: str = "https://html.duckduckgo.com/html/",
        cache: DiskCache | None = None,
    ):
        super().__init__(fetcher, cache)
        self.base_url = base_url

    def search(self, query: str, limit: int = 8) -> list[SearchHit]:
        url = f"{self.base_url}?{urlencode({'q': query})}"

        def produce() -> list[SearchHit]:
            from bs4 import BeautifulSoup

            self.queries_sent.append(query)
            _, _, body = self.fetcher.get(url, accept=("text/html",))
            soup = BeautifulSoup(body, "lxml")
            hits = []
            for res in soup.select(".result"):
                a = res.select_one("a.result__a")
                if a is None or not a.get("href"):
                    continue
                href = a["href"]
                if "uddg=" in href:  # //duckduckgo.com/l/?uddg=<encoded target>
                    href = parse_qs(urlsplit(href).query).get("uddg", [href])[0]
                if not href.startswith(("http://", "https://")):
                    continue
                snip = res.select_one(".result__snippet")
                hits.append(
                    SearchHit(
                        href, a.get_text(" ", strip=True), snip.get_text(" ", strip=True) if snip else ""
                    )
                )
                if len(hits) >= limit:
                    break
            return hits

        return self._cached(f"{self.name}|{url}|{limit}", produce)


class LocalCorpusBackend:
    """A folder of .html/.htm/.md/.txt files searched offline with BM25 + text embeddings."""

    name = "local"
    SUFFIXES = {
        ".html": "text/html",
        ".htm": "text/html",
        ".md": "text/markdown",
        ".markdown": "text/markdown",
        ".txt": "text/plain",
    }

    def __init__(self, root: Path | str, embedder=None, max_file_bytes: int = 2_000_000):
        self.root = Path(root).expanduser().resolve()
        if not self.root.is_dir():
            raise PhotoSearchError(f"the corpus folder {self.root} does not exist")
        self.embedder = embedder
        self.pages: dict[str, Page] = {}
        for path in sorted(self.root.rglob("*")):
            ctype = self.SUFFIXES.get(path.suffix.lower())
            if not ctype or not path.is_file() or path.stat().st_size > max_file_bytes:
                continue
            try:
                raw = path.read_bytes().decode("utf-8", errors="replace")
            except OSError as exc:
                log.warning("skipping %s: %s", path, exc)
                continue
            title, text = to_text(raw, ctype)
            url = path.as_uri()
            self.pages[url] = Page(url=url, title=title or path.stem, text=text, bytes=len(raw))
        self.queries_sent: list[str] = []

    def search(self, query: str, limit: int = 8) -> list[SearchHit]:
        self.queries_sent.append(query)
        urls = list(self.pages)
        docs = [f"{self.pages[u].title}\n{self.pages[u].text}" for u in urls]
        scores = rank(query, docs, self.embedder, weight_bm25=0.6)
        order = [i for i in scores.argsort()[::-1] if scores[i] > 0.15][:limit]
        hits = []
        for i in order:
            page = self.pages[urls[i]]
            sents = sentences(page.text) or [page.text[:200]]
            best = sents[int(rank(query, sents, None).argmax())] if len(sents) > 1 else sents[0]
            hits.append(SearchHit(page.url, page.title, best[:300]))
        return hits

    def fetch_page(self, url: str) -> Page | None:
        return self.pages.get(url)


class RecordingBackend:
    """--dry-run: records the queries that would be sent and returns nothing."""

    name = "dry-run"

    def __init__(self):
        self.queries_sent: list[str] = []

    def search(self, query: str, limit: int = 8) -> list[SearchHit]:
        self.queries_sent.append(query)
        return []


WEB_BACKENDS = ("searxng", "wikipedia", "duckduckgo")


def make_backend(
    settings,
    name: str | None = None,
    *,
    corpus: Path | str | None = None,
    web: bool | None = None,
    embedder=None,
    fetcher: Fetcher | None = None,
) -> SearchBackend:
    """The configured backend. Web backends need the user's opt-in (`settings.web_enabled` or `web=True`)."""
    name = name or ("local" if corpus else getattr(settings, "search_backend", None) or "searxng")
    if name == "local":
        if not corpus:
            raise PhotoSearchError("the local backend needs a corpus folder (--corpus DIR)")
        return LocalCorpusBackend(corpus, embedder=embedder)
    if name not in WEB_BACKENDS:
        raise PhotoSearchError(
            f"unknown search backend {name!r}; choose one of local, {', '.join(WEB_BACKENDS)}"
        )
    if not (web if web is not None else getattr(settings, "web_enabled", False)):
        path = Path(settings.data_dir) / "settings.json" if settings is not None else "settings.json"
        raise WebDisabled(ENABLE_HINT.format(path=path))
    fetcher = fetcher or Fetcher.from_settings(settings)
    cache = fetcher.cache
    if name == "searxng":
        if not getattr(settings, "search_url", None):
            raise PhotoSearchError(
                "no SearxNG URL configured: pass --search-url URL, set PHOTOSEARCH_SEARCH_URL, or choose "
                "--backend wikipedia / duckduckgo"
            )
        return SearxNGBackend(
            settings.search_url,
            fetcher,
            cache,
            search_fetcher=search_host_fetcher(settings.search_url, fetcher),
        )
    if name == "wikipedia":
        return MediaWikiBackend(fetcher, cache=cache)
    return DuckDuckGoHTMLBackend(fetcher, cache=cache)
