"""Each VLM family's own prompt format, as llama-cpp-python chat handlers, and the check that a prompt is it.

llama-cpp-python renders its handler's Jinja template, puts libmtmd's media marker where each image was
and hands the text to libmtmd, which tokenises it (adding the model's BOS) and puts the image's embeddings
where the marker is. So the text a handler renders must be the text the model's authors feed, with the
marker where their template writes the image token. `tests/hub/test_hub_vlm_prompts.py` renders each
family's reference (its chat template from the hub repository through transformers, or its authors' code)
and checks our handlers give the same text; `FAMILY_PROMPT` is the one-image request of each format, which
the doctor compares with what a pulled model really received (`PromptRecorder`).

Where llama-cpp-python's handler differs from the model's format, ours replaces its template:

* ``qwen2.5-vl``: Qwen's chat template; llama-cpp-python's lost the newline after 'assistant'.
* ``llava-1.5``: LLaVA's conv_llava_v1 ("{system} USER: <image>\\n{question} ASSISTANT:").
* ``llava-1.6`` (Mistral): "[INST] <image>\\n{question} [/INST]" (LLaVA's conv_mistral_instruct, the same
  text as llava-hf/llava-v1.6-mistral-7b-hf's chat_template.json), no system message unless one is given;
  llama-cpp-python's Llava16ChatHandler wrote "{vicuna system}{image}\\n{question}Answer:".
* ``moondream``: llama-cpp-python's MoondreamChatHandler already writes moondream2's
  "<image>\\n\\nQuestion: {question}\\n\\nAnswer:" (its authors' answer_question, and the prefix and suffix
  of moondream/moondream2-gguf's preset).
* ``smolvlm``: SmolVLM's chat_template.json ("<|im_start|>User:<image>{question}<end_of_utterance>\\n
  Assistant:"), whatever template the GGUF carries; libmtmd's generic handler turned the image into text,
  which made the template write "User: " with a space.
"""

from __future__ import annotations

import functools
from typing import Any

HANDLERS = {
    "qwen2.5-vl": "Qwen25VLChatHandler",
    "qwen2-vl": "Qwen25VLChatHandler",
    "moondream": "MoondreamChatHandler",
    "llava-1.5": "Llava15ChatHandler",
    "llava-1.6": "Llava16ChatHandler",
    "minicpm-v": "MiniCPMv26ChatHandler",
    "nanollava": "NanoLlavaChatHandler",
    "llama3-vision-alpha": "Llama3VisionAlphaChatHandler",
    "smolvlm": "MTMDChatHandler",
}

#: libmtmd's default media marker (`mtmd_default_marker()`): where an image goes in the text.
MEDIA_MARKER = "<__media__>"

LLAVA_V1_SYSTEM = (
    "A chat between a curious human and an artificial intelligence assistant. "
    "The assistant gives helpful, detailed, and polite answers to the human's questions."
)

#: family -> (name in words, its prompt for one image and one question; {image} is the media marker).
FAMILY_PROMPT: dict[str, tuple[str, str]] = {
    "qwen2.5-vl": (
        "Qwen2.5-VL",
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
        "<|im_start|>user\n{image}{question}<|im_end|>\n<|im_start|>assistant\n",
    ),
    "llava-1.5": ("LLaVA 1.5", LLAVA_V1_SYSTEM + " USER: {image}\n{question_stripped} ASSISTANT:"),
    "llava-1.6": ("LLaVA 1.6 Mistral", "[INST] {image}\n{question} [/INST]"),
    "moondream": ("moondream2", "{image}\n\nQuestion: {question}\n\nAnswer:"),
    "smolvlm": ("SmolVLM", "<|im_start|>User:{image}{question}<end_of_utterance>\nAssistant:"),
}
FAMILY_PROMPT["qwen2-vl"] = FAMILY_PROMPT["qwen2.5-vl"]


def expected_prompt(family: str, question: str) -> str | None:
    """The text `family`'s format gives one image and `question`; None for a family without a checked format."""
    entry = FAMILY_PROMPT.get(family.lower())
    if entry is None:
        return None
    return entry[1].format(image=MEDIA_MARKER, question=question, question_stripped=question.strip())


