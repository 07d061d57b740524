"""Open only regular files: a FIFO, socket or device named like a photo or a plan must never be
opened for reading (a FIFO's open blocks until a writer comes, a device can stream forever)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from photosearch.errors import PhotoSearchError


class NotARegularFile(PhotoSearchError):
    """The path is a FIFO, socket, device or directory, not a file that can be read."""

    reason = "not_a_file"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def require_regular(path: str | Path, st: os.stat_result | None = None) -> os.stat_result:
    """The file's stat (following links); `NotARegularFile` unless it is a regular file.
    OSErrors (missing, permission) pass through for the caller to name."""
    st = os.stat(path) if st is None else st
    if not stat.S_ISREG(st.st_mode):
        raise NotARegularFile(f"{os.fsdecode(path)!r} is {_kind(st.st_mode)}, not a file: it was not opened")
    return st


def open_regular(path: str | Path):
    """A binary file object for a regular file. The open never blocks (O_NONBLOCK) and the type is
    checked on the opened descriptor, so a path swapped for a FIFO after a check is refused too."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        require_regular(path, os.fstat(fd))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | Path, limit: int | None = None) -> bytes:
    """The bytes of a regular file; with `limit`, at most limit + 1 bytes are read (the caller
    tells "too big" from the length)."""
    with open_regular(path) as fh:
        return fh.read() if limit is None else fh.read(limit + 1)
