"""People counts read every signal (faces and the detector's person boxes) and are soft (one person
off follows as closest), except where the request names the people; a request the library cannot
meet says what it could not meet and still shows the closest photos: never a blank page."""

from __future__ import annotations

from datetime import date

import numpy as np
import pytest
from sqlalchemy import select

from photosearch.catalog.models import Face, Folder, Person
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FaceRecord, FactRecord

from .gallery import add_photo

NOW = date(2024, 5, 15)
#: name -> (faces: the person each face is, None for an unnamed one; person boxes; a tag)
SPEC = {
    "pair.jpg": ([None, None], 2, "beach"),
    "masked_pair.jpg": ([], 2, "street"),  # face masks: the face detector found nobody
    "one_masked.jpg": ([None], 2, "street"),  # one face found, two persons boxed
    "single.jpg": ([None], 1, "park"),
    "trio.jpg": ([None, None, None], 3, "park"),
    "anna_tom.jpg": (["Anna", "Tom"], 2, "garden"),
    "anna_tom_lisa.jpg": (["Anna", "Tom", "Lisa"], 3, "garden"),
    "empty.jpg": ([], 0, "tree"),
}


def _build(store, spec=SPEC):
    rng = np.random.default_rng(3)
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        people: dict[str, int] = {}
        for name, (faces, boxes, tag) in spec.items():
            photo = add_photo(s, folder, name)
            facts = [FactRecord("tag", tag, 0.9)]
            facts += [
                FactRecord("object", "person", 0.8, box=[0.1 * i, 0.1, 0.1 * i + 0.1, 0.5])
                for i in range(boxes)
            ]
            store.write_analysis(s, photo.id, "tagger", 1, AnalysisResult(facts=facts))
            records = [
                FaceRecord([0.1, 0.1, 0.2, 0.2], 0.99, rng.standard_normal(128).astype(np.float32))
                for _ in faces
            ]
            store.write_analysis(s, photo.id, "faces", 1, AnalysisResult(faces=records))
            s.flush()
            rows = list(s.scalars(select(Face).where(Face.photo_id == photo.id).order_by(Face.id)))
            for face, person in zip(rows, faces, strict=True):
                if person is not None:
                    if person not in people:
                        p = Person(name=person)
                        s.add(p)
                        s.flush()
                        people[person] = p.id
                    face.person_id = people[person]


def _names(res, *, closest: bool) -> list[str]:
    return [r["path"].rsplit("/", 1)[1] for r in res["results"] if r["below_cutoff"] == closest]


@pytest.fixture
def people_gallery(store):
    _build(store)
    return store


def test_two_people_counts_faces_and_person_boxes(people_gallery, settings):
    res = search(people_gallery, settings, "two people", now=NOW, signals=[])
    assert res["plan"]["where"] == {"faces": {"min": 2, "max": 2}}
    assert set(_names(res, closest=False)) == {
        "pair.jpg",
        "masked_pair.jpg",
        "one_masked.jpg",
        "anna_tom.jpg",
    }
    # one or three people follow as closest matches, never the photo without people
    assert set(_names(res, closest=True)) == {"single.jpg", "trio.jpg", "anna_tom_lisa.jpg"}
    masked = next(r for r in res["results"] if r["path"].endswith("masked_pair.jpg"))
    assert masked["why"] == [
        {"atom": "faces", "count": 2, "faces": 0, "person_boxes": 2, "text": "2 people, no faces seen"}
    ]
    assert res["explain"]["unmet"] == []


def test_people_seen_by_their_faces_rank_before_people_only_boxed(people_gallery, settings):
    """ "two people": where the faces alone make the count the photo is sure to show them; where only
    the detector's person boxes do (masks, backs, or a box on a bus window), as sure as its boxes."""
    res = search(people_gallery, settings, "two people", now=NOW, signals=[])
    sure = _names(res, closest=False)
    assert {sure.index("pair.jpg"), sure.index("anna_tom.jpg")} == {0, 1}  # two faces each
    scores = {r["path"].rsplit("/", 1)[1]: r["score"] for r in res["results"]}
    assert scores["pair.jpg"] == 1.0 and 0.5 < scores["masked_pair.jpg"] < 1.0  # boxes of 0.8: 0.9


