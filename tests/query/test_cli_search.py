"""`photosearch search/similar/duplicates --json` through a subprocess on a small catalog."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from photosearch.catalog import Store
from photosearch.config import Settings

from .gallery import build_gallery

ROOT = Path(__file__).resolve().parents[2]


def cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PHOTOSEARCH_DATA_DIR=str(data_dir))
    return subprocess.run(
        [sys.executable, "-m", "photosearch.cli", *args], capture_output=True, text=True, env=env, timeout=180
    )


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    settings = Settings(data_dir=d)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    build_gallery(store, None)  # no facts_text vectors: lexical search, no model needed
    store.close()
    return d


@pytest.mark.slow
def test_search_json(data_dir):
    out = cli(data_dir, "search", "tabby cat", "--json", "--limit", "5")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [r["path"].rsplit("/", 1)[-1] for r in data["results"]] == ["cat1.jpg", "cat2.jpg"]
    r = data["results"][0]
    assert set(r) >= {"id", "path", "score", "why"} and r["why"]
    assert "total" in data["timing_ms"]


@pytest.mark.slow
def test_search_plan_file_explain(data_dir, tmp_path):
    plan = {
        "version": 1,
        "where": {"and": [{"person": "Anna"}, {"not": {"person": "Tom"}}]},
        "compose": {"limit": 10, "sort": "date_desc"},
    }
    f = tmp_path / "plan.json"
    f.write_text(json.dumps(plan))
    out = cli(data_dir, "--json", "search", "--plan", str(f), "--explain")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [r["path"].rsplit("/", 1)[-1] for r in data["results"]] == ["dog1.jpg"]
    assert [a["hits"] for a in data["explain"]["atoms"]] == [3, 3]


@pytest.mark.slow
def test_similar_duplicates_and_errors(data_dir, tmp_path):
    out = cli(data_dir, "similar", "/photos/Trips/Beach/dog1.jpg", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["results"][0]["path"].endswith("dog2.jpg")
    out = cli(data_dir, "duplicates", "--json")
    assert out.returncode == 0 and json.loads(out.stdout) == {"groups": []}
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    out = cli(data_dir, "search", "--plan", str(bad), "--json")
    assert out.returncode == 1 and "cannot read the plan" in out.stderr


@pytest.mark.slow
def test_search_text_marks_partial_and_closest(data_dir):
    out = cli(data_dir, "search", "dog and zebra", "--limit", "5")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    dogs = [ln for ln in lines if "dog1.jpg" in ln or "dog2.jpg" in ln]
    assert len(dogs) == 2 and all(ln.endswith("(partial: no zebra)") for ln in dogs)
    assert "0 of 0 matches + 2 partial" in lines[-1]
    out = cli(data_dir, "search", "kitty", "--json")
    data = json.loads(out.stdout)
    assert {r["path"].rsplit("/", 1)[-1] for r in data["results"] if not r["below_cutoff"]} == {
        "cat1.jpg",
        "cat2.jpg",
    }
    assert any(w.get("text") == "kitty ≈ cat (hypernym)" for w in data["results"][0]["why"])
