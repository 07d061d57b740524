"""One catalog writer at a time across processes: an advisory file lock (fcntl) with a holder note.

`index`, `watch` and the app's indexing take it for a run; a second writer waits (saying who
holds it) or, with a timeout, fails with `CatalogBusy` naming the holder. The kernel drops the
lock when its process dies, even on kill -9, so a crash never leaves the catalog locked.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from photosearch.errors import Cancelled, CatalogError


class CatalogBusy(CatalogError):
    """Another process is writing the catalog."""


def _holder_note() -> str:
    command = " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv[:4]))
    return json.dumps(
        {
            "pid": os.getpid(),
            "command": command or "python",
            "since": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    )


def describe_holder(text: str) -> str:
    """`pid 123 (photosearch index, since 2026-…)` from the note the holder wrote."""
    try:
        note = json.loads(text)
        return f"pid {note['pid']} ({note['command']}, since {note['since']})"
    except (ValueError, KeyError, TypeError):
        return "another PhotoSearch process"


class WriterLock:
    """`with WriterLock(path, on_wait=print):` — blocks until this process is the only writer."""

    def __init__(
        self,
        path: Path | str,
        *,
        timeout_s: float | None = None,
        on_wait: Callable[[str], None] | None = None,
        cancel: Callable[[], bool] | None = None,
        poll_s: float = 0.1,
    ):
        self.path = Path(path)
        self.timeout_s = timeout_s
        self.on_wait = on_wait
        self.cancel = cancel or (lambda: False)
        self.poll_s = poll_s
        self._fd: int | None = None

    def holder(self) -> str:
        try:
            return describe_holder(self.path.read_text(encoding="utf-8"))
        except OSError:
            return "another PhotoSearch process"

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        started, told = time.monotonic(), False
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    holder = self.holder()
                    if self.timeout_s is not None and time.monotonic() - started >= self.timeout_s:
                        raise CatalogBusy(
                            f"the catalog is being written by {holder}; wait for it to finish or stop it, "
                            "then try again"
                        ) from None
                    if self.cancel():
                        raise Cancelled("stopped while waiting for the catalog") from None
                    if not told and self.on_wait is not None:
                        self.on_wait(f"waiting for {holder} to finish writing the catalog…")
                    told = True
                    time.sleep(self.poll_s)
            os.ftruncate(fd, 0)
            os.pwrite(fd, _holder_note().encode("utf-8"), 0)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)
        finally:
            os.close(fd)  # closing drops the lock

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