def test_faces_with_a_person_box_rank_before_faces_alone(store, settings):
    """ "people": a face the detector also boxed as a person is surer than a face alone (a car's
    front or a racket's strings read as a face), which still counts, after it."""
    _build(store, {"car_front.jpg": ([None], 0, "grille"), "portrait.jpg": ([None], 1, "park")})
    res = search(store, settings, "people", now=NOW, signals=[])
    assert _names(res, closest=False) == ["portrait.jpg", "car_front.jpg"]
    scores = {r["path"].rsplit("/", 1)[1]: r["score"] for r in res["results"]}
    assert scores["portrait.jpg"] == 1.0 and 0.9 < scores["car_front.jpg"] < 1.0


def test_a_couple_a_group_a_crowd_alone_nobody(people_gallery, settings):
    couple = search(people_gallery, settings, "a couple", now=NOW, signals=[])
    assert "masked_pair.jpg" in _names(couple, closest=False)
    group = search(people_gallery, settings, "group photos", now=NOW, signals=[])
    assert set(_names(group, closest=False)) == {"trio.jpg", "anna_tom_lisa.jpg"}
    alone = search(people_gallery, settings, "alone", now=NOW, signals=[])
    assert set(_names(alone, closest=False)) == {"single.jpg", "empty.jpg"}
    nobody = search(people_gallery, settings, "nobody", now=NOW, signals=[])
    assert _names(nobody, closest=False) == ["empty.jpg"]
    assert set(_names(nobody, closest=True)) == {"single.jpg"}
    friends = search(people_gallery, settings, "friends in the park", now=NOW, signals=[])
    assert {"faces": {"min": 2, "max": None}} in friends["plan"]["where"]["and"]  # two or more
    assert search(people_gallery, settings, "three friends", now=NOW, signals=[])["plan"]["where"] == {
        "faces": {"min": 3, "max": 3}
    }
    whole = [
        r["path"].rsplit("/", 1)[1] for r in friends["results"] if not r["below_cutoff"] and not r["partial"]
    ]
    assert whole == ["trio.jpg"]  # two or more people, in the park
    crowd = search(people_gallery, settings, "a crowd", now=NOW, signals=[])
    assert crowd["plan"]["where"] == {"faces": {"min": 6, "max": None}}
    assert _names(crowd, closest=False) == [] and crowd["explain"]["unmet"] == [
        "no photo with six or more people"
    ]


def test_only_anna_and_tom_stays_exact(people_gallery, settings):
    res = search(people_gallery, settings, "only Anna and Tom", now=NOW, signals=[])
    assert [r["path"].rsplit("/", 1)[1] for r in res["results"]] == ["anna_tom.jpg"]


def test_people_with_a_scene_no_photo_shows_are_the_photos_of_people(people_gallery, settings):
    """ "two people at the zoo": no photo is sure to be at a zoo, so the photos of two people are
    the partial matches (missing the zoo), not photos without anyone that look a little like one."""
    plan = {"version": 1, "where": {"and": [{"faces": {"min": 2, "max": 2}}, {"concept": "zoo"}]}}
    res = search(people_gallery, settings, plan=plan, now=NOW, signals=[])
    partial = [r["path"].rsplit("/", 1)[1] for r in res["results"] if r["partial"] and not r["below_cutoff"]]
    assert set(partial) == {"pair.jpg", "masked_pair.jpg", "one_masked.jpg", "anna_tom.jpg"}
    assert all(r["missing"] == ["zoo"] for r in res["results"] if r["partial"] and not r["below_cutoff"])
    nobody = {"version": 1, "where": {"and": [{"faces": {"min": 0, "max": 0}}, {"concept": "zoo"}]}}
    res = search(people_gallery, settings, plan=nobody, now=NOW, signals=[])
    assert not [r for r in res["results"] if r["partial"] and not r["below_cutoff"]]  # "nobody" shows no one


