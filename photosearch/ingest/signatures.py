"""Which files are images by their first bytes (magic numbers), whatever they are called.

The scanner catalogues a file when its extension is one the app reads (`decode.IMAGE_EXTENSIONS`)
or, for any other name, when its header carries an image signature listed here: a JPEG saved as
`photo.download` or a HEIC with no extension is catalogued, and one that cannot be decoded is
recorded with its reason instead of vanishing. Names that are never images (sidecars, video, audio,
documents) are not opened at all, so a scan reads no extra bytes for them.
"""

from __future__ import annotations

import os
import re

from photosearch.files import NotARegularFile, open_regular

#: How many bytes of a file `sniff` needs.
HEADER_BYTES = 32

#: ISO base media (HEIF, AVIF, Canon CR3, JPEG XL is separate): the `ftyp` box's major brands of images.
IMAGE_BRANDS = {
    b"heic": "HEIF",
    b"heix": "HEIF",
    b"heim": "HEIF",
    b"heis": "HEIF",
    b"hevc": "HEIF",
    b"hevx": "HEIF",
    b"mif1": "HEIF",
    b"msf1": "HEIF",
    b"avif": "AVIF",
    b"avis": "AVIF",
    b"crx ": "RAW",
}

#: (prefix, format) pairs; longer and more specific prefixes first.
PREFIXES: tuple[tuple[bytes, str], ...] = (
    (b"\x00\x00\x00\x0cJXL \r\n\x87\n", "JXL"),  # JPEG XL in its ISO container
    (b"\x00\x00\x00\x0cjP  \r\n\x87\n", "JPEG2000"),  # JP2 / JPX
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"FUJIFILMCCD-RAW", "RAW"),  # Fujifilm RAF
    (b"II\x1a\x00\x00\x00HEAPCCDR", "RAW"),  # Canon CRW
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"\xff\xd8\xff", "JPEG"),
    (b"\xff\x4f\xff\x51", "JPEG2000"),  # a bare JPEG 2000 codestream
    (b"\xff\x0a", "JXL"),  # a bare JPEG XL codestream
    (b"II*\x00", "TIFF"),  # TIFF and the TIFF-structured RAWs (DNG, CR2, NEF, ARW, PEF, ...)
    (b"MM\x00*", "TIFF"),
    (b"IIRO", "RAW"),  # Olympus ORF
    (b"IIRS", "RAW"),
    (b"MMOR", "RAW"),
    (b"IIU\x00", "RAW"),  # Panasonic RW2
    (b"FOVb", "RAW"),  # Sigma X3F
    (b"\x00MRM", "RAW"),  # Minolta MRW
)
#: BMP: "BM", then a 4-byte size, two reserved zero words, and a DIB header of a known size.
_BMP_DIB_SIZES = {12, 40, 52, 56, 64, 108, 124}
#: Netpbm: P1..P6, whitespace, then a number or a comment.
_PNM = re.compile(rb"P[1-6][ \t\r\n]+[0-9#]")

#: Extensions that are never images: never opened to look (sidecars, video and audio, documents,
#: the thumbnails cameras write beside videos).
NOT_IMAGE_EXTENSIONS = frozenset(
    {
        ".xmp",
        ".aae",
        ".json",
        ".xml",
        ".txt",
        ".md",
        ".csv",
        ".html",
        ".htm",
        ".pdf",
        ".doc",
        ".docx",
        ".odt",
        ".zip",
        ".db",
        ".ini",
        ".log",
        ".thm",
        ".lrv",
        ".mp4",
        ".m4v",
        ".mov",
        ".avi",
        ".mkv",
        ".mts",
        ".m2ts",
        ".3gp",
        ".webm",
        ".wmv",
        ".mpg",
        ".mpeg",
        ".mp3",
        ".m4a",
        ".wav",
        ".flac",
        ".ogg",
        ".aac",
    }
)


def sniff(header: bytes) -> str | None:
    """The image format a file's first bytes announce (None: no image signature)."""
    for prefix, fmt in PREFIXES:
        if header.startswith(prefix):
            return fmt
    if header[4:8] == b"ftyp":
        return IMAGE_BRANDS.get(header[8:12])
    if header.startswith(b"RIFF") and header[8:12] == b"WEBP":
        return "WEBP"
    if (
        header.startswith(b"BM")
        and len(header) >= 18
        and header[6:10] == b"\x00\x00\x00\x00"
        and int.from_bytes(header[14:18], "little") in _BMP_DIB_SIZES
    ):
        return "BMP"
    if _PNM.match(header):
        return "PPM"
    return None


def worth_sniffing(name: str) -> bool:
    """Whether a file of this name (not a claimed image extension) may still be an image inside."""
    return os.path.splitext(name)[1].lower() not in NOT_IMAGE_EXTENSIONS


def sniff_file(path: str) -> str | None:
    """The image format of the file at `path` by its header (None: none, or it cannot be read)."""
    try:
        with open_regular(path) as fp:  # a FIFO or device is never opened for reading
            return sniff(fp.read(HEADER_BYTES))
    except (OSError, NotARegularFile):
        return None
