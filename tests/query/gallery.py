"""A small synthetic catalog written through the real Store (facts via store.write_analysis)."""

from __future__ import annotations

import hashlib
from datetime import datetime

import numpy as np

from photosearch.catalog.models import Folder, Person, Photo
from photosearch.catalog.store import Store
from photosearch.evaluate.synth import HashEmbedder
from photosearch.records import AnalysisResult, FaceRecord, FactRecord


class FakeEmbedder(HashEmbedder):
    """The synthetic catalogs' hash embedder, counting its calls."""

    def __init__(self):
        super().__init__(384)
        self.calls = 0

    def embed(self, texts: list[str]) -> np.ndarray:
        self.calls += 1
        return super().embed(texts)


def add_photo(
    s,
    folder: Folder,
    name: str,
    *,
    taken=None,
    camera=("", ""),
    gps=None,
    phash=None,
    state="active",
    lens=None,
) -> Photo:
    path = f"{folder.path}/{name}"
    p = Photo(
        folder_id=folder.id,
        path=path,
        content_hash=hashlib.sha1(path.encode()).hexdigest(),
        size=1000,
        mtime=0.0,
        taken_at=taken,
        camera_make=camera[0] or None,
        camera_model=camera[1] or None,
        lens=lens,
        gps_lat=gps[0] if gps else None,
        gps_lon=gps[1] if gps else None,
        phash=phash,
        state=state,
    )
    s.add(p)
    s.flush()
    return p


def add_photos_with_facts(
    store: Store, facts: dict[str, list[FactRecord]], analyzer: str = "tagger", folder_path: str = "/pics"
) -> None:
    """One photo per name in a new folder, each with its facts written as `analyzer`'s."""
    with store.session() as s:
        folder = Folder(path=folder_path)
        s.add(folder)
        s.flush()
        for name, found in facts.items():
            photo = add_photo(s, folder, name)
            store.write_analysis(s, photo.id, analyzer, 1, AnalysisResult(facts=found))


def facts_text(facts: list[FactRecord]) -> str:
    return ", ".join(f.label for f in facts if f.kind in ("tag", "object", "caption", "text"))


# name, folder, date, camera, gps, tags [(label, score, hypernym)], objects, ocr, faces [person], extra facts
SPEC = [
    (
        "dog1.jpg",
        "Trips/Beach",
        datetime(2023, 7, 1, 10),
        ("Google", "Pixel 7"),
        (41.89, 12.49),
        [("golden retriever", 0.8, False), ("dog", 0.85, True), ("animal", 0.9, True)],
        ["dog"],
        [],
        ["Anna"],
    ),
    (
        "dog2.jpg",
        "Trips/Beach",
        datetime(2023, 7, 1, 11),
        ("Google", "Pixel 7"),
        (41.90, 12.50),
        [("beagle", 0.7, False), ("dog", 0.75, True), ("animal", 0.8, True)],
        ["dog"],
        [],
        ["Anna", "Tom"],
    ),
    (
        "cat1.jpg",
        "Home",
        datetime(2023, 3, 5, 9),
        ("Apple", "iPhone 12"),
        (52.52, 13.40),
        [("tabby", 0.9, False), ("cat", 0.92, True), ("animal", 0.95, True)],
        ["cat"],
        [],
        [],
    ),
    (
        "cat2.jpg",
        "Home",
        datetime(2022, 12, 24, 18),
        ("Apple", "iPhone 12"),
        None,
        [("tabby", 0.6, False), ("cat", 0.7, True), ("animal", 0.7, True)],
        ["cat"],
        [],
        ["Tom"],
    ),
    (
        "car.jpg",
        "Street",
        datetime(2021, 5, 1, 12),
        ("Canon", "EOS R5"),
        (48.85, 2.35),
        [("sports car", 0.8, False), ("car", 0.85, True), ("vehicle", 0.9, True)],
        ["car"],
        [],
        [],
    ),
    (
        "sign.jpg",
        "Street",
        datetime(2021, 5, 2, 12),
        ("Canon", "EOS R5"),
        (48.86, 2.34),
        [("street sign", 0.7, False)],
        [],
        ["EXIT", "Platform 9"],
        [],
    ),
    (
        "coffee.jpg",
        "Home",
        datetime(2020, 1, 1, 8),
        ("Apple", "iPhone 12"),
        None,
        [("espresso", 0.8, False), ("beverage", 0.85, True)],
        ["cup"],
        [],
        [],
    ),
    (
        "group.jpg",
        "Party",
        datetime(2020, 6, 6, 20),
        ("Google", "Pixel 7"),
        None,
        [("suit", 0.3, False)],
        ["person", "person", "person"],
        [],
        ["Anna", "Tom", None],
    ),
    (
        "doc.jpg",
        "Scans",
        datetime(2019, 2, 2, 8),
        ("", ""),
        None,
        [("envelope", 0.5, False)],
        [],
        ["INVOICE", "Total 42"],
        [],
    ),
    (
        "rocket.jpg",
        "Trips",
        datetime(2019, 8, 8, 8),
        ("Canon", "EOS R5"),
        None,
        [("space shuttle", 0.8, False), ("craft", 0.6, True)],
        [],
        [],
        [],
    ),
]


