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


def index_as_nobody(settings: Settings, analyzers=()) -> dict:
    """Run one index in a forked child that dropped to uid/gid 65534 (nobody): real EACCES on
    root-only files and folders. Returns the report as a dict."""
    import json
    import os

    from photosearch.ingest.indexer import Indexer

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: everything is imported already; only the catalog and photos are opened
        code = 1
        try:
            os.close(read)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            report = Indexer(Store(settings.database_url), settings, list(analyzers)).run()
            os.write(write, json.dumps(report.as_dict(), default=str).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read) as fh:
        out = fh.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0 and out, "the indexer failed as nobody"
    return json.loads(out)


def open_to_everyone(*roots: Path) -> None:
    """chmod a+rwX so the `nobody` child can use the catalog and read the photos."""
    import os

    for root in roots:
        os.chmod(root, 0o777)
        for p in root.rglob("*"):
            os.chmod(p, 0o777 if p.is_dir() else 0o666)
