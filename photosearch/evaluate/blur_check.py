"""How well "blurry" is told from "sharp", on photo folders and their blurred copies.

The sources' photos are taken as sharp unless their file name says "blurry" (the sources' own word);
copies blurred by a Gaussian of sigma 1.5 and 2 px (at the 512 px the analyzer measures) are blurry.
Each folder is reported apart (fit: the real set the threshold was kept on; check: the held-out dev
part), with how many sharp photos are called blurry and how many blurred ones sharp:

    python -m photosearch.evaluate.blur_check REALSET_DIR HELDOUT_DIR/dev
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from photosearch.ingest.decode import is_image_name, open_image
from photosearch.vision.quality import BLUR_SIDE, BLUR_THRESHOLD, blur_score

#: Blur of the generated copies, in pixels of the analyzer's 512 px copy.
SIGMAS = (1.5, 2.0)


def blurred(rgb: np.ndarray, sigma_at_side: float) -> np.ndarray:
    """A Gaussian blur of `sigma_at_side` px as measured on the analyzer's BLUR_SIDE copy."""
    return cv2.GaussianBlur(rgb, (0, 0), sigma_at_side * max(rgb.shape[:2]) / BLUR_SIDE)


def measure(folder: Path) -> tuple[list[tuple[str, float]], list[float]]:
    """([(photo, score)] of the photos, [score] of their blurred copies)."""
    photos, copies = [], []
    for path in sorted(folder.rglob("*")):
        if not (path.is_file() and is_image_name(path.name)):
            continue
        try:
            rgb = np.asarray(open_image(str(path), max_side=1280).image.convert("RGB"))
        except Exception:  # noqa: BLE001 - an unreadable file is not part of the check
            continue
        photos.append((str(path.relative_to(folder)), blur_score(rgb)))
        copies.extend(blur_score(blurred(rgb, s)) for s in SIGMAS)
    return photos, copies


def report(folder: Path) -> str:
    photos, copies = measure(folder)
    sharp = [s for name, s in photos if "blurry" not in name.lower()]
    said_blurry = [name for name, s in photos if "blurry" not in name.lower() and s < BLUR_THRESHOLD]
    missed = sum(s >= BLUR_THRESHOLD for s in copies)
    return (
        f"{folder}: {len(sharp)} sharp photos, {len(copies)} blurred copies; "
        f"sharp called blurry {len(said_blurry) / max(1, len(sharp)):.3f}, "
        f"blurred called sharp {missed / max(1, len(copies)):.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folders", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for folder in args.folders:
        print(report(folder))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
