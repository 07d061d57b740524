"""The search snapshot saved beside the catalog: read back exactly as SQL gives it, keyed by the
catalog's uid and generation, never trusted when damaged, foreign or older, never saved half-changed."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from sqlalchemy import select, text

from photosearch.catalog import generation
from photosearch.catalog.models import Person
from photosearch.query.resolvers import snapshot, snapshot_file
from photosearch.query.resolvers.places import ensure_place_facts
from photosearch.query.resolvers.snapshot_file import snapshot_dir

from .snapshots import assert_same_snapshot


def _from_sql(store):
    with store.connect() as conn:
        return snapshot.load_snapshot(conn)


def _file(settings, store):
    return snapshot_dir(settings) / f"{generation.current(store).uid}.npz"


@pytest.fixture
def sql_reads(monkeypatch):
    """How many times the snapshot was read from SQL."""
    count = {"n": 0}
    real = snapshot.load_snapshot

    def counting(conn):
        count["n"] += 1
        return real(conn)

    monkeypatch.setattr(snapshot, "load_snapshot", counting)
    return count


@pytest.fixture
def rich(store, gallery):
    """The gallery with places, a file name beyond ASCII, a label with a NUL and one with non-ASCII
    letters."""
    ensure_place_facts(store)
    with store.begin() as conn:
        conn.execute(
            text("UPDATE photos SET path = :p WHERE id = :i"),
            {"p": "/photos/Home/café ☕.jpg", "i": gallery["cat1.jpg"]},
        )
        for label in ("a\x00b", "Ærøskøbing façade"):
            conn.execute(
                text(
                    "INSERT INTO facts (photo_id, analyzer, kind, label, score, created_at) "
                    "VALUES (:i, 'user', 'user_tag', :l, 1.0, CURRENT_TIMESTAMP)"
                ),
                {"i": gallery["car.jpg"], "l": label},
            )
    return gallery


def test_the_saved_snapshot_reads_back_as_sql_gives_it(store, settings, rich, sql_reads):
    first = snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert sql_reads["n"] == 1 and _file(settings, store).is_file()  # read from SQL, then saved
    assert first.places and first.people and first.person_of_row and first.camera_models
    assert "/photos/Home/café ☕.jpg" in first.paths and first.groups["knowledge"]
    snapshot.invalidate(store)  # as a new process
    again = snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert sql_reads["n"] == 1  # from the file
    assert again is not first
    assert_same_snapshot(again, _from_sql(store))
    assert again.group("user_tag", "a\x00b") is not None


def test_an_empty_catalog_round_trips(store, settings, sql_reads):
    snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    snapshot.invalidate(store)
    empty = snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert sql_reads["n"] == 1 and empty.n == 0
    assert_same_snapshot(empty, _from_sql(store))


def test_a_changed_catalog_does_not_use_the_file_and_saves_a_new_one(store, settings, rich, sql_reads):
    snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    before = generation.current(store)
    with store.session() as s:  # a rename changes nothing but a person's name: the file is old now
        s.scalar(select(Person).where(Person.name == "Anna")).name = "Annabel"
    snapshot.invalidate(store)
    snap = snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert sql_reads["n"] == 2 and "annabel" in snap.people and "anna" not in snap.people
    assert not snapshot_file.is_current(snapshot_dir(settings), before)
    assert snapshot_file.is_current(snapshot_dir(settings), generation.current(store))
    # the same process sees a raw SQL write at once (no file, no interval)
    con = sqlite3.connect(settings.data_dir / "catalog.db")
    con.execute("UPDATE people SET name = 'Tomas' WHERE name = 'Tom'")
    con.commit()
    con.close()
    assert "tomas" in snapshot.get_snapshot(store, directory=snapshot_dir(settings)).people


def _damage(path, how: str, other_file) -> None:
    data = bytearray(path.read_bytes())
    if how == "truncated":
        path.write_bytes(bytes(data[: len(data) // 2]))
    elif how == "flipped":
        for at in range(200, len(data) - 200, max(1, len(data) // 50)):
            data[at] ^= 0x5A
        path.write_bytes(bytes(data))
    elif how == "garbage":
        path.write_bytes(b"PK\x03\x04 not a zip at all" * 100)
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "pickle":
        np.save(path.with_suffix(".tmp.npy"), np.array([{"x": 1}], dtype=object), allow_pickle=True)
        path.write_bytes(path.with_suffix(".tmp.npy").read_bytes())
    elif how == "other catalog":
        path.write_bytes(other_file.read_bytes())


@pytest.mark.parametrize("how", ["truncated", "flipped", "garbage", "empty", "pickle", "other catalog"])
def test_a_damaged_or_foreign_file_is_ignored_and_replaced(tmp_path, store, settings, rich, sql_reads, how):
    from photosearch.catalog import Store
    from photosearch.config import Settings

    other_settings = Settings(data_dir=tmp_path / "other")
    other = Store(other_settings.database_url)
    snapshot.get_snapshot(other, directory=snapshot_dir(other_settings))
    other_file = _file(other_settings, other)
    snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    path = _file(settings, store)
    _damage(path, how, other_file)
    snapshot.invalidate(store)
    snap = snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert sql_reads["n"] == 3  # other, store, store again: the file was not used
    assert snapshot_file.is_current(snapshot_dir(settings), generation.current(store))  # replaced
    snapshot.invalidate(store)
    assert_same_snapshot(snapshot.get_snapshot(store, directory=snapshot_dir(settings)), snap)
    assert sql_reads["n"] == 3  # the new file was read
    other.close()


def test_inconsistent_arrays_are_damage_not_a_crash(store, settings, rich):
    snap = _from_sql(store)
    arrays, meta = snapshot_file.encode(snap)
    for name, bad in [
        ("camera_code", np.full_like(arrays["camera_code"], 99)),
        ("group_rows", arrays["group_rows"] + 1000),
        ("group_offsets", arrays["group_offsets"][:-1]),
        ("ids", arrays["ids"][::-1].copy()),
        ("paths_len", arrays["paths_len"] + 1),
        ("face_count", arrays["face_count"].astype(np.int64)),
        ("row_people_codes", arrays["row_people_codes"] + 50),
    ]:
        with pytest.raises(snapshot_file.Damaged):
            snapshot_file.decode(arrays | {name: bad}, meta)
    with pytest.raises(snapshot_file.Damaged):
        snapshot_file.decode({k: v for k, v in arrays.items() if k != "lat"}, meta)


def test_another_format_version_is_not_used(store, settings, rich, sql_reads, monkeypatch):
    snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    monkeypatch.setattr(snapshot_file, "FORMAT", snapshot_file.FORMAT + 1)
    snapshot.invalidate(store)
    snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert sql_reads["n"] == 2


def test_a_write_during_the_read_is_never_saved_under_the_later_generation(
    store, settings, rich, monkeypatch
):
    real = snapshot.load_snapshot

    def read_while_a_writer_commits(conn):
        snap = real(conn)  # what SQL gave before the rename...
        with store.session() as s:  # ...and a rename committed before the read finished
            s.scalar(select(Person).where(Person.name == "Tom")).name = "Thomas"
        return snap

    monkeypatch.setattr(snapshot, "load_snapshot", read_while_a_writer_commits)
    stale = snapshot.get_snapshot(store, directory=snapshot_dir(settings))
    assert "tom" in stale.people
    assert not list(snapshot_dir(settings).glob("*.npz"))  # not saved: it matches no generation
    monkeypatch.setattr(snapshot, "load_snapshot", real)
    fresh = snapshot.get_snapshot(store, directory=snapshot_dir(settings))  # the next call reloads
    assert "thomas" in fresh.people and "tom" not in fresh.people
    assert snapshot_file.is_current(snapshot_dir(settings), generation.current(store))


def test_the_post_step_saves_it_and_a_new_process_search_reads_it(
    store, settings, rich, fake_embedder, monkeypatch
):
    from photosearch.app import default_post_steps
    from photosearch.query.search import search

    step = dict(default_post_steps(settings))["snapshot"]
    assert [name for name, _ in default_post_steps(settings)][-1] == "snapshot"
    assert step(store, None, None, lambda: False) == {"saved": True, "photos": 10, "up_to_date": False}
    assert snapshot.current_snapshot(store) is None  # an indexing-only process keeps none in memory
    assert step(store, None, None, lambda: False)["up_to_date"]
    snapshot.invalidate(store)
    monkeypatch.setattr(snapshot, "load_snapshot", lambda conn: pytest.fail("read from SQL, not the file"))
    out = search(
        store, settings, plan={"version": 1, "where": {"person": "anna"}}, text_embedder=fake_embedder
    )
    assert sorted(r["path"].rsplit("/", 1)[-1] for r in out["results"]) == [
        "dog1.jpg",
        "dog2.jpg",
        "group.jpg",
    ]


def test_a_cache_dir_that_cannot_be_written_costs_only_the_save(store, settings, rich, sql_reads):
    blocked = settings.cache_dir / "snapshot"
    blocked.write_text("a file where the directory should be")
    snap = snapshot.get_snapshot(store, directory=blocked)
    assert snap.n == 10
    assert snapshot.get_snapshot(store, directory=blocked) is snap and sql_reads["n"] == 1


def test_a_temp_file_left_by_a_dead_writer_is_removed_by_the_next_save(store, settings, rich):
    import os

    directory = snapshot_dir(settings)
    directory.mkdir(parents=True)
    path = _file(settings, store)
    dead = directory / f".{path.name}.99999.1.tmp"  # a process killed while writing, an hour ago
    busy = directory / f".{path.name}.99998.1.tmp"  # another process writing now
    for tmp in (dead, busy):
        tmp.write_bytes(b"half a file")
    os.utime(dead, (1, 1))
    snapshot.get_snapshot(store, directory=directory)
    assert path.is_file() and not dead.exists() and busy.exists()
