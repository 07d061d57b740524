"""The figures the targets rest on (hit@k, the empty-result rate, MRR, P@k), from a small made-up run
with hand-computed values, and `rescore --golden` re-judging a saved run."""

from __future__ import annotations

import json
import math

import pytest

from photosearch.evaluate import rescore
from photosearch.evaluate.golden import GoldenQuery
from photosearch.evaluate.runner import score_query, summarise


def _row(qid: str, relevant: dict[str, float], ranked: list[str]) -> dict:
    return {
        "id": qid,
        "request": qid,
        "k": [1, 5],
        "relevant": relevant,
        "results": [{"path": p} for p in ranked],
        "error": None,
        "latency_ms": [10.0],
    }


RUN = {
    "queries": [
        _row("two cats", {"a.jpg": 1, "b.jpg": 1}, ["x.jpg", "a.jpg", "y.jpg", "b.jpg"]),  # first hit at 2
        _row("kitty", {"c.jpg": 1}, []),  # a relevant photo exists, nothing came back
        _row("dog", {"d.jpg": 2, "e.jpg": 1}, ["d.jpg"]),  # the best photo first, the other missed
    ]
}


def test_one_query_hit_at_k_empty_and_ndcg():
    q = GoldenQuery("dog", "dog", {"d.jpg": 2, "e.jpg": 1}, k=(1, 5))
    m = score_query(q, ["d.jpg"])
    assert (m["hit@1"], m["hit@5"], m["P@1"], m["P@5"], m["MRR"], m["empty"]) == (1, 1, 1, 0.2, 1, 0)
    assert m["nDCG@5"] == pytest.approx(3 / (3 + 1 / math.log2(3)))
    late = score_query(GoldenQuery("q", "q", {"a.jpg": 1}, k=(1, 5)), ["x", "y", "z", "w", "v", "a.jpg"])
    assert (late["hit@1"], late["hit@5"], late["MRR"]) == (0, 0, pytest.approx(1 / 6))  # rank 6: no hit@5
    none = score_query(GoldenQuery("q", "q", {"a.jpg": 1}, k=(1, 5)), [])
    assert (none["empty"], none["hit@5"], none["MRR"]) == (1, 0, 0)
    unjudged = score_query(GoldenQuery("q", "q", {}, k=(1, 5)), [])
    assert unjudged["empty"] == 0  # nothing relevant, nothing returned: not an empty result


def test_summary_of_a_run_hand_computed():
    s = rescore.rescore(RUN)
    assert s["queries"] == 3
    assert s["hit@1"] == pytest.approx(1 / 3)  # only "dog" has a relevant photo first
    assert s["hit@5"] == pytest.approx(2 / 3)  # "kitty" came back empty
    assert s["P@5"] == pytest.approx((2 / 5 + 0 + 1 / 5) / 3)
    assert s["MRR"] == pytest.approx((1 / 2 + 0 + 1) / 3)
    assert s["empty_result_rate"] == pytest.approx(1 / 3)
    rows = [dict(r, metrics=score_query(GoldenQuery(r["id"], r["id"], r["relevant"], k=(1, 5)), [x["path"] for x in r["results"]])) for r in RUN["queries"]]  # fmt: skip
    assert summarise(rows, [1, 5]) == s


def test_rescore_golden_rejudges_a_saved_run_without_its_photos(tmp_path, capsys):
    run = tmp_path / "eval.json"
    run.write_text(json.dumps(RUN), encoding="utf-8")
    golden = tmp_path / "judged" / "golden.yaml"  # its gallery holds no photos: judgements only
    golden.parent.mkdir()
    golden.write_text(
        "name: t\ngallery: .\nqueries:\n"
        "  - {id: two cats, request: two cats, relevant: [x.jpg]}\n"  # now the first result is right
        "  - {id: kitty, request: kitty, relevant: [c.jpg, z.jpg]}\n"
        "  - {id: not in the run, request: owl, relevant: [o.jpg]}\n",
        encoding="utf-8",
    )
    assert rescore.main([str(run), "--golden", str(golden), "--k", "1", "--k", "5"]) == 0
    out = json.loads(capsys.readouterr().out)  # rounded to 4 places
    assert out["queries"] == 3  # the run's queries; "dog" keeps the run's own judgements
    assert out["hit@1"] == pytest.approx(2 / 3, abs=5e-5) and out["hit@5"] == pytest.approx(2 / 3, abs=5e-5)
    assert out["MRR"] == pytest.approx((1 + 0 + 1) / 3, abs=5e-5)
    assert out["P@5"] == pytest.approx((1 / 5 + 0 + 1 / 5) / 3, abs=5e-5)
    assert out["empty_result_rate"] == pytest.approx(1 / 3, abs=5e-5)
    assert rescore.main([str(run), "--k", "1"]) == 0  # without --golden: the run's own judgements
    assert json.loads(capsys.readouterr().out)["hit@1"] == pytest.approx(1 / 3, abs=5e-5)


def test_rescore_reports_a_bad_golden_file(tmp_path, capsys):
    run = tmp_path / "eval.json"
    run.write_text(json.dumps(RUN), encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: t\nqueries: []\n", encoding="utf-8")
    assert rescore.main([str(run), "--golden", str(bad)]) == 2
    assert "rescore: error:" in capsys.readouterr().err
