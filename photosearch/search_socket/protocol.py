"""Where the search socket lives, how messages are framed, and what both sides must agree on.

Stdlib only: the CLI imports it before anything heavy. A message is a 4-byte big-endian length and
that many bytes of UTF-8 JSON. A request is `{"protocol", "op", "settings", "args"}`; a reply is
`{"protocol", "ok", "result" | "reason"}`. A server answers only requests of its own protocol and
settings fingerprint, so a client of another version or with other settings searches by itself.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import struct
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from photosearch.config import Settings

#: Bumped whenever a request or a reply changes shape.
PROTOCOL = 1
RUN_DIR = "run"
SOCKET_NAME = "search.sock"
LOCK_NAME = "search.lock"
#: A reply holds at most a few thousand results; anything bigger is not ours.
MAX_MESSAGE_BYTES = 64 << 20
_LENGTH = struct.Struct(">I")
_UCRED = struct.Struct("3i")  # pid, uid, gid


class ProtocolError(Exception):
    """A message that is not a framed JSON object of the right size."""


def supported() -> bool:
    """Unix-domain sockets and peer credentials (Linux): elsewhere nothing is served or asked."""
    return hasattr(socket, "AF_UNIX") and hasattr(socket, "SO_PEERCRED")


def run_dir(settings: Settings) -> Path:
    return settings.data_dir / RUN_DIR


def socket_path(settings: Settings) -> Path:
    return run_dir(settings) / SOCKET_NAME


def lock_path(settings: Settings) -> Path:
    return run_dir(settings) / LOCK_NAME


def settings_fingerprint(settings: Settings) -> str:
    """What a search depends on in the settings, hashed: both sides must have the same."""
    values = {f.name: getattr(settings, f.name) for f in fields(settings) if not f.name.startswith("_")}
    values["database_url"] = settings.database_url
    text = json.dumps(values, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def is_private_dir(path: Path) -> bool:
    """A real folder (not a link), ours, that nobody else may enter."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & 0o077


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end (SO_PEERCRED)."""
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
    return _UCRED.unpack(raw)[1]


def send_message(sock: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message, default=str, ensure_ascii=False).encode("utf-8")
    if len(data) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message of {len(data)} bytes is over {MAX_MESSAGE_BYTES}")
    sock.sendall(_LENGTH.pack(len(data)) + data)


def recv_message(sock: socket.socket) -> dict[str, Any]:
    (length,) = _LENGTH.unpack(_recv_exactly(sock, _LENGTH.size))
    if length > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message of {length} bytes is over {MAX_MESSAGE_BYTES}")
    try:
        message = json.loads(_recv_exactly(sock, length).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProtocolError(f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError("not a JSON object")
    return message


def _recv_exactly(sock: socket.socket, n: int) -> bytes:
    chunks, left = [], n
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise ProtocolError("the other side closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
