"""Every atom type and the set algebra on a small synthetic catalog (real Store, SQLite in tmp_path)."""

from __future__ import annotations

import pytest

from photosearch.errors import PhotoSearchError
from photosearch.query.search import search


def names(res) -> list[str]:
    """The confident results (closest matches below the cut-off are tested on their own)."""
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])


def run(store, settings, where, emb, **compose):
    return search(
        store,
        settings,
        plan={"version": 1, "where": where, "compose": compose},
        text_embedder=emb,
        explain=True,
    )


@pytest.mark.parametrize(
    "where,expected",
    [
        ({"person": "anna"}, ["dog1.jpg", "dog2.jpg", "group.jpg"]),
        ({"person": "Nobody"}, []),
        ({"date": {"from": "2023-01-01", "to": "2023-07-01"}}, ["cat1.jpg", "dog1.jpg", "dog2.jpg"]),
        ({"month": [7]}, ["dog1.jpg", "dog2.jpg"]),  # July of any year
        ({"month": [12, 1, 2]}, ["cat2.jpg", "coffee.jpg", "doc.jpg"]),  # winter of any year
        ({"place": "Italy"}, ["dog1.jpg", "dog2.jpg"]),
        ({"place": "Paris"}, ["car.jpg", "sign.jpg"]),
        ({"place": "Berlin, Germany"}, ["cat1.jpg"]),
        ({"text": "exit"}, ["sign.jpg"]),
        ({"text": "EX1T"}, ["sign.jpg"]),  # OCR error, fuzzy
        ({"text": "platform 9"}, ["sign.jpg"]),
        ({"text": "*"}, ["doc.jpg", "sign.jpg"]),  # any words read in the photo
        ({"camera": "Pixel 7"}, ["dog1.jpg", "dog2.jpg", "group.jpg"]),
        ({"camera": "canon"}, ["car.jpg", "rocket.jpg", "sign.jpg"]),
        ({"folder": "Trips"}, ["dog1.jpg", "dog2.jpg", "rocket.jpg"]),
        ({"folder": "beach"}, ["dog1.jpg", "dog2.jpg"]),
        ({"folder": "/photos/Trips"}, ["dog1.jpg", "dog2.jpg", "rocket.jpg"]),  # a path typed out
        ({"folder": "/PHOTOS/trips/beach"}, ["dog1.jpg", "dog2.jpg"]),  # in any case
        ({"file": "DOG"}, ["dog1.jpg", "dog2.jpg"]),  # part of the file name, any case
        ({"file": "*1.jpg"}, ["cat1.jpg", "dog1.jpg"]),  # wildcards as a shell reads them
        ({"file": "beach"}, []),  # the folder's name is not the file's
        ({"knowledge": "NASA orbiter"}, ["rocket.jpg"]),
        ({"tag": "favorite"}, ["dog1.jpg"]),
        ({"faces": {"min": 2, "max": None}}, ["dog2.jpg", "group.jpg"]),
        (
            {"faces": {"min": 0, "max": 0}},
            ["car.jpg", "cat1.jpg", "coffee.jpg", "doc.jpg", "rocket.jpg", "sign.jpg"],
        ),
        ({"kind": "document"}, ["doc.jpg"]),
        ({"quality": "blurry"}, ["cat2.jpg"]),
        ({"concept": "tabby cat"}, ["cat1.jpg", "cat2.jpg"]),
        # WordNet: a space shuttle is a craft, a vehicle; but its labels alone (no embedding agrees)
        # make it a closest match (test_label_route_alone_is_a_closest_match)
        ({"concept": "vehicle"}, ["car.jpg"]),
    ],
)
def test_every_atom_resolves(store, settings, gallery, fake_embedder, where, expected):
    res = run(store, settings, where, fake_embedder)
    assert names(res) == expected
    for r in res["results"]:
        assert 0.0 <= r["score"] <= 1.0
        assert r["why"] or r["below_cutoff"], r  # each hit says what matched
    if not expected:  # never a blank page: the closest photos, and what no photo meets
        assert res["results"] and all(r["below_cutoff"] for r in res["results"])
        assert res["explain"]["unmet"]