def prompt_problem(family: str, prompt: str | None, question: str) -> str | None:
    """Why `prompt` (what the model received for one image and `question`) is not `family`'s format; None
    when it is, or when the family has no checked format."""
    want = expected_prompt(family, question)
    if want is None or prompt == want:
        return None
    if prompt is None:
        return "no prompt reached the model"
    return f"its prompt is not {FAMILY_PROMPT[family.lower()][0]}'s format: got {prompt!r}, expected {want!r}"


def handler_class_name(family: str) -> str:
    """The llama_cpp.llama_chat_format class a family's handler is (or derives from)."""
    name = HANDLERS.get(family.lower(), "MTMDChatHandler")
    try:
        from llama_cpp import llama_chat_format
    except ImportError:
        return name
    if not hasattr(llama_chat_format, name):
        name = "Llava15ChatHandler"
    return name


def handler_class(family: str) -> type:
    """The llama_cpp chat handler class for a manifest family, with the model's own prompt format."""
    from llama_cpp import llama_chat_format

    cls = getattr(llama_chat_format, handler_class_name(family))
    ours = {
        ("qwen2.5-vl", "Qwen25VLChatHandler"): _qwen25_vl_handler,
        ("qwen2-vl", "Qwen25VLChatHandler"): _qwen25_vl_handler,
        ("llava-1.5", "Llava15ChatHandler"): _llava15_handler,
        ("llava-1.6", "Llava16ChatHandler"): _llava16_handler,
        ("smolvlm", "MTMDChatHandler"): _smolvlm_handler,
    }.get((family.lower(), cls.__name__))
    return ours(cls) if ours else cls


@functools.cache
def _qwen25_vl_handler(base: type) -> type:
    """llama-cpp-python's Qwen2.5-VL template ends with '<|im_start|>assistant\\n' as its last characters, and
    Jinja drops a template's final newline, so the prompt lacked the newline Qwen's own chat template puts
    after 'assistant'. A comment after it keeps it."""
    return type(
        "Qwen25VLTemplateHandler",
        (base,),
        {"CHAT_FORMAT": base.CHAT_FORMAT + "{# keeps the final newline #}"},
    )


# The user turn's images, each followed by a newline, then its text (llama-cpp-python replaces each image URL
# by the media marker). The newline is an expression: trim_blocks would eat a literal one after a tag.
_IMAGES_THEN_TEXT = (
    "{% if message.content is string %}{{ message.content }}{% else %}"
    "{% for content in message.content %}{% if content.type == 'image_url' %}"
    "{% if content.image_url is mapping %}{{ content.image_url.url }}{% else %}{{ content.image_url }}{% endif %}"
    "{{ '\\n' }}{% endif %}{% endfor %}"
    "{% for content in message.content %}{% if content.type == 'text' %}{{ content.text }}{% endif %}"
    "{% endfor %}{% endif %}"
)

# LLaVA 1.5's own prompt (haotian-liu/LLaVA, conversation.py: conv_llava_v1, SeparatorStyle.TWO):
# "{system} USER: <image>\n{question} ASSISTANT:", the image first and the question stripped. llama-cpp-python's
# Llava15ChatHandler wrote "{system}USER: <image>{question} ASSISTANT: " (its newlines trimmed away by
# trim_blocks): no spaces, no newline after the image.
LLAVA15_CHAT_FORMAT = (
    "{% for message in messages %}"
    "{% if message.role == 'system' %}{{ message.content }} {% endif %}"
    "{% if message.role == 'user' %}USER: "
    "{% if message.content is string %}{{ message.content | trim }}{% else %}"
    "{% for content in message.content %}{% if content.type == 'image_url' %}"
    "{% if content.image_url is mapping %}{{ content.image_url.url }}{% else %}{{ content.image_url }}{% endif %}"
    "{{ '\\n' }}{% endif %}{% endfor %}"
    "{% for content in message.content %}{% if content.type == 'text' %}{{ content.text | trim }}{% endif %}"
    "{% endfor %}{% endif %} {% endif %}"
    "{% if message.role == 'assistant' %}ASSISTANT: {{ message.content }}</s>{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}ASSISTANT:{% endif %}"
)

