"""Catalog paths round-trip every file name the OS can give, and never collide."""

import os

from hypothesis import given
from hypothesis import strategies as st

from photosearch.ingest.paths import db_text, from_db_path, to_db_path


def test_non_utf8_and_marker_names_are_distinct_and_round_trip():
    raw = os.fsdecode(b"/p/caf\xe9.jpg")
    apple = "/p/\uf8ffab.jpg"  # a literal U+F8FF followed by hex-looking text
    assert to_db_path(raw) != to_db_path(os.fsdecode(b"/p/\xab.jpg"))
    assert to_db_path(apple) != to_db_path(os.fsdecode(b"/p/\xab.jpg"))
    for name in (raw, apple, "/p/plain.jpg", "/p/日本 Ø.jpg", "/p/\uf8ff--.jpg"):
        stored = to_db_path(name)
        stored.encode("utf-8")  # storable
        assert from_db_path(stored) == name


@given(st.binary(min_size=1, max_size=40))
def test_any_byte_name_round_trips(name):
    path = os.fsdecode(b"/x/" + name.replace(b"/", b"_").replace(b"\x00", b"_"))
    stored = to_db_path(path)
    stored.encode("utf-8")
    assert from_db_path(stored) == path


def test_db_text_makes_messages_storable():
    msg = "cannot read " + os.fsdecode(b"/p/bad\xff.jpg")
    assert "\ufffd" in db_text(msg) and db_text(msg).encode("utf-8")
