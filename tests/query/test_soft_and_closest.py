"""Soft conjunction (partial matches, `required`) and closest matches below the cut-off."""

from __future__ import annotations

import pytest

from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.search import search


def _name(r) -> str:
    return r["path"].rsplit("/", 1)[-1]


def run(store, settings, where, emb, required=None, **compose):
    plan = {"version": 1, "where": where, "compose": compose}
    if required is not None:
        plan["required"] = required
    return search(store, settings, plan=plan, text_embedder=emb, explain=True)


def test_one_unverifiable_word_does_not_empty_the_result(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"and": [{"concept": "dog"}, {"concept": "zebra"}]}, fake_embedder)
    assert res["matched"] == 0  # nobody has both
    partial = [r for r in res["results"] if r["partial"] and not r["below_cutoff"]]
    assert sorted(_name(r) for r in partial) == ["dog1.jpg", "dog2.jpg"]
    assert all(r["missing"] == ["zebra"] for r in partial)
    assert res["partial"] >= 2


def test_full_matches_come_before_partial_ones(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"and": [{"concept": "dog"}, {"concept": "animal"}]}, fake_embedder)
    flags = [r["partial"] for r in res["results"] if not r["below_cutoff"]]
    assert flags[:2] == [False, False] and flags.count(False) == 2
    assert all(flags[2:])  # cats: animals but not dogs, after the dogs
    cats = {_name(r) for r in res["results"] if r["partial"]}
    assert {"cat1.jpg", "cat2.jpg"} <= cats


def test_filters_stay_hard(store, settings, gallery, fake_embedder):
    where = {"and": [{"concept": "dog"}, {"concept": "zebra"}, {"person": "Tom"}]}
    res = run(store, settings, where, fake_embedder)
    assert [_name(r) for r in res["results"]] == ["dog2.jpg"]  # dog1 has no Tom
    where = {"and": [{"concept": "dog"}, {"concept": "cat"}, {"not": {"person": "Tom"}}]}
    got = {_name(r) for r in run(store, settings, where, fake_embedder)["results"]}
    assert "dog2.jpg" not in got and "cat2.jpg" not in got and {"dog1.jpg", "cat1.jpg"} <= got


def test_required_concept_is_hard(store, settings, gallery, fake_embedder):
    where = {"and": [{"concept": "dog"}, {"concept": "zebra"}]}
    res = run(store, settings, where, fake_embedder, required=["zebra"])
    assert not [r for r in res["results"] if not r["below_cutoff"]]
    res = run(store, settings, where, fake_embedder, required=["dog"])
    confident = [r for r in res["results"] if not r["below_cutoff"]]
    assert sorted(_name(r) for r in confident) == ["dog1.jpg", "dog2.jpg"]  # dogs, missing zebra
    assert all(r["partial"] and r["missing"] == ["zebra"] for r in confident)
    assert res["matched"] == 0 and res["plan"]["required"] == ["dog"]


def test_required_concept_ranks_the_soft_ones(store, settings, gallery, fake_embedder):
    """Required: hard. The soft rest ranks: all present, then some, then none (still partial)."""
    where = {"and": [{"concept": "animal"}, {"concept": "dog"}, {"concept": "zebra"}]}
    res = run(store, settings, where, fake_embedder, required=["animal"])
    confident = [r for r in res["results"] if not r["below_cutoff"]]
    assert res["matched"] == 0 and all(r["partial"] for r in confident)
    names = [_name(r) for r in confident]
    assert set(names[:2]) == {"dog1.jpg", "dog2.jpg"} and {"cat1.jpg", "cat2.jpg"} <= set(names[2:])
    missing = {_name(r): r["missing"] for r in confident}
    assert missing["dog1.jpg"] == ["zebra"] and missing["cat1.jpg"] == ["dog", "zebra"]
    assert "car.jpg" not in names  # not an animal: the required concept stays hard
    where = {"and": [{"concept": "animal"}, {"concept": "dog"}]}
    res = run(store, settings, where, fake_embedder, required=["animal"])
    flags = [(_name(r), r["partial"]) for r in res["results"] if not r["below_cutoff"]]
    assert {n for n, p in flags[:2]} == {"dog1.jpg", "dog2.jpg"} and not any(p for _, p in flags[:2])
    assert {"cat1.jpg", "cat2.jpg"} <= {n for n, p in flags[2:] if p}


