"""Thumbnails cached by content hash, so renames and duplicates share one file."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from PIL import Image

from photosearch.panoramas import panorama_box

THUMB_FORMAT = "WEBP"
THUMB_SUFFIX = ".webp"


def thumbnail_rel_path(content_hash: str) -> str:
    return f"{content_hash[:2]}/{content_hash}{THUMB_SUFFIX}"


#: A panorama's thumbnail keeps half the thumbnail size on its short side (fitted into the square, a
#: 6:1 panorama would be a strip 42 px high; the grid shows a 2:1 window of it, as sharp as other
#: photos), and is at most this many sizes long.
PANORAMA_LONGEST = 4


def thumbnail_box(width: int, height: int, size: int = 256) -> tuple[int, int]:
    """The box a photo's thumbnail fits in: the square of `size`, or a panorama's longer one."""
    return panorama_box(width, height, size, size // 2, PANORAMA_LONGEST)


def make_thumbnail(image: Image.Image, size: int = 256) -> Image.Image:
    thumb = image.copy()
    thumb.thumbnail(
        thumbnail_box(image.width, image.height, size), Image.Resampling.LANCZOS, reducing_gap=2.0
    )
    return thumb


def write_thumbnail(thumb: Image.Image, content_hash: str, thumbs_dir: Path) -> tuple[str, int, int]:
    """Write (or reuse) the thumbnail file; returns (relative path, width, height). Atomic."""
    rel = thumbnail_rel_path(content_hash)
    target = Path(thumbs_dir) / rel
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(
            f".{target.name}.{os.getpid()}.{threading.get_ident()}.tmp"
        )  # unique per worker
        try:
            thumb.save(tmp, THUMB_FORMAT, quality=82, method=1)  # method 1: 4x faster than the default
            os.replace(tmp, target)
        except BaseException:  # disk full, unwritable folder, cancelled: leave no partial file behind
            tmp.unlink(missing_ok=True)
            raise
    return rel, thumb.width, thumb.height
