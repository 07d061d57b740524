"""The catalog's generation: one value that changes with every write a search can see.

`catalog_state` holds one row: `uid`, made once when the catalog is created, and `generation`, which
triggers set on every INSERT, UPDATE or DELETE of photos, facts, faces, people and embeddings, raw
SQL included, in the writer's own transaction (so a reader sees the data and its generation
together). Caches of those tables (the search snapshot, vector index sidecars, the persisted
snapshot file) are keyed by `(uid, generation)`: checking one is one read of a one-row table.

Each write draws a new random 64-bit generation (SQLite's `random()`; 53 bits on PostgreSQL) rather
than adding one: a catalog restored from a backup (same uid, an older count) would otherwise count up
again to values a cache was saved under. Only equality is ever compared. The price on SQLite is ~8 µs
per row written (a counter would be ~2 µs): +35-40 % on a bulk synthetic insert, noise beside the
models when indexing.

SQLite: an AFTER ... FOR EACH ROW trigger per table and kind of write. PostgreSQL: one plpgsql
function run BEFORE each statement (the counter row is locked before any row a statement writes, so
two writers never deadlock over it). Other dialects get no triggers and no generation: callers fall
back to what they did before (`read` returns None).
"""

from __future__ import annotations

import logging
import secrets
from typing import NamedTuple

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

log = logging.getLogger(__name__)

#: The tables whose writes change what a search sees.
WATCHED = ("photos", "facts", "faces", "people", "embeddings")
DIALECTS = ("sqlite", "postgresql")
_PG_FUNCTION = "photosearch_new_generation"


class Generation(NamedTuple):
    uid: str
    value: int

    def key(self) -> list:
        """As JSON (a sidecar or a file's metadata)."""
        return [self.uid, self.value]


def _new_value() -> int:
    return secrets.randbits(63)


def install(conn: Connection) -> None:
    """Create the row (once) and the triggers (idempotent); nothing on other dialects."""
    conn.execute(
        text(
            "INSERT INTO catalog_state (id, uid, generation) SELECT 1, :uid, :gen "
            "WHERE NOT EXISTS (SELECT 1 FROM catalog_state WHERE id = 1)"
        ),
        {"uid": secrets.token_hex(16), "gen": _new_value()},
    )
    if conn.dialect.name == "sqlite":
        for table in WATCHED:
            for event in ("INSERT", "UPDATE", "DELETE"):
                conn.exec_driver_sql(
                    f"CREATE TRIGGER IF NOT EXISTS generation_{table}_{event.lower()} AFTER {event} ON {table} "
                    "FOR EACH ROW BEGIN UPDATE catalog_state SET generation = random() WHERE id = 1; END"
                )
    elif conn.dialect.name == "postgresql":
        conn.exec_driver_sql(
            f"CREATE OR REPLACE FUNCTION {_PG_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "UPDATE catalog_state SET generation = floor(random() * 9007199254740991)::bigint WHERE id = 1; "
            "RETURN NULL; END $$"
        )
        for table in WATCHED:
            conn.exec_driver_sql(f"DROP TRIGGER IF EXISTS generation_{table} ON {table}")
            conn.exec_driver_sql(
                f"CREATE TRIGGER generation_{table} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table} "
                f"FOR EACH STATEMENT EXECUTE FUNCTION {_PG_FUNCTION}()"
            )


def read(conn: Connection) -> Generation | None:
    """The catalog's (uid, generation); None where it has none (another dialect, an older schema)."""
    if conn.dialect.name not in DIALECTS:
        return None
    try:
        row = conn.execute(text("SELECT uid, generation FROM catalog_state WHERE id = 1")).first()
    except DBAPIError as exc:  # an older catalog opened without migrating (Store(create=False))
        log.debug("no catalog generation: %s", exc)
        conn.rollback()
        return None
    return Generation(str(row[0]), int(row[1])) if row is not None else None


def current(store) -> Generation | None:
    """`read` on a connection of its own (the state other connections have committed)."""
    with store.connect() as conn:
        return read(conn)
