"""Ordered schema migrations.

Each migration is `(version, description, function(connection))`. Migration 1 creates
the tables of the current models; later migrations must be idempotent (check the
column or index before adding it) because a fresh catalog gets the newest tables from
migration 1 and then runs them all.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, inspect, select, text

from photosearch.catalog.models import Base, SchemaVersion, utcnow

Migration = tuple[int, str, Callable[[Connection], None]]


def _create_tables(conn: Connection) -> None:
    Base.metadata.create_all(conn)


def _add_column_if_missing(conn: Connection, table: str, column: str, ddl_type: str) -> None:
    names = {c["name"] for c in inspect(conn).get_columns(table)}
    if column not in names:
        conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {ddl_type}"))


def _person_birthday(conn: Connection) -> None:
    _add_column_if_missing(conn, "people", "birthday", "TIMESTAMP")


MIGRATIONS: list[Migration] = [
    (1, "initial catalog", _create_tables),
    (2, "people.birthday for 'on my birthday' requests", _person_birthday),
]

LATEST = MIGRATIONS[-1][0]


def current_version(conn: Connection) -> int:
    if not inspect(conn).has_table(SchemaVersion.__tablename__):
        return 0
    value = conn.execute(select(SchemaVersion.version).order_by(SchemaVersion.version.desc())).first()
    return int(value[0]) if value else 0


def migrate(conn: Connection) -> list[int]:
    """Apply every migration newer than the catalog; returns the versions applied."""
    applied = []
    have = current_version(conn)
    for version, _desc, func in MIGRATIONS:
        if version <= have:
            continue
        if version == 1 or inspect(conn).has_table(SchemaVersion.__tablename__):
            func(conn)
        SchemaVersion.__table__.create(conn, checkfirst=True)
        conn.execute(SchemaVersion.__table__.insert().values(version=version, applied_at=utcnow()))
        applied.append(version)
    return applied
