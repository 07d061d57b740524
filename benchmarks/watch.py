"""Benchmark: seconds from a file's write finishing to the photo being in the catalog.

    python -m benchmarks.watch [--files 10] [--analyze]

Prints figures (and JSON with --json); asserts nothing.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image
from sqlalchemy import select

from photosearch.app import default_analyzers
from photosearch.catalog import Store
from photosearch.catalog.models import Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.ingest.watcher import FolderWatcher


def _jpeg(seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    base = np.linspace(0, 255, 640 * 480 * 3).reshape(480, 640, 3) + rng.normal(0, 20, (480, 640, 3))
    buf = io.BytesIO()
    Image.fromarray(np.clip(base, 0, 255).astype(np.uint8)).save(buf, "JPEG", quality=90)
    return buf.getvalue()


def run(files: int, analyze: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "watched"
        root.mkdir()
        settings = Settings(data_dir=Path(tmp) / "data")
        settings.ensure_dirs()
        store = Store(settings.database_url)
        store.add_folder(root)
        analyzers = default_analyzers(settings) if analyze else []
        indexer = Indexer(store, settings, analyzers)
        latencies = []
        with FolderWatcher(store, indexer):
            for i in range(files):
                target = root / f"photo_{i:03d}.jpg"
                target.write_bytes(_jpeg(i))
                written = time.monotonic()
                while time.monotonic() - written < 30:
                    with store.session() as s:
                        if s.scalar(select(Photo.id).where(Photo.path == str(target))):
                            break
                    time.sleep(0.02)
                latencies.append(time.monotonic() - written)
        return {
            "files": files,
            "analyzers": [a.name for a in analyzers],
            "latency_s_p50": round(statistics.median(latencies), 3),
            "latency_s_max": round(max(latencies), 3),
            "target_s": 3.0,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--analyze", action="store_true", help="run the bundled analyzers too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.files, args.analyze)
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"watch → catalog latency over {result['files']} files (analyzers: {result['analyzers'] or 'none'}): "
            f"p50 {result['latency_s_p50']} s, max {result['latency_s_max']} s (target ≤ {result['target_s']} s)"
        )


if __name__ == "__main__":
    main()
