"""Each VLM family's prompt: what our chat handler gives libmtmd for our captions, region descriptions and
grounded answers is the text the model's own reference makes of the same request, with the image where
the reference writes it.

The handlers run for real (llama-cpp-python's `__call__`: default system message, Jinja environment, image
URLs to libmtmd's media marker) up to the point where libmtmd would tokenise: `MtmdProbe` stands where
llama_cpp.mtmd_cpp stands (no model can be loaded here), keeps the library's marker and structs, and stops
the request at `mtmd_tokenize`, where the production `PromptRecorder` has kept the text.

References: Qwen2.5-VL's, LLaVA 1.6 Mistral's and SmolVLM's chat templates as their hub repositories hold
them, rendered by transformers; LLaVA 1.5's and 1.6's authors' conversation templates (haotian-liu/LLaVA
conversation.py: conv_llava_v1, conv_mistral_instruct); moondream2's authors' answer_question prompt and its
GGUF repository's preset.
libmtmd wraps an image in the family's image tokens itself (checked below from the library's strings), so
the marker stands where the reference writes its image placeholder."""

from __future__ import annotations

import ctypes
import json
from pathlib import Path

import pytest

from photosearch.vision.vlm import CAPTION_PROMPT, VlmCaptioner
from photosearch.vision.vlm_prompts import (
    FAMILY_PROMPT,
    LLAVA_V1_SYSTEM,
    MEDIA_MARKER,
    PromptRecorder,
    expected_prompt,
    handler_class,
    handler_class_name,
    prompt_problem,
)
from tests.hub import hub_configs as hc
from tests.hub import tiny_models as tm
from tests.required import require

llama_cpp = require("llama_cpp")

