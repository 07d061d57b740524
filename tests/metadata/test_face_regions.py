"""Named face regions (MWG, Microsoft Photo) become people: a region over a face the detector found
names that face (one face, not two); a region with no detected face still puts the person in the
photo; a request for the name finds both."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Face, Person, Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from photosearch.people.clustering import cluster_faces
from photosearch.query.search import search
from photosearch.records import PhotoImage
from photosearch.vision.registry import bundled_analyzers
from tests.metadata import exiftool


def _mwg(name: str, box) -> list[str]:
    x0, y0, x1, y1 = box
    return [
        f"-RegionName+={name}",
        "-RegionType+=Face",
        f"-RegionAreaX+={(x0 + x1) / 2}",
        f"-RegionAreaY+={(y0 + y1) / 2}",
        f"-RegionAreaW+={x1 - x0}",
        f"-RegionAreaH+={y1 - y0}",
        "-RegionAreaUnit+=normalized",
    ]


@pytest.fixture(scope="module")
def faces_analyzer(vsettings):
    found = bundled_analyzers(vsettings, ["faces"])
    assert found, "the bundled face model is not installed: run README's first command"
    return found[0]


@pytest.fixture
def catalog(tmp_path, real_photos, faces_analyzer, vsettings):
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    rgb = real_photos["astronaut"]
    h, w = rgb.shape[:2]
    (detected,) = faces_analyzer.analyze(PhotoImage(0, "astronaut", rgb, w, h)).faces
    x0, y0, x1, y1 = detected.box
    loose = (x0 - 0.04, y0 - 0.06, x1 + 0.04, y1 + 0.03)  # drawn by hand: looser than dlib's box
    astronaut = gallery / "astronaut.jpg"
    Image.fromarray(rgb).save(astronaut)
    exiftool.write(astronaut, *_mwg("Eileen Collins", loose), *_mwg("Ghost Friend", (0.02, 0.7, 0.12, 0.85)))
    coffee = gallery / "coffee.jpg"
    Image.fromarray(real_photos["coffee"]).save(coffee)
    exiftool.write(
        coffee, "-XMP-MP:RegionInfoMP={Regions=[{PersonDisplayName=Tom,Rectangle=0.1|, 0.1|, 0.2|, 0.25}]}"
    )
    settings = Settings(data_dir=tmp_path / "data", threads=2, gpu=False)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    report = Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings), faces_analyzer], gates=()).run()
    assert report.failed == 0
    return store, settings


def _faces(store, name: str) -> list[tuple[str, str | None, bool, bool]]:
    """(analyzer, person, pinned, has descriptor) of the faces of one photo."""
    with store.session() as s:
        rows = s.execute(
            select(Face.analyzer, Person.name, Face.pinned, Face.descriptor)
            .join(Photo, Photo.id == Face.photo_id)
            .outerjoin(Person, Person.id == Face.person_id)
            .where(Photo.path.like(f"%/{name}"))
            .order_by(Face.id)
        ).all()
    return sorted((a, n, bool(p), d is not None) for a, n, p, d in rows)


def test_a_region_names_the_detected_face_and_a_region_without_one_still_counts(catalog):
    store, _ = catalog
    assert _faces(store, "astronaut.jpg") == [
        ("embedded", "Ghost Friend", True, False),  # no face detected there: the region is the face
        ("faces", "Eileen Collins", True, True),  # the detected face, named by the region over it
    ]
    assert _faces(store, "coffee.jpg") == [("embedded", "Tom", True, False)]  # Microsoft Photo region


def test_clustering_keeps_the_names_and_requests_find_the_people(catalog):
    store, settings = catalog
    cluster_faces(store)
    assert _faces(store, "astronaut.jpg")[1] == ("faces", "Eileen Collins", True, True)
    with store.session() as s:
        people = sorted(s.scalars(select(Person.name)))
    assert people == ["Eileen Collins", "Ghost Friend", "Tom"]
    for name, photo in (
        ("Eileen Collins", "astronaut.jpg"),
        ("Tom", "coffee.jpg"),
        ("Ghost Friend", "astronaut.jpg"),
    ):
        res = search(store, settings, f"photos of {name}", signals=[])
        assert [r["path"].rsplit("/", 1)[-1] for r in res["results"]] == [photo], name
        assert {"atom": "person", "person": name} in res["results"][0]["why"]


def test_a_named_face_the_user_moved_keeps_the_users_choice(catalog):
    store, settings = catalog
    with store.session() as s:
        face = s.scalars(select(Face).where(Face.analyzer == "faces")).one()
        other = Person(name="Sally Ride")
        s.add(other)
        s.flush()
        face.person_id, face.pinned = other.id, True
    # the file is read again (a sidecar appears): its region must not take the face back
    with store.session() as s:
        path = s.scalars(select(Photo.path).where(Photo.path.like("%/astronaut.jpg"))).one()
    exiftool.make_sidecar(Path(path + ".xmp"), "-XMP-dc:Subject=space")
    Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings)]).run()
    faces = _faces(store, "astronaut.jpg")
    assert ("faces", "Sally Ride", True, True) in faces
    assert np.sum([f[1] == "Eileen Collins" for f in faces]) == 0
