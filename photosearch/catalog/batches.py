"""Bounded IN lists: a selection of 100k photos is asked about in slices every backend accepts."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

#: Ids per IN list (SQLite allows 32766 bound values, older builds 999; PostgreSQL 65535).
IN_LIST = 500


def slices(ids: Sequence[int], size: int = IN_LIST) -> Iterator[list[int]]:
    for i in range(0, len(ids), size):
        yield list(ids[i : i + size])
