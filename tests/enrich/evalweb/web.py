"""The evaluation's test web on loopback: a SearxNG-style JSON /search over the corpus pages (term
overlap ranking, like a small engine; snippets are the sentences that best match the query, as
real engines show them) and the pages themselves.

mode "pages": every page can be read. mode "snippets": no page can be read (a quarter answer 403,
the rest are 200 stubs: script-only pages whose text is in <noscript> or in the body, and paywalls
under the page's title), so only the search results' titles and snippets carry the facts.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

CORPUS = Path(__file__).with_name("corpus.json")
MODES = ("pages", "snippets")


def send(handler: BaseHTTPRequestHandler, status: int, headers: dict, body: bytes) -> None:
    """One response: status, headers (Content-Length added unless given), body; a client that hung
    up is not an error of the server's."""
    handler.send_response(status)
    for key, value in headers.items():
        handler.send_header(key, value)
    if "Content-Length" not in headers:
        handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        handler.wfile.write(body)
    except (BrokenPipeError, ConnectionResetError):
        pass


def load_corpus(path: Path = CORPUS) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z0-9][A-Za-z0-9\-]*", text)}


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]


def snippet(text: str, query: str, max_chars: int = 240) -> str:
    """The page's sentences with the most query words, in page order, cut to max_chars."""
    q = _words(query)
    sents = _sentences(text)
    scored = sorted(range(len(sents)), key=lambda i: (-len(q & _words(sents[i])), i))
    keep = sorted(scored[:2])
    out = " ".join(sents[i] for i in keep)
    return out if len(out) <= max_chars else out[: max_chars - 4].rsplit(" ", 1)[0] + " ..."


class EvalWeb:
    """A threaded loopback server; `requests` records every request (path, query)."""

    def __init__(self, corpus: dict, mode: str = "pages"):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        self.mode = mode
        self.pages = {p["path"]: p for p in corpus["pages"]}
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def search(self, query: str) -> list[dict]:
        q = _words(query)
        scored = []
        for path, p in self.pages.items():
            score = len(q & _words(p["title"] + " " + p["text"]))
            if score:
                scored.append((score, path))
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [
            {
                "url": self.base + path,
                "title": self.pages[path]["title"],
                "content": snippet(self.pages[path]["text"], query),
            }
            for _, path in scored[:10]
        ]

    def _page(self, path: str) -> tuple[int, bytes]:
        p = self.pages[path]
        if self.mode == "snippets":
            kind = sorted(self.pages).index(path) % 4
            if kind == 0:
                return 403, b"<html><body><h1>403 Forbidden</h1></body></html>"
            script = f"<script>document.body.innerText={json.dumps(p['text'])}</script>"
            stub = {
                1: "<noscript>Please enable JavaScript.</noscript>",
                2: "<div id='app'><p>Please enable JavaScript to view this site.</p></div>",  # visible text
                3: f"<main><h1>{p['title']}</h1><p>Subscribe to continue reading. Already a subscriber? "
                "Log in.</p></main>",  # a paywall under the page's own title
            }[kind]
            return 200, (
                f"<html><head><title>{p['title']}</title>{script}</head><body>{stub}</body></html>"
            ).encode()
        return 200, (
            f"<html><head><title>{p['title']}</title><script>var t='SECRET_JS_PAYLOAD'</script></head>"
            f"<body><nav>Home | Shop | About</nav><main><h1>{p['title']}</h1><p>{p['text']}</p></main>"
            "<footer>Copyright footer</footer></body></html>"
        ).encode()

    def _handler(self):
        web = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _send(self, status: int, ctype: str, body: bytes) -> None:
                send(self, status, {"Content-Type": ctype}, body)

            def do_GET(self):
                parts = urlsplit(self.path)
                qs = parse_qs(parts.query)
                with web._lock:
                    web.requests.append((parts.path, qs.get("q", [""])[0]))
                if parts.path == "/search" and qs.get("format") == ["json"]:
                    q = qs.get("q", [""])[0]
                    data = {"query": q, "results": web.search(q)}
                    return self._send(200, "application/json", json.dumps(data).encode())
                if parts.path in web.pages:
                    status, body = web._page(parts.path)
                    return self._send(status, "text/html; charset=utf-8", body)
                return self._send(404, "text/plain", b"not found")

        return Handler

    def bad_urls(self) -> set[str]:
        """Spam and homonym pages: citing one makes an answer wrong."""
        return {self.base + p for p, d in self.pages.items() if d.get("spam") or d.get("homonym")}

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