def build_gallery(store: Store, embedder=None, *, with_vectors: bool = True) -> dict[str, int]:
    """Write SPEC into the store; returns name -> photo id."""
    rng = np.random.default_rng(0)
    ids: dict[str, int] = {}
    people: dict[str, int] = {}
    base_image = {k: rng.standard_normal(1280).astype(np.float32) for k in ("dog", "cat", "other")}
    with store.session() as s:
        folders: dict[str, Folder] = {}
        for i, (name, folder, taken, camera, gps, tags, objects, ocr, faces) in enumerate(SPEC):
            f = folders.get(folder)
            if f is None:
                f = folders[folder] = Folder(path=f"/photos/{folder}")
                s.add(f)
                s.flush()
            phash = f"{(0x1111111111111111 * (i + 1)) & 0xFFFFFFFFFFFFFFFF:016x}"
            p = add_photo(s, f, name, taken=taken, camera=camera, gps=gps, phash=phash)
            ids[name] = p.id
            tagf = [FactRecord("tag", lab, sc, data={"hypernym": hy, "names": [lab]}) for lab, sc, hy in tags]
            kindf = [FactRecord("kind", "document" if "doc" in name else "photo", 0.9)]
            qual = [
                FactRecord("quality", "blurry" if name == "cat2.jpg" else "sharp", 1.0, data={"blur": 10.0})
            ]
            family = "dog" if "dog" in name else "cat" if "cat" in name else "other"
            img = base_image[family] + 0.3 * rng.standard_normal(1280).astype(np.float32)
            if family == "other":
                img = rng.standard_normal(1280).astype(np.float32)
            emb = {"image": img} if with_vectors else {}
            store.write_analysis(
                s, p.id, "tagger", 1, AnalysisResult(facts=tagf + kindf + qual, embeddings=emb)
            )
            objf = [FactRecord("object", o, 0.8, box=[0.1, 0.1, 0.5, 0.5]) for o in objects]
            store.write_analysis(s, p.id, "detector", 1, AnalysisResult(facts=objf))
            ocrf = [FactRecord("text", w, 0.95) for w in ocr]
            store.write_analysis(s, p.id, "ocr", 1, AnalysisResult(facts=ocrf))
            facerecs = [
                FaceRecord([0.1, 0.1, 0.3, 0.3], 0.99, rng.standard_normal(128).astype(np.float32))
                for _ in faces
            ]
            store.write_analysis(s, p.id, "faces", 1, AnalysisResult(faces=facerecs))
            if with_vectors and embedder is not None:
                text = facts_text(tagf + objf + ocrf)
                store.write_analysis(
                    s,
                    p.id,
                    "facts_text",
                    1,
                    AnalysisResult(embeddings={"facts_text": embedder.embed([text])[0]}),
                )
        s.flush()
        from sqlalchemy import select

        from photosearch.catalog.models import Face

        for name, *_rest, faces in SPEC:
            face_rows = list(s.scalars(select(Face).where(Face.photo_id == ids[name]).order_by(Face.id)))
            for face, person in zip(face_rows, faces, strict=True):
                if person is None:
                    continue
                if person not in people:
                    pp = Person(name=person)
                    s.add(pp)
                    s.flush()
                    people[person] = pp.id
                face.person_id = people[person]
        # a user tag and a knowledge fact
        store.write_analysis(
            s, ids["dog1.jpg"], "user", 1, AnalysisResult(facts=[FactRecord("user_tag", "favourite")])
        )
        store.write_analysis(
            s,
            ids["rocket.jpg"],
            "enrich",
            1,
            AnalysisResult(
                facts=[
                    FactRecord(
                        "knowledge",
                        "Space Shuttle Discovery",
                        0.9,
                        data={"category": "spacecraft", "facts": ["orbiter operated by NASA"], "sources": []},
                    )
                ]
            ),
        )
    return ids


def catalog_of(store, photos: dict[str, dict], folder_path: str = "/photos"):
    """A catalog of photos named as `photos`' keys, each added with its values (`add_photo`'s
    `taken`, `gps`, `camera` ...)."""
    with store.session() as s:
        folder = _folder(s, folder_path)
        for name, details in photos.items():
            add_photo(s, folder, name, **details)
    return store


def dated_catalog(store, taken: dict, folder_path: str = "/photos"):
    """A catalog of photos named as `taken`'s keys, each taken at its value (None: undated)."""
    return catalog_of(store, {name: {"taken": when} for name, when in taken.items()}, folder_path)


def placed_catalog(store, gps: dict, folder_path: str = "/travels"):
    """A catalog of photos named as `gps`'s keys, each taken at its (lat, lon) (None: no GPS)."""
    return catalog_of(store, {name: {"gps": where} for name, where in gps.items()}, folder_path)


def _folder(s, path: str) -> Folder:
    """A new folder of the catalog, flushed (it has its id)."""
    folder = Folder(path=path)
    s.add(folder)
    s.flush()
    return folder


def tagged_catalog(store, taken: dict, folder_path: str = "/photos", scores: dict | None = None):
    """A catalog of photos named as `taken`'s keys, each taken at its (when, tag): the tagger's tag at
    0.9, or at its score in `scores` (a faint guess)."""
    with store.session() as s:
        folder = _folder(s, folder_path)
        for name, (when, label) in taken.items():
            photo = add_photo(s, folder, name, taken=when)
            facts = [FactRecord("tag", label, (scores or {}).get(name, 0.9), data={"names": [label]})]
            store.write_analysis(s, photo.id, "tagger", 1, AnalysisResult(facts=facts))
    return store


def sure_names(res: dict) -> list[str]:
    """The file names of a search's confident results, sorted."""
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])