def test_a_count_nobody_meets_shows_the_closest_and_says_so(store, settings):
    _build(store, {k: v for k, v in SPEC.items() if k in ("single.jpg", "trio.jpg", "empty.jpg")})
    res = search(store, settings, "two people", now=NOW, signals=[])
    assert _names(res, closest=False) == []
    assert set(_names(res, closest=True)) == {"single.jpg", "trio.jpg"}
    assert res["explain"]["unmet"] == ["no photo with exactly two people"]


def test_a_filter_that_excludes_everything_names_itself_and_the_page_is_not_blank(people_gallery, settings):
    res = search(people_gallery, settings, "trees in 1990", now=NOW, signals=[])
    assert res["matched"] == 0
    assert res["explain"]["unmet"] == ["no photo taken between 1990-01-01 and 1990-12-31"]
    assert _names(res, closest=True)[:1] == ["empty.jpg"]  # the tree, without the year nobody meets
    plan = {"version": 1, "where": {"not": {"folder": "pics"}}, "compose": {}}
    everything = search(people_gallery, settings, plan=plan)
    assert everything["explain"]["unmet"] == ["every photo is one in a folder named pics"]
    assert len(everything["results"]) == len(SPEC) and all(r["below_cutoff"] for r in everything["results"])


def test_the_cli_says_what_could_not_be_met_and_json_keeps_it(store, settings):
    from photosearch.cli.search import _results_text

    _build(store, {k: v for k, v in SPEC.items() if k in ("single.jpg", "trio.jpg")})
    res = search(store, settings, "two people", now=NOW, signals=[])
    lines = [ln for ln in _results_text(res).splitlines() if not ln.startswith(("plan:", "  "))]
    assert lines[0] == "-- no photo with exactly two people — closest: --"
    assert {ln.split()[1].rsplit("/", 1)[1] for ln in lines[1:3]} == {"single.jpg", "trio.jpg"}
    store.close()
    from tests.conftest import run_cli, run_cli_json

    data = run_cli_json(settings.data_dir, "search", "two people")
    assert data["explain"] == {"unmet": ["no photo with exactly two people"], "remarks": []}
    assert {r["path"].rsplit("/", 1)[1] for r in data["results"]} == {"single.jpg", "trio.jpg"}
    text = run_cli(settings.data_dir, "search", "two people").stdout
    assert text.splitlines()[0] == "-- no photo with exactly two people — closest: --"


@pytest.fixture
def dogs_and_trees(store):
    """Two dogs, three trees, taken at different times (one tree undated)."""
    from datetime import datetime

    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        spec = {
            "old_dog.jpg": (datetime(2020, 1, 5), "dog"),
            "recent_dog.jpg": (datetime(2024, 3, 1), "dog"),
            "recent_tree.jpg": (datetime(2024, 5, 1), "tree"),
            "older_tree.jpg": (datetime(2022, 7, 1), "tree"),
            "undated_tree.jpg": (None, "tree"),
        }
        for name, (taken, tag) in spec.items():
            photo = add_photo(s, folder, name, taken=taken)
            store.write_analysis(
                s, photo.id, "tagger", 1, AnalysisResult(facts=[FactRecord("tag", tag, 0.9)])
            )
    return store


#: dogs_and_trees' photos, the newest first and the undated one last.
NEWEST_FIRST = ["recent_tree.jpg", "recent_dog.jpg", "older_tree.jpg", "old_dog.jpg", "undated_tree.jpg"]


