"""Name the people a golden set names (`people: {path: name}`): after indexing, the one face found
in each of those photos is given that name, as a user would in the people view, so queries with
the person's name can be judged. Only that face is named (the rest of its cluster is left alone)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import select

from photosearch.catalog.models import Face, Photo
from photosearch.people.operations import move_faces, person_ids_by_name, split_faces

log = logging.getLogger(__name__)


def name_golden_people(store, gallery: Path, people: Mapping[str, str]) -> dict:
    """Name each photo's single face; returns {"named": {path: name}, "not_named": {path: why}}."""
    named: dict[str, str] = {}
    not_named: dict[str, str] = {}
    for rel, name in people.items():
        why = _name_the_face(store, str((gallery / rel).resolve()), name)
        if why:
            log.warning("cannot name %s in %s: %s", name, rel, why)
            not_named[rel] = why
        else:
            named[rel] = name
    return {"named": named, "not_named": not_named}


def _name_the_face(store, path: str, name: str) -> str | None:
    """Give the photo's one face `name` (joining the person already called so); None, or why not."""
    with store.session() as s:
        photo_id = s.scalar(select(Photo.id).where(Photo.path == path, Photo.state == "active"))
        if photo_id is None:
            return "the photo is not in the catalog"
        faces = s.execute(select(Face.id, Face.person_id).where(Face.photo_id == photo_id)).all()
    if len(faces) != 1:
        return f"{len(faces)} faces were found in it, not one"
    face_id, person_id = faces[0]
    existing = person_ids_by_name(store, name)
    if person_id in existing:
        return None  # named already (a reused catalog)
    if existing:
        move_faces(store, [face_id], existing[0])
    else:
        split_faces(store, [face_id], name=name)
    return None
