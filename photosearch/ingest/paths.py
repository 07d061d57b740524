"""Paths as the catalog stores them.

File names that are not valid UTF-8 arrive from the OS as lone surrogates
(`surrogateescape`); databases reject those. They are stored with each raw byte
written as U+F8FF followed by two hex digits, and turned back on the way out.
"""

from __future__ import annotations

import re

_ESCAPE = "\uf8ff"
_SURROGATE = re.compile("[\udc80-\udcff]")
_ESCAPED = re.compile(_ESCAPE + "([0-9a-f]{2})")


def to_db_path(path: str) -> str:
    if not _SURROGATE.search(path):
        return path
    return _SURROGATE.sub(lambda m: f"{_ESCAPE}{ord(m.group()) - 0xDC00:02x}", path)


def from_db_path(path: str) -> str:
    if _ESCAPE not in path:
        return path
    return _ESCAPED.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), path)
