"""A VLM's prompt format: for Qwen2.5-VL, what llama.cpp is given for our captions, region descriptions
and grounded answers is the text the model's own chat template makes of the same messages (rendered by
transformers), with the image where the template puts it.

llama-cpp-python renders its handler's template, puts libmtmd's media marker where each image URL was, and
libmtmd wraps a Qwen2.5-VL image in <|vision_start|> … <|vision_end|> (the strings are in the library,
checked below); the template writes <|vision_start|><|image_pad|><|vision_end|>, which the processor
expands to the image's tokens. So the two prompts must be equal once the image span is written one way.
The other families (LLaVA 1.5/1.6, moondream) use llama-cpp-python's fixed templates and SmolVLM the
template inside its GGUF; they are not proved here."""

from __future__ import annotations

from pathlib import Path

import pytest

from photosearch.vision.vlm import VlmCaptioner, handler_class, handler_class_name
from tests.hub import tiny_models as tm
from tests.required import require

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
IMAGE_SPAN = "<|vision_start|><|image_pad|><|vision_end|>"


class Recorder:
    """Stands where llama_cpp.Llama stands and keeps the messages each request sends."""

    def __init__(self):
        self.messages: list[list[dict]] = []

    def create_chat_completion(self, *, messages, **_kwargs):
        self.messages.append(messages)
        return {"choices": [{"message": {"role": "assistant", "content": "a cat on a blanket"}}]}


def _llama_cpp_prompt(handler: type, messages: list[dict]) -> str:
    """The text a llama-cpp-python Llava15ChatHandler subclass builds (its __call__: default system
    message, the template with trim/lstrip blocks, each image URL replaced by the media marker)."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    from llama_cpp.llama_chat_format import _get_system_message

    if not _get_system_message(messages):
        messages = [{"role": "system", "content": handler.DEFAULT_SYSTEM_MESSAGE}, *messages]
    template = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True).from_string(
        handler.CHAT_FORMAT
    )
    text = template.render(messages=messages, add_generation_prompt=True, eos_token="", bos_token="")
    for url in handler.get_image_urls(messages):
        text = text.replace(url, IMAGE_SPAN)
    return text


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A tokenizer carrying Qwen2.5-VL's chat template: transformers renders it."""
    from transformers import AutoTokenizer

    d = tmp_path_factory.mktemp("qwen-template")
    (d / "tokenizer.json").write_bytes(tm.tokenizer_json())
    (d / "tokenizer_config.json").write_text('{"pad_token": "<pad>"}')
    tok = AutoTokenizer.from_pretrained(str(d))
    tok.chat_template = QWEN25_VL_CHAT_TEMPLATE
    return tok


def test_libmtmd_wraps_qwen_images_in_vision_tokens():
    llama_cpp = require("llama_cpp")
    libs = list(Path(llama_cpp.__file__).parent.glob("lib/libmtmd.so*"))
    assert libs and all(
        b"<|vision_start|>" in p.read_bytes() and b"<|vision_end|>" in p.read_bytes() for p in libs[:1]
    )
    assert handler_class_name("qwen2.5-vl") == "Qwen25VLChatHandler"


def test_qwen25_vl_prompts_equal_its_chat_template(reference):
    require("llama_cpp")
    from skimage import data

    rec = Recorder()
    cap = VlmCaptioner(llama=rec, max_image_side=64)
    rgb = data.chelsea()
    cap.caption(rgb)
    cap.describe_region(rgb, "What breed is this cat?")
    cap.answer(rgb, "Где сделано это фото?", context="Tabby cats are common in Europe.\n東京")
    assert len(rec.messages) == 3
    from llama_cpp.llama_chat_format import Qwen25VLChatHandler

    ours_cls = handler_class("qwen2.5-vl")
    for messages in rec.messages:
        theirs = reference.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        ours = _llama_cpp_prompt(ours_cls, messages)
        assert ours == theirs
        assert ours.count(IMAGE_SPAN) == 1 and ours.endswith("<|im_start|>assistant\n")
        # why the handler is ours: llama-cpp-python's own lost the newline after 'assistant'
        assert _llama_cpp_prompt(Qwen25VLChatHandler, messages) == theirs.removesuffix("\n")


# haotian-liu/LLaVA llava/conversation.py: conv_llava_v1 (SeparatorStyle.TWO, sep " ", roles USER/ASSISTANT);
# get_prompt() puts "<image>\n" before the first user message's stripped text.
LLAVA_V1_SYSTEM = (
    "A chat between a curious human and an artificial intelligence assistant. "
    "The assistant gives helpful, detailed, and polite answers to the human's questions."
)


def _llava_v1_prompt(question: str) -> str:
    """conv_llava_v1.get_prompt() for one image question awaiting the answer."""
    return LLAVA_V1_SYSTEM + " " + "USER: " + "<image>\n" + question.strip() + " " + "ASSISTANT:"


def test_llava15_prompts_equal_the_authors_conversation_template():
    require("llama_cpp")
    from llama_cpp.llama_chat_format import Llava15ChatHandler
    from skimage import data

    rec = Recorder()
    cap = VlmCaptioner(llama=rec, max_image_side=64)
    rgb = data.chelsea()
    cap.caption(rgb)
    cap.answer(rgb, "Где сделано это фото?", context="Tabby cats are common in Europe.\n東京")
    handler = handler_class("llava-1.5")
    assert handler.DEFAULT_SYSTEM_MESSAGE == LLAVA_V1_SYSTEM
    for messages in rec.messages:
        question = next(c["text"] for c in messages[-1]["content"] if c["type"] == "text")
        ours = _llama_cpp_prompt(handler, messages).replace(IMAGE_SPAN, "<image>")
        assert ours == _llava_v1_prompt(question)
        stock = _llama_cpp_prompt(Llava15ChatHandler, messages).replace(IMAGE_SPAN, "<image>")
        assert stock != ours and "questions.USER: <image>" + question.strip()[:10] in stock  # why ours
