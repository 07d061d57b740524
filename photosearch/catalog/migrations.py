"""Ordered schema migrations.

Each migration is `(version, description, function(connection))`. Migration 1 creates
the tables of the current models; later migrations must be idempotent (check the
column or index before adding it) because a fresh catalog gets the newest tables from
migration 1 and then runs them all.

`migrate` is safe when several processes open one catalog at once: it holds the
database's own lock (SQLite `BEGIN EXCLUSIVE`, a PostgreSQL advisory lock) while it reads
the version and applies what is missing. A catalog newer than this build is refused
before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, inspect, text

from photosearch import __version__
from photosearch.catalog import generation
from photosearch.catalog.models import Album, AlbumPhoto, Base, CatalogState, SchemaVersion, utcnow
from photosearch.errors import CatalogError
from photosearch.panoramas import WIDE_FROM

Migration = tuple[int, str, Callable[[Connection], None]]
# Any constant: every PhotoSearch process on one PostgreSQL server migrates under this lock.
_PG_MIGRATION_LOCK = 0x50686F74  # "Phot"


class NewerCatalogError(CatalogError):
    """The catalog was written by a newer PhotoSearch; this one must not touch it."""


def _create_tables(conn: Connection) -> None:
    Base.metadata.create_all(conn)


def _add_column_if_missing(conn: Connection, table: str, column: str, ddl_type: str) -> None:
    names = {c["name"] for c in inspect(conn).get_columns(table)}
    if column not in names:
        conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {ddl_type}"))


def _person_birthday(conn: Connection) -> None:
    _add_column_if_missing(conn, "people", "birthday", "TIMESTAMP")


def _folder_device_and_app_version(conn: Connection) -> None:
    _add_column_if_missing(conn, "folders", "device", "BIGINT")
    _add_column_if_missing(conn, "schema_version", "app_version", "VARCHAR(32)")


def _drop_unused_kv(conn: Connection) -> None:
    """The `kv` table never held anything: nothing wrote or read it."""
    if inspect(conn).has_table("kv"):
        conn.execute(text("DROP TABLE kv"))


def _catalog_generation(conn: Connection) -> None:
    """catalog_state (uid, generation) and the triggers that change the generation on every write."""
    CatalogState.__table__.create(conn, checkfirst=True)
    generation.install(conn)


def _albums(conn: Connection) -> None:
    """albums (manual and smart) and album_photos (a manual album's photos)."""
    Album.__table__.create(conn, checkfirst=True)
    AlbumPhoto.__table__.create(conn, checkfirst=True)


#: The analyzers whose new version reads a panorama anew (in parts, or at a larger size) and every
#: other photo as the old one did: analyzer -> (old version, new version); the catalog imports no
#: model code to ask them.
PANORAMA_READERS = {"tagger": (3, 4), "scenes": (3, 4), "detector": (3, 4), "faces": (2, 3), "ocr": (2, 3)}


def _only_panoramas_read_again(conn: Connection) -> None:
    """A photo no wider than a panorama keeps its tagger, scenes, detector, faces and text results:
    their new versions read it as the old ones did, so only panoramas are analysed again (not every
    photo)."""
    statement = text(
        "UPDATE analyses SET version = :new WHERE analyzer = :name AND version = :old AND photo_id IN ("
        " SELECT id FROM photos WHERE width > 0 AND height > 0 AND"
        " (CASE WHEN width >= height THEN width * 1.0 / height ELSE height * 1.0 / width END) <= :wide)"
    )
    for name, (old, new) in PANORAMA_READERS.items():
        conn.execute(statement, {"name": name, "old": old, "new": new, "wide": WIDE_FROM})


def _jpeg2000_exif_read_again(conn: Connection) -> None:
    """JPEG 2000 photos with no place and no date are read again on the next scan: their EXIF box,
    which earlier builds left unread, may hold both. Their analyses stay (the pixels are the same)."""
    conn.execute(
        text(
            "UPDATE photos SET mtime = -1 WHERE format = 'JPEG2000' AND gps_lat IS NULL AND taken_at IS NULL"
        )
    )


MIGRATIONS: list[Migration] = [
    (1, "initial catalog", _create_tables),
    (2, "people.birthday for 'on my birthday' requests", _person_birthday),
    (3, "folders.device (offline vs emptied), schema_version.app_version", _folder_device_and_app_version),
    (4, "drop the unused kv table", _drop_unused_kv),
    (5, "catalog_state: a uid and a generation every write changes (cache keys)", _catalog_generation),
    # 6 is left unused: this round's plan reserved 7 for albums
    (7, "albums (manual and smart) and their photos", _albums),
    (
        8,
        "tagger, scenes and detector results of photos that are no panorama carry over",
        _only_panoramas_read_again,
    ),
    (
        9,
        "JPEG 2000 photos with no place and no date are read again for their EXIF",
        _jpeg2000_exif_read_again,
    ),
]

LATEST = MIGRATIONS[-1][0]


def current_version(conn: Connection) -> int:
    if not inspect(conn).has_table(SchemaVersion.__tablename__):
        return 0
    value = conn.execute(text("SELECT MAX(version) FROM schema_version")).scalar()
    return int(value) if value is not None else 0


def _written_by(conn: Connection) -> str | None:
    """The app version that applied the newest migration, when the catalog recorded it."""
    columns = {c["name"] for c in inspect(conn).get_columns(SchemaVersion.__tablename__)}
    if "app_version" not in columns:
        return None
    return conn.execute(text("SELECT app_version FROM schema_version ORDER BY version DESC LIMIT 1")).scalar()


def check_not_newer(conn: Connection) -> int:
    """The catalog's schema version; `NewerCatalogError` when this build cannot read it."""
    have = current_version(conn)
    if have > LATEST:
        by = _written_by(conn)
        needed = f"PhotoSearch {by} or newer" if by else "a newer PhotoSearch"
        raise NewerCatalogError(
            f"the catalog has schema version {have}{f' (written by PhotoSearch {by})' if by else ''}, but "
            f"PhotoSearch {__version__} reads schema versions up to {LATEST}; upgrade to {needed} to open "
            "it (the catalog was not changed)"
        )
    return have


def lock_for_migration(conn: Connection) -> None:
    """Serialise migrations between processes, inside the connection's transaction."""
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql("BEGIN EXCLUSIVE")  # waits (busy_timeout) for another process migrating
    elif conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})


def migrate(conn: Connection) -> list[int]:
    """Apply every migration newer than the catalog; returns the versions applied.

    Call it under `lock_for_migration` when other processes may open the catalog at once."""
    applied = []
    have = check_not_newer(conn)
    for version, _desc, func in MIGRATIONS:
        if version <= have:
            continue
        if version == 1 or inspect(conn).has_table(SchemaVersion.__tablename__):
            func(conn)
        SchemaVersion.__table__.create(conn, checkfirst=True)
        row = {"version": version, "applied_at": utcnow()}
        if "app_version" in {c["name"] for c in inspect(conn).get_columns(SchemaVersion.__tablename__)}:
            row["app_version"] = __version__
        conn.execute(SchemaVersion.__table__.insert().values(**row))
        applied.append(version)
    return applied
