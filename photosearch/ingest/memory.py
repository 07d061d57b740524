"""Give freed memory back to the system between batches.

Decoding in worker threads and models with per-photo buffers (OCR's input grows with each page)
leave glibc's heaps fragmented: freed blocks stay in the process, so its resident size only grows.
`malloc_trim` returns them: on 60 photos of 12 MP, peak RSS 1.40 -> 1.23 GB and 0.76 GB after the
run instead of 1.12 (`python -m benchmarks.suite index --megapixels 12`). `limit_heaps` caps how many
heaps glibc keeps (one per thread by default, up to 8 per core): the decode workers and the model
lanes otherwise each fragment a heap of their own (12 MP, three runs each: 1269-1288 -> 1193-1245 MiB
peak, the same CPU). Both are no-ops where the C library lacks them (macOS, Windows, musl).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

#: glibc's mallopt parameter for the most heaps ("arenas") threads may share.
M_ARENA_MAX = -8


@functools.cache
def _libc_function(name: str):
    lib = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(lib), name, None) if lib else None
    except OSError:
        return None


def limit_heaps(count: int = 2) -> None:
    """Let all threads share at most `count` C heaps from now on (glibc); nothing elsewhere."""
    mallopt = _libc_function("mallopt")
    if mallopt is not None:
        mallopt(M_ARENA_MAX, max(1, int(count)))


def release_free_memory() -> None:
    """Return the C heap's free pages to the system (glibc); nothing elsewhere."""
    trim = _libc_function("malloc_trim")
    if trim is not None:
        trim(0)
