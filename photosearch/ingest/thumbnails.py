"""Thumbnails cached by content hash, so renames and duplicates share one file."""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image

THUMB_FORMAT = "WEBP"
THUMB_SUFFIX = ".webp"


def thumbnail_rel_path(content_hash: str) -> str:
    return f"{content_hash[:2]}/{content_hash}{THUMB_SUFFIX}"


def write_thumbnail(image: Image.Image, content_hash: str, thumbs_dir: Path, size: int = 256) -> tuple[str, int, int]:
    """Write (or reuse) the thumbnail; returns (relative path, width, height). Atomic."""
    rel = thumbnail_rel_path(content_hash)
    target = Path(thumbs_dir) / rel
    if target.exists():
        with Image.open(target) as existing:
            return rel, existing.width, existing.height
    thumb = image.copy()
    thumb.thumbnail((size, size), Image.Resampling.LANCZOS)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    thumb.save(tmp, THUMB_FORMAT, quality=82, method=4)
    os.replace(tmp, target)
    return rel, thumb.width, thumb.height