def test_a_date_nobody_meets_shows_the_nearest_photos_first(dogs_and_trees, settings):
    """ "yesterday" with nothing taken then: the latest photos first, undated last; "dogs from last
    week": the dogs (nearest in time first) before anything else."""
    store = dogs_and_trees
    res = search(store, settings, "yesterday", now=NOW, signals=[])
    assert res["explain"]["unmet"] == ["no photo taken on 2024-05-14"]
    assert _names(res, closest=True) == NEWEST_FIRST
    res = search(store, settings, "dogs from last week", now=NOW, signals=[])
    assert _names(res, closest=True)[:2] == ["recent_dog.jpg", "old_dog.jpg"]


def test_a_thing_never_photographed_at_that_time_shows_the_thing_nearest_in_time(dogs_and_trees, settings):
    """ "dogs in summer": summer has photos (a tree) and dogs have photos, never together. The dogs
    come first, the one taken nearest to summer first, and each says when it was taken; the page
    says what no photo meets in words, not "the whole request"."""
    res = search(dogs_and_trees, settings, "dogs in summer", now=NOW, signals=[])
    assert res["plan"]["where"] == {"and": [{"concept": "dog"}, {"month": [6, 7, 8]}]}
    assert res["explain"]["unmet"] == ["no photo that looks like “dog” taken in summer"]
    assert _names(res, closest=True)[:2] == ["recent_dog.jpg", "old_dog.jpg"]  # March, then January
    said = [w["text"] for w in res["results"][0]["why"] if w.get("atom") == "month"]
    assert said == ["taken 2024-03-01, the nearest"]
    res = search(dogs_and_trees, settings, "trees on sundays", now=NOW, signals=[])  # a dog's day
    assert _names(res, closest=True)[0] == "older_tree.jpg"  # a Friday, two days from Sunday
    said = [w["text"] for w in res["results"][0]["why"] if w.get("atom") == "weekday"]
    assert said == ["taken Friday 2022-07-01, the nearest"]


def test_a_closest_match_taken_then_is_not_called_the_nearest(dogs_and_trees):
    from photosearch.query.resolvers.base import ExecContext
    from photosearch.query.resolvers.snapshot import get_snapshot, taken_at
    from photosearch.query.search import _say_when

    snap = get_snapshot(dogs_and_trees)
    entries = [
        {"id": int(snap.ids[row]), "taken_at": taken_at(snap, row), "below_cutoff": True, "why": []}
        for row, path in enumerate(snap.paths)
        if path.endswith(("older_tree.jpg", "recent_tree.jpg"))
    ]
    _say_when(entries, [{"month": [7]}], ExecContext(snap, dogs_and_trees, None, None))
    said = {e["taken_at"][:10]: e["why"][0]["text"] for e in entries}
    assert said == {
        "2022-07-01": "taken 2022-07-01",  # in July
        "2024-05-01": "taken 2024-05-01, the nearest",
    }


def test_the_cli_says_how_me_was_read_and_people_me_says_who_it_is(people_gallery, settings):
    """No owner: "photos of me" are the photos with someone in them, and the CLI says why (text and
    JSON); `people me Lisa` makes "me" Lisa, and a rename keeps it on her."""
    from tests.conftest import run_cli, run_cli_json

    people_gallery.close()
    data = run_cli_json(settings.data_dir, "search", "photos of me", "--now", NOW.isoformat())
    assert data["explain"]["remarks"] == [
        "“me” is nobody in your library yet (choose “This is me” on your face in People), "
        "so these are the photos with someone in them"
    ]
    sure = {r["path"].rsplit("/", 1)[1] for r in data["results"] if not r["below_cutoff"]}
    assert "empty.jpg" not in sure and {"pair.jpg", "anna_tom_lisa.jpg"} <= sure
    text = run_cli(settings.data_dir, "search", "photos of me").stdout
    assert text.splitlines()[0].startswith("note: “me” is nobody in your library yet")

    assert run_cli(settings.data_dir, "people", "me").stdout.strip() == "nobody is you yet (`people me NAME`)"
    assert run_cli_json(settings.data_dir, "people", "me", "Lisa") == {"owner": "Lisa"}
    data = run_cli_json(settings.data_dir, "search", "photos of me")
    assert data["explain"]["remarks"] == []
    assert [r["path"].rsplit("/", 1)[1] for r in data["results"] if not r["below_cutoff"]] == [
        "anna_tom_lisa.jpg"
    ]
    run_cli(settings.data_dir, "people", "name", "Lisa", "Elisabeth")
    assert run_cli(settings.data_dir, "people", "me").stdout.strip() == "you are Elisabeth"
    assert run_cli_json(settings.data_dir, "people", "me", "--clear") == {"owner": None}
    failed = run_cli(settings.data_dir, "people", "me", "Nobody", check=False)
    assert failed.returncode != 0 and "Nobody" in failed.stderr


