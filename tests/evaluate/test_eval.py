"""Evaluation runs: scoring with an injected search, the real pipeline on the example set, reports."""

from __future__ import annotations

import base64
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate.compare import compare_runs, write_comparison
from photosearch.evaluate.golden import load_golden
from photosearch.evaluate.report import load_run, write_run
from photosearch.evaluate.runner import real_search, run_eval


class ReportParser(HTMLParser):
    """Collects tables (by id), rows of class `query`, and every <img> src."""

    def __init__(self):
        super().__init__()
        self.tables: set[str] = set()
        self.query_rows: list[str] = []
        self.images: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id"):
            self.tables.add(a["id"])
        if tag == "tr" and a.get("class") == "query":
            self.query_rows.append(a.get("data-id"))
        if tag == "img":
            self.images.append(a)


def parse_html(path: Path) -> ReportParser:
    p = ReportParser()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def decode_data_uri(src: str) -> Image.Image:
    assert src.startswith("data:image/")
    raw = base64.b64decode(src.split(",", 1)[1])
    import io

    im = Image.open(io.BytesIO(raw))
    im.load()
    return im


def scripted_search(answers: dict[str, list[str]], gallery: Path):
    """A fake search returning fixed paths per request (tests the evaluator, not the engine)."""
    calls = []

    def search(store, settings, request=None, plan=None, limit=10, explain=False):
        calls.append((request, plan))
        key = request or json.dumps(plan["where"], sort_keys=True)
        paths = answers.get(key, [])[:limit]
        return {
            "plan": {"version": 1, "where": {"concept": request}} if request else plan,
            "results": [
                {"id": i, "path": str(gallery / p), "score": 1 - i / 10, "why": []}
                for i, p in enumerate(paths)
            ],
            "timing_ms": {"total": 1.0},
        }

    search.calls = calls
    return search


def test_scores_with_an_injected_search(tmp_path, indexed_example):
    store, settings, golden = indexed_example
    g = golden.gallery
    answers = {
        "cat": ["cats/chelsea.jpg", "kitchen/coffee.jpg", "cats/chelsea_flip.jpg"],
        "coffee": ["kitchen/coffee.jpg", "kitchen/coffee_dark.jpg", "kitchen/coffee_blurry.jpg"],
    }
    search = scripted_search(answers, g)
    run = run_eval(golden, store, settings, search_fn=search, search_name="scripted", reuse_catalog=True)
    assert run["index"]["reused"] and run["index"]["photos"] == 21
    by_id = {q["id"]: q for q in run["queries"]}
    cat = by_id["cat"]
    assert cat["metrics"]["P@3"] == pytest.approx(2 / 3)
    assert cat["metrics"]["R@3"] == pytest.approx(2 / 4)
    assert cat["metrics"]["MRR"] == 1.0
    assert cat["hits"] == ["cats/chelsea.jpg", "cats/chelsea_flip.jpg"]
    assert cat["false_positives"] == ["kitchen/coffee.jpg"]
    assert set(cat["misses"]) == {"cats/chelsea_crop.jpg", "cats/chelsea_blurry.jpg"}
    assert cat["planner"]["exact"] and cat["planner"]["atom_f1"] == 1.0
    assert by_id["coffee"]["metrics"]["nDCG@3"] == pytest.approx(1.0)
    assert by_id["astronaut"]["metrics"]["AP"] == 0.0
    # a plan-only query is run as a plan
    assert any(
        p and p["where"] == {"and": [{"camera": "Canon"}, {"not": {"place": "China"}}]}
        for _, p in search.calls
    )
    assert run["summary"]["queries"] == len(golden.queries)
    assert (
        run["summary"]["plan_exact_match"] < 1.0
    )  # "a person" -> concept "a person" is not {"concept": "person"}


def test_a_failing_query_is_recorded_not_fatal(indexed_example):
    store, settings, golden = indexed_example

    def broken(store, settings, request=None, plan=None, limit=10, explain=False):
        if request == "cat":
            raise ValueError("boom")
        return {"plan": None, "results": [], "timing_ms": {}}

    run = run_eval(golden, store, settings, search_fn=broken, search_name="broken", reuse_catalog=True)
    cat = next(q for q in run["queries"] if q["id"] == "cat")
    assert "boom" in cat["error"] and cat["metrics"]["MRR"] == 0.0
    assert run["summary"]["failed_queries"] == 1 and run["summary"]["queries"] == len(golden.queries)


