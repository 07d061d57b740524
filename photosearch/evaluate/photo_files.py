"""Writing an evaluation set's photo in the format its file name asks for (shared by the real and
held-out sets): JPEG with the EXIF date taken, HEIC, WebP/AVIF, palette GIF, else Pillow's default."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import piexif
from PIL import Image


def save_photo(path: Path, im: Image.Image, taken: datetime | None = None, *, jpeg_quality: int = 90) -> None:
    ext = path.suffix.lower()
    if ext == ".jpg":
        kw: dict = {"quality": jpeg_quality}
        if taken:
            stamp = taken.strftime("%Y:%m:%d %H:%M:%S").encode()
            kw["exif"] = piexif.dump({"Exif": {piexif.ExifIFD.DateTimeOriginal: stamp}})
        im.save(path, **kw)
    elif ext == ".gif":
        im.convert("P", palette=Image.ADAPTIVE).save(path)
    elif ext == ".heic":
        from photosearch.ingest.decode import heif_available

        heif_available()  # registers pillow-heif's saver
        im.save(path, format="HEIF", quality=80)
    elif ext in (".webp", ".avif"):
        im.save(path, quality=80)
    else:
        im.save(path)
