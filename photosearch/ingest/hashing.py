"""Content identity: a photo is its bytes, not its path."""

from __future__ import annotations

import hashlib
from pathlib import Path


def hash_bytes(data: bytes) -> str:
    """BLAKE2b-256 hex digest (fast in CPython, collision-safe)."""
    return hashlib.blake2b(data, digest_size=32).hexdigest()


def read_and_hash(path: str | Path) -> tuple[str, bytes]:
    """Read a file once; return its content hash and bytes (decoded next, without a second read)."""
    with open(path, "rb") as fh:
        data = fh.read()
    return hash_bytes(data), data
