"""The EXIF a JPEG 2000 file carries, which Pillow does not read: a top-level `uuid` box whose UUID
is "JpgTiffExif->JP2" (the one exiftool, exiv2 and cameras write) holds a TIFF stream, with or
without an "Exif\\0\\0" lead. Only box headers are read until that box; a box that runs past the
file's end, or a damaged TIFF stream, is no EXIF."""

from __future__ import annotations

import io
import struct
from typing import BinaryIO

EXIF_UUID = b"JpgTiffExif->JP2"
#: The largest EXIF box read (a real one is a few kB; a thumbnail inside it tens of kB).
MAX_EXIF_BYTES = 4 << 20


def jp2_exif_tiff(fp: BinaryIO) -> bytes | None:
    """The TIFF stream of the file's EXIF box (the file positioned anywhere), or None."""
    fp.seek(0, io.SEEK_END)
    size = fp.tell()
    pos = 0
    while pos + 8 <= size:
        fp.seek(pos)
        length, kind = struct.unpack(">I4s", fp.read(8))
        head = 8
        if length == 1:  # a 64-bit length follows
            (length,) = struct.unpack(">Q", fp.read(8))
            head = 16
        elif length == 0:  # the last box, to the end of the file
            length = size - pos
        if length < head or pos + length > size:
            return None
        if kind == b"uuid" and length - head > 16 and fp.read(16) == EXIF_UUID:
            if length - head - 16 > MAX_EXIF_BYTES:
                return None
            tiff = fp.read(length - head - 16)
            return tiff[6:] if tiff.startswith(b"Exif\x00\x00") else tiff
        pos += length
    return None
