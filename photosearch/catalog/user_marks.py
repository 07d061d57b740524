"""What the user says about a photo by hand: tags ("favourite" among them), a star rating, a caption.

Facts of analyzer "user" (never replaced by analysis): kind `user_tag` (the `tag` atom), `rating`
(the `rating` atom, beside a rating read from the file) and `caption` (searchable text). With
`sidecar_writeback` on, they travel to the photo's XMP sidecar (metadata/sync.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from photosearch.catalog.models import Fact, Photo
from photosearch.errors import PhotoSearchError

USER = "user"
#: Stars a rating may have: -1 rejected, 0 none given, 1..5.
STARS = range(-1, 6)


@dataclass
class Marks:
    tags: list[str] = field(default_factory=list)
    rating: int | None = None
    caption: str | None = None

    def as_dict(self) -> dict:
        return {"tags": self.tags, "rating": self.rating, "caption": self.caption}


def mark(
    store,
    photo_id: int,
    *,
    add_tags: list[str] = (),
    remove_tags: list[str] = (),
    rating: int | None = None,
    clear_rating: bool = False,
    caption: str | None = None,
) -> Marks:
    """Change the user's marks on one photo; returns them as they are now."""
    if rating is not None and rating not in STARS:
        raise PhotoSearchError(f"a rating is -1 (rejected) or 0 to 5 stars, not {rating}")
    with store.session() as s:
        if s.get(Photo, photo_id) is None:
            raise PhotoSearchError(f"photo #{photo_id} is not in the catalog")
        have = {t.casefold() for t in _labels(s, photo_id, "user_tag")}
        for tag in add_tags:
            tag = " ".join(tag.split())
            if tag and tag.casefold() not in have:
                s.add(Fact(photo_id=photo_id, analyzer=USER, kind="user_tag", label=tag[:512]))
                have.add(tag.casefold())
        for tag in remove_tags:
            for f in s.scalars(_facts(photo_id, "user_tag")):
                if f.label.casefold() == " ".join(tag.split()).casefold():
                    s.delete(f)
        if rating is not None or clear_rating:
            s.execute(
                delete(Fact).where(Fact.photo_id == photo_id, Fact.analyzer == USER, Fact.kind == "rating")
            )
            if rating is not None:
                s.add(Fact(photo_id=photo_id, analyzer=USER, kind="rating", label=str(rating)))
        if caption is not None:
            s.execute(
                delete(Fact).where(Fact.photo_id == photo_id, Fact.analyzer == USER, Fact.kind == "caption")
            )
            if caption.strip():
                s.add(Fact(photo_id=photo_id, analyzer=USER, kind="caption", label=caption.strip()[:512]))
        s.flush()
        ratings = _labels(s, photo_id, "rating")
        captions = _labels(s, photo_id, "caption")
        return Marks(
            _labels(s, photo_id, "user_tag"),
            int(ratings[0]) if ratings else None,
            captions[0] if captions else None,
        )


def _facts(photo_id: int, kind: str):
    return (
        select(Fact)
        .where(Fact.photo_id == photo_id, Fact.analyzer == USER, Fact.kind == kind)
        .order_by(Fact.id)
    )


def _labels(s: Session, photo_id: int, kind: str) -> list[str]:
    return [f.label for f in s.scalars(_facts(photo_id, kind))]


def mark_many(
    store,
    photo_ids: list[int],
    *,
    tag: str | None = None,
    tagged: bool | None = None,
    same_as: tuple[str, ...] = (),
    rating: int | None = None,
    clear_rating: bool = False,
) -> int:
    """One change for many photos in one transaction (the app's selection: Ctrl+A, then 4): `tag`
    added (`tagged` True) or removed (False) — with the tags `same_as` it (any case), and/or the
    rating set or cleared. Every id must be a photo, else nothing changes. Returns how many photos."""
    from sqlalchemy import func

    from photosearch.catalog.batches import slices

    if rating is not None and rating not in STARS:
        raise PhotoSearchError(f"a rating is -1 (rejected) or 0 to 5 stars, not {rating}")
    ids = list(dict.fromkeys(int(p) for p in photo_ids))
    with store.session() as s:
        found = set()
        for part in slices(ids):
            found.update(s.scalars(select(Photo.id).where(Photo.id.in_(part))))
        missing = [p for p in ids if p not in found]
        if missing:
            raise PhotoSearchError(f"photo #{missing[0]} is not in the catalog (nothing was changed)")
        label = " ".join((tag or "").split())
        for part in slices(ids):
            if label and tagged is not None:
                names = {label.lower(), *(t.lower() for t in same_as)}
                mine = (Fact.analyzer == USER, Fact.kind == "user_tag", func.lower(Fact.label).in_(names))
                have = set(s.scalars(select(Fact.photo_id).where(Fact.photo_id.in_(part), *mine)))
                if tagged:
                    s.add_all(
                        Fact(photo_id=p, analyzer=USER, kind="user_tag", label=label[:512])
                        for p in part
                        if p not in have
                    )
                elif have:
                    s.execute(delete(Fact).where(Fact.photo_id.in_(part), *mine))
            if rating is not None or clear_rating:
                s.execute(
                    delete(Fact).where(Fact.photo_id.in_(part), Fact.analyzer == USER, Fact.kind == "rating")
                )
                if rating is not None:
                    s.add_all(Fact(photo_id=p, analyzer=USER, kind="rating", label=str(rating)) for p in part)
    return len(ids)
