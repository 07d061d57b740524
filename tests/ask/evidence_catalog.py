"""A real catalog of real photos whose evidence is known: the facts the bundled tagger, detector, scene
model and text reader write (same kinds, labels, boxes and data), a named and an unnamed face, EXIF dates and one
photo's GPS (reverse-geocoded offline by the real place index)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np

from tests.conftest import save_photo

LISBON = (38.7223, -9.1393)

#: stem -> (EXIF, tags [(label, score, hypernym)], objects [(label, score, box)], text lines, faces [name])
EVIDENCE = {
    "chelsea": (
        dict(taken_at=datetime(2021, 6, 5, 16, 40), gps=LISBON),
        [("tabby", 0.36, False), ("tiger cat", 0.22, False), ("cat", 0.81, True), ("feline", 0.83, True)],
        [("cat", 0.91, (0.05, 0.05, 0.5, 0.95))],
        [],
        [],
    ),
    "rocket": (
        dict(taken_at=datetime(2019, 7, 16, 9, 32)),
        [("space shuttle", 0.52, False), ("missile", 0.18, False)],
        [("person", 0.82, (0.02, 0.5, 0.2, 0.98)), ("person", 0.7, (0.05, 0.45, 0.25, 0.97))],
        ["NASA"],
        [],
    ),
    "astronaut": (
        dict(taken_at=datetime(1998, 1, 1)),
        [("suit", 0.41, False)],
        [("person", 0.93, (0.3, 0.05, 0.98, 0.99)), ("stop sign", 0.6, (0.0, 0.0, 0.3, 0.3))],
        ["STOP"],
        ["Eileen Collins", None],
    ),
    "coffee": (dict(), [], [], [], []),
}
#: stem -> the scene model's scenes (label, score), "indoors"/"outdoors" among them, as it writes them.
SCENES = {"rocket": [("industrial area", 0.58), ("tower", 0.14), ("outdoors", 1.0)]}
#: stem -> per face (in EVIDENCE's order), what the face model says it looks like (label, score).
LOOKS = {"astronaut": [[("woman", 0.9)], [("man", 0.86), ("teenager", 0.3)]]}


def build(core, folder: Path, photos: dict[str, np.ndarray]) -> dict[str, int]:
    """Write the photos, index them without models, add the known facts; returns {stem: photo id}."""
    from photosearch.app import build_indexer
    from photosearch.catalog.models import Face, Person, Photo
    from photosearch.records import AnalysisResult, FaceRecord, FactRecord

    folder.mkdir(parents=True, exist_ok=True)
    for stem, (exif, *_rest) in EVIDENCE.items():
        save_photo(folder / f"{stem}.jpg", photos[stem], **exif)
    core.store.add_folder(folder)
    build_indexer(core.store, core.settings, analyzers=[], post_steps=[]).run()
    ids: dict[str, int] = {}
    with core.store.session() as s:
        for photo in s.query(Photo).all():
            stem = Path(photo.path).stem
            ids[stem] = photo.id
            _exif, tags, objects, lines, faces = EVIDENCE[stem]
            facts = [
                FactRecord("tag", label, score, data={"hypernym": hyper, "names": [label]})
                for label, score, hyper in tags
            ]
            facts += [FactRecord("object", label, score, list(box)) for label, score, box in objects]
            facts += [
                FactRecord("scene", label, score, data={"names": [label]})
                for label, score in SCENES.get(stem, [])
            ]
            facts += [
                FactRecord("text", line, 0.95, [0.4, 0.1 + 0.1 * i, 0.6, 0.18 + 0.1 * i], {"line": i})
                for i, line in enumerate(lines)
            ]
            boxes = [[round(0.4 + 0.2 * i, 5), 0.1, round(0.55 + 0.2 * i, 5), 0.4] for i in range(len(faces))]
            records = [FaceRecord(box, 0.99, np.full(128, i, np.float32)) for i, box in enumerate(boxes)]
            facts += [
                FactRecord("face", label, score, box)
                for box, looks in zip(boxes, LOOKS.get(stem, []), strict=False)
                for label, score in looks
            ]
            core.store.write_analysis(s, photo.id, "test", 1, AnalysisResult(facts=facts, faces=records))
            s.flush()
            for face, name in zip(
                s.query(Face).filter(Face.photo_id == photo.id).order_by(Face.id), faces, strict=True
            ):
                if name:
                    person = Person(name=name)
                    s.add(person)
                    s.flush()
                    face.person_id = person.id
    return ids
