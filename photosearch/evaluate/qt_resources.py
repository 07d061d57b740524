"""Read the files inside a compiled Qt resource file (`.rcc`), without Qt.

GCompris ships its photos inside such files. The format (Qt's `rcc` binary output, versions 1-3):
a header `qres`, version, and the offsets of the tree, the data and the names; the tree is an
array of fixed-size nodes (14 bytes, 22 from version 2: a modification time follows); a directory
node holds its children's count and first index, a file node the offset of its data (a 4-byte size
and the bytes; flag 1: qCompress, a 4-byte length and a zlib stream; flag 4: zstd, refused here).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

COMPRESSED = 0x01
DIRECTORY = 0x02
COMPRESSED_ZSTD = 0x04


class ResourceFileError(ValueError):
    """The file is not a Qt resource file this reader understands."""


class QtResourceFile:
    """The files of one `.rcc`: `paths()` lists them ("/a/b.webp"), `read(path)` returns the bytes."""

    def __init__(self, data: bytes, name: str = "resource"):
        if data[:4] != b"qres" or len(data) < 20:
            raise ResourceFileError(f"{name}: not a Qt resource file (no 'qres' header)")
        self.name = name
        self.data = data
        self.version, self.tree, self.payload, self.names = struct.unpack(">4I", data[4:20])
        if self.version not in (1, 2, 3):
            raise ResourceFileError(f"{name}: Qt resource version {self.version} is not supported")
        self.node_size = 14 if self.version == 1 else 22
        self._files: dict[str, tuple[int, int]] | None = None

    @classmethod
    def open(cls, path: Path | str) -> QtResourceFile:
        p = Path(path)
        return cls(p.read_bytes(), p.name)

    def _node(self, index: int) -> tuple[int, int, int, int]:
        """(name offset, flags, a, b): a, b = child count and first child, or locale and data offset."""
        at = self.tree + index * self.node_size
        name_off, flags = struct.unpack(">IH", self.data[at : at + 6])
        if flags & DIRECTORY:
            count, first = struct.unpack(">II", self.data[at + 6 : at + 14])
            return name_off, flags, count, first
        _locale, data_off = struct.unpack(">II", self.data[at + 6 : at + 14])
        return name_off, flags, 0, data_off

    def _name(self, offset: int) -> str:
        at = self.names + offset
        (length,) = struct.unpack(">H", self.data[at : at + 2])
        return self.data[at + 6 : at + 6 + 2 * length].decode("utf-16-be")

    def _walk(self, index: int, prefix: str) -> Iterator[tuple[str, int, int]]:
        _name, flags, count, first = self._node(index)
        for child in range(first, first + count):
            name_off, cflags, _a, data_off = self._node(child)
            path = f"{prefix}/{self._name(name_off)}"
            if cflags & DIRECTORY:
                yield from self._walk(child, path)
            else:
                yield path, cflags, data_off

    def _index(self) -> dict[str, tuple[int, int]]:
        if self._files is None:
            self._files = {path: (flags, off) for path, flags, off in self._walk(0, "")}
        return self._files

    def paths(self) -> list[str]:
        return sorted(self._index())

    def read(self, path: str) -> bytes:
        try:
            flags, off = self._index()[path]
        except KeyError:
            raise KeyError(f"{self.name} has no file {path}") from None
        at = self.payload + off
        (size,) = struct.unpack(">I", self.data[at : at + 4])
        blob = self.data[at + 4 : at + 4 + size]
        if flags & COMPRESSED_ZSTD:
            raise ResourceFileError(
                f"{self.name}: {path} is zstd-compressed, which this reader does not read"
            )
        if flags & COMPRESSED:
            return zlib.decompress(blob[4:])  # qCompress: a 4-byte big-endian length, then zlib
        return blob
