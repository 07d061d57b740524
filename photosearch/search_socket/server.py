"""`SearchServer`: answer `photosearch search` from a process that has the search engine warm.

One server per data folder: it holds `run/search.lock` (an flock) from before it binds until after it
has removed the socket, so a socket file found while holding the lock is stale and is removed. The
socket lives in `run/` (0700) and is itself 0600; a connection from another uid is closed unanswered.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import socket
import socketserver
import threading
import time
from datetime import date
from typing import TYPE_CHECKING, Any

from photosearch.errors import PhotoSearchError
from photosearch.search_socket.protocol import (
    PROTOCOL,
    ProtocolError,
    is_private_dir,
    lock_path,
    peer_uid,
    recv_message,
    run_dir,
    send_message,
    settings_fingerprint,
    socket_path,
    supported,
)

if TYPE_CHECKING:
    from photosearch.core import Core

log = logging.getLogger(__name__)

#: How long one connection may take to send its request.
REQUEST_TIMEOUT_S = 10.0


class _Handler(socketserver.BaseRequestHandler):
    server: _UnixServer

    def handle(self) -> None:
        conn: socket.socket = self.request
        conn.settimeout(REQUEST_TIMEOUT_S)
        try:
            request = recv_message(conn)
        except (OSError, ProtocolError) as exc:
            log.debug("search socket: unreadable request: %s", exc)
            return
        reply = self.server.owner.answer(request)
        with contextlib.suppress(OSError):
            send_message(conn, reply)


class _UnixServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    owner: SearchServer

    def verify_request(self, request, client_address) -> bool:
        """Only this user's processes are answered (SO_PEERCRED)."""
        try:
            uid = peer_uid(request)
        except OSError:
            return False
        if uid != os.geteuid():
            log.warning("search socket: refused a connection from uid %d", uid)
            return False
        return True


#: How long `stop()` waits for a warm-up still loading the search models.
WARM_UP_WAIT_S = 60.0


class SearchServer:
    """Serves `core.search` on `run/search.sock` in the data folder until `stop()`."""

    def __init__(self, core: Core, *, warm_up: bool = False):
        self.core = core
        self.settings = core.settings
        self.warm_up = warm_up
        self._lock_fd: int | None = None
        self._server: _UnixServer | None = None
        self._thread: threading.Thread | None = None
        self._warm_thread: threading.Thread | None = None
        self._inode: int | None = None
        self.answered = 0  # searches answered (what the tests and the log count)

    @property
    def serving(self) -> bool:
        return self._server is not None

    def start(self) -> bool:
        """Listen; False (and nothing changed) where it cannot: another process serves this data
        folder, the platform has no peer credentials, the path is too long, the folder is not ours."""
        if not supported() or self._server is not None:
            return False
        try:
            return self._start()
        except OSError as exc:
            log.info("searches are not served to other processes: %s", exc)
            self.stop()
            return False

    def _start(self) -> bool:
        folder = run_dir(self.settings)
        folder.mkdir(mode=0o700, exist_ok=True)
        if not is_private_dir(folder):
            os.chmod(folder, 0o700, follow_symlinks=False)  # made by an older umask: ours to fix
            if not is_private_dir(folder):
                raise PermissionError(f"{folder} is not a private folder of this user")
        fd = os.open(lock_path(self.settings), os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        if not _try_lock(fd):
            os.close(fd)
            log.info("another process already serves searches for %s", self.settings.data_dir)
            return False
        self._lock_fd = fd
        path = socket_path(self.settings)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # we hold the lock: whoever made it is gone
        server = _UnixServer(str(path), _Handler, bind_and_activate=False)
        server.owner = self
        try:
            server.server_bind()
            os.chmod(path, 0o600)
            self._inode = os.stat(path).st_ino
            server.server_activate()
        except OSError:
            server.server_close()
            raise
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.5}, name="search-socket", daemon=True
        )
        self._thread.start()
        if self.warm_up:
            self._warm_thread = threading.Thread(target=self._warm_up, name="search-warm-up", daemon=True)
            self._warm_thread.start()
        log.info("serving searches on %s", path)
        return True

    def _warm_up(self) -> None:
        try:
            self.core.warm_up()
        except Exception:  # a search will say what is wrong; serving goes on
            log.warning("search socket: the warm-up failed", exc_info=True)

    def stop(self) -> None:
        """Stop serving; a warm-up still loading models is waited for (bounded): a process that exits
        while a thread is inside a model runtime's native code is aborted ("terminate called")."""
        if self._warm_thread is not None:
            self._warm_thread.join(timeout=WARM_UP_WAIT_S)
            self._warm_thread = None
        server, self._server = self._server, None
        if server is not None:
            if self._thread is not None and self._thread.is_alive():
                server.shutdown()  # returns once serve_forever has
            server.server_close()
            path = socket_path(self.settings)
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == self._inode:
                    os.unlink(path)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __enter__(self) -> SearchServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    # ---- one request -------------------------------------------------------------------------
    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request; never raises (a failed search says why, the client retries it
        in its own process, where it fails the same way and says so to the person)."""
        if request.get("protocol") != PROTOCOL:
            return _refusal(f"protocol {request.get('protocol')!r} is not {PROTOCOL}")
        op = request.get("op")
        if op == "ping":
            return {"protocol": PROTOCOL, "ok": True, "result": {"pid": os.getpid()}}
        if op != "search":
            return _refusal(f"unknown op {op!r}")
        if request.get("settings") != settings_fingerprint(self.settings):
            return _refusal("other settings")
        try:
            args = request["args"]
            now = date.fromisoformat(args["now"]) if args.get("now") else None
            result = self.core.search(
                args.get("request"),
                args.get("plan"),
                args.get("limit"),
                explain=bool(args.get("explain")),
                now=now,
            )
        except PhotoSearchError as exc:
            return _refusal(f"search failed: {exc}")
        except Exception as exc:  # the client's own search shows the error the way the CLI does
            log.warning("search socket: a search failed", exc_info=True)
            return _refusal(f"search failed: {type(exc).__name__}: {exc}")
        from photosearch.cache_problems import cache_problems

        self.answered += 1
        return {"protocol": PROTOCOL, "ok": True, "result": result, "cache_problems": cache_problems()}


def _try_lock(fd: int, tries: int = 5, wait_s: float = 0.05) -> bool:
    """The lock, unless another server holds it (a client removing a stale socket holds it briefly)."""
    for attempt in range(tries):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if attempt + 1 < tries:
                time.sleep(wait_s)
    return False


def _refusal(reason: str) -> dict[str, Any]:
    return {"protocol": PROTOCOL, "ok": False, "reason": reason}
