"""Benchmark scripts in smoke mode: they run, print figures and write JSON (times are never asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks import suite as bench

REPO = Path(__file__).resolve().parents[2]  # `python -m benchmarks.…` runs from the repo root


def test_vectors_smoke(tmp_path, capsys):
    assert bench.main(["vectors", "--smoke", "--out", str(tmp_path / "v.json")]) == 0
    doc = json.loads((tmp_path / "v.json").read_text())
    rows = {r["dtype"]: r for r in doc["result"]["results"]}
    assert set(rows) == {"f32", "bf16", "f16", "i8"} and doc["smoke"]
    assert rows["f32"]["recall_at_10"] >= 0.9 and 0 <= rows["i8"]["recall_at_10"] <= 1
    assert "recall@10" in capsys.readouterr().out


@pytest.mark.parametrize("search", ["baseline", "auto"])
def test_query_smoke(tmp_path, search):
    assert bench.main(["query", "--smoke", "--search", search, "--out", str(tmp_path / "q.json")]) == 0
    doc = json.loads((tmp_path / "q.json").read_text())
    size = doc["result"]["sizes"][0]
    assert size["photos"] == 200 and size["generate"]["facts"] > 200
    assert size["warm_ms"]["n"] == len(bench.QUERIES)
    assert size["per_query"]["dog"]["results"] > 0
    if search == "auto":  # PhotoSearch beside the rclip-style baseline, in one run, with its stages
        assert size["baseline"]["vectors"] == 200 and size["baseline"]["warm_ms"]["n"] == 8
        assert size["ratio_p50"] > 0 and size["vectors_build_s"] >= 0
        assert {"plan", "execute", "compose", "why"} <= set(size["stage_ms_mean"]) and "concept" in size[
            "atom_ms_mean"
        ]
        assert not any("missing or stale" in n for q in size["per_query"].values() for n in q["notes"])


@pytest.mark.slow
def test_index_smoke(tmp_path):
    assert bench.main(["index", "--smoke", "--out", str(tmp_path / "i.json")]) == 0
    r = json.loads((tmp_path / "i.json").read_text())["result"]
    assert r["photos"] == 21 and "model:quality" in r["stage_ms_per_photo"]
    assert r["model_bound_photos_per_s"] and r["ratio_to_model_bound"] is not None


@pytest.mark.slow
def test_index_before_beside_after_on_camera_like_photos(tmp_path, capsys):
    """The app before issue 25 (unpacked from git) and this checkout index the same camera-like
    photos in processes of their own; the table has both columns and the recall of each."""
    from benchmarks.camera_set import write_camera_set

    photos = write_camera_set(tmp_path / "camera", 0.5, 2)
    assert all(p.stat().st_size > 100_000 for p in photos)  # sensor noise: a camera's file sizes
    out = tmp_path / "c.json"
    assert (
        bench.main(
            ["index", "--megapixels", "0.5", "--smoke", "--data-dir", str(tmp_path), "--out", str(out)]
        )
        == 0
    )
    (run,) = json.loads(out.read_text())["result"]["runs"]
    for side in ("before", "after"):
        assert run[side]["photos"] == 2 and run[side]["cpu_s_per_photo"] > 0 and run[side]["peak_rss_mib"] > 0
    assert run["recall"]["tags"]["after"] > 0 and set(run["recall"]) == {"faces", "text", "tags", "objects"}
    printed = capsys.readouterr().out
    assert "CPU-s per photo" in printed and "load average at start" in printed


@pytest.mark.slow
def test_watch_and_rss_smoke(tmp_path):
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.suite",
            "watch",
            "--smoke",
            "--search",
            "baseline",
            "--out",
            str(tmp_path / "w.json"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    w = json.loads((tmp_path / "w.json").read_text())["result"]
    assert w["catalog"]["files"] == 2 and w["searchable"]["latency_s_max"] < 30  # found, not timed out
    assert "write → searchable" in proc.stdout
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "benchmarks.suite",
            "rss",
            "--smoke",
            "--phases",
            "vectors",
            "--out",
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr
    phases = json.loads((tmp_path / "r.json").read_text())["result"]["phases"]
    assert [p["phase"] for p in phases] == ["vectors"]
    assert all("error" not in p and p["peak_rss_mib"] > 10 for p in phases)


@pytest.mark.slow
def test_index_gates_side_by_side(tmp_path, capsys):
    """Before (every analyzer everywhere) beside after (gated), in one run: the detector gates faces."""
    argv = [
        "index",
        "--smoke",
        "--gates",
        "both",
        "--analyzers",
        "detector,faces",
        "--out",
        str(tmp_path / "g.json"),
    ]
    assert bench.main(argv) == 0
    r = json.loads((tmp_path / "g.json").read_text())["result"]
    before, after = r["ungated"], r["gated"]
    assert not before["gated"] and after["gated"] and before["photos"] == after["photos"] == 21
    assert before["found"]["analyses"]["faces"].get("skipped", 0) == 0
    assert after["found"]["analyses"]["faces"]["skipped"] > 0  # faces kept off photos without a person
    assert after["found"]["faces"] == before["found"]["faces"] > 0  # and no face lost on the gallery
    assert after["found"]["analyses"]["faces"]["ok"] < before["found"]["analyses"]["faces"]["ok"] == 21
    out = capsys.readouterr().out
    assert "ungated" in out and "faces ran / skipped" in out


@pytest.mark.slow
def test_first_search_of_a_new_process(tmp_path, capsys):
    """A catalog the query benchmark left, then new processes: the first reads the saved snapshot."""
    from benchmarks import first_search

    assert bench.main(["query", "--smoke", "--data-dir", str(tmp_path)]) == 0
    data_dir = tmp_path / "catalog-200"
    assert first_search.main([str(data_dir), "--repeat", "2", "--out", str(tmp_path / "f.json")]) == 0
    doc = json.loads((tmp_path / "f.json").read_text())
    assert len(doc["runs"]) == 2 and all(r["first"]["results"] > 0 for r in doc["runs"])
    assert list((data_dir / "cache" / "snapshot").glob("*.npz"))  # what the next process reads
    assert "median of 2: first search" in capsys.readouterr().out


@pytest.mark.slow
def test_metadata_benchmark_smoke():
    """`python -m benchmarks.metadata` prints ms per 12 MP photo for each way of reading metadata."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.metadata", "--photos", "2", "--formats", "jpg"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    header, row = done.stdout.strip().splitlines()[-2:]
    assert "photosearch" in header and "exiftool -stay_open" in header
    cells = row.split()
    assert cells[0] == "jpg" and len(cells) == 7 and all(float(c) > 0 for c in cells[1:])


