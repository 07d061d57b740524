"""With a vision-language model, the evidence answer comes first as a draft, then the model answers
with the evidence as its context (the real llama-cpp-python path of tests/hub/test_hub_vlm.py)."""

from __future__ import annotations

from photosearch.ask.local import LOOKING_CLOSER, STEPS, answer_locally
from tests.hub.test_hub_vlm import gemma_llama, vlm  # noqa: F401 (fixtures)


def test_the_draft_comes_first_then_the_vision_models_answer(evidence, vlm):  # noqa: F811
    core, ids = evidence
    events: list[tuple] = []
    data = answer_locally(
        core.store, core.settings, ids["chelsea"], "what is this?", progress=events.append, vlm=vlm
    )
    kinds = [e[0] if e[0] != "step" else e[1] for e in events]
    assert kinds.index("draft") == kinds.index(STEPS[-1]) + 2, kinds  # after the last step ended
    assert kinds.index(LOOKING_CLOSER) > kinds.index("draft")
    draft = next(e[1] for e in events if e[0] == "draft")
    assert draft["answer_method"] == "evidence" and draft["sentences"][0].startswith(
        "A cat — most likely a tabby"
    )
    assert data["answer_method"] == "vlm"
    assert data["sentences"] == ["a tabby cat lying on a red blanket", *draft["sentences"]]
    prompt = vlm.fake.prompts[-1]
    assert "[image " in prompt and "A cat — most likely a tabby" in prompt, (
        "the evidence is the model's context"
    )