def test_people_counts_in_words():
    from photosearch.query.resolvers.filters import people_words

    assert people_words(2, 2) == "2 people" and people_words(1, 1) == "1 person"
    assert people_words(3, 1) == "3 people, 1 face seen" and people_words(2, 0) == "2 people, no faces seen"


def test_a_request_nothing_matches_shows_the_newest_photos_scored_near_nothing(dogs_and_trees, settings):
    """ "zebra" in a library without one, nor anything near it: the page is not blank, and what it
    shows instead are the newest photos (undated last), each scored near nothing, not the first
    photos the catalog holds at full score."""
    res = search(dogs_and_trees, settings, "zebra", now=NOW, signals=[])
    assert res["explain"]["unmet"] == ["no photo that looks like “zebra”"]
    assert _names(res, closest=False) == []
    assert _names(res, closest=True) == NEWEST_FIRST
    assert all(0 < r["score"] <= 0.01 and r["why"] == [] for r in res["results"])


def test_two_women_counts_the_faces_read_as_a_woman(store, settings):
    """ "two women" counts the faces the face model read as a woman (each face once, whether also
    "old woman"), not every person: a woman beside a man is one woman, a closest match."""
    looks = {
        "sisters.jpg": [["woman"], ["woman", "old woman"]],
        "couple.jpg": [["woman"], ["man"]],
        "alone.jpg": [["woman"]],
        "trees.jpg": [],
    }
    rng = np.random.default_rng(5)
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, faces in looks.items():
            photo = add_photo(s, folder, name)
            boxes = [[0.2 * i, 0.1, 0.2 * i + 0.15, 0.3] for i in range(len(faces))]
            persons = [FactRecord("object", "person", 0.9, box=[b[0], 0.1, b[2], 0.9]) for b in boxes]
            store.write_analysis(s, photo.id, "detector", 1, AnalysisResult(facts=persons))
            words = [
                FactRecord("face", w, 0.9, box=b) for b, said in zip(boxes, faces, strict=True) for w in said
            ]
            records = [FaceRecord(b, 0.99, rng.standard_normal(128).astype(np.float32)) for b in boxes]
            store.write_analysis(s, photo.id, "faces", 2, AnalysisResult(facts=words, faces=records))
    res = search(store, settings, "two women", now=NOW, signals=[])
    assert _names(res, closest=False) == ["sisters.jpg"]
    assert set(_names(res, closest=True)) >= {"couple.jpg", "alone.jpg"}
    said = [w["text"] for w in res["results"][0]["why"] if w.get("fact") == "count"]
    assert said == ["2 women"]
    two = search(store, settings, "two people", now=NOW, signals=[])  # people: every person
    assert set(_names(two, closest=False)) == {"sisters.jpg", "couple.jpg"}


@pytest.mark.parametrize("request_text", ["one person", "photos with just one person", "a single person"])
def test_one_person_is_a_count(people_gallery, settings, request_text):
    """ "one person" counts like "two people": the lone person first, not anyone at all (the word
    "person" alone made every photo with someone in it sure)."""
    res = search(people_gallery, settings, request_text, now=NOW, signals=[])
    assert _names(res, closest=False) == ["single.jpg"], res["explain"]


