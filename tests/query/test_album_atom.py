"""The `album` atom: a manual album's photos, a smart album's search run now, through real search."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog import albums
from photosearch.errors import PhotoSearchError
from photosearch.query.parser import PlanContext, parse_request
from photosearch.query.plan import plan_to_text
from photosearch.query.planner import planning_context
from photosearch.query.search import search
from photosearch.query.unmet import describe

from .test_atoms_algebra import names, run


def test_manual_album_atom_gives_its_photos_and_follows_changes(store, settings, gallery, fake_embedder):
    albums.create_album(store, "Holidays")
    albums.add_photos(store, "holidays", [gallery["dog1.jpg"], gallery["cat1.jpg"]])
    res = run(store, settings, {"album": "Holidays"}, fake_embedder)
    assert names(res) == ["cat1.jpg", "dog1.jpg"]
    assert res["results"][0]["why"] == [{"atom": "album", "album": "Holidays"}]
    # combined with other atoms like any filter
    res = run(store, settings, {"and": [{"album": "Holidays"}, {"person": "Anna"}]}, fake_embedder)
    assert names(res) == ["dog1.jpg"]
    albums.remove_photos(store, "Holidays", [gallery["cat1.jpg"]])
    assert names(run(store, settings, {"album": "Holidays"}, fake_embedder)) == ["dog1.jpg"]


def test_smart_album_atom_runs_its_saved_plan(store, settings, gallery, fake_embedder):
    albums.create_album(store, "Italy", plan={"where": {"place": "Italy"}})
    albums.create_album(
        store,
        "Italy but not Anna",
        plan={"where": {"and": [{"album": "Italy"}, {"not": {"person": "Anna"}}]}},
    )
    assert names(run(store, settings, {"album": "italy"}, fake_embedder)) == ["dog1.jpg", "dog2.jpg"]
    # an album of an album, and an excluded album
    assert names(run(store, settings, {"album": "Italy but not Anna"}, fake_embedder)) == []
    res = run(store, settings, {"and": [{"person": "Anna"}, {"not": {"album": "Italy"}}]}, fake_embedder)
    assert names(res) == ["group.jpg"]


def test_a_smart_album_that_includes_itself_is_an_error_not_a_loop(store, settings, gallery, fake_embedder):
    albums.create_album(store, "A", plan={"where": {"place": "Italy"}})
    albums.create_album(store, "B", plan={"where": {"album": "A"}})
    albums.set_plan(store, "A", {"where": {"or": [{"album": "B"}, {"place": "Paris"}]}})
    with pytest.raises(PhotoSearchError, match="includes itself"):
        run(store, settings, {"album": "A"}, fake_embedder)


def test_an_unknown_album_says_which_albums_exist(store, settings, gallery, fake_embedder):
    albums.create_album(store, "Holidays")
    with pytest.raises(PhotoSearchError, match="no album named 'Trips'; the albums are: Holidays"):
        run(store, settings, {"album": "Trips"}, fake_embedder)


def test_requests_name_albums_the_catalog_has(store, settings, gallery, fake_embedder):
    albums.create_album(store, "Summer House")
    albums.add_photos(store, "Summer House", [gallery["dog2.jpg"]])
    ctx = planning_context(store, settings)
    assert ctx.albums == ["Summer House"]
    now = date(2024, 5, 15)
    for request in ("photos in album 'Summer House'", "in the summer house album", "album:'Summer House'"):
        plan, confidence, _ = parse_request(request, now=now, context=ctx)
        assert plan["where"] == {"album": "Summer House"}, (request, plan_to_text(plan))
    res = search(store, settings, request="photos in the Summer House album", text_embedder=fake_embedder)
    assert [r["id"] for r in res["results"] if not r["below_cutoff"]] == [gallery["dog2.jpg"]]
    # without such an album, "album" still means the folder of that name (as before)
    plan, _, _ = parse_request("from the Trips album", now=now, context=ctx)
    assert plan["where"] == {"folder": "Trips"}
    plan, _, _ = parse_request("album:Trips", now=now, context=PlanContext())
    assert plan["where"] == {"album": "Trips"}  # the explicit syntax always names an album
    plan, _, _ = parse_request("album: summer 2023", now=now, context=PlanContext())
    assert plan["where"] == {"album": "summer 2023"}  # with its year (was "summer" and a concept "2023")


@pytest.mark.parametrize(
    "request_text,where",
    [
        # an album of the user's named before "album" (was Portugal and a concept "album")
        ("my portugal album", {"album": "Portugal"}),
        ("the kids in my portugal album", {"and": [{"concept": "kid"}, {"album": "Portugal"}]}),
        # with no album so named, "album" says nothing: the words before it are read as ever
        ("the wedding album", {"concept": "wedding"}),
        ("my italy album", {"place": "Italy"}),
        ("the album from italy", {"place": "Italy"}),  # was a folder "from"
        ("albums of the kids", {"concept": "kid"}),
        ("album covers", {"concept": "album cover"}),  # a thing (was a folder "covers")
    ],
)
def test_the_words_before_album_name_the_users_album_or_nothing(request_text, where):
    plan, _, _ = parse_request(request_text, now=date(2024, 5, 15), context=PlanContext(albums=["Portugal"]))
    assert plan["where"] == where, plan_to_text(plan)


@pytest.mark.parametrize(
    "request_text,where",
    [
        (
            "my favourites from 2019",
            {"and": [{"tag": "favourite"}, {"date": {"from": "2019-01-01", "to": "2019-12-31"}}]},
        ),
        ("favourite photos", {"tag": "favourite"}),
        ("my favorites", {"tag": "favourite"}),
        ("rated 4 or more", {"rating": {"min": 4, "max": None}}),
        ("4 stars and up", {"rating": {"min": 4, "max": None}}),
        ("4 or more stars", {"rating": {"min": 4, "max": None}}),
        ("rated 3 and above", {"rating": {"min": 3, "max": None}}),
        ("5 stars", {"rating": {"min": 5, "max": 5}}),
    ],
)
def test_favourite_and_star_requests(request_text, where):
    plan, confidence, _ = parse_request(request_text, now=date(2024, 5, 15))
    assert plan["where"] == where and confidence >= 0.7, plan_to_text(plan)


def test_photos_in_no_album_are_the_ones_nobody_put_in_one(store, settings, gallery, fake_embedder):
    albums.create_album(store, "Holidays")
    albums.create_album(store, "Cats")
    albums.add_photos(store, "Holidays", [gallery["dog1.jpg"], gallery["cat1.jpg"]])
    albums.add_photos(store, "Cats", [gallery["cat1.jpg"], gallery["cat2.jpg"]])
    albums.create_album(
        store, "Italy", plan={"where": {"place": "Italy"}}
    )  # a search: puts no photo anywhere
    everything = names(run(store, settings, {"and": []}, fake_embedder))
    now = date(2024, 5, 15)
    for request, where in [
        ("photos not in any album", {"not": {"album": "*"}}),
        ("pictures that aren't in an album", {"not": {"album": "*"}}),
        ("photos without an album", {"not": {"album": "*"}}),
        ("photos in an album", {"album": "*"}),
    ]:
        assert parse_request(request, now=now)[0]["where"] == where, request
    res = search(store, settings, "photos in an album", text_embedder=fake_embedder, now=now)
    assert names(res) == ["cat1.jpg", "cat2.jpg", "dog1.jpg"]
    assert res["results"][0]["why"] == [{"atom": "album", "album": "*", "text": "in an album"}]
    res = search(store, settings, "photos not in any album", text_embedder=fake_embedder, now=now)
    assert names(res) == sorted(set(everything) - {"cat1.jpg", "cat2.jpg", "dog1.jpg"})
    assert parse_request("an album cover", now=now)[0]["where"] != {"album": "*"}  # a record's sleeve
    assert plan_to_text({"version": 1, "where": {"not": {"album": "*"}}}).startswith("NOT album")
    assert describe({"album": "*"}) == "in an album"  # never a bare "*" in the "no photo …" line
