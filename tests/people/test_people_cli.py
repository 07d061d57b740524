"""`photosearch people ...` through a real subprocess on a catalog built here with real face descriptors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import select

from photosearch.catalog.models import Face
from photosearch.catalog.store import Store
from photosearch.config import Settings
from tests.vision.helpers import add_photo

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def cli(data_dir: Path, *args: str, expect: int = 0) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PHOTOSEARCH_")}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "photosearch.cli", "--data-dir", str(data_dir), "--json", "people", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == expect, proc.stderr + proc.stdout
    return json.loads(proc.stdout) if proc.stdout.strip() else {}


@pytest.fixture
def catalog(tmp_path, face_results) -> tuple[Path, dict[str, int]]:
    """A data dir whose catalog holds the four face photos (two people), not yet clustered."""
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    face_ids = {}
    for name, result in face_results.items():
        pid = add_photo(store, f"/photos/{name}.jpg")
        with store.session() as s:
            store.write_analysis(s, pid, "faces", 1, result)
        with store.session() as s:
            face_ids[name] = s.scalar(select(Face.id).where(Face.photo_id == pid))
    store.close()
    return settings.data_dir, face_ids


def test_people_commands_end_to_end(catalog):
    data_dir, faces = catalog
    assert cli(data_dir, "list") == {"people": []}

    report = cli(data_dir, "cluster")
    assert report["new_people"] == 2 and report["clustered"] == 4

    people = cli(data_dir, "list")["people"]
    assert [p["face_count"] for p in people] == [2, 2]
    by_face = {}
    for p in people:
        shown = cli(data_dir, "show", str(p["id"]))
        for f in shown["faces"]:
            by_face[f["id"]] = p["id"]
    astro, grace = by_face[faces["astronaut"]], by_face[faces["grace"]]
    assert by_face[faces["astronaut_mirror"]] == astro and by_face[faces["grace_crop"]] == grace != astro

    assert cli(data_dir, "name", str(grace), "Grace Hopper") == {
        "person_id": grace,
        "name": "Grace Hopper",
        "merged": [],
        "same_name": [],
    }
    assert cli(data_dir, "birthday", "grace hopper", "1906-12-09")["birthday"] == "1906-12-09"
    listed = {p["id"]: p for p in cli(data_dir, "list", "--named")["people"]}
    assert list(listed) == [grace] and listed[grace]["birthday"] == "1906-12-09"

    # split the mirrored astronaut into its own (pinned) person, then name both clusters the same:
    # the second naming merges into the first
    new = cli(data_dir, "split", str(faces["astronaut_mirror"]))["person_id"]
    assert new not in (astro, grace)
    cli(data_dir, "name", str(astro), "Eileen")
    merged = cli(data_dir, "name", str(new), "Eileen")
    assert merged["person_id"] == astro and merged["merged"] == [new]
    eileen = cli(data_dir, "show", "Eileen")
    assert sorted(f["id"] for f in eileen["faces"]) == sorted([faces["astronaut"], faces["astronaut_mirror"]])

    cli(data_dir, "hide", "Eileen")
    assert [p["id"] for p in cli(data_dir, "list")["people"]] == [grace]
    assert {p["id"] for p in cli(data_dir, "list", "--all")["people"]} == {grace, astro}
    cli(data_dir, "unhide", str(astro))
    assert {p["id"] for p in cli(data_dir, "list")["people"]} == {grace, astro}

    assert cli(data_dir, "merge", str(grace), str(astro))["faces_moved"] == 2
    assert [p["face_count"] for p in cli(data_dir, "list")["people"]] == [4]


def test_people_errors_are_clear(catalog):
    data_dir, _ = catalog
    out = cli(data_dir, "name", "999", "Nobody", expect=1)
    assert "no person #999" in out["error"]
    out = cli(data_dir, "birthday", "999", "not-a-date", expect=1)
    assert "error" in out
