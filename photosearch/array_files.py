"""Cache files of numpy arrays plus JSON metadata, in a format that cannot run code.

One `.npz` (a zip of `.npy` members, each CRC-checked when read) holds the arrays and a `meta`
member: UTF-8 JSON with what the file was made from. `load` opens it with `allow_pickle=False` and
returns nothing unless every member reads whole and the metadata has the expected key: a missing,
truncated, damaged or foreign file is "not there" (logged), never an error. `save` writes a temp
file beside the target and renames it over the target, so a reader sees the old file or the whole
new one. These files are caches: whoever reads nothing rebuilds and saves again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from pathlib import Path

import numpy as np

from photosearch.cache_problems import cache_problem

log = logging.getLogger(__name__)

META = "meta"
#: A temp file older than this was left by a process that died while writing: removed by the next save.
STALE_TMP_S = 3600


def save(path: Path, arrays: dict[str, np.ndarray], meta: dict) -> bool:
    """Write `arrays` and `meta` to `path` atomically; False (logged) when it cannot be written."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        blob = np.frombuffer(json.dumps(meta).encode("utf-8"), np.uint8)
        with tmp.open("wb") as fh:
            np.savez(fh, **arrays, **{META: blob})
        os.replace(tmp, path)
        _remove_stale_tmp(path)
        return True
    except OSError as exc:
        cache_problem(path, exc)
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False


def _not_read(path: Path, exc: Exception) -> None:
    """An unreadable file (permissions, I/O: said once for the whole cache) or a damaged one."""
    if isinstance(exc, OSError) and exc.errno is not None:
        cache_problem(path, exc)
    else:
        log.warning("ignoring %s: %s", path, exc)


def _remove_stale_tmp(path: Path) -> None:
    for old in path.parent.glob(f".{path.name}.*.tmp"):
        with contextlib.suppress(OSError):
            if time.time() - old.stat().st_mtime > STALE_TMP_S:
                old.unlink()


def read_meta(path: Path) -> dict | None:
    """Only the metadata of a file (the arrays are not read); None when it cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as z:
            return _meta(z)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - any damage: the file is not there
        _not_read(path, exc)
        return None


def load(path: Path, expect: dict) -> tuple[dict, dict[str, np.ndarray]] | None:
    """(metadata, arrays) of a whole file whose metadata has every item of `expect`; else None."""
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = _meta(z)
            differs = {k: meta.get(k) for k, v in expect.items() if meta.get(k) != v}
            if differs:
                log.info("not using %s: made for %s, not %s", path, differs, {k: expect[k] for k in differs})
                return None
            return meta, {name: z[name] for name in z.files if name != META}
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - any damage: the file is not there
        _not_read(path, exc)
        return None


def _meta(z) -> dict:
    meta = json.loads(bytes(z[META]).decode("utf-8"))
    if not isinstance(meta, dict):
        raise ValueError("its metadata is not an object")
    return meta
