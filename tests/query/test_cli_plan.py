"""`photosearch plan` and `photosearch golden add|list` through a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest


def run(tmp_path, *args, stdin=None):
    env = {**os.environ, "PHOTOSEARCH_DATA_DIR": str(tmp_path)}
    return subprocess.run(
        [sys.executable, "-m", "photosearch.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        input=stdin,
        timeout=120,
    )


@pytest.mark.slow
def test_plan_and_golden_commands(tmp_path):
    r = run(
        tmp_path,
        "--json",
        "plan",
        "Anna and the dog at the beach last summer, not the blurry ones",
        "--now",
        "2024-05-15",
        "--person",
        "Anna",
    )
    assert r.returncode == 0, r.stderr
    plan = json.loads(r.stdout)
    assert {"person": "Anna"} in plan["where"]["and"]
    assert {"date": {"from": "2023-06-01", "to": "2023-08-31"}} in plan["where"]["and"]
    r = run(tmp_path, "plan", "best 5 of Tom", "--person", "Tom", "--json", "--now", "2024-05-15")
    assert r.returncode == 0 and json.loads(r.stdout)["compose"]["limit"] == 5
    r = run(tmp_path, "plan", "x", "--now", "May")
    assert r.returncode == 1 and "--now" in r.stderr

    (tmp_path / "p.json").write_text(json.dumps({"where": {"or": [{"person": "Tom"}, {"concept": "kite"}]}}))
    r = run(tmp_path, "golden", "add", "tom kite day", str(tmp_path / "p.json"))
    assert r.returncode == 0, r.stderr
    r = run(tmp_path, "--json", "golden", "list", "--user")
    assert [e["request"] for e in json.loads(r.stdout)] == ["tom kite day"]
    r = run(tmp_path, "--json", "plan", "Tom kite day", "--now", "2024-05-15")
    assert json.loads(r.stdout)["where"] == {"or": [{"person": "Tom"}, {"concept": "kite"}]}
    r = run(tmp_path, "golden", "add", "bad", "-", stdin='{"where": {"dog": 1}}')
    assert r.returncode == 1 and "unknown key 'dog'" in r.stderr
