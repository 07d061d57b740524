"""Synthetic catalogs for benchmarks and tests: photo rows, facts, faces and vectors, bulk-inserted;
and `HashEmbedder`, the model-free text embedder that goes with them.

Facts follow a Zipf-like concept distribution with WordNet-style hypernyms, detector objects,
OCR text on some photos, screenshots, blurry photos, dates over 15 years, a handful of cameras
and GPS around a few cities. Vectors cluster around one centroid per concept (like real
embeddings do), so approximate-search recall figures mean something. Inserts go through
SQLAlchemy Core `executemany` in chunks: ~1M photos is minutes, not hours.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from types import SimpleNamespace

import numpy as np
from sqlalchemy import insert

from photosearch.catalog.models import Analysis, Embedding, Face, Fact, Folder, Person, Photo

CONCEPTS: dict[str, list[str]] = {
    "cat": ["feline", "mammal", "animal"],
    "dog": ["canine", "mammal", "animal"],
    "horse": ["equine", "mammal", "animal"],
    "bird": ["animal"],
    "beach": ["shore", "landscape"],
    "mountain": ["landscape"],
    "lake": ["body of water", "landscape"],
    "forest": ["landscape"],
    "car": ["motor vehicle", "vehicle"],
    "bicycle": ["wheeled vehicle", "vehicle"],
    "boat": ["vessel", "vehicle"],
    "airplane": ["aircraft", "vehicle"],
    "pizza": ["dish", "food"],
    "cake": ["dessert", "food"],
    "coffee": ["beverage", "food"],
    "flower": ["plant"],
    "tree": ["plant"],
    "building": ["structure"],
    "bridge": ["structure"],
    "church": ["building", "structure"],
    "person": ["organism"],
    "child": ["person", "organism"],
    "snow": ["weather"],
    "sunset": ["sky"],
    "city street": ["street", "structure"],
    "book": ["publication"],
    "laptop": ["computer", "device"],
    "phone": ["device"],
    "guitar": ["instrument"],
    "ball": ["toy"],
}
OBJECTS = {
    "cat": "cat",
    "dog": "dog",
    "horse": "horse",
    "bird": "bird",
    "car": "car",
    "bicycle": "bicycle",
    "boat": "boat",
    "airplane": "airplane",
    "pizza": "pizza",
    "cake": "cake",
    "coffee": "cup",
    "person": "person",
    "child": "person",
    "book": "book",
    "laptop": "laptop",
    "phone": "cell phone",
}
WORDS = ["EXIT", "OPEN", "STOP", "SALE", "CAFE", "HOTEL", "PARKING", "WELCOME", "MENU", "TICKET"]
CAMERAS = [
    ("Apple", "iPhone 12"),
    ("Apple", "iPhone 15 Pro"),
    ("Google", "Pixel 7"),
    ("Samsung", "SM-S911B"),
    ("Canon", "Canon EOS 5D Mark IV"),
    ("Sony", "ILCE-7M3"),
    ("Fujifilm", "X-T4"),
    (None, None),
]
PEOPLE = ["Anna", "Tom", "Eve", "Max", "Lena", "Paul", "Mia", "Ben"]
CITIES = [
    (43.7696, 11.2558),
    (48.8566, 2.3522),
    (39.9042, 116.4074),
    (40.7128, -74.0060),
    (35.6762, 139.6503),
    (-33.8688, 151.2093),
    (52.5200, 13.4050),
    (41.3874, 2.1686),
]


class HashEmbedder:
    """Deterministic bag-of-words text vectors, no model: each word (lower case, a plural "s" dropped)
    hashes to a random vector; a text is the normalised sum of its words' vectors."""

    def __init__(self, dim: int = 384):
        self.dim = dim

    def _word(self, w: str) -> np.ndarray:
        seed = int.from_bytes(hashlib.sha1(w.encode()).digest()[:4], "little")
        return np.random.default_rng(seed).standard_normal(self.dim).astype(np.float32)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().replace(",", " ").split():
                out[i] += self._word(w.rstrip("s"))
            n = np.linalg.norm(out[i])
            out[i] /= n if n else 1
        return out


def concept_centroids(dim: int, seed: int = 7) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    cents = rng.normal(size=(len(CONCEPTS), dim)).astype(np.float32)
    cents /= np.linalg.norm(cents, axis=1, keepdims=True)
    return dict(zip(CONCEPTS, cents, strict=True))


def clustered_vectors(n: int, dim: int, seed: int = 0, noise: float = 0.6) -> tuple[np.ndarray, np.ndarray]:
    """(concept index per row, float32 vectors) clustered around concept centroids."""
    rng = np.random.default_rng(seed)
    names = list(CONCEPTS)
    weights = 1.0 / np.arange(1, len(names) + 1)
    concept = rng.choice(len(names), size=n, p=weights / weights.sum())
    cents = np.stack(list(concept_centroids(dim).values()))
    vecs = (
        cents[concept]
        + rng.normal(scale=noise / np.sqrt(dim), size=(n, dim)).astype(np.float32) * np.sqrt(dim) / 4
    )
    return concept, vecs.astype(np.float32)


