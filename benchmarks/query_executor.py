"""Executor + composer benchmark on a synthetic catalog.

    python -m benchmarks.query_executor --photos 100000 [--data-dir DIR] [--repeat 20]

Builds (once, cached in DIR) a SQLite catalog with realistic facts: ImageNet-like tags with
hypernyms, detector objects, OCR words, dates over 10 years, GPS with place facts, faces and named
people, random `facts_text` vectors (384-d) and phashes; then prints p50/p95 milliseconds of
execute + compose (planning excluded) per plan and overall, after one warm-up run per plan.
Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
from sqlalchemy import insert

from photosearch.catalog import Store
from photosearch.catalog.models import Analysis, Embedding, Face, Fact, Folder, Person, Photo
from photosearch.config import Settings

LEAVES = {  # leaf tag -> hypernyms
    "golden retriever": ["dog", "canine", "animal"], "beagle": ["dog", "canine", "animal"],
    "tabby": ["cat", "feline", "animal"], "siamese cat": ["cat", "feline", "animal"],
    "sports car": ["car", "motor vehicle", "vehicle"], "minivan": ["car", "motor vehicle", "vehicle"],
    "seashore": ["beach", "shore", "geological formation"], "sandbar": ["beach", "shore"],
    "alp": ["mountain", "geological formation"], "espresso": ["coffee", "beverage", "food"],
    "pizza": ["dish", "food"], "cheeseburger": ["sandwich", "dish", "food"], "suit": ["garment", "clothing"],
    "jersey": ["garment", "clothing"], "bicycle-built-for-two": ["bicycle", "wheeled vehicle", "vehicle"],
    "sailboat": ["boat", "vessel", "craft"], "church": ["place of worship", "building"],
    "palace": ["residence", "building"], "daisy": ["flower", "plant"], "lakeside": ["shore", "body of water"],
}
OBJECTS = ["person", "dog", "cat", "car", "bicycle", "cup", "chair", "boat", "bottle", "umbrella"]
WORDS = ["EXIT", "STOP", "SALE", "OPEN", "CAFE", "HOTEL", "POLICE", "TAXI", "MENU", "PLATFORM"]
PLACES = [("Rome", "Latium", "IT", "Italy", 41.89, 12.49), ("Paris", "Ile-de-France", "FR", "France", 48.85, 2.35),
          ("Berlin", "Berlin", "DE", "Germany", 52.52, 13.40), ("Madrid", "Madrid", "ES", "Spain", 40.42, -3.70),
          ("Oslo", "Oslo", "NO", "Norway", 59.91, 10.75), ("Kyoto", "Kyoto", "JP", "Japan", 35.01, 135.77)]
CAMERAS = [("Google", "Pixel 7"), ("Apple", "iPhone 12"), ("Canon", "EOS R5"), ("Sony", "ILCE-7M3")]
PEOPLE = ["Anna", "Tom", "Eve", "Max", "Lena", "Paul", "Mia", "Ben"]

PLANS = {
    "concept dog": {"concept": "dog"},
    "concept sports car": {"concept": "sports car"},
    "dog AND Anna": {"and": [{"concept": "dog"}, {"person": "Anna"}]},
    "Anna AND Tom NOT Eve": {"and": [{"person": "Anna"}, {"person": "Tom"}, {"not": {"person": "Eve"}}]},
    "beach AND summer 2021": {"and": [{"concept": "beach"}, {"date": {"from": "2021-06-01", "to": "2021-08-31"}}]},
    "cat OR dog": {"or": [{"concept": "cat"}, {"concept": "dog"}]},
    "place Italy": {"place": "Italy"},
    "text EXIT": {"text": "EXIT"},
    "camera pixel, 3+ faces": {"and": [{"camera": "Pixel"}, {"faces": {"min": 3, "max": None}}]},
    "NOT animal": {"not": {"concept": "animal"}},
}
COMPOSE = {
    "dog, best 20 one per day, no dups": ({"concept": "dog"},
                                          {"limit": 20, "per": "day", "exclude_near_duplicates": True}),
    "Italy, 30 diverse by month": ({"place": "Italy"}, {"limit": 30, "diverse": True, "per": "month"}),
}


class HashEmbedder:
    """Deterministic 384-d bag-of-words vectors (no model: the benchmark measures the executor)."""

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), 384), np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                seed = int.from_bytes(hashlib.sha1(w.encode()).digest()[:4], "little")
                out[i] += np.random.default_rng(seed).standard_normal(384).astype(np.float32)
            out[i] /= max(float(np.linalg.norm(out[i])), 1e-6)
        return out


def build(store: Store, n: int, seed: int = 0, progress=print) -> None:
    rng = np.random.default_rng(seed)
    emb = HashEmbedder()
    leaves = list(LEAVES)
    leaf_vecs = {leaf: emb.embed([" ".join([leaf, *LEAVES[leaf]])])[0] for leaf in leaves}
    start = datetime(2015, 1, 1)
    t0 = time.perf_counter()
    with store.begin() as conn:
        conn.execute(insert(Folder), [{"id": i + 1, "path": f"/photos/{name}"} for i, name in
                                      enumerate(["Trips", "Home", "Party", "Phone", "Trips/Italy"])])
        conn.execute(insert(Person), [{"id": i + 1, "name": p} for i, p in enumerate(PEOPLE)])
    face_id = 1
    chunk = 5000
    for base in range(0, n, chunk):
        photos, facts, faces, embs, analyses = [], [], [], [], []
        for pid in range(base + 1, min(n, base + chunk) + 1):
            folder = int(rng.integers(1, 6))
            cam = CAMERAS[int(rng.integers(len(CAMERAS)))]
            place = PLACES[int(rng.integers(len(PLACES)))] if rng.random() < 0.6 else None
            burst = pid if rng.random() < 0.8 else pid - 1  # ~20% near-duplicates of the previous photo
            photos.append({
                "id": pid, "folder_id": folder, "path": f"/photos/f{folder}/{pid:07d}.jpg",
                "content_hash": f"{pid:064x}", "size": 1, "mtime": 0.0,
                "taken_at": start + timedelta(seconds=int(rng.integers(0, 10 * 365 * 86400))),
                "camera_make": cam[0], "camera_model": cam[1],
                "gps_lat": place[4] + rng.normal(0, 0.02) if place else None,
                "gps_lon": place[5] + rng.normal(0, 0.02) if place else None,
                "phash": f"{(burst * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF:016x}", "state": "active"})
            picked = rng.choice(len(leaves), size=3, replace=False)
            probs = np.sort(rng.dirichlet(np.ones(3) * 0.5))[::-1]
            vec = np.zeros(384, np.float32)
            for j, p in zip(picked, probs, strict=True):
                leaf = leaves[int(j)]
                if p < 0.03:  # the tagger keeps labels above min_score only
                    continue
                facts.append({"photo_id": pid, "analyzer": "tagger", "kind": "tag", "label": leaf, "score": float(p),
                              "data": {"hypernym": False, "names": [leaf]}})
                for h in LEAVES[leaf]:
                    facts.append({"photo_id": pid, "analyzer": "tagger", "kind": "tag", "label": h,
                                  "score": float(p), "data": {"hypernym": True, "names": [h]}})
                vec += p * leaf_vecs[leaf]
            for o in rng.choice(len(OBJECTS), size=int(rng.integers(0, 3)), replace=False):
                facts.append({"photo_id": pid, "analyzer": "detector", "kind": "object", "label": OBJECTS[int(o)],
                              "score": float(rng.uniform(0.4, 0.99)), "box": [0.1, 0.1, 0.5, 0.5]})
            if rng.random() < 0.1:
                facts.append({"photo_id": pid, "analyzer": "ocr", "kind": "text",
                              "label": WORDS[int(rng.integers(len(WORDS)))], "score": 0.9})
            facts.append({"photo_id": pid, "analyzer": "quality", "kind": "kind", "label": "photo", "score": 1.0})
            if place:
                facts.append({"photo_id": pid, "analyzer": "place", "kind": "place",
                              "label": f"{place[0]}, {place[1]}, {place[2]}",
                              "data": {"city": place[0], "admin1": place[1], "cc": place[2], "country": place[3]}})
                analyses.append({"photo_id": pid, "analyzer": "place", "version": 1, "status": "ok"})
            for _ in range(int(rng.poisson(0.8))):
                person = int(rng.integers(1, len(PEOPLE) + 1)) if rng.random() < 0.7 else None
                faces.append({"id": face_id, "photo_id": pid, "analyzer": "faces", "box": [0, 0, 0.1, 0.1],
                              "score": 0.99, "person_id": person})
                face_id += 1
            vec += 0.3 * rng.standard_normal(384).astype(np.float32) / 20
            vec /= max(float(np.linalg.norm(vec)), 1e-6)
            embs.append({"photo_id": pid, "space": "facts_text", "analyzer": "facts_text", "dim": 384,
                         "vector": vec.astype(np.float32).tobytes()})
        facts = [{"box": None, "data": None, "score": 1.0} | f for f in facts]
        with store.begin() as conn:
            conn.execute(insert(Photo), photos)
            conn.execute(insert(Fact), facts)
            if faces:
                conn.execute(insert(Face), faces)
            conn.execute(insert(Embedding), embs)
            if analyses:
                conn.execute(insert(Analysis), analyses)
        progress(f"  {min(n, base + chunk)}/{n} photos written ({time.perf_counter() - t0:.0f} s)")


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q)) if values else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=10000)
    ap.add_argument("--data-dir", help="catalog location (reused when it already holds --photos photos)")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from photosearch.query.resolvers.base import EmbeddingSignal
    from photosearch.query.search import search, vector_indexes

    data_dir = Path(args.data_dir or Path(tempfile.gettempdir()) / f"photosearch-bench-{args.photos}")
    settings = Settings(data_dir=data_dir)
    settings.ensure_dirs()
    marker = data_dir / "bench.json"
    store = Store(settings.database_url)
    if not marker.is_file() or json.loads(marker.read_text()).get("photos") != args.photos:
        print(f"building a synthetic catalog of {args.photos} photos in {data_dir}")
        store.close()
        for f in data_dir.glob("catalog.db*"):
            f.unlink()
        store = Store(settings.database_url)
        build(store, args.photos)
        marker.write_text(json.dumps({"photos": args.photos}))
    idx = vector_indexes(store, settings)
    idx.connectivity, idx.expansion_add = 12, 48
    t = time.perf_counter()
    idx.get("facts_text")
    print(f"facts_text vector index ready in {time.perf_counter() - t:.1f} s")
    signals = [EmbeddingSignal("facts_text", HashEmbedder().embed)]
    cases = {k: ({"version": 1, "where": w, "compose": {"limit": 50}}) for k, w in PLANS.items()}
    cases |= {k: {"version": 1, "where": w, "compose": c} for k, (w, c) in COMPOSE.items()}
    t = time.perf_counter()
    search(store, settings, plan=cases["concept dog"], signals=signals)
    print(f"cold start (snapshot load + calibration): {time.perf_counter() - t:.2f} s")
    rows, all_ms = [], []
    for name, plan in cases.items():
        search(store, settings, plan=plan, signals=signals)  # warm-up (place facts, caches)
        ms = []
        for _ in range(args.repeat):
            out = search(store, settings, plan=plan, signals=signals)
            tm = out["timing_ms"]
            ms.append(tm["execute"] + tm["compose"] + tm["load"] + tm["why"])
        all_ms += ms
        rows.append({"plan": name, "matched": out["matched"], "returned": len(out["results"]),
                     "solver": out["composer"]["solver"], "p50_ms": round(percentile(ms, 50), 2),
                     "p95_ms": round(percentile(ms, 95), 2)})
    summary = {"photos": args.photos, "p50_ms": round(percentile(all_ms, 50), 2),
               "p95_ms": round(percentile(all_ms, 95), 2), "plans": rows}
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for r in rows:
            print(f"{r['plan']:<38} matched {r['matched']:>7}  returned {r['returned']:>3}  {r['solver']:<6} "
                  f"p50 {r['p50_ms']:>7.2f} ms  p95 {r['p95_ms']:>7.2f} ms")
        print(f"ALL plans at {args.photos} photos: p50 {summary['p50_ms']:.2f} ms, p95 {summary['p95_ms']:.2f} ms")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