# LLaVA 1.6 Mistral: llava-hf/llava-v1.6-mistral-7b-hf's chat_template.json (a system message as
# "<<SYS>>\n…\n<</SYS>>\n\n", each user turn "[INST] " + "<image>\n" per image + its text + " [/INST]", an
# answer " …</s> "), which for one question is LLaVA's conv_mistral_instruct ("[INST] <image>\n{q} [/INST]").
LLAVA16_MISTRAL_CHAT_FORMAT = (
    "{% for message in messages %}"
    "{% if message.role == 'system' %}{{ '<<SYS>>\\n' }}"
    "{% if message.content is string %}{{ message.content }}{% else %}{{ message.content[0].text }}{% endif %}"
    "{{ '\\n<</SYS>>\\n\\n' }}"
    "{% elif message.role == 'user' %}[INST] " + _IMAGES_THEN_TEXT + " [/INST]"
    "{% elif message.role == 'assistant' %} {{ message.content }}</s> {% endif %}"
    "{% endfor %}"
)


@functools.cache
def _llava15_handler(base: type) -> type:
    return type("Llava15TemplateHandler", (base,), {"CHAT_FORMAT": LLAVA15_CHAT_FORMAT})


@functools.cache
def _llava16_handler(base: type) -> type:
    """No default system message: LLaVA 1.6 Mistral was trained without one."""
    return type(
        "Llava16MistralHandler",
        (base,),
        {"CHAT_FORMAT": LLAVA16_MISTRAL_CHAT_FORMAT, "DEFAULT_SYSTEM_MESSAGE": None},
    )


# HuggingFaceTB/SmolVLM-500M-Instruct's chat_template.json, its image written as the part's media marker (the
# model's own writes '<image>', which its processor expands; libmtmd expands the marker the same way).
SMOLVLM_CHAT_TEMPLATE = (
    "<|im_start|>{% for message in messages %}{{message['role'] | capitalize}}"
    "{% if message['content'][0]['type'] == 'image' %}{{':'}}{% else %}{{': '}}{% endif %}"
    "{% for line in message['content'] %}{% if line['type'] == 'text' %}{{line['text']}}"
    "{% elif line['type'] == 'image' %}{{ line['marker'] }}{% endif %}{% endfor %}<end_of_utterance>\n"
    "{% endfor %}{% if add_generation_prompt %}{{ 'Assistant:' }}{% endif %}"
)


@functools.cache
def _smolvlm_handler(base: type) -> type:
    """libmtmd's generic handler with SmolVLM's own template; an image stays an image part (carrying the
    marker) so the template writes 'User:' right before it, and plain text becomes a text part."""

    def get_chat_template(self, llama_model) -> str:
        return SMOLVLM_CHAT_TEMPLATE

    def convert_message(cls, message, media_marker: str) -> dict[str, Any]:
        message = dict(message)
        if isinstance(message.get("content"), str):
            message["content"] = [{"type": "text", "text": message["content"]}]
        return base._convert_message_for_template.__func__(cls, message, media_marker)

    def convert_part(part: Any, media_marker: str) -> Any:
        if isinstance(part, dict) and part.get("type") == "image_url":
            return {"type": "image", "marker": media_marker}
        return part

    return type(
        "SmolVLMTemplateHandler",
        (base,),
        {
            "_get_chat_template": get_chat_template,
            "_convert_message_for_template": classmethod(convert_message),
            "_convert_content_part_for_template": staticmethod(convert_part),
        },
    )


class PromptRecorder:
    """Stands where a handler's ``_mtmd_cpp`` (llama_cpp.mtmd_cpp) stands and keeps the text each request
    gives libmtmd to tokenise (`last`); everything else, tokenising included, is the wrapped library."""

    def __init__(self, mtmd: Any):
        self._mtmd = mtmd
        self.last: str | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._mtmd, name)

    def mtmd_tokenize(self, ctx, chunks, text_ref, bitmaps, n_bitmaps):
        self.last = (text_ref._obj.text or b"").decode("utf-8", errors="replace")  # byref(mtmd_input_text)
        return self._mtmd.mtmd_tokenize(ctx, chunks, text_ref, bitmaps, n_bitmaps)
