"""The indexer's C-heap hygiene (ingest/memory.py): a cap on glibc heaps, and trimming."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

COUNT_HEAPS = textwrap.dedent(
    """
    import ctypes, sys, tempfile, threading
    from photosearch.ingest.memory import limit_heaps, release_free_memory
    if sys.argv[1] == "limit":
        limit_heaps(2)
    kept = []
    together = threading.Barrier(6)
    def work():
        kept.append([bytearray(4096) for _ in range(200)])  # small blocks: from this thread's heap
        together.wait(timeout=20)  # all alive at once: no thread can take over an ended one's heap
    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads: t.start()
    for t in threads: t.join()
    release_free_memory()
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    with tempfile.NamedTemporaryFile(suffix=".xml") as out:
        fp = libc.fopen(out.name.encode(), b"w")
        libc.malloc_info(0, ctypes.c_void_p(fp))
        libc.fclose(ctypes.c_void_p(fp))
        print(open(out.name).read().count("<heap nr="))
    """
)


def _heaps(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", COUNT_HEAPS, mode], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's heaps are Linux-only")
def test_limit_heaps_keeps_threads_on_two_heaps():
    assert _heaps("free") > 2  # without the cap each busy thread gets a heap of its own
    assert _heaps("limit") <= 2
