"""People: incremental clustering, naming, merge, split, hide, birthdays on a real SQLite catalog."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import select

from photosearch.catalog.models import Face, Person
from photosearch.people import (
    PeopleError,
    cluster_faces,
    list_people,
    merge_people,
    move_faces,
    name_person,
    person_faces,
    person_ids_by_name,
    resolve_person,
    set_birthday,
    set_hidden,
    split_faces,
)
from photosearch.people.clustering import chinese_whispers, pairwise_distances
from tests.vision.helpers import add_faces, add_photo, person_of

RNG = np.random.default_rng(7)


def identity() -> np.ndarray:
    """A synthetic person: a point in descriptor space (dlib descriptors have norm ~1)."""
    v = RNG.normal(size=128)
    return (v / np.linalg.norm(v) * 1.0).astype(np.float32)


def view(center: np.ndarray, noise: float = 0.08) -> np.ndarray:
    n = RNG.normal(size=128)
    return (center + n / np.linalg.norm(n) * noise).astype(np.float32)


def photo_with(store, name: str, *descriptors) -> list[int]:
    return add_faces(store, add_photo(store, f"/photos/{name}.jpg"), list(descriptors))


# ---- synthetic descriptors: fast ------------------------------------------------------------------
def test_clusters_new_faces_and_assigns_later_ones_to_existing_people(store):
    anna, ben = identity(), identity()
    a = photo_with(store, "a1", view(anna)) + photo_with(store, "a2", view(anna))
    b = photo_with(store, "b1", view(ben))
    report = cluster_faces(store)
    assert (
        report.considered == 3 and report.new_people == 2 and report.clustered == 3 and report.assigned == 0
    )
    assert person_of(store, a[0]) == person_of(store, a[1]) != person_of(store, b[0])

    later = photo_with(store, "a3", view(anna)) + photo_with(store, "c1", view(identity()))
    report = cluster_faces(store)
    assert report.considered == 2 and report.assigned == 1 and report.new_people == 1
    assert person_of(store, later[0]) == person_of(store, a[0])
    assert person_of(store, later[1]) not in {person_of(store, a[0]), person_of(store, b[0])}
    # a third run has nothing to do and changes nothing
    before = {f: person_of(store, f) for f in a + b + later}
    assert cluster_faces(store).considered == 0
    assert {f: person_of(store, f) for f in before} == before


def test_min_faces_leaves_singletons_for_later(store):
    anna = identity()
    (first,) = photo_with(store, "a1", view(anna))
    report = cluster_faces(store, min_faces=2)
    assert report.new_people == 0 and report.unassigned == 1 and person_of(store, first) is None
    (second,) = photo_with(store, "a2", view(anna))
    report = cluster_faces(store, min_faces=2)
    assert report.new_people == 1 and person_of(store, first) == person_of(store, second) is not None


def test_faces_of_deleted_photos_are_ignored(store):
    pid = add_photo(store, "/photos/gone.jpg", state="deleted")
    (face,) = add_faces(store, pid, [view(identity())])
    assert cluster_faces(store).considered == 0 and person_of(store, face) is None


def test_cancel_leaves_the_catalog_unchanged(store):
    faces = photo_with(store, "a1", view(identity()), view(identity()))
    report = cluster_faces(store, cancel=lambda: True)
    assert report.cancelled and all(person_of(store, f) is None for f in faces)
    with store.session() as s:
        assert s.scalar(select(Person)) is None


def test_progress_is_reported(store):
    photo_with(store, "a1", view(identity()), view(identity()))
    seen = []
    cluster_faces(store, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 2) and seen[-1] == (2, 2)


def test_pinned_faces_are_never_moved_by_reclustering(store):
    anna, ben = identity(), identity()
    faces = [photo_with(store, f"a{i}", view(anna))[0] for i in range(3)]
    (ben_face,) = photo_with(store, "b0", view(ben))
    cluster_faces(store)
    anna_pid, ben_pid = person_of(store, faces[0]), person_of(store, ben_face)
    assert anna_pid != ben_pid and len({person_of(store, f) for f in faces}) == 1
    # the user says the first "Anna" face is in fact Ben's: moving it pins it there
    move_faces(store, [faces[0]], ben_pid)
    # and that the real Ben face belongs to a person of its own
    solo = split_faces(store, [ben_face])
    for recluster in (False, True):
        report = cluster_faces(store, recluster=recluster)
        assert person_of(store, faces[0]) == ben_pid, recluster
        assert person_of(store, ben_face) == solo, recluster
        assert person_of(store, faces[1]) == person_of(store, faces[2]) != solo
    assert report.reset == 2  # only the two unpinned faces were reconsidered
    with store.session() as s:
        assert s.get(Face, faces[0]).pinned is True and s.get(Face, ben_face).pinned is True


def test_recluster_keeps_named_people(store):
    anna = identity()
    faces = [photo_with(store, f"a{i}", view(anna))[0] for i in range(3)]
    cluster_faces(store)
    pid = person_of(store, faces[0])
    name_person(store, pid, "Anna")
    report = cluster_faces(store, recluster=True)
    assert report.reset == 0 and all(person_of(store, f) == pid for f in faces)


def test_name_list_merge_split_hide_birthday_round_trip(store):
    anna, ben = identity(), identity()
    a = photo_with(store, "a1", view(anna), view(ben)) + photo_with(store, "a2", view(anna))
    cluster_faces(store)
    anna_id, ben_id = person_of(store, a[0]), person_of(store, a[1])

    people = {p.id: p for p in list_people(store)}
    assert people[anna_id].face_count == 2 and people[anna_id].photo_count == 2
    assert people[ben_id].face_count == 1 and people[anna_id].name is None
    assert people[anna_id].face_id in {a[0], a[2]} and people[anna_id].photo_path.endswith(".jpg")
    assert list_people(store)[0].id == anna_id  # most faces first

    assert name_person(store, anna_id, "  Anna  ").name == "Anna"
    assert person_ids_by_name(store, "anna") == [anna_id]
    assert resolve_person(store, "ANNA") == anna_id and resolve_person(store, str(ben_id)) == ben_id

    # naming a second cluster "Anna" merges it into the existing Anna
    result = name_person(store, ben_id, "Anna")
    assert result.person_id == anna_id and result.merged == [ben_id]
    assert {person_of(store, f) for f in a} == {anna_id}
    with store.session() as s:
        assert s.get(Person, ben_id) is None

    # split Ben's face out again, name him, keep him apart with --no-merge semantics
    ben_id = split_faces(store, [a[1]], name="Ben")
    assert person_of(store, a[1]) == ben_id and [f.id for f in person_faces(store, ben_id)] == [a[1]]
    other = name_person(store, ben_id, "Anna", merge=False)
    assert other.person_id == ben_id and other.merged == [] and other.same_name == [anna_id]
    with pytest.raises(PeopleError):
        resolve_person(store, "Anna")  # ambiguous now
    name_person(store, ben_id, "Ben")

    set_hidden(store, ben_id, True)
    assert ben_id not in {p.id for p in list_people(store)}
    assert ben_id in {p.id for p in list_people(store, include_hidden=True)}
    set_hidden(store, ben_id, False)
    assert ben_id in {p.id for p in list_people(store)}

    assert set_birthday(store, anna_id, "1990-05-17") == "1990-05-17"
    assert {p.id: p.birthday for p in list_people(store)}[anna_id] == "1990-05-17"
    with pytest.raises(PeopleError):
        set_birthday(store, anna_id, "17th of May")
    assert set_birthday(store, anna_id, None) is None

    # merge moves faces and removes the other person
    assert merge_people(store, anna_id, ben_id) == 1
    assert {person_of(store, f) for f in a} == {anna_id}
    with pytest.raises(PeopleError):
        merge_people(store, anna_id, anna_id)
    with pytest.raises(PeopleError):
        merge_people(store, anna_id, 9999)


def test_move_faces_pins_them(store):
    anna, ben = identity(), identity()
    a = photo_with(store, "a1", view(anna)) + photo_with(store, "b1", view(ben))
    cluster_faces(store)
    target = person_of(store, a[0])
    assert move_faces(store, [a[1]], target) == 1
    with store.session() as s:
        face = s.get(Face, a[1])
        assert face.person_id == target and face.pinned
    with pytest.raises(PeopleError):
        split_faces(store, [123456])


def test_unknown_person_is_a_clear_error(store):
    with pytest.raises(PeopleError, match="no person #42"):
        name_person(store, 42, "X")
    with pytest.raises(PeopleError):
        set_hidden(store, 42, True)


def test_pure_helpers():
    x = np.eye(3, dtype=np.float32)
    d = pairwise_distances(x, x)
    assert np.allclose(np.diag(d), 0, atol=1e-6) and np.isclose(d[0, 1], np.sqrt(2))
    c = identity()
    labels = chinese_whispers(np.stack([view(c), view(c), view(identity())]), 0.5)
    assert labels[0] == labels[1] != labels[2]
    assert chinese_whispers(np.zeros((0, 128), np.float32), 0.5) == []


# ---- real faces: dlib descriptors ----------------------------------------------------------------
@pytest.mark.slow
def test_real_faces_cluster_by_person(store, face_results):
    ids = {}
    for name, result in face_results.items():
        pid = add_photo(store, f"/photos/{name}.jpg")
        with store.session() as s:
            store.write_analysis(s, pid, "faces", 1, result)
        with store.session() as s:
            ids[name] = s.scalar(select(Face.id).where(Face.photo_id == pid))
    report = cluster_faces(store)
    assert report.new_people == 2 and report.clustered == 4
    people = {name: person_of(store, fid) for name, fid in ids.items()}
    assert people["astronaut"] == people["astronaut_mirror"]
    assert people["grace"] == people["grace_crop"]
    assert people["astronaut"] != people["grace"]
    summary = {p.id: p for p in list_people(store)}
    assert summary[people["grace"]].face_count == 2 and summary[people["grace"]].photo_count == 2


def test_a_person_without_a_name_is_said_by_how_most_of_their_faces_look(store):
    """`list_people`'s `look`: the word the face model says most often of an unnamed person's faces
    (matched to each face by its box), from the score search claims it at; a named person has none."""
    from photosearch.catalog.models import Fact

    anna, tom = identity(), identity()
    photos = [photo_with(store, f"p{i}", view(anna), view(tom)) for i in range(3)]
    cluster_faces(store, min_faces=2)
    looks = {0: ("woman", "man"), 1: ("woman", "man"), 2: ("girl", "boy")}

    def said(s, face_id: int, word: str, score: float = 0.9) -> None:
        face = s.get(Face, face_id)
        s.add(
            Fact(photo_id=face.photo_id, analyzer="faces", kind="face", label=word, score=score, box=face.box)
        )

    with store.session() as s:
        for i, (left, right) in enumerate(photos):
            said(s, left, looks[i][0])
            said(s, right, looks[i][1])
            said(s, left, "baby", 0.3)  # a word under the claim score says nothing
    found = {p.id: p.look for p in list_people(store)}
    assert sorted(found.values()) == ["man", "woman"]
    anna_id = person_of(store, photos[0][0])
    name_person(store, anna_id, "Anna")
    assert {p.name: p.look for p in list_people(store)}["Anna"] == ""
