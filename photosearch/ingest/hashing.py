"""Content identity: a photo is its bytes, not its path."""

from __future__ import annotations

import hashlib
from pathlib import Path

from photosearch.files import open_regular

CHUNK = 1 << 20
# Files up to this size are kept in memory after hashing so decoding does not read them twice;
# bigger ones are hashed by streaming and decoded from the file.
KEEP_IN_MEMORY_BYTES = 64 << 20


def read_and_hash(path: str | Path, keep_limit: int = KEEP_IN_MEMORY_BYTES) -> tuple[str, bytes | None]:
    """Hash a file by streaming; also return its bytes when it is at most `keep_limit` long
    (decoded next without a second read), else None (decode reads the file itself)."""
    digest = hashlib.blake2b(digest_size=32)
    chunks: list[bytes] | None = []
    size = 0
    with open_regular(path) as fh:  # a FIFO named like a photo is refused, never waited on
        while chunk := fh.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
            if chunks is not None:
                chunks.append(chunk)
                if size > keep_limit:
                    chunks = None
    return digest.hexdigest(), (b"".join(chunks) if chunks is not None else None)
