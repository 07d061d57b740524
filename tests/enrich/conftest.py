"""Fixtures for the enrich tests: a loopback test web (SearxNG-compatible /search, MediaWiki and
DuckDuckGo emulations, pages the tests write, hostile pages), a guard that refuses every
non-loopback connection, and the real embedder / LLM once per session."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest

from photosearch.config import Settings
from tests.enrich.evalweb.web import send


# ---- no packet leaves the machine ---------------------------------------------------------------
@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """Any connect to a non-loopback address fails loudly (even if a guard under test were broken)."""
    real = socket.socket.connect
    attempts: list = []

    def guarded(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if (
            isinstance(host, str)
            and not (host.startswith("127.") or host in ("::1", "localhost"))
            and self.family in (socket.AF_INET, socket.AF_INET6)
        ):
            attempts.append(host)
            raise OSError(f"test guard: connection to {host} blocked")
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    return attempts


# ---- the test web -----------------------------------------------------------------------------
class TestWeb:
    def __init__(self):
        self.pages: dict[str, tuple[int, dict, bytes | callable]] = {}
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return self.base + path

    def page(self, path: str, html: str, title: str | None = None) -> str:
        body = (
            html
            if html.lstrip().startswith("<")
            else f"<html><head><title>{title or path}</title></head><body><p>{html}</p></body></html>"
        )
        self.pages[path] = (200, {"Content-Type": "text/html; charset=utf-8"}, body.encode())
        return self.url(path)

    def raw(self, path: str, status: int, headers: dict, body) -> str:
        self.pages[path] = (status, headers, body)
        return self.url(path)

    def clear(self):
        self.pages = {k: v for k, v in self.pages.items() if k.startswith("/hostile")}
        self.requests.clear()

    def searched(self) -> list[str]:
        return [r["q"] for r in self.requests if r["path"] == "/search"]

    # SearxNG-like ranking over the written pages: term overlap with title + text
    def _search(self, q: str) -> list[dict]:
        from bs4 import BeautifulSoup

        terms = {t.lower() for t in q.split() if len(t) > 1}
        scored = []
        for path, (status, _headers, body) in self.pages.items():
            if path.startswith("/hostile") or status != 200 or callable(body):
                continue
            soup = BeautifulSoup(body.decode("utf-8", "replace"), "lxml")
            title = soup.title.get_text() if soup.title else path
            for s in soup(["script", "style"]):
                s.decompose()
            text = soup.get_text(" ", strip=True)
            words = {w.strip(".,()").lower() for w in (title + " " + text).split()}
            score = len(terms & words)
            if score:
                scored.append((score, path, title, text[:160]))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [{"url": self.url(p), "title": t, "content": c} for _, p, t, c in scored]

    def _handler(self):
        web = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _send(self, status, headers, body: bytes):
                send(self, status, headers, body)

            def do_GET(self):
                parts = urlsplit(self.path)
                qs = parse_qs(parts.query)
                with web.lock:
                    web.requests.append(
                        {
                            "path": parts.path,
                            "q": qs.get("q", qs.get("srsearch", [""]))[0],
                            "host": self.headers.get("Host"),
                            "accept_encoding": self.headers.get("Accept-Encoding"),
                        }
                    )
                if parts.path == "/search" and qs.get("format") == ["json"]:
                    data = {"query": qs.get("q", [""])[0], "results": web._search(qs.get("q", [""])[0])}
                    return self._send(200, {"Content-Type": "application/json"}, json.dumps(data).encode())
                if parts.path == "/w/api.php":
                    if qs.get("list") == ["search"]:
                        res = [
                            {"title": r["title"], "snippet": r["content"]}
                            for r in web._search(qs["srsearch"][0])
                        ]
                        data = {"query": {"search": res}}
                    else:
                        data = {
                            "query": {
                                "pages": {"1": {"title": qs["titles"][0], "extract": "Plain extract text."}}
                            }
                        }
                    return self._send(200, {"Content-Type": "application/json"}, json.dumps(data).encode())
                if parts.path == "/html/":
                    items = "".join(
                        f'<div class="result"><a class="result__a" href="//duckduckgo.com/l/?uddg={quote(r["url"], safe="")}">'
                        f'{r["title"]}</a><a class="result__snippet">{r["content"]}</a></div>'
                        for r in web._search(qs.get("q", [""])[0])
                    )
                    return self._send(
                        200, {"Content-Type": "text/html"}, f"<html><body>{items}</body></html>".encode()
                    )
                entry = web.pages.get(parts.path)
                if entry is None:
                    return self._send(404, {"Content-Type": "text/plain"}, b"not found")
                status, headers, body = entry
                if callable(body):
                    return body(self)
                return self._send(status, headers, body)

        return Handler

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def _slow(handler):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.end_headers()
    try:
        handler.wfile.write(b"<html><body>")
        handler.wfile.flush()
        time.sleep(2.0)
        handler.wfile.write(b"too late</body></html>")
    except (BrokenPipeError, ConnectionResetError):
        pass


def _huge(handler):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")  # no Content-Length: must be cut while streaming
    handler.end_headers()
    try:
        handler.wfile.write(b"<html><body>")
        chunk = b"<p>" + b"filler words " * 800 + b"</p>"
        for _ in range(600):  # ~6 MB
            handler.wfile.write(chunk)
    except (BrokenPipeError, ConnectionResetError):
        pass


def _declared_huge(handler):
    handler.send_response(200)
    handler.send_header("Content-Type", "text/html")
    handler.send_header("Content-Length", "900000000")
    handler.end_headers()
    try:
        handler.wfile.write(b"<html><body>x</body></html>")
    except (BrokenPipeError, ConnectionResetError):
        pass


@pytest.fixture(scope="session")
def test_web():
    web = TestWeb()
    html = {"Content-Type": "text/html; charset=utf-8"}
    web.raw("/hostile/huge", 200, {}, _huge)
    web.raw("/hostile/slow", 200, {}, _slow)
    web.raw("/hostile/loop-a", 302, {"Location": "/hostile/loop-b"}, b"")
    web.raw("/hostile/loop-b", 302, {"Location": "/hostile/loop-a"}, b"")
    web.raw("/hostile/to-metadata", 302, {"Location": "http://169.254.169.254/latest/meta-data/"}, b"")
    web.raw("/hostile/to-private", 301, {"Location": "http://10.20.30.40/admin"}, b"")
    web.raw("/hostile/to-ok", 302, {"Location": "/hostile/scripty"}, b"")
    web.raw(
        "/hostile/scripty",
        200,
        html,
        (
            b"<html><head><title>Scripty</title><script>document.write('SECRET_JS_PAYLOAD')</script>"
            b"<style>.x{color:red} STYLE_TEXT</style></head><body><script src='x.js'></script>"
            b"<p>The visible sentence about bicycles is here.</p><noscript>NOSCRIPT_TEXT</noscript>"
            b"<iframe srcdoc='IFRAME_TEXT'></iframe></body></html>"
        ),
    )
    web.raw("/hostile/binary", 200, {"Content-Type": "application/octet-stream"}, b"\x00\x01" * 100)
    web.raw("/hostile/png", 200, {"Content-Type": "image/png"}, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    web.raw(
        "/hostile/broken-encoding",
        200,
        html,
        b"<html><body><p>Caf\xe9 \xff\xfe broken bytes, then the Voltaro readable words.</p></body></html>",
    )
    web.raw("/hostile/declared-huge", 200, {}, _declared_huge)
    yield web
    web.close()


@pytest.fixture
def web(test_web):
    test_web.clear()
    yield test_web
    test_web.clear()


# ---- settings, embedder, LLM ------------------------------------------------------------------
@pytest.fixture
def settings(tmp_path) -> Settings:
    s = Settings(data_dir=Path(tmp_path) / "data")
    s.ensure_dirs()
    return s


@pytest.fixture(scope="session")
def embedder(tmp_path_factory):
    from photosearch.enrich.textutil import get_embedder

    return get_embedder(Settings(data_dir=tmp_path_factory.mktemp("emb")))


@pytest.fixture(scope="session")
def real_llm(tmp_path_factory):
    from photosearch.models.llm import get_llm
    from photosearch.models.runtimes.llama import available as llm_available

    if not llm_available():
        pytest.fail("llama-cpp-python is not installed")
    models = Path.home() / ".cache" / "photosearch-test-models"
    s = Settings(data_dir=models)
    s.ensure_dirs()
    llm = get_llm(s)
    if llm is None:
        pytest.fail("the bundled gemma3-270m GGUF package is not installed")
    return llm
