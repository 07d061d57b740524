"""Selfies are read from the lens EXIF (a phone's front camera) and from how close the face is; no
model labels them. A face across the room is no selfie, a crowd is none, and a close face someone
else photographed is one by look (the module says so)."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import select

from photosearch.catalog.models import Face, Folder, Person, Photo
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FaceRecord, FactRecord

from .gallery import add_photo, sure_names

#: name -> (face boxes, lens EXIF, the person of the first face)
SPEC = {
    "front_camera.jpg": ([(0.3, 0.3, 0.45, 0.45)], "iPhone 13 front camera 2.71mm f/2.2", None),
    "close_face.jpg": ([(0.25, 0.2, 0.7, 0.7)], None, "Tom"),  # a face 22 % of the frame
    "arm_length_pair.jpg": ([(0.1, 0.2, 0.35, 0.5), (0.55, 0.2, 0.8, 0.5)], None, None),
    "across_the_room.jpg": ([(0.4, 0.4, 0.45, 0.46)], "EF24-70mm f/2.8L", None),  # 0.3 %
    "half_way.jpg": ([(0.4, 0.4, 0.55, 0.55)], None, None),  # 2 %: a closest match
    "crowd.jpg": ([(0.05 + 0.15 * i, 0.1, 0.25 + 0.15 * i, 0.4) for i in range(6)], None, None),
    "landscape.jpg": ([], "iPhone 13 back camera 5.1mm f/1.6", None),
}


@pytest.fixture
def selfie_gallery(store):
    rng = np.random.default_rng(5)
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, (boxes, lens, person) in SPEC.items():
            photo = add_photo(s, folder, name)
            s.get(Photo, photo.id).lens = lens
            store.write_analysis(
                s, photo.id, "tagger", 1, AnalysisResult(facts=[FactRecord("tag", "wall", 0.9)])
            )
            faces = [FaceRecord(list(b), 0.99, rng.standard_normal(128).astype(np.float32)) for b in boxes]
            store.write_analysis(s, photo.id, "faces", 1, AnalysisResult(faces=faces))
            s.flush()
            if person:
                p = Person(name=person)
                s.add(p)
                s.flush()
                first = s.scalars(select(Face).where(Face.photo_id == photo.id).order_by(Face.id)).first()
                first.person_id = p.id
    return store


def test_selfies_are_the_front_camera_and_close_faces(selfie_gallery, settings):
    res = search(selfie_gallery, settings, "selfies", signals=[])
    assert res["plan"]["where"] == {"concept": "selfie"}
    assert sure_names(res) == ["arm_length_pair.jpg", "close_face.jpg", "front_camera.jpg"]
    order = [r["path"].rsplit("/", 1)[1] for r in res["results"]]
    assert order[0] == "front_camera.jpg"  # the lens says so: surer than any look
    closest = [r["path"].rsplit("/", 1)[1] for r in res["results"] if r["below_cutoff"]]
    assert closest[:1] == ["half_way.jpg"] and "crowd.jpg" not in order
    why = {r["path"].rsplit("/", 1)[1]: r["why"] for r in res["results"]}
    assert any(w.get("text") == "taken with the front camera" for w in why["front_camera.jpg"])
    assert any("close to the camera, 22%" in str(w.get("text")) for w in why["close_face.jpg"])


def test_selfies_combine_with_people_and_negation(selfie_gallery, settings):
    res = search(selfie_gallery, settings, "selfies of Tom", signals=[])
    assert sure_names(res) == ["close_face.jpg"]
    kept = sure_names(search(selfie_gallery, settings, "not selfies", signals=[]))
    assert "front_camera.jpg" not in kept and "close_face.jpg" not in kept
    assert {"across_the_room.jpg", "landscape.jpg", "crowd.jpg"} <= set(kept)