def test_similar_atom_by_id_and_path(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"similar": str(gallery["dog1.jpg"])}, fake_embedder)
    assert names(res) == ["dog2.jpg"]
    res = run(store, settings, {"similar": "/photos/Trips/Beach/dog2.jpg"}, fake_embedder)
    assert names(res) == ["dog1.jpg"]
    res = run(store, settings, {"similar": "DOG2.jpg"}, fake_embedder)  # a catalogued photo's file name
    assert names(res) == ["dog1.jpg"]
    with pytest.raises(PhotoSearchError, match="neither a photo id nor an existing file"):
        run(store, settings, {"similar": "nowhere.jpg"}, fake_embedder)


def test_a_folder_typed_from_home_is_under_home(store, settings, gallery, fake_embedder, monkeypatch):
    monkeypatch.setenv("HOME", "/photos")
    res = run(store, settings, {"folder": "~/Trips"}, fake_embedder)
    assert names(res) == ["dog1.jpg", "dog2.jpg", "rocket.jpg"]


def test_concept_why_names_facts(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"concept": "dog"}, fake_embedder)
    why = res["results"][0]["why"]
    assert any(w.get("fact") == "tag" and w.get("label") == "dog" for w in why)
    assert any(w.get("fact") == "facts_text" and "similarity" in w for w in why)


def test_not_alone_is_everything_but(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"not": {"concept": "dog"}}, fake_embedder)
    assert len(res["results"]) == 8 and "dog1.jpg" not in names(res)


def test_not_of_everything_is_empty(store, settings, gallery, fake_embedder):
    assert run(store, settings, {"not": {"and": []}}, fake_embedder)["results"] == []
    assert len(run(store, settings, {"and": []}, fake_embedder)["results"]) == 10


def test_and_with_empty_is_empty(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"and": [{"concept": "dog"}, {"person": "Nobody"}]}, fake_embedder)
    assert names(res) == [] and res["matched"] == 0
    counts = [a["hits"] for a in res["explain"]["atoms"]]
    assert counts[:2] == [2, 0]
    # closest: the dogs, without the person nobody is; the page says so
    assert sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"][:2]) == ["dog1.jpg", "dog2.jpg"]
    assert res["explain"]["unmet"] == ["no photo of Nobody"]


def test_nested_or_and_not(store, settings, gallery, fake_embedder):
    where = {
        "and": [
            {"or": [{"concept": "dog"}, {"or": [{"concept": "cat"}, {"kind": "document"}]}]},
            {"not": {"person": "Tom"}},
        ]
    }
    assert names(run(store, settings, where, fake_embedder)) == ["cat1.jpg", "doc.jpg", "dog1.jpg"]


def test_or_keeps_max_score_and_and_combines(store, settings, gallery, fake_embedder):
    a = run(store, settings, {"concept": "dog"}, fake_embedder)["results"]
    o = run(store, settings, {"or": [{"concept": "dog"}, {"person": "Anna"}]}, fake_embedder)["results"]
    both = {r["id"]: r["score"] for r in o}
    for r in a:
        assert both[r["id"]] == pytest.approx(1.0)  # person filter scores 1, max wins
    n = run(store, settings, {"and": [{"concept": "dog"}, {"person": "Anna"}]}, fake_embedder)["results"]
    assert {r["id"]: r["score"] for r in n} == {r["id"]: r["score"] for r in a}  # filters are neutral


def test_deleted_photos_never_match(store, settings, gallery, fake_embedder):
    from photosearch.catalog.models import Photo

    with store.session() as s:
        s.get(Photo, gallery["dog1.jpg"]).state = "deleted"
    res = run(store, settings, {"concept": "dog"}, fake_embedder)
    assert names(res) == ["dog2.jpg"]
    assert len(run(store, settings, {"and": []}, fake_embedder)["results"]) == 9


def test_snapshot_sees_new_facts(store, settings, gallery, fake_embedder):
    from photosearch.records import AnalysisResult, FactRecord

    assert names(run(store, settings, {"tag": "holiday"}, fake_embedder)) == []
    with store.session() as s:
        store.write_analysis(
            s, gallery["car.jpg"], "user", 1, AnalysisResult(facts=[FactRecord("user_tag", "holiday")])
        )
    assert names(run(store, settings, {"tag": "holiday"}, fake_embedder)) == ["car.jpg"]


