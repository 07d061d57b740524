"""Named face regions from exiv2's flattened XMP: the Metadata Working Group's (`mwg-rs`, written by
Lightroom, digiKam, Picasa, Apple Photos exports) and Microsoft Photo's (`MP:RegionInfo`, written by
Windows Photo Gallery and digiKam beside its MWG regions).

Boxes come back as (x0, y0, x1, y1) in 0..1 of the *oriented* image (the frame our face detector
uses). Both schemes give regions in the frame of the image as stored; EXIF orientation turns them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

Box = tuple[float, float, float, float]

_MWG = re.compile(r"^Xmp\.mwg-rs\.Regions/mwg-rs:RegionList\[(\d+)\]/(.+)$")
_MP = re.compile(r"^Xmp\.MP\.RegionInfo/MPRI:Regions\[(\d+)\]/(.+)$")
#: MWG region types that are people (an empty type is taken as a face, as Picasa writes none).
FACE_TYPES = frozenset({"face", ""})


def named_regions(xmp: dict, orientation: int = 1) -> Iterator[tuple[str, Box, str]]:
    """(name, box, scheme) of every named face region in exiv2's XMP keys."""
    for fields in _items(xmp, _MWG).values():
        name = _text(fields.get("mwg-rs:Name"))
        kind = _text(fields.get("mwg-rs:Type")).lower()
        if not name or kind not in FACE_TYPES:
            continue
        box = _mwg_box(fields)
        if box is not None:
            yield name, orient_box(box, orientation), "mwg"
    for fields in _items(xmp, _MP).values():
        name = _text(fields.get("MPReg:PersonDisplayName"))
        box = _mp_box(_text(fields.get("MPReg:Rectangle")))
        if name and box is not None:
            yield name, orient_box(box, orientation), "mp"


def _items(xmp: dict, pattern: re.Pattern) -> dict[int, dict[str, object]]:
    out: dict[int, dict[str, object]] = {}
    for key, value in xmp.items():
        m = pattern.match(key)
        if m:
            out.setdefault(int(m.group(1)), {})[m.group(2)] = value
    return dict(sorted(out.items()))


def _text(value) -> str:
    if isinstance(value, dict):  # a lang-alt name
        value = next(iter(value.values()), "")
    if isinstance(value, (list, tuple)):
        value = value[0] if value else ""
    text = " ".join(str(value or "").split())
    return "" if text.startswith('type="') else text


def _num(value) -> float | None:
    try:
        v = float(_text(value))
    except ValueError:
        return None
    return v if v == v and abs(v) != float("inf") else None


def _valid(box: Box) -> Box | None:
    x0, y0, x1, y1 = (min(max(v, 0.0), 1.0) for v in box)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def _mwg_box(fields: dict) -> Box | None:
    """MWG stArea: centre x, y and size w, h, normalised (pixel units scaled by AppliedToDimensions
    are not used by the writers we meet; such a region is skipped)."""
    unit = _text(fields.get("mwg-rs:Area/stArea:unit")).lower()
    if unit not in ("normalized", ""):
        return None
    x, y = _num(fields.get("mwg-rs:Area/stArea:x")), _num(fields.get("mwg-rs:Area/stArea:y"))
    w, h = _num(fields.get("mwg-rs:Area/stArea:w")), _num(fields.get("mwg-rs:Area/stArea:h"))
    if None in (x, y, w, h):
        return None
    return _valid((x - w / 2, y - h / 2, x + w / 2, y + h / 2))  # type: ignore[operator]


def _mp_box(rect: str) -> Box | None:
    """MP Rectangle: "x, y, w, h" of the top-left corner and size, normalised."""
    parts = [p for p in re.split(r"[,\s]+", rect.strip()) if p]
    if len(parts) != 4:
        return None
    try:
        x, y, w, h = (float(p) for p in parts)
    except ValueError:
        return None
    return _valid((x, y, x + w, y + h))


def orient_box(box: Box, orientation: int) -> Box:
    """A box of the stored image in the frame EXIF orientation shows (1..8, as Pillow's exif_transpose)."""
    x0, y0, x1, y1 = box
    pts = [(x0, y0), (x1, y1)]
    if orientation == 2:
        pts = [(1 - x, y) for x, y in pts]
    elif orientation == 3:
        pts = [(1 - x, 1 - y) for x, y in pts]
    elif orientation == 4:
        pts = [(x, 1 - y) for x, y in pts]
    elif orientation == 5:
        pts = [(y, x) for x, y in pts]
    elif orientation == 6:
        pts = [(1 - y, x) for x, y in pts]
    elif orientation == 7:
        pts = [(1 - y, 1 - x) for x, y in pts]
    elif orientation == 8:
        pts = [(y, 1 - x) for x, y in pts]
    (ax, ay), (bx, by) = pts
    return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
