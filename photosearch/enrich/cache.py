"""A small JSON disk cache with expiry (search results and cleaned pages)."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any


class DiskCache:
    def __init__(self, root: Path | str, ttl_seconds: float = 7 * 24 * 3600):
        self.root = Path(root)
        self.ttl = ttl_seconds

    def _path(self, kind: str, key: str) -> Path:
        h = hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()
        return self.root / kind / h[:2] / f"{h}.json"

    def get(self, kind: str, key: str) -> Any | None:
        p = self._path(kind, key)
        try:
            entry = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if entry.get("key") != key or time.time() - float(entry.get("at", 0)) > self.ttl:
            return None
        return entry.get("value")

    def put(self, kind: str, key: str, value: Any) -> None:
        p = self._path(kind, key)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            tmp = p.with_suffix(".tmp")
            tmp.write_text(json.dumps({"key": key, "at": time.time(), "value": value}), encoding="utf-8")
            os.replace(tmp, p)
        except OSError:
            pass  # a cache that cannot write is just a slower cache

    def clear_expired(self) -> int:
        n = 0
        for p in self.root.rglob("*.json"):
            try:
                if time.time() - float(json.loads(p.read_text(encoding="utf-8")).get("at", 0)) > self.ttl:
                    p.unlink()
                    n += 1
            except (OSError, ValueError):
                p.unlink(missing_ok=True)
                n += 1
        return n
