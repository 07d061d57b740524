"""Query-side text embeddings remembered on disk, so a repeated search never loads the text model.

A search embeds a few texts: the request's concepts, the calibration's reference texts and a probe.
Loading MiniLM and running it costs most of a cold command's second; the vectors depend only on the
model and the text. `CachedEncoder` wraps an encoder (`list[str] -> (n, d)`) with a small SQLite
table in the data dir's cache (`text-embeddings.sqlite`), keyed by model id and text; the model is
only touched for texts it has not seen. The file is a cache: unreadable or unwritable, it is skipped.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from photosearch.cache_problems import cache_problem

log = logging.getLogger(__name__)

FILE_NAME = "text-embeddings.sqlite"
#: The oldest rows go once the table holds more than this many (about 1.5 KB each at 384-d).
MAX_ROWS = 50_000
_SCHEMA = "CREATE TABLE IF NOT EXISTS vectors (model TEXT, text TEXT, dim INTEGER, vec BLOB, PRIMARY KEY (model, text))"


class CachedEncoder:
    """`encode(texts) -> (n, d) float32` that reads known texts from disk and embeds only the rest."""

    def __init__(self, encode: Callable[[list[str]], np.ndarray], path: Path, model_id: str):
        self.encode = encode
        self.path = path
        self.model_id = model_id
        self._lock = threading.Lock()
        self._broken = False

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        texts = [str(t) for t in texts]
        if not texts:
            return np.asarray(self.encode([]), np.float32)
        known = self._read(sorted(set(texts)))
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            fresh = np.asarray(self.encode(missing), np.float32)
            known.update(zip(missing, fresh, strict=True))
            self._write(missing, fresh)
        return np.stack([known[t] for t in texts]).astype(np.float32, copy=False)

    # ---- the file ------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=2.0)
        db.execute(_SCHEMA)
        return db

    def _read(self, texts: list[str]) -> dict[str, np.ndarray]:
        if self._broken or not texts:
            return {}
        out: dict[str, np.ndarray] = {}
        try:
            if not self.path.is_file():  # an unreadable folder raises here, and is said once
                return {}
            with self._lock:
                db = self._connect()
                try:
                    for start in range(0, len(texts), 500):
                        part = texts[start : start + 500]
                        rows = db.execute(
                            f"SELECT text, vec FROM vectors WHERE model = ? AND text IN ({','.join('?' * len(part))})",
                            (self.model_id, *part),
                        ).fetchall()
                        out.update((t, np.frombuffer(v, np.float32)) for t, v in rows)
                finally:
                    db.close()
        except (OSError, sqlite3.Error) as exc:
            self._give_up("read", exc)
            return {}
        return out

    def _write(self, texts: list[str], vectors: np.ndarray) -> None:
        if self._broken:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock:
                db = self._connect()
                try:
                    with db:
                        db.executemany(
                            "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)",
                            [
                                (
                                    self.model_id,
                                    t,
                                    int(v.shape[0]),
                                    np.ascontiguousarray(v, np.float32).tobytes(),
                                )
                                for t, v in zip(texts, vectors, strict=True)
                            ],
                        )
                        db.execute(
                            "DELETE FROM vectors WHERE rowid <= (SELECT MAX(rowid) FROM vectors) - ?",
                            (MAX_ROWS,),
                        )
                finally:
                    db.close()
        except (OSError, sqlite3.Error) as exc:
            self._give_up("write", exc)

    def _give_up(self, what: str, exc: Exception) -> None:
        log.info("text embedding cache %s: cannot %s (%s); embedding without it", self.path, what, exc)
        cache_problem(self.path, exc)
        self._broken = True


def cached_text_encoder(embedder, settings) -> CachedEncoder:
    """The shared text embedder's `embed`, remembered in `settings.cache_dir`, keyed by its manifest."""
    manifest = embedder.manifest
    return CachedEncoder(
        embedder.embed, Path(settings.cache_dir) / FILE_NAME, f"{manifest.name}@{manifest.version}"
    )
