"""numpy's BLAS on one thread while indexing.

The analyzers' numpy products are small (the tagger's 1000 x 1800 hypernym sum, pooling, norms), and
OpenBLAS splits even those over every core, whose threads then wait for each other: on the shared
2-core machine one hypernym sum took 7.8 ms of CPU on two threads and 0.26 ms on one (the same
values: OpenBLAS splits the output, never a sum). The models have their own thread pools.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """BLAS (OpenBLAS, MKL, ...) on one thread inside the block, as it was after it."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield
