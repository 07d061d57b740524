"""Albums: manual (the photos the user put in) and smart (a saved search plan, run again when opened,
so it follows the library as photos come and go). Names are unique without regard to case."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from photosearch.catalog.batches import slices
from photosearch.catalog.models import Album, AlbumPhoto, Photo, is_row_id, utcnow
from photosearch.errors import PhotoSearchError

MANUAL, SMART = "manual", "smart"
MAX_NAME = 256


@dataclass
class AlbumInfo:
    id: int
    name: str
    kind: str
    plan: dict | None = None
    request: str | None = None
    count: int | None = None  # manual albums: photos in it (smart ones: known once run)

    @property
    def smart(self) -> bool:
        return self.kind == SMART

    def as_dict(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "plan": self.plan,
            "request": self.request,
            "count": self.count,
        }


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def clean_name(name: str) -> str:
    """An album name as stored: spaces collapsed; an empty or too long name is refused."""
    name = " ".join(str(name or "").split())
    if not name:
        raise PhotoSearchError("an album needs a name")
    if len(name) > MAX_NAME:
        raise PhotoSearchError(f"an album name has at most {MAX_NAME} characters, this one {len(name)}")
    return name


def _info(s: Session, a: Album) -> AlbumInfo:
    count = None
    if a.kind == MANUAL:
        count = int(
            s.scalar(
                select(func.count())
                .select_from(AlbumPhoto)
                .join(Photo, Photo.id == AlbumPhoto.photo_id)
                .where(AlbumPhoto.album_id == a.id, Photo.state == "active")
            )
            or 0
        )
    return AlbumInfo(a.id, a.name, a.kind, a.plan, a.request, count)


def _find(s: Session, name: str) -> Album:
    album = s.scalar(select(Album).where(Album.name_key == name_key(name)))
    if album is None:
        names = [n for (n,) in s.execute(select(Album.name).order_by(Album.name_key)).all()]
        known = f"; the albums are: {', '.join(names)}" if names else "; there are no albums yet"
        raise PhotoSearchError(f"there is no album named {name!r}{known}")
    return album


def _refuse_taken(s: Session, name: str, but: int | None = None) -> None:
    other = s.scalar(select(Album).where(Album.name_key == name_key(name)))
    if other is not None and other.id != but:
        raise PhotoSearchError(f"an album named {other.name!r} already exists; choose another name")


def create_album(store, name: str, *, plan: dict | None = None, request: str | None = None) -> AlbumInfo:
    """A new album: smart when it has a plan (validated here), else manual."""
    name = clean_name(name)
    if plan is not None:
        from photosearch.query.plan import validate_plan

        plan = validate_plan(plan)
    with store.session() as s:
        _refuse_taken(s, name)
        album = Album(
            name=name,
            name_key=name_key(name),
            kind=SMART if plan is not None else MANUAL,
            plan=plan,
            request=(request or "").strip() or None,
        )
        s.add(album)
        s.flush()
        return _info(s, album)


def get_album(store, name: str) -> AlbumInfo:
    with store.session() as s:
        return _info(s, _find(s, name))


def list_albums(store) -> list[AlbumInfo]:
    with store.session() as s:
        return [_info(s, a) for a in s.scalars(select(Album).order_by(Album.name_key))]


def album_names(store) -> list[str]:
    with store.session() as s:
        return [n for (n,) in s.execute(select(Album.name).order_by(Album.name_key)).all()]


def rename_album(store, name: str, new_name: str) -> AlbumInfo:
    new_name = clean_name(new_name)
    with store.session() as s:
        album = _find(s, name)
        _refuse_taken(s, new_name, but=album.id)
        album.name, album.name_key, album.updated_at = new_name, name_key(new_name), utcnow()
        s.flush()
        return _info(s, album)


def set_plan(store, name: str, plan: dict, request: str | None = None) -> AlbumInfo:
    """Save an edited search into a smart album (a manual album keeps its photos: refused)."""
    from photosearch.query.plan import validate_plan

    plan = validate_plan(plan)
    with store.session() as s:
        album = _find(s, name)
        if album.kind != SMART:
            raise PhotoSearchError(f"{album.name!r} is a manual album: it holds photos, not a search")
        album.plan, album.updated_at = plan, utcnow()
        if request is not None:
            album.request = request.strip() or None
        s.flush()
        return _info(s, album)


def delete_album(store, name: str) -> AlbumInfo:
    """Delete an album (never its photos)."""
    with store.session() as s:
        album = _find(s, name)
        info = _info(s, album)
        s.execute(delete(AlbumPhoto).where(AlbumPhoto.album_id == album.id))
        s.delete(album)
        return info


def _manual(s: Session, name: str) -> Album:
    album = _find(s, name)
    if album.kind != MANUAL:
        raise PhotoSearchError(
            f"{album.name!r} is a smart album: it shows what its search finds; add photos to a manual album"
        )
    return album


def _known_ids(s: Session, photo_ids: Iterable[int]) -> list[int]:
    ids = list(dict.fromkeys(int(p) for p in photo_ids))
    bad = [p for p in ids if not is_row_id(p)]
    found: set[int] = set()
    for part in slices([p for p in ids if is_row_id(p)]):
        found.update(s.scalars(select(Photo.id).where(Photo.id.in_(part))))
    missing = [p for p in ids if p in bad or p not in found]
    if missing:
        shown = ", ".join(f"#{p}" for p in missing[:10]) + (" …" if len(missing) > 10 else "")
        raise PhotoSearchError(f"no photo has the id {shown} (nothing was changed)")
    return ids


def add_photos(store, name: str, photo_ids: Iterable[int]) -> int:
    """Put photos in a manual album; returns how many were not in it yet."""
    with store.session() as s:
        album = _manual(s, name)
        ids = _known_ids(s, photo_ids)
        have = set(s.scalars(select(AlbumPhoto.photo_id).where(AlbumPhoto.album_id == album.id)))
        new = [p for p in ids if p not in have]
        s.add_all(AlbumPhoto(album_id=album.id, photo_id=p) for p in new)
        album.updated_at = utcnow()
        return len(new)


def remove_photos(store, name: str, photo_ids: Iterable[int]) -> int:
    """Take photos out of a manual album (the photos stay in the library); returns how many were in it."""
    ids = list(dict.fromkeys(int(p) for p in photo_ids if is_row_id(int(p))))
    with store.session() as s:
        album = _manual(s, name)
        gone = sum(
            s.execute(
                delete(AlbumPhoto).where(AlbumPhoto.album_id == album.id, AlbumPhoto.photo_id.in_(part))
            ).rowcount
            or 0
            for part in slices(ids)
        )
        album.updated_at = utcnow()
        return int(gone or 0)


def album_photo_ids(store, name: str) -> list[int]:
    """A manual album's active photos, oldest first (undated ones last)."""
    with store.session() as s:
        album = _manual(s, name)
        return list(
            s.scalars(
                select(Photo.id)
                .join(AlbumPhoto, AlbumPhoto.photo_id == Photo.id)
                .where(AlbumPhoto.album_id == album.id, Photo.state == "active")
                .order_by(Photo.taken_at.asc().nullslast(), Photo.id)
            )
        )


def photos_in_any_album(store) -> list[int]:
    """The photos someone put in any manual album ("photos not in any album" are the rest)."""
    with store.session() as s:
        return list(s.scalars(select(AlbumPhoto.photo_id).distinct()))
