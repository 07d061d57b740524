"""The faces gate with the real bundled detector and face model: the same faces are found as
without it, and face detection runs on fewer photos."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from photosearch.app import default_analyzers
from photosearch.catalog import Store
from photosearch.catalog.models import Face, Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer

pytestmark = pytest.mark.slow


def _faces_found(tmp_path, gallery, label: str, **kwargs) -> tuple[set[str], dict]:
    settings = Settings(data_dir=tmp_path / label)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    analyzers = default_analyzers(settings, include=["detector", "faces"])
    assert [a.name for a in analyzers] == ["detector", "faces"]
    report = Indexer(store, settings, analyzers, **kwargs).run()
    with store.session() as s:
        found = {
            path.rsplit("/", 1)[-1]
            for path in s.scalars(select(Photo.path).join(Face, Face.photo_id == Photo.id))
        }
    store.close()
    return found, report.as_dict()


def test_the_gate_finds_every_face_found_without_it(tmp_path, gallery):
    ungated, plain = _faces_found(tmp_path, gallery, "ungated", gates=())
    gated, report = _faces_found(tmp_path, gallery, "gated")
    assert {"grace.gif", "astronaut.webp"} <= ungated  # the photos with a face
    assert gated == ungated
    assert plain["analyzers"]["faces"]["ok"] == 7
    assert (
        report["gated"]["faces"] >= 3 and report["analyzers"]["faces"]["ok"] + report["gated"]["faces"] == 7
    )
