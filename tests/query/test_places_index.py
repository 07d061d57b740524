"""The place index is built once into the cache dir and then only queried (cold commands stay fast)."""

from __future__ import annotations

import csv
import os

from photosearch.query import places
from photosearch.query.places import Gazetteer


def _names(found):
    return [(p.name, p.kind, p.cc) for p in found]


def test_index_is_built_once_then_read_without_the_csv(tmp_path, monkeypatch):
    first = Gazetteer(cache_dir=tmp_path)
    paris = first.lookup("Paris")
    assert paris[0].kind == "city" and ("Paris", "city", "FR") in _names(paris)
    assert _names(first.lookup("france")) == [("France", "country", "FR")]
    assert "zurich" in first and "Zürich" in first  # accents folded
    assert _names(first.lookup("nyc"))[0][0] == "New York City"
    (cached,) = tmp_path.glob("gazetteer-*.sqlite")

    def no_csv(*_a, **_k):
        raise AssertionError("the CSV was parsed again")

    monkeypatch.setattr(csv, "DictReader", no_csv)
    second = Gazetteer(cache_dir=tmp_path)
    assert _names(second.lookup("Paris")) == _names(paris)
    assert list(tmp_path.glob("gazetteer-*.sqlite")) == [cached]


def test_order_is_countries_then_regions_then_cities(tmp_path):
    found = Gazetteer(cache_dir=tmp_path).lookup("Georgia")
    kinds = [p.kind for p in found]
    assert kinds[0] == "country" and kinds == sorted(kinds, key=["country", "region", "city"].index)
    assert ("Georgia", "region", "US") in _names(found)


def test_a_cache_dir_that_is_a_file_falls_back_to_memory(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    gaz = Gazetteer(cache_dir=blocker)
    assert _names(gaz.lookup("france")) == [("France", "country", "FR")]


def test_a_changed_csv_builds_a_new_index(tmp_path):
    src = tmp_path / "cities.csv"
    src.write_text("lat,lon,name,admin1,admin2,cc\n48.85,2.35,Parisville,Ile,,FR\n", encoding="utf-8")
    assert _names(Gazetteer(src, tmp_path / "c").lookup("parisville")) == [("Parisville", "city", "FR")]
    src.write_text("lat,lon,name,admin1,admin2,cc\n48.85,2.35,Newtown,Ile,,FR\n", encoding="utf-8")
    os.utime(src, ns=(1, 1))
    again = Gazetteer(src, tmp_path / "c")
    assert again.lookup("parisville") == [] and _names(again.lookup("newtown")) == [("Newtown", "city", "FR")]
    assert places.INDEX_VERSION >= 1
