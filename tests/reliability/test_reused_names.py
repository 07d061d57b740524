"""Item 3: a different picture under an old name (a camera reusing IMG_0001) inherits nothing; an
edit of the same picture keeps the user's tags; a face name carries only to a matching face."""

from __future__ import annotations

import numpy as np
from sqlalchemy import select

from photosearch.catalog.models import Face, Person
from photosearch.ingest.indexer import Indexer
from photosearch.records import AnalysisResult, FaceRecord
from tests.conftest import save_photo
from tests.reliability.helpers import make_env, photos, tag, user_tags


def test_another_picture_under_the_old_name_inherits_no_tags(tmp_path, real_photos):
    card = tmp_path / "DCIM"
    path = save_photo(card / "IMG_0001.jpg", real_photos["coffee"])
    settings, store = make_env(tmp_path)
    store.add_folder(card)
    Indexer(store, settings, []).run()
    old_id = tag(store, path, "holiday 2019")
    save_photo(path, real_photos["astronaut"])  # the camera starts numbering again
    report = Indexer(store, settings, []).run()
    assert report.changed == 1
    new = photos(store)[str(path)]
    assert new.id != old_id and user_tags(store, new.id) == set()
    # nothing lost: the old photo keeps its tag, deleted, and comes back if its content does
    assert user_tags(store, old_id) == {"holiday 2019"} and store.photo(old_id).state == "deleted"
    back = save_photo(card / "restored" / "coffee.jpg", real_photos["coffee"])
    Indexer(store, settings, []).run()
    assert photos(store)[str(back)].id == old_id and user_tags(store, old_id) == {"holiday 2019"}


def test_an_edit_of_the_same_picture_keeps_its_tags(tmp_path, real_photos):
    card = tmp_path / "DCIM"
    path = save_photo(card / "IMG_0002.jpg", real_photos["chelsea"])
    settings, store = make_env(tmp_path)
    store.add_folder(card)
    Indexer(store, settings, []).run()
    pid = tag(store, path, "Chelsea")
    brighter = np.clip(real_photos["chelsea"].astype(int) + 12, 0, 255).astype(np.uint8)
    save_photo(path, brighter)  # an "enhance": other bytes, same picture
    report = Indexer(store, settings, []).run()
    assert report.changed == 1 and photos(store)[str(path)].id == pid
    assert user_tags(store, pid) == {"Chelsea"}


def _name_the_face(store, pid: int, box: list[float], descriptor, version: int) -> None:
    """Analyse one face (descriptor or None) and name it Anna, as the user would."""
    with store.session() as s:
        store.write_analysis(
            s, pid, "faces", version, AnalysisResult(faces=[FaceRecord(box, 0.9, descriptor)])
        )
        s.flush()
        person = s.scalar(select(Person).where(Person.name == "Anna")) or Person(name="Anna")
        s.add(person)
        s.flush()
        s.scalar(select(Face).where(Face.photo_id == pid)).person_id = person.id


def _reanalysed_name(store, pid: int, box: list[float], descriptor, version: int) -> int | None:
    with store.session() as s:
        store.write_analysis(
            s, pid, "faces", version, AnalysisResult(faces=[FaceRecord(box, 0.9, descriptor)])
        )
    with store.session() as s:
        return s.scalar(select(Face.person_id).where(Face.photo_id == pid))


def test_a_face_name_moves_only_to_a_matching_descriptor(tmp_path, real_photos):
    settings, store = make_env(tmp_path)
    folder = tmp_path / "p"
    path = save_photo(folder / "grace.jpg", real_photos["grace_hopper"])
    store.add_folder(folder)
    Indexer(store, settings, []).run()
    pid = photos(store)[str(path)].id
    rng = np.random.default_rng(1)
    anna = rng.normal(size=128).astype(np.float32)
    anna /= np.linalg.norm(anna)
    stranger = -anna  # distance 2.0: another person
    box = [10.0, 10.0, 60.0, 60.0]
    _name_the_face(store, pid, box, anna, 1)
    # re-analysis finds the same face: the name stays
    assert _reanalysed_name(store, pid, box, anna + 0.01, 2) is not None
    # a different face in the same place: the name does not follow
    assert _reanalysed_name(store, pid, box, stranger, 3) is None
    # nothing to compare on one side: the name does not follow either
    _name_the_face(store, pid, box, anna, 4)
    assert _reanalysed_name(store, pid, box, None, 5) is None
    _name_the_face(store, pid, box, None, 6)
    assert _reanalysed_name(store, pid, box, anna, 7) is None
