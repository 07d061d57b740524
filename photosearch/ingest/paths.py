"""Paths as the catalog stores them.

File names that are not valid UTF-8 arrive from the OS as lone surrogates
(`surrogateescape`); databases reject those. They are stored with each raw byte
written as U+F8FF followed by two hex digits (a literal U+F8FF, e.g. Apple's logo in a
macOS name, as U+F8FF "--"), and turned back on the way out.
"""

from __future__ import annotations

import re

_ESCAPE = "\uf8ff"
_SURROGATE = re.compile("[\udc80-\udcff]")
_ESCAPED = re.compile(_ESCAPE + "([0-9a-f]{2}|--)")


def to_db_path(path: str) -> str:
    if _ESCAPE not in path and not _SURROGATE.search(path):
        return path
    path = path.replace(_ESCAPE, _ESCAPE + "--")
    return _SURROGATE.sub(lambda m: f"{_ESCAPE}{ord(m.group()) - 0xDC00:02x}", path)


def db_text(text: str) -> str:
    """Any message for the catalog: lone surrogates (from non-UTF-8 file names) become U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def from_db_path(path: str) -> str:
    if _ESCAPE not in path:
        return path
    return _ESCAPED.sub(lambda m: _ESCAPE if m.group(1) == "--" else chr(0xDC00 + int(m.group(1), 16)), path)
