"""The People view's list at scale: `list_people` over a synthetic catalog of N unnamed faces in
groups of five, each face with the face model's words (one it claims, two it does not), and the
part of it that reads how each unnamed person looks (`people.operations._unnamed_looks`).

The catalog is made with direct inserts (no files, no analysis). Prints figures; never asserts
times. `python -m benchmarks.people_list [--faces 20000] [--repeat 5]`.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from datetime import datetime
from pathlib import Path

from benchmarks.stats import latency_ms

#: The words each face gets, with their scores: "woman" is claimed, the others are not.
WORDS = (("woman", 0.9), ("old woman", 0.4), ("girl", 0.2))


def build_store(root: Path, faces: int, per_person: int = 5):
    """A catalog of `faces` photos, one unnamed face each, `per_person` faces a person."""
    import numpy as np
    from sqlalchemy import insert

    from photosearch.catalog.models import Face, Fact, Folder, Person, Photo
    from photosearch.catalog.store import Store

    store = Store(f"sqlite:///{root / 'catalog.db'}")
    people = max(1, faces // per_person)
    descriptor = np.zeros(128, np.float32).tobytes()
    box = [0.1, 0.1, 0.3, 0.3]
    with store.session() as s:
        folder = Folder(path="/photos")
        s.add(folder)
        s.flush()
        s.execute(insert(Person), [{"id": i + 1} for i in range(people)])
        s.execute(
            insert(Photo),
            [
                {"id": i + 1, "path": f"/photos/{i}.jpg", "content_hash": f"{i:064x}", "size": 1}
                | {"folder_id": folder.id, "mtime": 0.0, "state": "active"}
                for i in range(faces)
            ],
        )
        s.execute(
            insert(Face),
            [
                {"id": i + 1, "photo_id": i + 1, "analyzer": "faces", "box": box, "score": 0.9}
                | {"descriptor": descriptor, "person_id": i % people + 1}
                for i in range(faces)
            ],
        )
        made = datetime(2024, 1, 1)
        s.execute(
            insert(Fact),
            [
                {"photo_id": i + 1, "analyzer": "faces", "kind": "face", "label": word, "score": score}
                | {"box": box, "created_at": made}
                for i in range(faces)
                for word, score in WORDS
            ],
        )
    return store, people


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faces", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    from photosearch.people.operations import _unnamed_looks, list_people

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        store, people = build_store(Path(tmp), args.faces)
        print(
            f"catalog: {args.faces} unnamed faces, {people} people, built in {time.perf_counter() - t:.1f} s"
        )
        whole, looks = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            found = list_people(store)
            whole.append((time.perf_counter() - t) * 1000)
            with store.session() as s:
                t = time.perf_counter()
                _unnamed_looks(s)
                looks.append((time.perf_counter() - t) * 1000)
        print(
            f"list_people ms: {latency_ms(whole)} ({len(found)} people, looks {sorted({p.look for p in found})})"
        )
        print(f"  of which how they look ms: {latency_ms(looks)}")
        print(f"load average: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
