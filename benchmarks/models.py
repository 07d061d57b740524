"""Micro-benchmark of the bundled models: ms per photo (median) and load time.

    python -m benchmarks.models [--repeat 5] [--threads 2] [--side 1280] [--panoramas]

Photos are scikit-image / scikit-learn samples scaled to the analysis size the indexer passes
(longest side `--side`); with `--panoramas`, each is three samples side by side (about 4.5:1), at
the size the indexer reads a panorama (`ingest.decode.fit_box`: its short side half of `--side`),
which the tagger, scene model and detector also read in parts. Nothing is asserted; the figures
are for people and CI logs.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from photosearch.config import Settings
from photosearch.ingest.decode import fit_box
from photosearch.records import PhotoImage
from photosearch.vision.preprocess import resize_max_side


def sample_photos(side: int, panoramas: bool = False) -> list[np.ndarray]:
    from skimage import data

    photos = [data.chelsea(), data.coffee(), data.astronaut(), data.rocket()]
    try:
        from sklearn.datasets import load_sample_images

        photos += list(load_sample_images().images)
    except ImportError:
        pass
    if panoramas:
        wide = [_side_by_side(photos[i - 2], photos[i - 1], p) for i, p in enumerate(photos)]
        return [_fitted(p, fit_box(p.shape[1], p.shape[0], side, side // 2)) for p in wide]
    return [resize_max_side(p, side, "cubic") for p in photos]


def _fitted(rgb: np.ndarray, box: tuple[int, int]) -> np.ndarray:
    import cv2

    scale = min(1.0, box[0] / rgb.shape[1], box[1] / rgb.shape[0])
    size = (round(rgb.shape[1] * scale), round(rgb.shape[0] * scale))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_CUBIC) if scale < 1 else rgb


def _side_by_side(*photos: np.ndarray, height: int = 1200) -> np.ndarray:
    import cv2

    return np.hstack([cv2.resize(p, (round(p.shape[1] * height / p.shape[0]), height)) for p in photos])


def time_ms(fn: Callable[[], object], repeat: int) -> float:
    fn()  # warm-up
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - t0) * 1000)
    return statistics.median(runs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--side", type=int, default=1280)
    ap.add_argument("--panoramas", action="store_true", help="three photos side by side, about 4.5:1")
    args = ap.parse_args(argv)
    settings = Settings(data_dir=Path(tempfile.mkdtemp(prefix="ps-bench-")), threads=args.threads)
    photos = [
        PhotoImage(i, f"p{i}.jpg", p, p.shape[1], p.shape[0])
        for i, p in enumerate(sample_photos(args.side, args.panoramas))
    ]
    shape = f", {photos[0].full_width / photos[0].full_height:.1f}:1" if args.panoramas else ""
    print(f"{len(photos)} photos{shape}, longest side {args.side}, threads {args.threads}")
    print(f"{'model':<14}{'load ms':>10}{'ms/photo':>10}")

    from photosearch.vision.registry import bundled_analyzers, facts_text_analyzer

    total = 0.0
    facts = {}
    for analyzer in bundled_analyzers(settings):
        t0 = time.perf_counter()
        model = getattr(analyzer, "model", None)
        if model is not None and hasattr(model, "load"):
            model.load()
        if analyzer.name == "tagger":
            _ = analyzer.hierarchy
        load_ms = (time.perf_counter() - t0) * 1000
        per = [time_ms(lambda img=img, a=analyzer: a.analyze(img), args.repeat) for img in photos]
        ms = statistics.mean(per)
        total += ms
        for img in photos:
            facts.setdefault(img.photo_id, []).extend(analyzer.analyze(img).facts)
        print(f"{analyzer.name:<14}{load_ms:>10.0f}{ms:>10.1f}")
    ft = facts_text_analyzer(settings)
    if ft is not None:
        emb = ft.embedder
        t0 = time.perf_counter()
        emb.load()
        load_ms = (time.perf_counter() - t0) * 1000
        lists = list(facts.values())
        batch = (lists * (32 // max(1, len(lists)) + 1))[:32]
        ms = time_ms(lambda: ft.embed_facts_batch(batch), args.repeat) / len(batch)
        total += ms
        print(f"{'facts_text':<14}{load_ms:>10.0f}{ms:>10.1f}   (batch of {len(batch)})")
        counter = iter(range(10**9))
        q = time_ms(lambda: emb.predict([f"query number {next(counter)} about a cat"]), args.repeat)
        print(f"{'text query':<14}{'':>10}{q:>10.1f}   (one uncached query)")
    print(f"{'sum':<14}{'':>10}{total:>10.1f}   model-bound limit {1000 / total:.1f} photos/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
