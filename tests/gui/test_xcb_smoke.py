"""The real app on a real X display (Xvfb, Qt's xcb platform, not offscreen): open it on the example
gallery, let it index with the bundled models, type a search, check the results, take a screenshot,
quit cleanly. Offscreen tests cannot see a missing xcb library (libxcb-cursor0 and friends); this can.

`bash installer/install.sh ...,dev` installs Xvfb; without it this test fails (it is never skipped)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

pytestmark = pytest.mark.slow
HERE = Path(__file__).resolve().parent


@pytest.fixture
def xvfb_display():
    xvfb = shutil.which("Xvfb")
    assert xvfb, (
        "Xvfb is not installed: run `bash installer/install.sh models,llm,gui,hub,dev` (it apt-installs xvfb)"
    )
    proc = subprocess.Popen(
        [xvfb, "-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        number = proc.stdout.readline().strip()
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(10)


def _small_gallery(folder: Path) -> Path:
    """A handful of the example gallery's real photos (the whole gallery would only cost time)."""
    from photosearch.evaluate.example import source_photos

    folder.mkdir()
    src = source_photos()
    for name in ("chelsea", "coffee", "astronaut", "rocket", "motorcycle"):
        Image.fromarray(src[name]).save(folder / f"{name}.jpg", quality=90)
    return folder


def test_app_indexes_and_searches_on_a_real_x_display(tmp_path, xvfb_display):
    gallery = _small_gallery(tmp_path / "Pictures")
    shot = tmp_path / "screen.png"
    env = {k: v for k, v in os.environ.items() if not k.startswith("QT_")}
    env.update(
        DISPLAY=xvfb_display,
        QT_QPA_PLATFORM="xcb",
        HOME=str(tmp_path / "home"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_RUNTIME_DIR=str(tmp_path / "runtime"),
    )
    (tmp_path / "runtime").mkdir(mode=0o700)
    t0 = time.monotonic()
    proc = subprocess.run(
        [
            sys.executable,
            str(HERE / "xcb_smoke_app.py"),
            str(tmp_path / "data"),
            str(gallery),
            str(shot),
            "tabby cat",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert proc.returncode == 0 and lines, (
        f"app failed (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr[-4000:]}"
    )
    state = json.loads(lines[-1])
    print(f"xcb smoke: {time.monotonic() - t0:.1f}s, {state}")
    assert state["platform"] == "xcb"
    assert state["index"]["added"] == 5 and state["index"]["failed"] == 0
    assert state["index"]["broken_analyzers"] == []
    assert state["results"] and state["results"][0] == "chelsea.jpg", state["results"]
    # a search in a terminal is answered by the running app, with what the app shows
    assert state["served"] == state["results"][: len(state["served"] or [])] and state["served"], state
    assert "photo" in state["status_line"]
    assert state["banner_after_index"] is False and state["banner"] is False, (
        f"the health banner shows: {state['banner'] or state['banner_after_index']}"
    )
    assert "Traceback" not in proc.stderr, proc.stderr[-4000:]
    screen = Image.open(shot).convert("RGB")
    assert screen.size == (1280, 900)
    colours = screen.resize((64, 45)).getcolors(64 * 45)
    assert colours is not None and len(colours) > 20, (
        "the screenshot is blank: nothing was drawn on the display"
    )