def _clustered(concept: np.ndarray, dim: int, rng) -> np.ndarray:
    """Each photo's concept centroid plus isotropic noise (0.8), unit length."""
    cents = np.stack(list(concept_centroids(dim).values()))
    noise = rng.normal(size=(concept.size, dim)).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    vecs = cents[concept] + 0.8 * noise
    return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)


def _facts_texts(facts: list[dict], lo: int, m: int) -> list[str]:
    """The facts_text analyzer's text of photos lo+1 .. lo+m from their fact rows."""
    from photosearch.vision.facts_text import facts_to_text

    per_photo: list[list[SimpleNamespace]] = [[] for _ in range(m)]
    for f in facts:
        per_photo[f["photo_id"] - lo - 1].append(SimpleNamespace(**f))
    return [facts_to_text(fs) for fs in per_photo]


class FactsTextVectors:
    """facts_text vectors as indexing makes them: each photo's facts as text (`facts_to_text`),
    embedded by a real text encoder (each distinct text once), plus `noise` of per-photo variation
    (unit-length isotropic noise scaled by it) standing for what the synthetic facts leave out
    (colours, captions, places), so that photos with the same facts are close but not identical."""

    def __init__(self, encode: Callable[[list[str]], np.ndarray], noise: float = 0.1, batch: int = 256):
        self.encode = encode
        self.noise = noise
        self.batch = batch
        self._known: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str], rng) -> np.ndarray:
        new = sorted({t for t in texts if t not in self._known})
        for i in range(0, len(new), self.batch):
            part = new[i : i + self.batch]
            vecs = np.asarray(self.encode(part), np.float32)
            vecs /= np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-12)
            self._known.update(zip(part, vecs, strict=True))
        vecs = np.stack([self._known[t] for t in texts])
        noise = rng.normal(size=vecs.shape).astype(np.float32)
        noise /= np.linalg.norm(noise, axis=1, keepdims=True)
        vecs = vecs + self.noise * noise
        return (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)

    @property
    def distinct_texts(self) -> int:
        return len(self._known)


def _embedding_rows(
    spaces: dict[str, int], concept: np.ndarray, facts: list[dict], lo: int, rng, text_vectors, now
) -> list[dict]:
    """Embedding rows of photos lo+1 .. lo+len(concept), one per space."""
    embeds: list[dict] = []
    for space, dim in spaces.items():
        if text_vectors is not None and space == "facts_text":
            vecs = text_vectors(_facts_texts(facts, lo, concept.size), rng)
        else:
            vecs = _clustered(concept, dim, rng)
        embeds += [
            {
                "photo_id": lo + j + 1,
                "space": space,
                "analyzer": space.split(":")[0],
                "dim": dim,
                "vector": vecs[j].tobytes(),
                "updated_at": now,
            }
            for j in range(concept.size)
        ]
    return embeds


def _faces(rng, lo: int, m: int, first_id: int) -> list[dict]:
    """Poisson(0.8) faces per photo, 70% of them named (`PEOPLE`, person ids 1..8)."""
    faces = []
    for j, count in enumerate(rng.poisson(0.8, size=m).tolist()):
        for _ in range(count):
            person = int(rng.integers(1, len(PEOPLE) + 1)) if rng.random() < 0.7 else None
            faces.append(
                {
                    "id": first_id + len(faces),
                    "photo_id": lo + j + 1,
                    "analyzer": "faces",
                    "box": [0.1, 0.1, 0.3, 0.3],
                    "score": 0.99,
                    "person_id": person,
                }
            )
    return faces


