"""The timeline and folders as a person sees them: `python -m photosearch.gui.screenshots` on a real X
display (Xvfb, Qt's xcb platform) at 800x600, and the PNGs checked for content: header lines of dark
text on the light page, and thumbnail tiles that are photos (many colours), not flat placeholders."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.gui.test_xcb_smoke import xvfb_display  # noqa: F401 - the fixture

pytestmark = pytest.mark.slow


def text_lines(rgb: np.ndarray, x1: int) -> list[tuple[int, int]]:
    """(top, height) of lines of dark grey text on a light background in columns 0..x1: rows whose
    median is light and whose dark pixels are neutral (a photo's dark pixels are coloured), in bands
    6..24 px tall (a tile is taller)."""
    area = rgb[:, :x1].astype(int)
    gray = area.mean(axis=2)
    spread = area.max(axis=2) - area.min(axis=2)
    dark = gray < 110
    light = np.median(gray, axis=1) > 200
    share = dark.mean(axis=1)
    neutral = (dark & (spread < 40)).sum(axis=1) >= 0.9 * np.maximum(dark.sum(axis=1), 1)
    is_text = light & (share > 0.003) & (share < 0.3) & neutral
    bands, start = [], None
    for y, on in enumerate([*is_text, False]):
        if on and start is None:
            start = y
        elif not on and start is not None:
            bands.append((start, y - start))
            start = None
    return [b for b in bands if 6 <= b[1] <= 24]


def photo_blocks(rgb: np.ndarray, size: int = 16) -> int:
    """How many size×size blocks hold a photo's detail: many distinct colours (text and flat
    placeholders have few)."""
    h, w = rgb.shape[:2]
    count = 0
    for y in range(0, h - size, size):
        for x in range(0, w - size, size):
            block = rgb[y : y + size, x : x + size].reshape(-1, 3)
            if len(np.unique(block, axis=0)) > 40:
                count += 1
    return count


def test_timeline_and_folders_render_on_xcb(tmp_path, xvfb_display):  # noqa: F811
    out = tmp_path / "shots"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
    env.update(DISPLAY=xvfb_display, QT_QPA_PLATFORM="xcb", HOME=str(tmp_path / "home"))
    proc = subprocess.run(
        [sys.executable, "-m", "photosearch.gui.screenshots", str(out), "--size", "800x600"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    for name in ("timeline", "timeline_scrub"):
        image = Image.open(out / f"{name}.png").convert("RGB")
        assert image.size == (800, 600)
        rgb = np.asarray(image)
        lines = [b for b in text_lines(rgb, 450) if 50 < b[0] < 575]  # not the menu, toolbar, status bar
        # the info line, then month and day headers: at least a month header and a day header
        assert len(lines) >= 3, (name, lines)
        assert max(h for _y, h in lines) >= 12, (name, lines)  # a month header: larger than the rest
        assert photo_blocks(rgb[60:580, :720]) >= 150, name  # at least 1.5 tiles of real photo
    scrub = np.asarray(Image.open(out / "timeline_scrub.png").convert("RGB")).astype(int)
    blue = (scrub[..., 2] > 150) & (scrub[..., 0] < 120)  # the bubble naming the month, in highlight colour
    assert blue[:, 600:740].sum() > 400, "no scrubber bubble"
    folders = np.asarray(Image.open(out / "folders.png").convert("RGB"))
    assert photo_blocks(folders[60:580, 250:800]) >= 200  # the Lisbon folder's four photos
    assert len(text_lines(folders, 240)) >= 2  # the tree's lines
