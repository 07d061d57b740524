"""A photo's size in words: "high resolution", "4k", "12 megapixels", "low-res", "small images", "large photos"
(pixels) and "large files", "bigger than 10mb", "under 500 kb" (bytes), as the size atom's value,
and back ("12 megapixels or more") so that a chip's text can be edited and read again.

The atom is ``{"size": {"of": "megapixels"|"megabytes", "min": number|null, "max": number|null}}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from photosearch.query.camera_settings import longest, one_side

#: What people mean by the words, in megapixels and megabytes.
LOW_RES_MP, HIGH_RES_MP = 1.0, 12.0
UHD_4K_MP, UHD_8K_MP = 8.0, 33.0
SMALL_IMAGE_MP = 1.0
LARGE_FILE_MB, SMALL_FILE_MB = 10.0, 0.5

_NUM = r"\d+(?:\.\d+)?"
_MORE = r"(?:bigger|larger|more|greater|higher|heavier)\s+than|over|above|at\s+least|>=?"
_LESS = r"(?:smaller|less|lower|lighter)\s+than|under|below|at\s+most|<=?"
_OR_MORE = r"(?:or|and)\s+(?:more|bigger|larger|higher|above|up|over)|\+"
_OR_LESS = r"(?:or|and)\s+(?:less|smaller|lower|below|under)"
_UNITS = {"kb": 1 / 1000, "mb": 1.0, "gb": 1000.0}

_BYTES = re.compile(
    r"(?:\b(?:files?|photos?|pictures?|images?)\s+)?"  # "files under 20kb": the files are the photos
    rf"(?:\b(?:(?P<more>{_MORE})|(?P<less>{_LESS}))\s+(?P<n>{_NUM})\s*(?P<u>kb|mb|gb)\b"
    rf"|\b(?P<n2>{_NUM})\s*(?P<u2>kb|mb|gb)\b\s*(?:(?P<more2>{_OR_MORE})|(?P<less2>{_OR_LESS}))"
    rf"|\b(?P<r1>{_NUM})\s*(?P<ru1>kb|mb|gb)?\s*(?:-|–|to)\s*(?P<r2>{_NUM})\s*(?P<ru2>kb|mb|gb)\b)"
    r"(?:\s+files?\b)?"
    rf"|\b(?P<n3>{_NUM})\s*(?P<u3>kb|mb|gb)\s+files?\b"  # "10mb files": about that size
)
_BYTES_WORD = re.compile(
    r"\b(?P<how>large|big|huge|heavy|small|tiny)\s+files?\b"
    r"(?!\s+(?:cabinets?|folders?|box|boxes|drawers?|storage|transfers?|servers?|names?))"  # things
)
_PIXELS = re.compile(
    rf"(?:\b(?:(?P<more>{_MORE})|(?P<less>{_LESS}))\s+)?\b(?P<n>{_NUM})(?:\s*(?:-|–|to)\s*(?P<to>{_NUM}))?"
    r"\s*-?\s*(?:megapixels?|mp|mpx)\b"
    rf"(?:\s*(?:(?P<more2>{_OR_MORE})|(?P<less2>{_OR_LESS})))?"
)
_PIXELS_WORD = re.compile(
    r"\b(?P<low>low[\s-]?res(?:olution)?|lo[\s-]?res)\b"
    r"|\b(?P<high>high[\s-]?res(?:olution)?|hi[\s-]?res)\b"
    r"|\b(?P<k>[48])k(?=\s+(?:photos?|pictures?|images?|shots?|resolution)\b)|(?<=\bin\s)(?P<k2>[48])k\b"
    r"|\b(?P<small>small|tiny)\s+(?=(?:photos?|pictures?|pics|images?)\b)"
    r"|\b(?P<large>large|big|huge|giant)\s+(?=(?:photos?|pictures?|pics|images?)\b)"
)


def size(of: str, lo: float | None, hi: float | None) -> dict:
    return {"size": {"of": of, "min": lo, "max": hi}}


def find_sizes(low: str) -> Iterator[tuple[int, int, dict]]:
    """(start, end, node) of each size said in a lower-case request."""
    for m in _BYTES.finditer(low):
        if m.group("r1"):
            lo, hi = (
                float(m.group(g)) * _UNITS[m.group(u) or m.group("ru2")]
                for g, u in (("r1", "ru1"), ("r2", "ru2"))
            )
            yield m.start(), m.end(), size("megabytes", min(lo, hi), max(lo, hi))
            continue
        n = (
            float(m.group("n") or m.group("n2") or m.group("n3"))
            * _UNITS[m.group("u") or m.group("u2") or m.group("u3")]
        )
        more, less = bool(m.group("more") or m.group("more2")), bool(m.group("less") or m.group("less2"))
        yield m.start(), m.end(), size("megabytes", *one_side(n, more, less))
    for m in _BYTES_WORD.finditer(low):
        large = m.group("how") in ("large", "big", "huge", "heavy")
        yield (
            m.start(),
            m.end(),
            size("megabytes", *((LARGE_FILE_MB, None) if large else (None, SMALL_FILE_MB))),
        )
    for m in _PIXELS.finditer(low):
        more, less = bool(m.group("more") or m.group("more2")), bool(m.group("less") or m.group("less2"))
        n = float(m.group("n"))
        bounds = (
            (min(n, float(m.group("to"))), max(n, float(m.group("to"))))
            if m.group("to")
            else one_side(n, more, less)
        )
        yield m.start(), m.end(), size("megapixels", *bounds)
    for m in _PIXELS_WORD.finditer(low):
        if m.group("low") or m.group("small"):
            lo, hi = None, LOW_RES_MP if m.group("low") else SMALL_IMAGE_MP
        elif m.group("high") or m.group("large"):
            lo, hi = HIGH_RES_MP, None
        else:
            lo, hi = (UHD_4K_MP if (m.group("k") or m.group("k2")) == "4" else UHD_8K_MP), None
        yield m.start(), m.end(), size("megapixels", lo, hi)


def size_text(value: dict) -> str:
    """A size condition in words: "12 megapixels or more", "under 1 megapixel", "10 MB or more"."""
    unit = " megapixels" if value["of"] == "megapixels" else " MB"
    lo, hi = value.get("min"), value.get("max")

    def said(n: float) -> str:
        if unit == " MB" and n < 1:
            return f"{round(n * 1000):g} KB"
        return f"{n:g}{' megapixel' if unit == ' megapixels' and n == 1 else unit}"

    if lo is not None and hi is not None:
        if lo == hi:
            return said(lo)
        return f"{lo:g} to {said(hi)}" if unit == " megapixels" else f"{said(lo)} to {said(hi)}"
    return f"{said(lo)} or more" if hi is None else f"{said(hi)} or less"


def read_size(text: str) -> dict | None:
    """The size atom a chip's text says, or None when the words say none."""
    return longest(find_sizes(" ".join(text.lower().split())))
