"""Rebuildable files derived from source files, so a cold command loads them in milliseconds.

`derived(kind, sources, build)` returns what `build()` makes from the `sources` files, read from a
pickle in the user cache dir when that pickle was made from the same sources (path, size and mtime
of each, and this app's version); otherwise it builds and saves a new one. The golden library's
YAML uses it. A cache dir that cannot be written only costs the rebuild. The pickle is trusted like
any file of the user's own cache dir.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from photosearch import __version__

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Bump when the layout of what is pickled changes.
FORMAT = 1


def user_cache_dir() -> Path | None:
    """Where derived, rebuildable files go: $PHOTOSEARCH_CACHE_DIR or the platform's user cache dir."""
    env = os.environ.get("PHOTOSEARCH_CACHE_DIR")
    if env:
        return Path(env)
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("photosearch", appauthor=False))
    except Exception:  # noqa: BLE001 - no home directory: no cache, everything is built in memory
        return None


def source_stamp(sources: Sequence[Path]) -> tuple:
    """What a derived file was made from: each source's path, size and mtime, and the app version."""
    stamps = []
    for path in sources:
        try:
            st = path.stat()
            stamps.append((str(path), st.st_size, st.st_mtime_ns))
        except OSError:
            stamps.append((str(path), None, None))
    return (FORMAT, __version__, tuple(stamps))


def derived(
    kind: str,
    sources: Sequence[Path],
    build: Callable[[], T],
    *,
    directory: Path | None = None,
    variant: str = "",
) -> T:
    """`build()`, or the saved result of an earlier `build()` from the same `sources`.

    `kind` names the file (`<kind>-<hash>.pickle`); `variant` keeps different builds from the same
    sources apart. Exceptions from `build` propagate (nothing is saved)."""
    base = directory if directory is not None else user_cache_dir()
    stamp = source_stamp(sources)  # taken before building: a source changed meanwhile rebuilds next time
    if base is None:
        return build()
    name = hashlib.sha1(repr((variant, [str(p) for p in sources])).encode()).hexdigest()[:16]
    path = base / f"{kind}-{name}.pickle"
    try:
        with path.open("rb") as fh:
            saved_stamp, value = pickle.load(fh)
        if saved_stamp == stamp:
            return value
    except FileNotFoundError:
        pass
    except Exception as exc:  # noqa: BLE001 - a damaged or foreign file is rebuilt
        log.info("rebuilding %s: %s", path, exc)
    value = build()
    _save(path, (stamp, value))
    return value


def _save(path: Path, payload: tuple) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tmp.open("wb") as fh:
            pickle.dump(payload, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the whole new one
    except OSError as exc:
        log.info("cannot save %s: %s", path, exc)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
