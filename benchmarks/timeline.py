"""Browsing at scale: the timeline's Core call and model build, the folder tree, a folder's photos
and the grid's tooltip facts, on a synthetic catalog of N photos (default 100,000).

The catalog is made fast with direct inserts (no files, no analysis): photos over 12 years in
nested folders (year/month), 1 % without a date, 40 % with a GPS place fact. Prints figures; never
asserts times. `python -m benchmarks.timeline [--photos 100000] [--repeat 5]`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from benchmarks.stats import latency_ms

CITIES = ["Lisbon, Lisbon, PT", "Sintra, Lisbon, PT", "Paris, Ile-de-France, FR", "Porto, Porto, PT"]


def build_catalog(root: Path, photos: int, seed: int = 0):
    """A `Core` over a catalog of `photos` synthetic photos under `root`; (core, seconds to build)."""
    from sqlalchemy import insert

    from photosearch.catalog.models import Fact, Folder, Photo
    from photosearch.config import Settings
    from photosearch.core import Core

    t0 = time.perf_counter()
    rng = random.Random(seed)
    core = Core(Settings(data_dir=root / "data"))
    library = str(root / "Pictures")
    start = datetime(2013, 1, 1)
    span = int(timedelta(days=12 * 365).total_seconds())
    rows, facts = [], []
    for i in range(1, photos + 1):
        taken = None if rng.random() < 0.01 else start + timedelta(seconds=rng.randrange(span))
        day = taken or start
        rows.append(
            {
                "id": i,
                "folder_id": 1,
                "path": f"{library}/{day:%Y}/{day:%m} {day:%B}/IMG_{i:06d}.jpg",
                "content_hash": f"{i:064x}",
                "size": 3_000_000,
                "mtime": 0.0,
                "format": "JPEG",
                "taken_at": taken,
                "state": "active",
            }
        )
        if rng.random() < 0.4:
            label = rng.choice(CITIES)
            facts.append({"photo_id": i, "analyzer": "place", "kind": "place", "label": label, "score": 1.0})
    with core.store.begin() as conn:
        conn.execute(insert(Folder), [{"id": 1, "path": library, "online": True}])
        for chunk in range(0, len(rows), 20_000):
            conn.execute(insert(Photo), rows[chunk : chunk + 20_000])
        for chunk in range(0, len(facts), 20_000):
            conn.execute(insert(Fact), facts[chunk : chunk + 20_000])
    return core, time.perf_counter() - t0


def timed(fn, repeat: int) -> tuple[object, list[float]]:
    """(last result, milliseconds per call)."""
    out, times = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1000)
    return out, times


def line(name: str, times: list[float]) -> str:
    stats = latency_ms(times)
    return f"{name:<36} p50 {stats['p50']:8.1f} ms   p95 {stats['p95']:8.1f} ms   (n={stats['n']})"


def run(photos: int, repeat: int) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    with tempfile.TemporaryDirectory() as tmp:
        core, built = build_catalog(Path(tmp), photos)
        print(f"catalog: {photos:,} photos built in {built:.1f} s (direct inserts)")
        timeline, t_core = timed(core.timeline, repeat)
        print(line("Core.timeline()", t_core))
        _tree, t_tree = timed(core.folder_tree, repeat)
        print(line("Core.folder_tree()", t_tree))
        year = f"{tmp}/Pictures/2019"
        shown, t_folder = timed(lambda: core.folder_photos(year), repeat)
        print(line(f"Core.folder_photos() ({len(shown):,})", t_folder))
        ids = timeline.ids[:5000]
        _info, t_info = timed(lambda: core.photo_info(ids), repeat)
        print(line("Core.photo_info(5,000 ids)", t_info))

        from PySide6.QtWidgets import QApplication

        from photosearch.gui.timeline_view import TimelineModel, TimelineView

        app = QApplication.instance() or QApplication([sys.argv[0]])
        model = TimelineModel()
        _none, t_model = timed(lambda: model.set_timeline(timeline), repeat)
        print(line("TimelineModel.set_timeline()", t_model))
        view = TimelineView()
        view.setModel(model)
        view.resize(1000, 700)
        _none, t_layout = timed(view.relayout, repeat)
        print(line("TimelineView layout (1000 px wide)", t_layout))
        view.show()
        app.processEvents()
        months = model.months()
        picks = [months[i * len(months) // repeat] for i in range(repeat)]
        t_jump = []
        for m in picks:
            t0 = time.perf_counter()
            view.scroll_to_month(m.key)
            view.viewport().repaint()
            t_jump.append((time.perf_counter() - t0) * 1000)
        print(line("jump to a month + repaint", t_jump))
        print(f"timeline: {len(timeline):,} photos, {len(model.groups):,} days, {len(months):,} months")
        core.store.close()
    return {
        "core_ms": latency_ms(t_core),
        "model_ms": latency_ms(t_model),
        "layout_ms": latency_ms(t_layout),
        "jump_ms": latency_ms(t_jump),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.timeline", description=__doc__)
    p.add_argument("--photos", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args(argv)
    run(args.photos, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