def test_before_and_after_alternate_and_report_medians(tmp_path, monkeypatch):
    """With rounds, the sides run before, after, after, before, ... and each figure is a side's median:
    neither side always starts in the load the other left behind."""
    from benchmarks import index_compare

    order = []
    cpu = {"before": iter([0.9, 0.6, 0.8]), "after": iter([0.5, 0.7, 0.4])}

    def fake_run(tree, photos, work, pycache):
        name = "before" if tree == tmp_path else "after"
        order.append(name)
        found = {"a.jpg": {"faces": 1, "text": [], "tags": ["dog"], "objects": []}}
        stage = {"decode": 10.0 * len(order)}
        return {"photos": 2, "cpu_s_per_photo": next(cpu[name]), "stage_ms_per_photo": stage, "found": found}

    monkeypatch.setattr(index_compare, "run_index", fake_run)
    result = index_compare.compare(tmp_path / "photos", tmp_path, tmp_path / "w", "x", tmp_path, rounds=3)
    assert order == ["before", "after", "after", "before", "before", "after"]
    assert result["before"]["cpu_s_per_photo"] == 0.8 and result["after"]["cpu_s_per_photo"] == 0.5
    assert result["before"]["stage_ms_per_photo"]["decode"] == 40.0  # runs 1, 4, 5: 10, 40, 50
    assert [r["cpu_s_per_photo"] for r in result["runs"]["after"]] == [0.5, 0.7, 0.4]


def test_people_list_benchmark_smoke(capsys):
    """`python -m benchmarks.people_list` times the People view's list and how unnamed people look."""
    from benchmarks import people_list

    assert people_list.main(["--faces", "50", "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "list_people ms" in out and "(10 people, looks ['woman'])" in out and "how they look ms" in out