@pytest.mark.parametrize(
    "request_text", ["photos of Tom with other people", "Tom with someone else", "tom with others"]
)
def test_someone_with_other_people_is_them_and_one_more_at_least(request_text):
    """ "with other people" was a concept "other" beside any face."""
    from photosearch.query.parser import parse_request

    plan, _conf, _notes = parse_request(request_text, now=NOW, people=["Tom"])
    assert plan["where"] == {"and": [{"person": "Tom"}, {"faces": {"min": 2, "max": None}}]}


@pytest.mark.parametrize("request_text", ["Tom and nobody else", "tom and no one else", "Tom alone"])
def test_someone_and_nobody_else_is_them_alone(request_text):
    """ "and nobody else" was no one at all (no face) beside a concept "else"."""
    from photosearch.query.parser import parse_request

    plan, _conf, _notes = parse_request(request_text, now=NOW, people=["Tom"])
    assert plan["where"] == {"and": [{"person": "Tom"}, {"faces": {"min": 0, "max": 1}}]}


@pytest.mark.parametrize(
    ("request_text", "where"),
    [
        ("me and Tom alone", {"and": [{"person": "Tom"}, {"faces": {"min": 2, "max": 2}}]}),
        ("only Tom and me", {"and": [{"person": "Tom"}, {"faces": {"min": 2, "max": 2}}]}),
        ("me alone", {"faces": {"min": 1, "max": 1}}),
        ("just me", {"faces": {"min": 1, "max": 1}}),
        ("only me", {"faces": {"min": 1, "max": 1}}),
    ],
)
def test_an_unnamed_me_is_counted_among_the_people_alone(request_text, where):
    """With no owner set, "me" names no one to find but is one more face to count: "me and Tom alone"
    was Tom with at most one face, "only Tom and me" Tom with exactly one, "me alone" a photo with no
    face or one, "just me" any photo with someone in it."""
    from photosearch.query.parser import parse_request

    plan, _conf, notes = parse_request(request_text, now=NOW, people=["Tom"])
    assert plan["where"] == where
    assert "me" in " ".join(notes)  # the page still says "me" is nobody it knows


def test_someone_nobody_named_in_people_is_among_the_faces_not_named_yet(people_gallery, settings):
    """ "person:Priya" where nobody is named Priya: no sure photo, and the photos with a face nobody
    named yet are its closest matches (were the newest photos, scored near nothing)."""
    res = search(people_gallery, settings, "person:Priya", now=NOW, signals=[])
    assert _names(res, closest=False) == []
    assert set(_names(res, closest=True)) == {"pair.jpg", "one_masked.jpg", "single.jpg", "trio.jpg"}
    assert res["explain"]["unmet"] == ["no photo of Priya"]
    why = next(r["why"] for r in res["results"] if r["path"].endswith("single.jpg"))
    assert why == [{"atom": "person", "person": "a face not named yet"}]
    # with a thing: the unnamed faces at the park come first
    res = search(people_gallery, settings, "person:Priya park", now=NOW, signals=[])
    assert set(_names(res, closest=True)[:2]) == {"single.jpg", "trio.jpg"}


def test_a_first_name_nobody_has_finds_the_unnamed_faces_there_first(people_gallery, settings):
    """ "kevin at the park", with nobody named Kevin: no photo is sure; the park photos with a face
    nobody named come first (the concept "kevin" matched nothing, and the park's photos came in any
    order), and the page says how it was read."""
    res = search(people_gallery, settings, "kevin at the park", now=NOW, signals=[])
    assert res["plan"]["where"] == {"and": [{"person": "Kevin"}, {"concept": "park"}]}
    assert _names(res, closest=False) == []
    assert set(_names(res, closest=True)[:2]) == {"single.jpg", "trio.jpg"}
    assert any("“Kevin” is nobody in People yet" in n for n in res["explain"]["remarks"])
