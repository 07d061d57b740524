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


def test_order_is_countries_then_regions_then_cities_then_counties(tmp_path):
    found = Gazetteer(cache_dir=tmp_path).lookup("Georgia")
    kinds = [p.kind for p in found]
    assert kinds[0] == "country" and kinds == sorted(kinds, key=["country", "region", "city", "county"].index)
    assert ("Georgia", "region", "US") in _names(found)


def test_a_town_is_found_by_the_short_forms_of_its_name(tmp_path):
    """ "st louis" was found nowhere (GeoNames writes "St. Louis"), "saint petersburg" only as typed."""
    gaz = Gazetteer(cache_dir=tmp_path)
    st_louis = ("St. Louis", "city", "US")
    assert st_louis in _names(gaz.lookup("st louis")) and st_louis in _names(gaz.lookup("Saint Louis"))
    assert _names(gaz.lookup("st petersburg")) == _names(gaz.lookup("saint petersburg")) != []
    assert _names(gaz.lookup("ft lauderdale")) == _names(gaz.lookup("Fort Lauderdale")) != []
    assert places.place_key("St. Louis") == places.place_key("st  louis") == "saint louis"
    assert places.place_key("West Haven") == "west haven" and places.place_key("Mt. Fuji") == "mount fuji"


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


def test_a_county_is_found_by_the_names_people_type_after_the_towns_of_that_name(tmp_path):
    gaz = Gazetteer(cache_dir=tmp_path)
    devon = _names(gaz.lookup("devon"))
    assert ("Devon", "county", "GB") in devon  # was the towns alone, in Alberta and Pennsylvania
    assert [kind for _name, kind, _cc in devon][-1] == "county" and devon[0][1] == "city"
    assert ("Dordogne", "county", "FR") in _names(gaz.lookup("dordogne"))  # "Departement de la Dordogne"
    assert ("Flintshire", "county", "GB") in _names(gaz.lookup("flintshire"))  # "County of Flintshire"
    assert ("Orange County", "county", "US") in _names(gaz.lookup("orange county"))
    assert not any(p.kind == "county" and p.cc == "US" for p in gaz.lookup("orange"))  # it keeps its word
    assert ("Scottish Borders", "county", "GB") in _names(gaz.lookup("scottish borders"))


def test_every_country_the_geocoder_knows_has_a_name(tmp_path):
    with places._default_csv().open(encoding="utf-8", newline="") as fh:
        codes = {row["cc"] for row in csv.DictReader(fh)}
    assert codes <= set(places.COUNTRIES)  # a photo in Aruba said "AW" where its country goes
    gaz = Gazetteer(cache_dir=tmp_path)
    assert _names(gaz.lookup("aruba")) == [("Aruba", "country", "AW")]
    assert _names(gaz.lookup("st lucia"))[0] == ("Saint Lucia", "country", "LC")
    assert _names(gaz.lookup("faroe islands"))[0] == ("Faroe Islands", "country", "FO")


def test_a_new_index_removes_the_ones_built_before_it(tmp_path):
    older = tmp_path / "gazetteer-0123456789abcdef.sqlite"  # an earlier version's, 16 MB in real life
    older.write_bytes(b"SQLite format 3\0")
    unrelated = tmp_path / "models-index.sqlite"
    unrelated.write_bytes(b"")
    assert _names(Gazetteer(cache_dir=tmp_path).lookup("france")) == [("France", "country", "FR")]
    assert not older.exists() and unrelated.exists()
    assert len(list(tmp_path.glob("gazetteer-*.sqlite"))) == 1
