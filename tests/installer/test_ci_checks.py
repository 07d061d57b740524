"""CI checks that README's first command ends as README says it does (.ci/readme_commands.py
check-first), on a real output of the command's steps after the install (doctor, example gallery,
add, index, search: tests/installer/first_command_output.txt, from a run on 2026-12-05)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / ".ci" / "readme_commands.py"
SAMPLE = Path(__file__).with_name("first_command_output.txt")
PROMISES = ("all 9 models OK", "failed 0, analysed 21", "4 of 4 matches")


def _check(log: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "check-first", str(log)], capture_output=True, text=True, timeout=30
    )


def test_readme_promises_what_ci_checks():
    readme = (ROOT / "README.md").read_text()
    assert all(promise in readme for promise in PROMISES)


def test_a_real_first_command_output_passes():
    out = _check(SAMPLE)
    assert out.returncode == 0 and out.stderr == "", out.stderr


@pytest.mark.parametrize(
    ("good", "bad", "named"),
    [
        ("all 9 models OK", "1 of 9 models FAILED: detector", "`photosearch doctor` did not pass"),
        ("failed 0, analysed 21", "failed 0, analysed 14", "did not analyse all 21 example photos"),
        ("4 of 4 matches", "3 of 4 matches", "did not find the four photos of Chelsea"),
    ],
)
def test_a_broken_promise_fails_ci_and_says_which(tmp_path, good, bad, named):
    log = tmp_path / "first.log"
    log.write_text(SAMPLE.read_text().replace(good, bad))
    out = _check(log)
    assert out.returncode == 1
    (line,) = out.stderr.splitlines()
    assert line.startswith("::: CI FAILED: README's first command: ") and named in line and repr(good) in line


def test_the_commands_are_readmes():
    install = subprocess.run([sys.executable, str(SCRIPT), "install"], capture_output=True, text=True).stdout
    assert install.startswith("bash installer/install.sh ") and 'photosearch search "tabby cat"' in install
    test = subprocess.run([sys.executable, str(SCRIPT), "test"], capture_output=True, text=True).stdout
    assert "python -m pytest" in test
