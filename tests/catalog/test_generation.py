"""The catalog generation: a new value on every write a search can see (triggers), one uid per catalog."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from sqlalchemy import select, text

from photosearch.catalog import Store, generation
from photosearch.catalog.migrations import LATEST, current_version
from photosearch.catalog.models import Embedding, Face, Fact, Person, Photo
from photosearch.records import AnalysisResult, FaceRecord, FactRecord


@pytest.fixture
def store(tmp_path):
    st = Store(f"sqlite:///{tmp_path / 'c.db'}")
    yield st
    st.close()


def _photo(s, path: str = "/x/a.jpg") -> int:
    p = Photo(path=path, content_hash="h" * 64, size=1, mtime=1.0)
    s.add(p)
    s.flush()
    return p.id


def test_every_kind_of_write_changes_the_generation_and_reads_do_not(store, tmp_path):
    seen = [generation.current(store)]
    assert seen[0] is not None and len(seen[0].uid) == 32

    def changed(what: str) -> None:
        now = generation.current(store)
        assert now.uid == seen[0].uid, what
        assert now.value not in [g.value for g in seen], f"{what} did not change the generation"
        seen.append(now)

    with store.session() as s:
        pid = _photo(s)
    changed("a new photo")
    with store.session() as s:
        store.write_analysis(
            s,
            pid,
            "tagger",
            1,
            AnalysisResult(
                facts=[FactRecord("tag", "dog")],
                faces=[FaceRecord([0, 0, 0.5, 0.5], 0.9, np.ones(128, np.float32))],
                embeddings={"image": np.ones(8, np.float32)},
            ),
        )
    changed("facts, faces and an embedding")
    with store.session() as s:
        s.add(Person(name="Anna"))
    changed("a new person")
    with store.session() as s:
        s.scalars(select(Face)).one().person_id = s.scalars(select(Person)).one().id
    changed("a face named")
    with store.session() as s:
        s.scalars(select(Person)).one().name = "Anna Maria"
    changed("a person renamed")
    with store.session() as s:
        s.scalars(select(Fact)).one().score = 0.5
    changed("a fact's score")
    with store.session() as s:
        s.scalars(select(Embedding)).one().vector = np.zeros(8, np.float32).tobytes()
    changed("a vector replaced")
    with store.session() as s:
        s.get(Photo, pid).state = "deleted"
    changed("a photo deleted")
    con = sqlite3.connect(tmp_path / "c.db")  # another program, raw SQL
    con.execute("UPDATE photos SET camera_model = 'X100' WHERE id = ?", (pid,))
    con.commit()
    con.close()
    changed("a raw SQL update")
    with store.session() as s:
        s.execute(text("DELETE FROM facts"))
    changed("a raw delete through SQLAlchemy")
    with store.session() as s:
        s.scalars(select(Photo)).all()
        s.scalars(select(Face)).all()
    assert generation.current(store) == seen[-1]  # reading changes nothing


def test_a_version_4_catalog_gets_a_generation_and_keeps_its_data(tmp_path):
    db = tmp_path / "v4.db"
    Store(f"sqlite:///{db}").close()
    con = sqlite3.connect(db)  # what PhotoSearch wrote at schema version 4: no catalog_state, no triggers
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        con.execute(f"DROP TRIGGER {name}")
    con.execute("DROP TABLE catalog_state")
    con.execute("DELETE FROM schema_version WHERE version > 4")
    con.execute(
        "INSERT INTO photos (path, content_hash, size, mtime, state, added_at, updated_at) "
        "VALUES ('/x/old.jpg', 'h', 1, 1.0, 'active', '2026-01-01', '2026-01-01')"
    )
    con.commit()
    con.close()
    store = Store(f"sqlite:///{db}")
    with store.engine.connect() as conn:
        assert current_version(conn) == LATEST
    first = generation.current(store)
    assert first is not None
    with store.session() as s:
        assert [p.path for p in s.scalars(select(Photo))] == ["/x/old.jpg"]
        s.scalars(select(Photo)).one().camera_make = "Fujifilm"
    assert generation.current(store).value != first.value
    with store.begin() as conn:  # migrating again changes nothing: the uid is made once
        generation.install(conn)
    assert generation.current(store).uid == first.uid
    store.close()


def test_catalogs_have_their_own_uid(tmp_path):
    a, b = Store(f"sqlite:///{tmp_path / 'a.db'}"), Store(f"sqlite:///{tmp_path / 'b.db'}")
    assert generation.current(a).uid != generation.current(b).uid
    a.close()
    b.close()


def test_a_database_without_the_table_has_no_generation(tmp_path):
    db = tmp_path / "c.db"
    Store(f"sqlite:///{db}").close()
    con = sqlite3.connect(db)
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        con.execute(f"DROP TRIGGER {name}")
    con.execute("DROP TABLE catalog_state")
    con.execute("DELETE FROM schema_version WHERE version > 4")
    con.commit()
    con.close()
    store = Store(f"sqlite:///{db}", create=False)  # not migrated: nothing to read, no error
    assert generation.current(store) is None
    store.close()
