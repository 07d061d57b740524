"""Albums in the catalog: create, rename, add/remove, order by date, smart plans, clear errors."""

from __future__ import annotations

from datetime import datetime

import pytest

from photosearch.catalog import Store, albums
from photosearch.catalog.models import Photo
from photosearch.errors import PhotoSearchError


@pytest.fixture
def store(tmp_path):
    st = Store(f"sqlite:///{tmp_path / 'c.db'}")
    yield st
    st.close()


def photos(store, *taken) -> list[int]:
    with store.session() as s:
        rows = [
            Photo(path=f"/p/{i}.jpg", content_hash=f"{i:064d}", size=1, mtime=1.0, taken_at=t)
            for i, t in enumerate(taken)
        ]
        s.add_all(rows)
        s.flush()
        return [p.id for p in rows]


def test_manual_album_keeps_photos_in_date_order(store):
    a, b, c = photos(store, datetime(2021, 5, 1), datetime(2019, 1, 1), None)
    info = albums.create_album(store, "  Holidays   2019 ")
    assert (info.name, info.kind, info.count) == ("Holidays 2019", "manual", 0)
    assert albums.add_photos(store, "holidays 2019", [c, a, b, a]) == 3
    assert albums.add_photos(store, "Holidays 2019", [a]) == 0  # already in it
    assert albums.album_photo_ids(store, "Holidays 2019") == [b, a, c]  # oldest first, undated last
    assert albums.get_album(store, "HOLIDAYS 2019").count == 3
    assert albums.remove_photos(store, "Holidays 2019", [a, 999]) == 1
    assert albums.album_photo_ids(store, "Holidays 2019") == [b, c]


def test_names_are_unique_without_case_and_rename_checks_them(store):
    albums.create_album(store, "Trips")
    albums.create_album(store, "Family")
    with pytest.raises(PhotoSearchError, match="an album named 'Trips' already exists"):
        albums.create_album(store, "trips")
    with pytest.raises(PhotoSearchError, match="already exists"):
        albums.rename_album(store, "Family", "TRIPS")
    assert albums.rename_album(store, "family", "Family 2020").name == "Family 2020"
    assert albums.rename_album(store, "trips", "TRIPS").name == "TRIPS"  # its own name, new case
    assert albums.album_names(store) == ["Family 2020", "TRIPS"]
    with pytest.raises(PhotoSearchError, match="needs a name"):
        albums.create_album(store, "   ")


def test_smart_album_holds_a_validated_plan_and_refuses_photos(store):
    (a,) = photos(store, None)
    info = albums.create_album(store, "Dogs", plan={"where": {"concept": "dog"}}, request="dogs")
    assert (
        info.smart
        and info.plan["where"] == {"concept": "dog"}
        and info.plan["compose"]["sort"] == "relevance"
    )
    with pytest.raises(PhotoSearchError, match="smart album"):
        albums.add_photos(store, "Dogs", [a])
    updated = albums.set_plan(store, "dogs", {"where": {"and": [{"concept": "dog"}, {"place": "Italy"}]}})
    assert updated.plan["where"]["and"][1] == {"place": "Italy"}
    with pytest.raises(PhotoSearchError, match="invalid plan"):
        albums.set_plan(store, "Dogs", {"where": {"nonsense": 1}})
    albums.create_album(store, "Mine")
    with pytest.raises(PhotoSearchError, match="manual album"):
        albums.set_plan(store, "Mine", {"where": {"concept": "dog"}})


def test_unknown_photos_change_nothing_and_delete_keeps_photos(store):
    a, b = photos(store, None, None)
    albums.create_album(store, "X")
    with pytest.raises(PhotoSearchError, match="no photo has the id #12345"):
        albums.add_photos(store, "X", [a, 12345])
    assert albums.album_photo_ids(store, "X") == []
    albums.add_photos(store, "X", [a, b])
    albums.delete_album(store, "x")
    assert albums.list_albums(store) == []
    with store.session() as s:
        assert s.query(Photo).count() == 2
    with pytest.raises(PhotoSearchError, match="no album named 'X'; there are no albums yet"):
        albums.get_album(store, "X")


def test_deleted_photos_leave_manual_albums(store):
    a, b = photos(store, None, None)
    albums.create_album(store, "X")
    albums.add_photos(store, "X", [a, b])
    with store.session() as s:
        s.delete(s.get(Photo, a))
    assert albums.album_photo_ids(store, "X") == [b] and albums.get_album(store, "X").count == 1


def test_a_large_selection_is_handled_in_bounded_slices(store, tmp_path):
    from photosearch.catalog.user_marks import mark, mark_many
    from photosearch.config import Settings
    from photosearch.core import Core

    ids = photos(store, *([None] * 1203))
    albums.create_album(store, "All")
    assert albums.add_photos(store, "All", ids) == 1203
    assert albums.get_album(store, "All").count == 1203
    assert albums.remove_photos(store, "All", ids[:1100]) == 1100
    mark(store, ids[0], add_tags=["Favorite"])  # another spelling, given with `photosearch mark`
    core = Core(Settings(data_dir=tmp_path / "d"), store)
    assert core.organize.marks() == {ids[0]: {"favourite": True, "rating": None}}
    assert mark_many(store, ids, tag="favourite", tagged=True, rating=4) == 1203
    marks = core.organize.marks()
    assert len(marks) == 1203 and set(map(str, marks.values())) == {str({"favourite": True, "rating": 4})}
    core.organize.set_marks(ids, favourite=False, rating=0)  # the heart off (every spelling), no stars
    assert core.organize.marks() == {}
    with pytest.raises(PhotoSearchError, match="photo #99999 is not in the catalog"):
        mark_many(store, [ids[0], 99999], rating=2)
    assert core.organize.marks() == {}
