"""The evaluation command's runs without the LLM, as a regression check (figures printed with -s):
every learned search finds its photo and every answer holds the facts, in both modes."""

from __future__ import annotations

import pytest

from tests.enrich.eval_enrich import run, summary
from tests.enrich.evalweb.web import EvalWeb, load_corpus, snippet


def test_engine_snippets_show_the_sentences_that_match_the_query():
    text = "The Zyphra Q2 is a drone. It flies for 31 minutes. It sells for 499 euros in Europe."
    assert (
        snippet(text, "ZYPHRA Q2 cost euros") == "The Zyphra Q2 is a drone. It sells for 499 euros in Europe."
    )


def test_snippets_mode_serves_no_readable_page():
    import requests

    web = EvalWeb(load_corpus(), "snippets")
    try:
        res = requests.get(
            web.base + "/search", params={"q": "Voltaro X9", "format": "json"}, timeout=5
        ).json()
        assert res["results"] and "Voltaro" in res["results"][0]["content"]
        bodies = [requests.get(r["url"], timeout=5) for r in res["results"]]
        assert {b.status_code for b in bodies} <= {200, 403}
        assert not any(
            "19 kg" in b.text.split("<script>")[0] for b in bodies
        )  # facts only in snippets/scripts
    finally:
        web.close()


@pytest.mark.parametrize("mode", ["pages", "snippets"])
def test_chain_of_search_learns_and_answers_on_the_test_web(mode):
    r = run(mode, False, load_corpus())
    print(summary(r))
    assert r["hit_at_3"]["score"] == r["hit_at_3"]["of"], r["hit_at_3"]["searches"]
    assert r["answers"]["correct"] == r["answers"]["of"], r["answers"]["asks"]
    astronaut = r["answers"]["asks"]["astronaut"]  # the catalog names her: no web, no model needed
    assert "Eileen Collins" in astronaut["answer"] and astronaut["method"] == "local", astronaut
    assert r["enrich"]["totals"]["filtered"] > 0  # spam and homonyms were met and dropped
    if mode == "snippets":
        assert r["enrich"]["totals"]["snippets"] > 0 and r["enrich"]["totals"]["fetch_failures"] > 0
