"""Ask a running `photosearch watch` or app to search (stdlib only: imported by the CLI's search).

`served_search` returns the server's reply, or None whenever anything is not as it must be (no
socket, not ours, nobody listening, another uid at the other end, another protocol or settings, a
timeout, a failed search); the caller then searches in its own process and gets the same answer.
A socket file nobody listens on, while no server holds the lock, is removed.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import socket
import stat
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any

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
    from photosearch.config import Settings

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 1.0
#: A busy server (indexing on every core) may take a while; after this the CLI searches by itself.
REPLY_TIMEOUT_S = 30.0


@dataclass
class ServedSearch:
    result: dict[str, Any]
    cache_problems: list[str] = field(default_factory=list)


def served_search(
    settings: Settings,
    request: str | None,
    plan: dict | None,
    limit: int | None,
    *,
    explain: bool,
    now: date | None,
    reply_timeout_s: float = REPLY_TIMEOUT_S,
) -> ServedSearch | None:
    """The search answered by the process serving this data folder, or None."""
    args = {
        "request": request,
        "plan": plan,
        "limit": limit,
        "explain": explain,
        "now": (now or date.today()).isoformat(),  # the planner's default, read here: the caller's today
    }
    reply = ask(settings, "search", args, reply_timeout_s=reply_timeout_s)
    if reply is None:
        return None
    result, problems = reply.get("result"), reply.get("cache_problems") or []
    if not isinstance(result, dict) or not isinstance(problems, list):
        return None
    return ServedSearch(result, [str(p) for p in problems])


def ask(
    settings: Settings,
    op: str,
    args: dict[str, Any] | None = None,
    *,
    reply_timeout_s: float = REPLY_TIMEOUT_S,
) -> dict[str, Any] | None:
    """The server's reply to one request when it answered `ok`, else None (why: logged at debug)."""
    if not supported():
        return None
    path = socket_path(settings)
    try:
        st = os.lstat(path)
    except OSError:
        return None  # nobody serves: the common case, one stat
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.geteuid() or not is_private_dir(run_dir(settings)):
        log.debug("search socket %s is not a private socket of this user; not used", path)
        return None
    request = {"protocol": PROTOCOL, "op": op, "settings": settings_fingerprint(settings), "args": args or {}}
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT_S)
            sock.connect(str(path))
            if peer_uid(sock) != os.geteuid():
                log.debug("search socket %s: the server runs as another user; not used", path)
                return None
            sock.settimeout(reply_timeout_s)
            send_message(sock, request)
            reply = recv_message(sock)
    except (ConnectionRefusedError, FileNotFoundError):
        remove_stale_socket(settings)
        return None
    except (OSError, ProtocolError) as exc:
        log.debug("search socket %s: %s", path, exc)
        return None
    if reply.get("protocol") != PROTOCOL or reply.get("ok") is not True:
        log.debug("search socket %s: not answered (%s)", path, reply.get("reason"))
        return None
    return reply


def remove_stale_socket(settings: Settings) -> bool:
    """Remove the socket file when no server holds the lock (it died without cleaning up)."""
    try:
        fd = os.open(lock_path(settings), os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        fd = None  # no server ever took the lock here: the socket is nobody's
    except OSError:
        return False
    try:
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    return False  # a server holds it (starting up or stopping): its socket
                raise
        with contextlib.suppress(FileNotFoundError):
            os.unlink(socket_path(settings))
            log.debug("removed the stale search socket %s", socket_path(settings))
        return True
    except OSError:
        return False
    finally:
        if fd is not None:
            os.close(fd)
