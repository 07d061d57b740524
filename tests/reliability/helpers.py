"""Shared helpers for the reliability suite: a real catalog, user tags, catalog queries."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Fact, FileIssue, Photo
from photosearch.config import Settings
from photosearch.ingest.paths import from_db_path, to_db_path


def make_env(tmp_path: Path, **settings_kw) -> tuple[Settings, Store]:
    settings = Settings(data_dir=tmp_path / "data", batch_size=4, **settings_kw)
    settings.ensure_dirs()
    return settings, Store(settings.database_url)


def photos(store: Store, state: str | None = "active") -> dict[str, Photo]:
    with store.session() as s:
        stmt = select(Photo) if state is None else select(Photo).where(Photo.state == state)
        return {from_db_path(p.path): p for p in s.scalars(stmt)}


def tag(store: Store, path: Path, label: str) -> int:
    with store.session() as s:
        photo = s.scalar(select(Photo).where(Photo.path == to_db_path(str(path))))
        s.add(Fact(photo_id=photo.id, analyzer="user", kind="user_tag", label=label))
        return photo.id


def user_tags(store: Store, photo_id: int) -> set[str]:
    with store.session() as s:
        return set(s.scalars(select(Fact.label).where(Fact.photo_id == photo_id, Fact.analyzer == "user")))


def issues(store: Store) -> dict[str, tuple[str, str]]:
    with store.session() as s:
        return {from_db_path(i.path): (i.reason, i.message) for i in s.scalars(select(FileIssue))}