@pytest.mark.slow
def test_baseline_end_to_end_report_and_comparison(tmp_path, indexed_example):
    """Real models + the lexical baseline through the full report; then compared to a worse run."""
    from photosearch.evaluate.baseline import baseline_search

    store, settings, golden = indexed_example
    run = run_eval(
        golden,
        store,
        settings,
        search_fn=baseline_search,
        search_name="baseline",
        reuse_catalog=True,
        repeat=2,
        label="baseline",
    )
    by_id = {q["id"]: q for q in run["queries"]}
    # what the bundled models see, found by plain fact matching
    assert by_id["cat"]["metrics"]["R@5"] == 1.0
    assert by_id["text-exit"]["metrics"]["P@1"] == 1.0
    assert by_id["screenshots"]["metrics"]["AP"] == 1.0
    assert by_id["blurry"]["metrics"]["AP"] == 1.0
    assert set(by_id["cat-not-blurry"]["hits"]) == {
        "cats/chelsea.jpg",
        "cats/chelsea_crop.jpg",
        "cats/chelsea_flip.jpg",
    }
    assert all(len(q["latency_ms"]) == 2 for q in run["queries"])
    paths = write_run(run, tmp_path / "a")
    html = parse_html(paths["html"])
    assert {"summary", "queries"} <= html.tables
    assert html.query_rows == [q.id for q in golden.queries]
    plots = [i for i in html.images if i.get("class") == "plot"]
    assert {p["id"] for p in plots} == {
        "plot-per_query_metrics",
        "plot-latency_histogram",
        "plot-precision_recall",
    }
    for p in plots:
        assert decode_data_uri(p["src"]).format == "PNG"
    thumbs = [i for i in html.images if i.get("class") != "plot"]
    assert len(thumbs) >= 20 and decode_data_uri(thumbs[0]["src"]).size[0] <= 112
    for name in ("per_query_metrics", "latency_histogram", "precision_recall"):
        assert Image.open(paths["plots"] / f"{name}.png").size[0] > 100
    assert load_run(tmp_path / "a")["summary"] == json.loads(json.dumps(run["summary"]))

    empty = run_eval(
        golden,
        store,
        settings,
        search_name="nothing",
        reuse_catalog=True,
        search_fn=lambda *a, **k: {"plan": None, "results": [], "timing_ms": {}},
        label="nothing",
    )
    cmp = compare_runs(empty, run)
    assert cmp["summary"]["mAP"]["delta"] == pytest.approx(run["summary"]["mAP"])
    cat = next(q for q in cmp["queries"] if q["id"] == "cat")
    assert (
        cat["metrics"]["R@5"]["delta"] == 1.0 and len(cat["newly_found"]) == 4 and cat["newly_missed"] == []
    )
    cpaths = write_comparison(empty, run, tmp_path / "cmp")
    chtml = parse_html(cpaths["html"])
    assert {"compare-summary", "compare-queries"} <= chtml.tables
    assert len(chtml.query_rows) == len(golden.queries)
    assert all(decode_data_uri(i["src"]) for i in chtml.images if i.get("class") == "plot")


@pytest.mark.slow
def test_real_search_end_to_end(tmp_path, indexed_example):
    """The app's search (planner + executor) on the shipped example set."""
    search = real_search()
    store, settings, golden = indexed_example
    run = run_eval(golden, store, settings, search_fn=search, search_name="real", reuse_catalog=True)
    s = run["summary"]
    assert s["failed_queries"] == 0
    assert s["planner_queries"] == sum(1 for q in golden.queries if q.expected_plan)
    by_id = {q["id"]: q for q in run["queries"]}
    for qid in ("cat", "text-exit", "screenshots", "camera-pixel7", "year-2019"):
        assert by_id[qid]["metrics"]["MRR"] == 1.0, (qid, by_id[qid]["results"][:3])
    assert by_id["screenshots"]["planner"]["exact"]
    paths = write_run(run, tmp_path / "real")
    assert parse_html(paths["html"]).query_rows == [q.id for q in golden.queries]


@pytest.mark.slow
def test_cli_eval_reuses_catalog_and_compares(tmp_path, indexed_example, cli, cli_json):
    store, settings, golden = indexed_example
    first = cli_json(
        settings.data_dir,
        "eval",
        str(golden.path),
        "--report",
        str(tmp_path / "r1"),
        "--reuse-catalog",
        "--search",
        "baseline",
        "--label",
        "first",
    )
    assert first["summary"]["queries"] == len(golden.queries)
    assert Path(first["html"]).is_file()
    second = cli_json(
        settings.data_dir,
        "eval",
        str(golden.path),
        "--report",
        str(tmp_path / "r2"),
        "--reuse-catalog",
        "--search",
        "baseline",
        "--compare",
        first["json"],
    )
    assert Path(second["compare_html"]).is_file()
    cmp = json.loads(Path(second["compare_json"]).read_text())
    assert cmp["summary"]["mAP"]["delta"] == pytest.approx(0.0)
    out = cli(
        settings.data_dir, "eval-compare", first["json"], second["json"], "--report", str(tmp_path / "c")
    )
    assert "comparison:" in out.stdout
    bad = cli(
        settings.data_dir,
        "eval",
        str(tmp_path / "missing.yaml"),
        "--report",
        str(tmp_path / "x"),
        check=False,
    )
    assert bad.returncode == 1 and "cannot read golden set" in bad.stderr


def test_example_gallery_command(tmp_path, cli):
    out = cli(tmp_path / "d", "example-gallery", str(tmp_path / "ex"))
    assert "wrote 21 of 21" in out.stdout
    g = load_golden(tmp_path / "ex" / "golden.yaml")
    assert len(g.queries) >= 12 and all((g.gallery / p).is_file() for p in g.all_relevant())
    with Image.open(tmp_path / "ex" / "cats" / "chelsea.jpg") as im:
        exif = im.getexif()
        assert exif.get(0x0110) == "Pixel 7"  # Model
    again = cli(tmp_path / "d", "example-gallery", str(tmp_path / "ex"))
    assert "wrote 0 of 21" in again.stdout
