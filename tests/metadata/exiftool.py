"""exiftool (Debian's libimage-exiftool-perl, installed by install.sh's dev extra) as the independent
reference: it writes the files and sidecars the tests read, and reads back what PhotoSearch writes."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.required import INSTALL


def exiftool_path() -> str:
    path = shutil.which("exiftool")
    if path is None:
        pytest.fail(f"exiftool is missing: libimage-exiftool-perl is not installed; {INSTALL}", pytrace=False)
    return path


def write(path: Path, *tags: str) -> None:
    """Write tags as exiftool does (`-TAG=VALUE` arguments), in place; fails on any exiftool error."""
    cmd = [exiftool_path(), "-q", "-q", "-m", "-overwrite_original", "-charset", "utf8", *tags, str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def make_sidecar(sidecar: Path, *tags: str) -> None:
    """A new XMP sidecar holding these tags (exiftool writes one from tags alone with `-o NAME.xmp`)."""
    cmd = [exiftool_path(), "-q", "-q", "-m", "-charset", "utf8", *tags, "-o", str(sidecar)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and sidecar.exists(), done.stderr


def read(path: Path, *tags: str) -> dict:
    """exiftool's reading of `path` (-j -struct, numbers as numbers), one dict."""
    cmd = [exiftool_path(), "-j", "-struct", "-n", "-charset", "utf8", *tags, str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)[0]
