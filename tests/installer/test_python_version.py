"""The installer stops at once, saying what it found and what it needs, on a Python the lock is not for
(installer/constraints.txt pins numpy 2.4, scipy 1.17, …: no builds for 3.10)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "installer" / "install.sh"


def _fake_bin(tmp_path: Path, version: str) -> Path:
    """A bin folder with a `python3` that reports `version`, and an `apt-get`/`sudo` that record a call."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(f"#!/bin/sh\necho {version}\n")
    for tool in ("apt-get", "sudo"):
        (bin_dir / tool).write_text(f"#!/bin/sh\necho called >> {tmp_path}/{tool}.called\nexit 97\n")
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    return bin_dir


def _env(tmp_path: Path, bin_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PHOTOSEARCH_VENV")}
    return env | {
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HOME": str(tmp_path / "home"),
        "PHOTOSEARCH_VENV": str(tmp_path / "venv"),
    }


def _check(tmp_path: Path, python: str) -> subprocess.CompletedProcess:
    script = f'. "{ROOT}/installer/python_version.sh"; check_python "{python}"'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("version", ["3.10.12", "3.12.3", "3.9.2"])
def test_check_python_refuses_a_python_the_lock_is_not_for(tmp_path, version):
    out = _check(tmp_path, str(_fake_bin(tmp_path, version) / "python3"))
    assert out.returncode == 1
    assert f"is Python {version}, but installer/constraints.txt" in out.stderr
    assert "(the tested lock) is for Python 3.11" in out.stderr


def test_check_python_accepts_3_11(tmp_path):
    assert _check(tmp_path, str(_fake_bin(tmp_path, "3.11.2") / "python3")).returncode == 0
    real = _check(tmp_path, sys.executable)  # the dev venv's real interpreter: 3.11, like the lock
    assert real.returncode == (0 if sys.version_info[:2] == (3, 11) else 1), real.stderr


def test_check_python_names_a_python_that_does_not_run(tmp_path):
    out = _check(tmp_path, str(tmp_path / "no-such-python"))
    assert out.returncode == 1 and "cannot run" in out.stderr and "needs Python 3.11" in out.stderr


def test_install_sh_stops_before_apt_and_pip_on_python_3_10(tmp_path):
    """README's first command on Ubuntu 22.04 (python3 3.10): a clear stop, nothing installed."""
    bin_dir = _fake_bin(tmp_path, "3.10.12")
    out = subprocess.run(
        ["bash", str(INSTALL), "models,llm,gui"],
        env=_env(tmp_path, bin_dir),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1, out.stdout + out.stderr
    assert "python3 is Python 3.10.12, but installer/constraints.txt" in out.stderr
    assert "(the tested lock) is for Python 3.11" in out.stderr
    assert "Debian 12 (its python3 is 3.11)" in out.stderr
    assert not (tmp_path / "apt-get.called").exists() and not (tmp_path / "sudo.called").exists()
    assert not (tmp_path / "venv").exists() and not (tmp_path / "home").exists()
