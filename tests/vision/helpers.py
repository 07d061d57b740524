"""Helpers for the OCR/faces/people tests: images, signs, catalog rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from photosearch.catalog.models import Photo
from photosearch.catalog.store import Store
from photosearch.records import AnalysisResult, FaceRecord, PhotoImage


def photo_image(rgb: np.ndarray, photo_id: int = 1, path: str = "mem.jpg") -> PhotoImage:
    return PhotoImage(
        photo_id=photo_id, path=path, rgb=rgb, full_width=rgb.shape[1], full_height=rgb.shape[0]
    )


def font_path() -> str:
    for p in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ):
        if Path(p).is_file():
            return p
    from matplotlib import font_manager

    return font_manager.findfont("DejaVu Sans")


def render_sign(
    lines: list[str], size=(900, 600), font_size=64, bg=(30, 90, 160), fg=(255, 255, 255)
) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("RGB", size, bg)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(font_path(), font_size)
    y = 120
    for line in lines:
        draw.text((60, y), line, font=font, fill=fg)
        y += int(font_size * 1.6)
    return np.asarray(img)


def resize(rgb: np.ndarray, w: int, h: int) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.fromarray(rgb).resize((w, h), Image.BICUBIC))


def add_photo(store: Store, path: str, state: str = "active") -> int:
    with store.session() as s:
        photo = Photo(
            path=path, content_hash=f"h-{path}", size=1, mtime=0.0, state=state, width=100, height=100
        )
        s.add(photo)
        s.flush()
        return photo.id


def add_faces(
    store: Store, photo_id: int, descriptors: list[np.ndarray], analyzer: str = "faces"
) -> list[int]:
    """Write faces for a photo the way the indexer does; returns their ids."""
    from sqlalchemy import select

    from photosearch.catalog.models import Face

    result = AnalysisResult(
        faces=[
            FaceRecord(box=[0.1 * i, 0.1, 0.1 * i + 0.1, 0.3], score=0.9, descriptor=d)
            for i, d in enumerate(descriptors)
        ]
    )
    with store.session() as s:
        store.write_analysis(s, photo_id, analyzer, 1, result)
        s.flush()
        return list(s.scalars(select(Face.id).where(Face.photo_id == photo_id).order_by(Face.id)))


def person_of(store: Store, face_id: int) -> int | None:
    from photosearch.catalog.models import Face

    with store.session() as s:
        return s.get(Face, face_id).person_id
