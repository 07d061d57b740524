"""Item 12 of issue 13: input bounds — text atoms deduplicated and capped, plan JSON checked for size
and depth before parsing, quoted phrases parsed in linear time."""

from __future__ import annotations

import json
import time
from datetime import date

import pytest

from photosearch.query.parser import RequestParser
from photosearch.query.plan import MAX_JSON_DEPTH, MAX_PLAN_BYTES, PlanError, validate_plan
from photosearch.query.resolvers.filters import MAX_TEXT_WORDS
from tests.conftest import run_cli
from tests.query.test_atoms_algebra import names, run


def test_a_long_text_atom_is_deduplicated_and_capped(store, settings, gallery, fake_embedder):
    res = run(store, settings, {"text": "exit " * 3000}, fake_embedder)  # one distinct word
    assert names(res) == ["sign.jpg"] and "words_ignored" not in json.dumps(res["explain"])
    many = " ".join(f"w{i}x" for i in range(3000))
    res = run(store, settings, {"text": f"exit {many}"}, fake_embedder)
    assert f'"words_ignored": {3001 - MAX_TEXT_WORDS}' in json.dumps(res["explain"])


def _nested(depth: int) -> str:
    return '{"where": ' + '{"not": ' * depth + '{"tag": "x"}' + "}" * depth + "}"


def test_deep_plan_json_is_refused_before_parsing():
    with pytest.raises(PlanError, match="nests"):
        validate_plan(_nested(20_000))  # json.loads alone raises RecursionError
    with pytest.raises(PlanError, match="at most"):
        validate_plan('{"where": {"tag": "' + "x" * MAX_PLAN_BYTES + '"}}')
    assert validate_plan(_nested(MAX_JSON_DEPTH // 2 - 4))["where"]


def test_the_cli_refuses_a_hostile_plan_file_without_a_traceback(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text(_nested(20_000))
    big = tmp_path / "big.json"
    big.write_text(" " * (MAX_PLAN_BYTES + 1) + "{}")
    for plan, words in ((deep, "nests"), (big, "at most")):
        done = run_cli(tmp_path / "data", "search", "--plan", str(plan), check=False)
        assert done.returncode == 1 and "photosearch: error:" in done.stderr and words in done.stderr
        assert "Traceback" not in done.stderr


def _best_of(parser, text: str, tries: int = 3) -> float:
    best = float("inf")
    for _ in range(tries):
        t0 = time.perf_counter()
        parser.parse(text, now=date(2026, 1, 1))
        best = min(best, time.perf_counter() - t0)
    return best


def test_quoted_phrases_parse_in_linear_time():
    parser = RequestParser()
    unit = 'text "ab" '
    small = _best_of(parser, (unit * 820)[:8192])
    large = _best_of(parser, (unit * 3300)[:32768])  # the longest request the app accepts
    # 4x the text: linear work is ~4x; the old whole-prefix lead-in search was ~15x
    assert large / small < 8, (small, large)


def test_an_overlong_request_is_a_clear_error(tmp_path):
    from photosearch.query.plan import MAX_REQUEST_CHARS
    from photosearch.query.planner import Planner

    with pytest.raises(PlanError, match="at most"):
        Planner().plan("cat " * (MAX_REQUEST_CHARS // 4 + 1), now=date(2026, 1, 1))


def test_a_plan_of_thousands_of_ored_concepts_encodes_once(store, settings, gallery, fake_embedder):
    """Issue 26: 5,000 OR'd concepts took 85 s: every atom asked the encoder alone and rebuilt the
    class-name index. Now the plan's texts are encoded in one batch and each index is built once,
    so the work grows with the atoms, not with atoms times classes or encoder round trips."""
    from photosearch.query.resolvers import distributions

    words = [f"thing{i}" for i in range(1500)] + ["sign", "dog"]
    fake_embedder.calls = 0
    built = []
    original = distributions.fold

    def counting_fold(text):
        built.append(text)
        return original(text)

    distributions.fold = counting_fold
    try:
        res = run(store, settings, {"or": [{"concept": w} for w in words]}, fake_embedder)
    finally:
        distributions.fold = original
    assert res["results"], "the OR of the gallery's own concepts finds photos"
    # one batch for the plan's texts, one for the reference texts, a probe: not one call per atom
    assert fake_embedder.calls <= 6, fake_embedder.calls
    # each class space's names are folded once (~1,000 ImageNet classes), not once per atom
    class_names = sum(len(n) for cs in distributions.class_spaces(settings) for n in cs.names)
    assert len(built) <= 2 * len(words) + 2 * class_names, len(built)