def test_bad_plan_is_a_clear_error(store, settings, gallery, fake_embedder):
    from photosearch.errors import PhotoSearchError

    with pytest.raises(PhotoSearchError):
        run(store, settings, {"colour": "red"}, fake_embedder)


def test_label_route_alone_is_a_closest_match(store, settings, gallery, fake_embedder):
    """The WordNet route still reaches the shuttle, but with labels as its only evidence it is shown
    below the cut-off, not as a confident match (calibration.py, "Corroboration")."""
    res = run(store, settings, {"concept": "vehicle"}, fake_embedder)
    rocket = [r for r in res["results"] if r["path"].endswith("rocket.jpg")]
    assert rocket and rocket[0]["below_cutoff"], res["results"]
    assert [r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"]] == ["car.jpg"]


def test_any_words_say_which_lines_were_read_and_what_no_photo_has(store, settings, gallery, fake_embedder):
    from photosearch.query.unmet import sentences

    res = run(store, settings, {"text": "*"}, fake_embedder)
    sign = next(r for r in res["results"] if r["path"].endswith("sign.jpg"))
    assert sign["why"] and all(w["atom"] == "text" and w["label"] for w in sign["why"])
    assert sentences([({"text": "*"}, 0, False)], 0, 10) == ["no photo with words in it"]
    assert sentences([({"file": "IMG_1"}, 0, False)], 0, 10) == ["no photo whose file name has “IMG_1”"]


#: One example value per atom key, as a plan holds it.
ATOM_EXAMPLES = {
    "concept": "dog",
    "person": "Anna",
    "place": "Lisbon",
    "text": "EXIT",
    "camera": "Pixel 7",
    "lens": "Sigma",
    "folder": "Holidays",
    "file": "IMG_2041",
    "similar": "beach.jpg",
    "knowledge": "Iris",
    "tag": "favourite",
    "label": "Red",
    "album": "Summer",
    "editor": "Lightroom",
    "date": {"from": "2024-01-01", "to": "2024-01-31"},
    "added": {"from": "2024-01-01", "to": "2024-01-31"},
    "month": [6, 7, 8],
    "hour": [7, 8],
    "weekday": [6, 7],
    "yearly": {"from": "12-24", "to": "12-26"},
    "days_of": {"where": {"concept": "wedding"}, "from": 1, "to": 1},
    "faces": {"min": 2, "max": 2},
    "rating": {"min": 4, "max": None},
    "setting": {"of": "aperture", "min": None, "max": 2.8},
    "size": {"of": "megapixels", "min": 12, "max": None},
    "kind": "screenshot",
    "quality": "sharp",
    "color": "red",
    "orientation": "portrait",
}


def test_every_atom_says_what_no_photo_meets_in_words():
    """The "no photo …" line names each atom in words, never as a key and its raw value."""
    from photosearch.query.plan import ATOM_KEYS
    from photosearch.query.unmet import describe

    assert set(ATOM_EXAMPLES) == set(ATOM_KEYS)
    for key, value in ATOM_EXAMPLES.items():
        said = describe({key: value})
        assert "{" not in said and "matching" not in said and f"{key}:" not in said, said
    assert describe({"rating": {"min": 5, "max": 5}}) == "rated five stars"
    assert describe({"rating": {"min": 1, "max": 2}}) == "rated at most two stars"
    assert describe({"rating": {"min": -1, "max": -1}}) == "marked rejected"
    assert describe({"label": "Red"}) == "with the Red label"
    assert describe({"concept": "dog"}) == "that looks like “dog”"
    assert describe({"concept": "colourful"}) == "that is colourful"  # a measure, not a look
    assert describe({"concept": "selfie"}) == "that is a selfie"
    assert (
        describe({"concept": "sunny"}) == "that is sunny"
        and describe({"concept": "indoor"}) == "taken indoors"
    )


def test_raw_files_are_found_in_every_raw_format(store, settings):
    """ "raw files": a camera RAW file of any format, said in words people read."""
    from photosearch.query.unmet import node_words

    from .gallery import add_photos_with_facts

    add_photos_with_facts(store, {n: [] for n in ("a.NEF", "b.cr3", "c.dng", "d.jpg", "raw_notes.png")})
    res = search(store, settings, "raw files", signals=[])
    assert names(res) == ["a.NEF", "b.cr3", "c.dng"]
    assert node_words(res["plan"]["where"]) == "in a camera RAW format"
