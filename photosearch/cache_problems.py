"""Caches that cannot be read or written. Every cache is rebuildable, so such a problem never changes
a result, only the time it takes; it is recorded once per process and said once, plainly (the CLI's
closing warning, a search's notes, the app's banner) instead of a log line per file."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

log = logging.getLogger(__name__)

_lock = threading.Lock()
_problems: dict[str, str] = {}  # cache folder -> the first reason it could not be used
_said: set[str] = set()


def _folder(path: Path) -> Path:
    """The cache folder a file belongs to: the nearest ancestor named `cache`, else its parent."""
    for parent in path.parents:
        if parent.name == "cache":
            return parent
    return path.parent


def cache_problem(path: Path | str, exc: BaseException) -> None:
    """Record that a cache file could not be read or written (first reason per cache folder)."""
    folder = str(_folder(Path(path)))
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    with _lock:
        if folder in _problems:
            return
        _problems[folder] = reason
    log.info("cache %s unusable: %s (%s)", folder, reason, path)


def cache_problems() -> list[str]:
    """One plain sentence per cache folder that could not be used, in the order they were found."""
    with _lock:
        items = list(_problems.items())
    return [
        f"the cache folder {folder} cannot be used ({reason}): results are the same, only slower; "
        "fix its permissions or free some space"
        for folder, reason in items
    ]


def unsaid_cache_problems() -> list[str]:
    """The sentences not yet returned by this function (each is said once per process)."""
    out = []
    for sentence in cache_problems():
        with _lock:
            if sentence in _said:
                continue
            _said.add(sentence)
        out.append(sentence)
    return out


def forget_cache_problems() -> None:
    """Start over (tests; the app after the user fixed the folder)."""
    with _lock:
        _problems.clear()
        _said.clear()
