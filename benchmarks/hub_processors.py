"""What feeding hub models through transformers' reference processors costs: the import (paid once,
when a hub model first loads; start-up never pays it) and ms per photo for the CLIP and OWLv2 image
processors, at the analysis size the indexer passes.

    python -m benchmarks.hub_processors [--repeat 5] [--side 1280]

The processors are built from the configs the hub repositories hold (tests/hub/hub_configs.py).
Nothing is asserted; the figures are for people and CI logs.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks.models import sample_photos, time_ms


def import_seconds() -> float:
    """A fresh interpreter's time to import transformers and the processor classes PhotoSearch uses."""
    code = (
        "import os, time; os.environ['TRANSFORMERS_VERBOSITY'] = 'error'; t = time.perf_counter();"
        "from transformers import AutoTokenizer, AutoImageProcessor, CLIPImageProcessorPil;"
        "print(time.perf_counter() - t)"
    )
    return float(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--side", type=int, default=1280, help="longest side of the photos (the indexer's)")
    args = ap.parse_args(argv)

    from photosearch.vision.clip import ClipEncoder
    from photosearch.vision.owl import OwlDetector
    from tests.hub import hub_configs, tiny_models

    print(f"import transformers + processors: {import_seconds():.2f} s (fresh process)")
    photos = sample_photos(args.side)
    with tempfile.TemporaryDirectory() as tmp:
        clip_dir = Path(tmp, "clip")
        (clip_dir / "visual").mkdir(parents=True)
        (clip_dir / "visual" / "preprocess_cfg.json").write_text(hub_configs.IMMICH_CLIP_PREPROCESS_CFG)
        owl_dir = Path(tmp, "owl")
        owl_dir.mkdir()
        for path, blob in tiny_models.owl_repo_files(960).items():
            (owl_dir / path).write_bytes(blob)
        encoder, detector = ClipEncoder(clip_dir), OwlDetector(owl_dir)
        for name, fn in (
            ("CLIPImageProcessor 224", encoder.preprocess),
            ("Owlv2ImageProcessor 960", detector.preprocess),
        ):
            ms = [time_ms(lambda p=p, f=fn: f(p), args.repeat) for p in photos]
            print(
                f"{name}: {sum(ms) / len(ms):.1f} ms/photo (median of {args.repeat}, {len(photos)} photos, side {args.side})"
            )


if __name__ == "__main__":
    main()