def generate_catalog(
    store,
    n: int,
    *,
    seed: int = 0,
    spaces: dict[str, int] | None = None,
    chunk: int = 20_000,
    people: bool = False,
    progress: Callable[[int, int], None] | None = None,
    text_vectors: FactsTextVectors | None = None,
) -> dict:
    """Insert `n` synthetic photos (ids 1..n) with facts and vectors into an empty catalog
    (with `people`: named people and faces too). Vectors cluster around random concept centroids,
    or, with `text_vectors`, the facts_text space holds what a real text encoder makes of each
    photo's facts."""
    spaces = {"facts_text": 384} if spaces is None else spaces
    rng = np.random.default_rng(seed)
    names = list(CONCEPTS)
    t0 = time.perf_counter()
    counts = {"photos": 0, "facts": 0, "embeddings": 0}
    start = datetime(2010, 1, 1)
    now = datetime(2024, 6, 1)
    with store.begin() as conn:
        folder_id = conn.execute(insert(Folder).values(path="/synthetic", online=True)).inserted_primary_key[
            0
        ]
        if people:
            conn.execute(insert(Person), [{"id": i + 1, "name": name} for i, name in enumerate(PEOPLE)])
    face_id = 1
    # Place facts as `photosearch index` writes them (its places step), so a place query at 1M
    # measures the search, not a first-time geocoding of the whole catalog.
    from photosearch.query.resolvers.places import PLACE_ANALYZER, PLACE_VERSION, place_label, reverse_geocode

    city_places = reverse_geocode([(lat, lon) for lat, lon, *_ in CITIES])
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        m = hi - lo
        concept, _ = clustered_vectors(m, 8, seed=seed + lo)  # concept assignment only
        second = rng.integers(0, len(names), size=m)
        days = rng.integers(0, 15 * 365, size=m)
        cams = rng.integers(0, len(CAMERAS), size=m)
        city = rng.integers(0, len(CITIES) + 3, size=m)  # some photos without GPS
        has_text = rng.random(m) < 0.1
        shot = rng.random(m) < 0.05
        blurry = rng.random(m) < 0.08
        photos, facts, analyses = [], [], []

        def fact(pid, analyzer, kind, label, score, box=None, data=None, facts=facts):
            facts.append(
                {
                    "photo_id": pid,
                    "analyzer": analyzer,
                    "kind": kind,
                    "label": label,
                    "score": score,
                    "box": box,
                    "data": data,
                    "created_at": now,
                }
            )

        for j in range(m):
            pid = lo + j + 1
            make, model = CAMERAS[cams[j]]
            lat = lon = None
            if city[j] < len(CITIES):
                lat = CITIES[city[j]][0] + float(rng.normal(0, 0.05))
                lon = CITIES[city[j]][1] + float(rng.normal(0, 0.05))
                place = {**city_places[city[j]], "lat": lat, "lon": lon}
                fact(pid, PLACE_ANALYZER, "place", place_label(place), 1.0, data=place)
                analyses.append(
                    {
                        "photo_id": pid,
                        "analyzer": PLACE_ANALYZER,
                        "version": PLACE_VERSION,
                        "status": "ok",
                        "ran_at": now,
                    }
                )
            photos.append(
                {
                    "id": pid,
                    "folder_id": folder_id,
                    "path": f"/synthetic/{pid // 1000:04d}/IMG_{pid:07d}.jpg",
                    "content_hash": hashlib.blake2b(pid.to_bytes(8, "little"), digest_size=16).hexdigest(),
                    "size": 2_000_000 + pid % 1_000_000,
                    "mtime": 1.6e9 + pid,
                    "format": "JPEG",
                    "width": 4032,
                    "height": 3024,
                    "taken_at": start + timedelta(days=int(days[j]), seconds=pid % 86400),
                    "camera_make": make,
                    "camera_model": model,
                    "gps_lat": lat,
                    "gps_lon": lon,
                    "phash": f"{pid * 2654435761 % (1 << 64):016x}",
                    "state": "active",
                    "added_at": now,
                    "updated_at": now,
                }
            )
            main = names[concept[j]]
            score = float(0.5 + 0.5 * rng.random())
            fact(pid, "tagger", "tag", main, score, data={"hypernym": False})
            for h in CONCEPTS[main]:
                fact(pid, "tagger", "tag", h, score, data={"hypernym": True})
            if second[j] != concept[j] and rng.random() < 0.4:
                fact(
                    pid,
                    "tagger",
                    "tag",
                    names[second[j]],
                    float(0.3 * rng.random()),
                    data={"hypernym": False},
                )
            if main in OBJECTS:
                fact(pid, "detector", "object", OBJECTS[main], score, box=[0.1, 0.1, 0.8, 0.9])
            if has_text[j]:
                fact(pid, "ocr", "text", WORDS[pid % len(WORDS)], 0.95, box=[0.2, 0.3, 0.7, 0.5])
            fact(pid, "quality", "kind", "screenshot" if shot[j] else "photo", 0.9)
            fact(
                pid,
                "quality",
                "quality",
                "blurry" if blurry[j] else "sharp",
                0.9,
                data={"blur": 40.0 if blurry[j] else 800.0},
            )
            for name in ("tagger", "detector", "ocr", "quality"):
                analyses.append(
                    {"photo_id": pid, "analyzer": name, "version": 1, "status": "ok", "ran_at": now}
                )
        embeds = _embedding_rows(spaces, concept, facts, lo, rng, text_vectors, now)
        faces = _faces(rng, lo, m, face_id) if people else []
        face_id += len(faces)
        with store.begin() as conn:
            conn.execute(insert(Photo), photos)
            conn.execute(insert(Fact), facts)
            conn.execute(insert(Analysis), analyses)
            if embeds:
                conn.execute(insert(Embedding), embeds)
            if faces:
                conn.execute(insert(Face), faces)
        counts["photos"] += m
        counts["facts"] += len(facts)
        counts["embeddings"] += len(embeds)
        if progress:
            progress(hi, n)
    counts["seconds"] = round(time.perf_counter() - t0, 2)
    return counts
