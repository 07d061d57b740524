"""The local LLM: schema-validated JSON or None; base models continue text; and the real gemma3-270m once."""

from __future__ import annotations

import json

import pytest

from photosearch.enrich.agents import Agents
from photosearch.models.llm import LocalLLM
from tests.required import require

SCHEMA = {
    "type": "object",
    "required": ["questions"],
    "properties": {
        "questions": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 3}}
    },
}


class FakeLlama:
    def __init__(self, replies):
        self.replies = list(replies)
        self.kwargs = []
        self.prompts = []

    def create_chat_completion(self, **kw):
        self.kwargs.append(kw)
        return {"choices": [{"message": {"content": self.replies.pop(0)}}]}

    def create_completion(self, prompt, **kw):
        self.prompts.append(prompt)
        self.kwargs.append(kw)
        return {"choices": [{"text": self.replies.pop(0)}]}


def make(replies, chat=True) -> LocalLLM:
    return LocalLLM.wrap(FakeLlama(replies), name="fake", chat=chat)


def test_complete_json_validates_and_never_raises():
    llm = make(
        [
            json.dumps({"questions": ["What is X9?"]}),
            "not json",
            json.dumps({"questions": []}),
            json.dumps({"other": 1}),
        ]
    )
    assert llm.complete_json([{"role": "user", "content": "q"}], SCHEMA) == {"questions": ["What is X9?"]}
    for _ in range(3):
        assert llm.complete_json([{"role": "user", "content": "q"}], SCHEMA) is None
    kw = llm._llama.kwargs[0]
    assert kw["response_format"] == {"type": "json_object", "schema": SCHEMA}
    assert all(m["role"] != "system" for m in kw["messages"])
    assert llm.failures == 3 and llm.calls == 4


def test_a_base_model_continues_the_flattened_messages_under_a_grammar():
    """The bundled gemma3-270m is a base model: chat prompts echo, so it gets one prompt to continue."""
    require("llama_cpp")
    llm = make([json.dumps({"questions": ["What is X9?"]}), " the blanket"], chat=False)
    out = llm.complete_json(
        [{"role": "system", "content": "Plan searches."}, {"role": "user", "content": "X9?"}], SCHEMA
    )
    assert out == {"questions": ["What is X9?"]}
    fake = llm._llama
    assert fake.prompts[0] == "Plan searches.\n\nX9?" and fake.kwargs[0]["grammar"] is not None
    assert llm.complete_text("A cat sitting on") == "the blanket"
    assert fake.kwargs[1]["stop"] == ["\n"] and "grammar" not in fake.kwargs[1]


def test_failures_reach_chat_callers_and_become_none_for_the_rest():
    class Broken:
        def create_chat_completion(self, **kw):
            raise RuntimeError("boom")

        def create_completion(self, prompt, **kw):
            raise RuntimeError("boom")

    llm = LocalLLM.wrap(Broken())
    with pytest.raises(RuntimeError, match="boom"):
        llm.chat([{"role": "user", "content": "hi"}])
    assert llm.complete_json([{"role": "user", "content": "hi"}], SCHEMA) is None
    assert llm.complete_text("hi") is None
    assert llm.failures == 3


def test_agents_fall_back_when_the_llm_talks_nonsense():
    llm = make(["{}"] * 10 + [json.dumps({"questions": ["Tell me about cooking pasta?"]})] * 5)
    a = Agents(llm)
    qs = a.plan("VOLTARO X9", "what is this?", "VOLTARO X9", None, "", set(), 2)
    assert qs == ["What is VOLTARO X9?", "What kind of product is VOLTARO X9?"]
    # an off-topic plan (does not name the object) is rejected too
    qs = a.plan("VOLTARO X9", "what is this?", "VOLTARO X9", None, "", set(), 2)
    assert all("VOLTARO X9" in q for q in qs)
    assert a.stats.llm_fallback >= 2


def test_ungrounded_summary_is_replaced_by_extract():
    from photosearch.enrich.types import Page

    llm = make([json.dumps({"summary": "The Voltaro X9 is a submarine from Mars with laser cannons."})])
    page = Page("u", "Voltaro X9", "The Voltaro X9 is an e-bike made by Voltaro Mobility in Rotterdam.", 70)
    out = Agents(llm).summarise([(1, page)], "What is VOLTARO X9?", "VOLTARO X9")
    assert "e-bike" in out and "submarine" not in out and out.endswith("[1]")


@pytest.mark.slow
def test_real_gemma_returns_valid_json_or_none(real_llm):
    out = real_llm.complete_json(
        [{"role": "user", "content": 'Is the sky blue? Answer JSON {"sufficient": true|false}.'}],
        {"type": "object", "properties": {"sufficient": {"type": "boolean"}}, "required": ["sufficient"]},
        max_tokens=16,
    )
    assert out is None or isinstance(out["sufficient"], bool)
    assert real_llm.calls >= 1