def test_required_is_validated_and_shown():
    plan = validate_plan(
        {"version": 1, "where": {"and": [{"concept": "dog"}, {"concept": "woman"}]}, "required": ["  woman "]}
    )
    assert plan["required"] == ["woman"]
    assert plan_to_text(plan).endswith('[required: "woman"]')
    assert "required" not in validate_plan({"version": 1, "where": {"concept": "dog"}, "required": []})
    with pytest.raises(PlanError, match="not a concept"):
        validate_plan({"version": 1, "where": {"concept": "dog"}, "required": ["cat"]})
    with pytest.raises(PlanError, match="list"):
        validate_plan({"version": 1, "where": {"concept": "dog"}, "required": "dog"})


def test_closest_matches_fill_an_empty_page(store, settings, gallery, fake_embedder):
    from photosearch.records import AnalysisResult, FactRecord

    with store.session() as s:  # a weak tag, below the calibrated cut-off
        store.write_analysis(
            s,
            gallery["coffee.jpg"],
            "tagger2",
            1,
            AnalysisResult(facts=[FactRecord("tag", "teapot", 0.1, data={"names": ["teapot"]})]),
        )
    plan = {"version": 1, "where": {"concept": "teapot"}, "compose": {"limit": 5}}
    res = search(store, settings, plan=plan, signals=[])  # lexical evidence only
    assert res["matched"] == 0
    assert [_name(r) for r in res["results"]][:1] == ["coffee.jpg"]
    assert all(r["below_cutoff"] for r in res["results"]) and res["below_cutoff"] == len(res["results"])
    assert res["results"][0]["why"][0]["label"] == "teapot"
    # a confident match: nothing below the cut-off when the page is full
    res = run(store, settings, {"concept": "tabby cat"}, fake_embedder, limit=2)
    assert [r["below_cutoff"] for r in res["results"]] == [False, False]


def test_closest_never_claim_a_filter_they_miss(store, settings, gallery, fake_embedder):
    """A filter no photo meets names itself; the closest photos without it fill the page, all marked
    below the cut-off (never a blank page, never a false match)."""
    res = run(store, settings, {"and": [{"concept": "teapot"}, {"person": "Nobody"}]}, fake_embedder)
    assert res["matched"] == 0 and res["results"]
    assert all(r["below_cutoff"] for r in res["results"])
    assert res["explain"]["unmet"] == ["no photo that looks like “teapot”", "no photo of Nobody"]


def test_cli_text_puts_closest_under_a_separator(store, settings, gallery):
    from photosearch.cli.search import BELOW_CUTOFF_SEPARATOR, CLOSEST_SEPARATOR, _results_text
    from photosearch.records import AnalysisResult, FactRecord

    with store.session() as s:
        store.write_analysis(
            s,
            gallery["coffee.jpg"],
            "tagger2",
            1,
            AnalysisResult(facts=[FactRecord("tag", "teapot", 0.1, data={"names": ["teapot"]})]),
        )
    plan = {
        "version": 1,
        "where": {"or": [{"concept": "teapot"}, {"concept": "tabby"}]},
        "compose": {"limit": 5},
    }
    lines = [
        ln
        for ln in _results_text(search(store, settings, plan=plan, signals=[])).splitlines()
        if not ln.startswith(("plan:", "  "))
    ]
    sep = lines.index(BELOW_CUTOFF_SEPARATOR)  # confident matches stand before it: not "no confident match"
    assert CLOSEST_SEPARATOR not in lines
    assert all("cat" in ln for ln in lines[:sep]) and "coffee.jpg" in lines[sep + 1]
    assert lines[-1].startswith("2 of 2 matches + 1 closest")


def test_cli_says_no_confident_match_only_when_nothing_cleared_the_cut_off():
    from photosearch.cli.search import CLOSEST_SEPARATOR, _results_text

    closest = {"id": 1, "path": "/p/a.jpg", "score": 0.2, "why": [], "below_cutoff": True}
    text = _results_text({"results": [closest], "composer": {}, "plan": None, "timing_ms": {"total": 3.0}})
    assert text.splitlines()[0] == CLOSEST_SEPARATOR
