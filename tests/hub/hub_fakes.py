"""A local fake Hugging Face hub (resolve endpoint + plain files) for pull tests, on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
import re
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
            return self.plain.get(url_path[len("/files/"):])
        return None

    def gets(self, suffix: str) -> list[tuple[str, str, str | None]]:
        return [e for e in self.log if e[0] == "GET" and e[1].endswith(suffix)]

    def start(self) -> FakeHub:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep test output clean
                pass

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
                files = hub.repos.get(m["repo"])
                prefix = (m["path"] or "").strip("/")
                if files is None:
                    self.send_response(404)
                    self.send_header("X-Error-Code", "RepoNotFound")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return True
                entries = [
                    {"type": "file", "path": p, "size": len(d), "oid": hashlib.sha1(d).hexdigest(),
                     "lfs": {"oid": hashlib.sha256(d).hexdigest(), "size": len(d), "pointerSize": 130}}
                    for p, d in sorted(files.items()) if not prefix or p.startswith(prefix + "/")
                ]
                body = json.dumps(entries).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return True

            def _serve(self, body: bool) -> None:
                path = self.path.split("?", 1)[0]
                rng = self.headers.get("Range")
                hub.log.append((self.command, path, rng))
                if self._tree(path):
                    return
                data = hub.lookup(path)
                if data is None:
                    self.send_response(404)
                    self.send_header("X-Error-Code", "EntryNotFound")
                    self.send_header("X-Repo-Commit", COMMIT)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                start, end, status = 0, len(data), 200
                if rng:
                    m = re.match(r"bytes=(\d+)-(\d*)$", rng.strip())
                    if m:
                        start = int(m[1])
                        end = int(m[2]) + 1 if m[2] else len(data)
                        if start >= len(data):
                            self.send_response(416)
                            self.send_header("Content-Range", f"bytes */{len(data)}")
                            self.send_header("Content-Length", "0")
                            self.end_headers()
                            return
                        status = 206
                self._headers(data, status, start, end)
                if not body:
                    return
                key = next((k for k in hub.cut_after if path.endswith(k)), None)
                if key is not None and status == 200:
                    n = hub.cut_after.pop(key)
                    self.wfile.write(data[start:start + n])
                    self.wfile.flush()
                    self.close_connection = True
                    try:
                        import socket

                        self.connection.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    return
                self.wfile.write(data[start:end])

            def do_HEAD(self):
                self._serve(body=False)

            def do_GET(self):
                self._serve(body=True)

        class Server(ThreadingHTTPServer):
            def handle_error(self, request, client_address):  # clients that hang up mid-body are expected
                pass

        self.server = Server(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
