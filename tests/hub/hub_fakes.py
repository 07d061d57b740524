"""A local fake Hugging Face hub (resolve endpoint + plain files) for pull tests, on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import re
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"
RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<path>.+)$")
TREE = re.compile(r"^/api/models/(?P<repo>[^/]+/[^/]+)/tree/(?P<rev>[^/]+)(?:/(?P<path>.*))?$")


@dataclass
class FakeHub:
    repos: dict[str, dict[str, bytes]] = field(default_factory=dict)  # repo -> path -> bytes
    plain: dict[str, bytes] = field(default_factory=dict)  # /files/<path>
    cut_after: dict[str, int] = field(default_factory=dict)  # path -> bytes sent before dropping (once)
    log: list[tuple[str, str, str | None]] = field(default_factory=list)  # method, path, Range
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def add_repo_file(self, repo: str, path: str, data: bytes) -> str:
        self.repos.setdefault(repo, {})[path] = data
        return hashlib.sha256(data).hexdigest()

    def lookup(self, url_path: str) -> bytes | None:
        m = RESOLVE.match(url_path)
        if m:
            return self.repos.get(m["repo"], {}).get(m["path"])
        if url_path.startswith("/files/"):
            return self.plain.get(url_path[len("/files/") :])
        return None

    def gets(self, suffix: str) -> list[tuple[str, str, str | None]]:
        return [e for e in self.log if e[0] == "GET" and e[1].endswith(suffix)]

    def start(self) -> FakeHub:
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.hub = self
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


class _Server(ThreadingHTTPServer):
    hub: FakeHub

    def handle_error(self, request, client_address):  # clients that hang up mid-body are expected
        pass


class _Handler(BaseHTTPRequestHandler):
    """The hub's resolve endpoint (with Range), its folder listing, and plain files."""

    protocol_version = "HTTP/1.1"

    @property
    def hub(self) -> FakeHub:
        return self.server.hub  # type: ignore[attr-defined]

    def log_message(self, *args):  # keep test output clean
        pass

    def do_HEAD(self):
        self._serve(body=False)

    def do_GET(self):
        self._serve(body=True)

    def _empty(self, status: int, **headers: str) -> None:
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k.replace("_", "-"), v)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _headers(self, data: bytes, status: int, start: int, end: int) -> None:
        self.send_response(status)
        self.send_header("Content-Length", str(end - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", '"' + hashlib.sha256(data).hexdigest() + '"')
        self.send_header("X-Repo-Commit", COMMIT)
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(data)}")
        self.end_headers()

    def _tree(self, path: str) -> bool:
        """The hub's folder listing: GET /api/models/{repo}/tree/{rev}/{folder}?recursive=..."""
        m = TREE.match(path)
        if m is None:
            return False
        files = self.hub.repos.get(m["repo"])
        prefix = (m["path"] or "").strip("/")
        if files is None:
            self._empty(404, X_Error_Code="RepoNotFound")
            return True
        entries = [
            {
                "type": "file",
                "path": p,
                "size": len(d),
                "oid": hashlib.sha1(d).hexdigest(),
                "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d), "pointerSize": 130},
            }
            for p, d in sorted(files.items())
            if not prefix or p.startswith(prefix + "/")
        ]
        body = json.dumps(entries).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return True

    def _range(self, data: bytes) -> tuple[int, int, int] | None:
        """(start, end, status) for the request's Range header; None when it starts past the end."""
        rng = self.headers.get("Range")
        m = re.match(r"bytes=(\d+)-(\d*)$", rng.strip()) if rng else None
        if m is None:
            return 0, len(data), 200
        start = int(m[1])
        if start >= len(data):
            return None
        return start, int(m[2]) + 1 if m[2] else len(data), 206

    def _serve(self, body: bool) -> None:
        path = self.path.split("?", 1)[0]
        self.hub.log.append((self.command, path, self.headers.get("Range")))
        if self._tree(path):
            return
        data = self.hub.lookup(path)
        if data is None:
            self._empty(404, X_Error_Code="EntryNotFound", X_Repo_Commit=COMMIT)
            return
        span = self._range(data)
        if span is None:
            self._empty(416, Content_Range=f"bytes */{len(data)}")
            return
        start, end, status = span
        self._headers(data, status, start, end)
        if not body:
            return
        key = next((k for k in self.hub.cut_after if path.endswith(k)), None)
        if key is not None and status == 200:
            self._cut(data[start : start + self.hub.cut_after.pop(key)])
            return
        self.wfile.write(data[start:end])

    def _cut(self, head: bytes) -> None:
        """Send the first bytes, then drop the connection (a flaky network)."""
        self.wfile.write(head)
        self.wfile.flush()
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