# Qwen2.5-VL's chat_template.json "chat_template" (as in optimum-internal-testing/tiny-random-qwen2.5-vl,
# the same text as the Qwen2.5-VL derivatives on the hub; Qwen2-VL's adds {% generation %} tags).
QWEN25_VL_CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}{% for message in "
    "messages %}{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful "
    "assistant.<|im_end|>\n{% endif %}<|im_start|>{{ message['role'] }}\n{% if message['content'] is string %}"
    "{{ message['content'] }}<|im_end|>\n{% else %}{% for content in message['content'] %}{% if content['type'] "
    "== 'image' or 'image' in content or 'image_url' in content %}{% set image_count.value = image_count.value "
    "+ 1 %}{% if add_vision_id %}Picture {{ image_count.value }}: {% endif %}<|vision_start|><|image_pad|>"
    "<|vision_end|>{% elif content['type'] == 'video' or 'video' in content %}{% set video_count.value = "
    "video_count.value + 1 %}{% if add_vision_id %}Video {{ video_count.value }}: {% endif %}<|vision_start|>"
    "<|video_pad|><|vision_end|>{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}"
    "<|im_end|>\n{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
QWEN_IMAGE_SPAN = "<|vision_start|><|image_pad|><|vision_end|>"
QUESTION = "Где сделано это фото? 東京 or Cairo (القاهرة)? 🐈"
CONTEXT = "Tabby cats are common in Europe.\n東京"


class Recorder:
    """Stands where llama_cpp.Llama stands for VlmCaptioner and keeps the messages each request sends."""

    def __init__(self):
        self.messages: list[list[dict]] = []

    def create_chat_completion(self, *, messages, **_kwargs):
        self.messages.append(messages)
        return {"choices": [{"message": {"role": "assistant", "content": "a cat on a blanket"}}]}


class _Tokenising(Exception):
    """The request reached libmtmd's tokeniser."""


class MtmdProbe:
    """Stands where llama_cpp.mtmd_cpp stands for a handler with no model: the library's own marker and
    structs; bitmaps are placeholders (never read); tokenising stops the request."""

    def __init__(self, real):
        self._real = real

    def __getattr__(self, name):
        return getattr(self._real, name)

    def mtmd_helper_bitmap_init_from_buf(self, ctx, buf, n, video):
        assert n > 100  # the decoded JPEG's bytes
        return ctypes.c_void_p(1)

    def mtmd_input_chunks_init(self):
        return ctypes.c_void_p(1)

    def mtmd_bitmap_free(self, bitmap):
        pass

    def mtmd_input_chunks_free(self, chunks):
        pass

    def mtmd_tokenize(self, ctx, chunks, text_ref, bitmaps, n_bitmaps):
        raise _Tokenising


class _Context:
    def kv_cache_clear(self):
        pass


class NoModel:
    """What a handler asks of llama_cpp.Llama before tokenising: its BOS and EOS text, its metadata, and
    (Qwen2.5-VL's) clearing its state."""

    metadata: dict = {}
    n_tokens = 0
    verbose = False
    _ctx = _Context()

    def reset(self):
        pass

    def token_bos(self):
        return 1

    def token_eos(self):
        return 2

    def detokenize(self, tokens):
        return {1: b"<s>", 2: b"</s>"}[tokens[0]]


@pytest.fixture(scope="module")
def mmproj(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("vlm") / "mmproj.gguf"
    path.write_bytes(b"GGUF")  # the handlers check that the projector exists; the probe never opens it
    return path


def handler_prompt(cls: type, messages: list[dict], mmproj: Path) -> str:
    """The text handler `cls` gives libmtmd for `messages` (its real __call__, up to tokenising)."""
    handler = cls(clip_model_path=str(mmproj), verbose=False)
    handler.mtmd_ctx = ctypes.c_void_p(1)  # no model here: a context stands in, never used by the probe
    recorder = handler._mtmd_cpp = PromptRecorder(MtmdProbe(handler._mtmd_cpp))
    with pytest.raises(_Tokenising):
        handler(llama=NoModel(), messages=messages)
    assert recorder.last is not None
    return recorder.last


@pytest.fixture(scope="module")
def requests() -> list[list[dict]]:
    """The messages our captions, region descriptions and grounded answers send."""
    from skimage import data

    rec = Recorder()
    cap = VlmCaptioner(llama=rec, max_image_side=64)
    rgb = data.chelsea()
    cap.caption(rgb)
    cap.describe_region(rgb, "What breed is this cat?")
    cap.answer(rgb, QUESTION, context=CONTEXT)
    assert len(rec.messages) == 3
    return rec.messages


def question_of(messages: list[dict]) -> str:
    return next(c["text"] for c in messages[-1]["content"] if c["type"] == "text")


def hf_messages(messages: list[dict]) -> list[dict]:
    """The same request as transformers' processors take it: images as {"type": "image"}."""
    out = []
    for m in messages:
        content = m["content"]
        if isinstance(content, str):
            content = [{"type": "text", "text": content}]
        content = [{"type": "image"} if p["type"] == "image_url" else p for p in content]
        out.append({"role": m["role"], "content": content})
    return out


def reference_tokenizer(tmp_path: Path, chat_template: str):
    """A tokenizer carrying a family's chat template: transformers renders it."""
    from transformers import AutoTokenizer

    (tmp_path / "tokenizer.json").write_bytes(tm.tokenizer_json())
    (tmp_path / "tokenizer_config.json").write_text('{"pad_token": "<pad>"}')
    tok = AutoTokenizer.from_pretrained(str(tmp_path))
    tok.chat_template = chat_template
    return tok


def test_libmtmd_writes_each_familys_image_tokens_around_the_marker():
    lib = next(Path(llama_cpp.__file__).parent.glob("lib/libmtmd.so*")).read_bytes()
    assert MEDIA_MARKER.encode() in lib  # mtmd_default_marker()
    for token in (b"<|vision_start|>", b"<|vision_end|>", b"<fake_token_around_image>", b"<global-img>"):
        assert token in lib, token
    import llama_cpp.mtmd_cpp as mtmd

    assert mtmd.mtmd_default_marker().decode() == MEDIA_MARKER


def test_qwen25_vl_prompts_equal_its_chat_template(requests, mmproj, tmp_path):
    reference = reference_tokenizer(tmp_path, QWEN25_VL_CHAT_TEMPLATE)
    ours_cls = handler_class("qwen2.5-vl")
    for messages in requests:
        theirs = reference.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        ours = handler_prompt(ours_cls, messages, mmproj)
        assert ours.replace(MEDIA_MARKER, QWEN_IMAGE_SPAN) == theirs
        assert ours == expected_prompt("qwen2.5-vl", question_of(messages))
        # why the handler is ours: llama-cpp-python's own lost the newline after 'assistant'
        stock = handler_prompt(llama_cpp.llama_chat_format.Qwen25VLChatHandler, messages, mmproj)
        assert stock.replace(MEDIA_MARKER, QWEN_IMAGE_SPAN) == theirs.removesuffix("\n")


def _llava_v1_prompt(question: str) -> str:
    """LLaVA's conv_llava_v1.get_prompt() (SeparatorStyle.TWO, sep " "; "<image>\\n" before the first user
    message's stripped text) for one image question awaiting the answer."""
    return LLAVA_V1_SYSTEM + " " + "USER: " + "<image>\n" + question.strip() + " " + "ASSISTANT:"


def test_llava15_prompts_equal_the_authors_conversation_template(requests, mmproj):
    handler = handler_class("llava-1.5")
    assert handler.DEFAULT_SYSTEM_MESSAGE == LLAVA_V1_SYSTEM
    for messages in requests:
        question = question_of(messages)
        ours = handler_prompt(handler, messages, mmproj)
        assert ours.replace(MEDIA_MARKER, "<image>") == _llava_v1_prompt(question)
        assert ours == expected_prompt("llava-1.5", question)
        stock = handler_prompt(llama_cpp.llama_chat_format.Llava15ChatHandler, messages, mmproj)
        assert (
            stock != ours and "questions.USER: " + MEDIA_MARKER + question.strip()[:10] in stock
        )  # why ours


def _llava_mistral_prompt(question: str) -> str:
    """LLaVA's conv_mistral_instruct.get_prompt() (SeparatorStyle.LLAMA_2, system "", sep "", sep2 "</s>";
    the user turn "<image>\\n" + question, wrapped "[INST] {msg} [/INST]") for one image question."""
    return "[INST] " + "<image>\n" + question + " [/INST]"


def test_llava16_mistral_prompts_equal_its_chat_template_and_the_authors(requests, mmproj, tmp_path):
    chat_template = json.loads(hc.LLAVA16_MISTRAL_CHAT_TEMPLATE_JSON)["chat_template"]
    reference = reference_tokenizer(tmp_path, chat_template)
    handler = handler_class("llava-1.6")
    assert handler_class_name("llava-1.6") == "Llava16ChatHandler" and handler.DEFAULT_SYSTEM_MESSAGE is None
    for messages in requests:
        question = question_of(messages)
        theirs = reference.apply_chat_template(
            hf_messages(messages), tokenize=False, add_generation_prompt=True
        )
        ours = handler_prompt(handler, messages, mmproj)
        assert ours.replace(MEDIA_MARKER, "<image>") == theirs == _llava_mistral_prompt(question)
        assert ours == expected_prompt("llava-1.6", question)
        # llama-cpp-python's own: Vicuna's system message, no [INST], "Answer:" (the doctor would say so)
        stock = handler_prompt(llama_cpp.llama_chat_format.Llava16ChatHandler, messages, mmproj)
        assert "[INST]" not in stock and stock.startswith("A chat between") and stock.endswith("Answer:")
        assert "LLaVA 1.6 Mistral's format" in prompt_problem("llava-1.6", stock, question)

    # a system message and an earlier turn render as the repository's template renders them
    system = [{"role": "system", "content": [{"type": "text", "text": "Answer in one word."}]}]
    turns = system + requests[0][:1] + [{"role": "assistant", "content": "A cat."}] + requests[1]
    hf_turns = hf_messages(turns)
    hf_turns[2]["content"] = [{"type": "text", "text": "A cat."}]
    theirs = reference.apply_chat_template(hf_turns, tokenize=False)
    assert handler_prompt(handler, turns, mmproj).replace(MEDIA_MARKER, "<image>") == theirs
    assert theirs.startswith("<<SYS>>\nAnswer in one word.\n<</SYS>>\n\n[INST] <image>\n")


def _moondream_prompt(question: str, chat_history: str = "") -> str:
    """moondream2's answer_question (vikhyatk/moondream2 moondream.py): the prompt before its tokeniser."""
    return f"<image>\n\n{chat_history}Question: {question}\n\nAnswer:"


# moondream/moondream2-gguf's moondream2.preset.json (commit f086d76, "Create moondream2.preset.json", the
# commit after the pinned ca466a3): the GGUF's own prompt settings for a chat app, the image before them.
MOONDREAM2_GGUF_PRESET = {"input_prefix": "\n\nQuestion: ", "input_suffix": "\n\nAnswer:", "pre_prompt": ""}


def test_moondream_prompts_equal_the_authors_answer_question(requests, mmproj):
    handler = handler_class("moondream")
    assert handler.__name__ == "MoondreamChatHandler"  # llama-cpp-python's own is already moondream2's
    preset = MOONDREAM2_GGUF_PRESET
    for messages in requests:
        question = question_of(messages)
        ours = handler_prompt(handler, messages, mmproj)
        assert ours.replace(MEDIA_MARKER, "<image>") == _moondream_prompt(question)
        assert (
            ours
            == MEDIA_MARKER
            + preset["pre_prompt"]
            + preset["input_prefix"]
            + question
            + preset["input_suffix"]
        )
        assert ours == expected_prompt("moondream", question)


def test_smolvlm_prompts_equal_its_chat_template(requests, mmproj, tmp_path):
    assert len(hc.SMOLVLM_CHAT_TEMPLATE_JSON.encode()) == 429  # the size the hub lists
    reference = reference_tokenizer(tmp_path, json.loads(hc.SMOLVLM_CHAT_TEMPLATE_JSON)["chat_template"])
    handler = handler_class("smolvlm")
    assert handler_class_name("smolvlm") == "MTMDChatHandler"
    for messages in requests:
        question = question_of(messages)
        theirs = reference.apply_chat_template(
            hf_messages(messages), tokenize=False, add_generation_prompt=True
        )
        ours = handler_prompt(handler, messages, mmproj)
        assert ours.replace(MEDIA_MARKER, "<image>") == theirs
        assert theirs == "<|im_start|>User:<image>" + question + "<end_of_utterance>\nAssistant:"
        assert ours == expected_prompt("smolvlm", question)

    # a system message (plain text, as VlmCaptioner sends one) and a text-only turn
    turns = [
        {"role": "system", "content": "Be brief."},
        *requests[0],
        {"role": "assistant", "content": "A cat."},
    ]
    turns.append({"role": "user", "content": "And its colour?"})
    theirs = reference.apply_chat_template(hf_messages(turns), tokenize=False, add_generation_prompt=True)
    assert handler_prompt(handler, turns, mmproj).replace(MEDIA_MARKER, "<image>") == theirs


def test_smolvlm_uses_its_own_template_not_the_ggufs(mmproj):
    """The generic libmtmd handler renders the GGUF's template with the image as text: SmolVLM's own
    template then writes 'User: ' (a space) before the image, a prompt the model was not trained on."""
    from llama_cpp.llama_chat_format import MTMDChatHandler

    smol = json.loads(hc.SMOLVLM_CHAT_TEMPLATE_JSON)["chat_template"]
    stock = type("GgufTemplate", (MTMDChatHandler,), {"_get_chat_template": lambda self, llama: smol})
    messages = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": _tiny_jpeg()}}]}]
    messages[0]["content"].append({"type": "text", "text": CAPTION_PROMPT})
    got = handler_prompt(stock, messages, mmproj)
    assert got.startswith("<|im_start|>User: " + MEDIA_MARKER)
    assert prompt_problem("smolvlm", got, CAPTION_PROMPT)
    assert (
        prompt_problem("smolvlm", handler_prompt(handler_class("smolvlm"), messages, mmproj), CAPTION_PROMPT)
        is None
    )


def _tiny_jpeg() -> str:
    import numpy as np

    from photosearch.vision.vlm import image_data_uri

    return image_data_uri(np.full((16, 24, 3), 200, np.uint8))


def test_every_shipped_vlm_family_has_a_checked_prompt_format():
    from photosearch.models.manifest import BUNDLED_MANIFEST_DIR, load_manifests

    shipped = load_manifests(None, [BUNDLED_MANIFEST_DIR / "hub"], strict=True)
    families = {m.family for m in shipped.values() if m.role == "vlm"}
    assert families == {"qwen2.5-vl", "llava-1.5", "llava-1.6", "moondream", "smolvlm"}
    assert families <= set(FAMILY_PROMPT)
    assert expected_prompt("minicpm-v", "q") is None and prompt_problem("minicpm-v", "anything", "q") is None
    assert prompt_problem("moondream", None, "q") == "no prompt reached the model"


@pytest.mark.parametrize("family", ["qwen2.5-vl", "llava-1.5", "llava-1.6", "moondream", "smolvlm"])
def test_the_doctor_passes_a_vlm_fed_its_familys_format(family, requests, mmproj):
    """`photosearch doctor` captions the test photo with a pulled VLM and checks the text its handler gave
    libmtmd (`VisionLLM.last_prompt`) with `vlm_prompt_verdict`: here, what our handler gives for a caption."""
    from photosearch.health import vlm_prompt_verdict

    caption = requests[0]
    assert question_of(caption) == CAPTION_PROMPT
    fed = handler_prompt(handler_class(family), caption, mmproj)
    assert vlm_prompt_verdict(family, fed, CAPTION_PROMPT) == f"prompt in {FAMILY_PROMPT[family][0]}'s format"


def test_the_doctor_fails_a_vlm_fed_another_format(requests, mmproj):
    from photosearch.health import REINSTALL, CheckFailed, vlm_prompt_verdict

    stock = handler_prompt(llama_cpp.llama_chat_format.Llava16ChatHandler, requests[0], mmproj)
    with pytest.raises(CheckFailed, match="not LLaVA 1.6 Mistral's format") as failed:
        vlm_prompt_verdict("llava-1.6", stock, CAPTION_PROMPT)
    assert failed.value.fix == REINSTALL
    with pytest.raises(CheckFailed, match="no prompt reached the model"):
        vlm_prompt_verdict("smolvlm", None, CAPTION_PROMPT)
    assert "not checked" in vlm_prompt_verdict("minicpm-v", "whatever", CAPTION_PROMPT)
