"""Measure the int8 scene model's activation ranges on a folder of real photos, once, and write
them where the build reads them (`models/places_int8.py`):

    python -m photosearch.vision.scene_ranges PHOTO_DIR    # e.g. the real set's gallery
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from photosearch.config import Settings
from photosearch.ingest.decode import load_rgb
from photosearch.models.labels import SCENES_MANIFEST
from photosearch.models.manifest import get_manifest
from photosearch.models.places_int8 import HIGH_PERCENTILE, LOW_PERCENTILE, RANGES_FILE, measure_ranges
from photosearch.models.places_weights import build_float_model
from photosearch.vision.scenes import scene_input


def main(argv: list[str] | None = None) -> int:
    """Measure the activation ranges on a folder of photos and write `RANGES_FILE`."""
    ap = argparse.ArgumentParser(description="measure the int8 scene model's activation ranges")
    ap.add_argument("photos", type=Path, help="a folder of real photos (at least a few dozen)")
    ap.add_argument("--out", type=Path, default=RANGES_FILE)
    args = ap.parse_args(argv)
    settings = Settings()
    manifest = get_manifest(SCENES_MANIFEST, settings)
    params = manifest.preprocess
    files = sorted(p for p in args.photos.rglob("*") if p.is_file())
    images = []
    for path in files:
        try:
            rgb = load_rgb(path)
        except Exception:  # noqa: BLE001 - not a photo: skipped
            continue
        images.append(scene_input(rgb, params))
    if len(images) < 20:
        print(f"only {len(images)} photos decoded under {args.photos}; give a few dozen", file=sys.stderr)
        return 2
    ranges = measure_ranges(build_float_model(manifest, settings), images)
    lines = ",\n".join(f"  {json.dumps(name)}: [{lo}, {hi}]" for name, (lo, hi) in ranges.items())
    head = f'"photos": {len(images)}, "percentiles": [{LOW_PERCENTILE}, {HIGH_PERCENTILE}]'
    args.out.write_text(f'{{{head},\n "ranges": {{\n{lines}\n }}\n}}\n', encoding="utf-8")
    print(f"{len(ranges)} ranges from {len(images)} photos -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
