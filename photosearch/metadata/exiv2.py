"""libexiv2 through pyexiv2: one import, its console logging muted, one lock, short error texts."""

from __future__ import annotations

import threading

#: exiv2's XMP toolkit keeps global state: one read or write at a time.
LOCK = threading.Lock()
_ready = False


def exiv2():
    """pyexiv2 with exiv2's own console logging muted (problems become `issues` instead)."""
    global _ready
    import pyexiv2

    if not _ready:
        pyexiv2.set_log_level(4)
        _ready = True
    return pyexiv2


def short_error(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
