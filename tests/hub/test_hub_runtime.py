"""Provider reporting for `models list` and the LLM choice."""

from __future__ import annotations

import hashlib

from photosearch.hub import get_manifest, llama_gpu_layers, provider_for, pull_model
from photosearch.hub.runtime import llama_gpu_offload
from photosearch.vision.llm_models import best_llm_path, hub_llm_path
from tests.hub.conftest import write_manifest


def test_provider_for_onnx_and_gguf(settings):
    clip = get_manifest(settings, "clip-vit-b-32-openai")
    llm = get_manifest(settings, "qwen2.5-1.5b-instruct")
    onnx_p = provider_for(clip, settings)
    assert onnx_p in {"CPUExecutionProvider", "CUDAExecutionProvider"}
    settings.gpu = False
    assert provider_for(clip, settings) == "CPUExecutionProvider"
    assert provider_for(llm, settings) in {"llama.cpp CPU", "llama.cpp not installed (pip install llama-cpp-python)"}
    assert llama_gpu_layers(settings) == 0
    settings.gpu = True
    expected = "llama.cpp GPU (all layers)" if llama_gpu_offload() else "llama.cpp CPU"
    if llama_gpu_offload() is not None:
        assert provider_for(llm, settings) == expected
        assert llama_gpu_layers(settings) == (-1 if llama_gpu_offload() else 0)
    # dict manifests (e.g. from the shared loader) work too
    assert provider_for({"runtime": "gguf", "options": {"gpu_layers": 20}}, settings).startswith("llama.cpp")


def test_hub_llm_preferred_when_pulled(fake_hub, settings):
    assert hub_llm_path(settings) is None
    assert best_llm_path(settings)[0] == "gemma3-270m"
    blob = b"GGUF" + b"\0" * 100
    fake_hub.add_repo_file("acme/llm", "tiny.gguf", blob)
    write_manifest(settings, {"name": "tiny-llm", "role": "llm", "tier": "hub", "runtime": "gguf", "licence": "x",
                              "source": {"repo": "acme/llm"}, "options": {"n_ctx": 1024},
                              "files": [{"key": "model", "path": "tiny.gguf",
                                         "sha256": hashlib.sha256(blob).hexdigest(), "size": len(blob)}]})
    pull_model(settings, "tiny-llm")
    name, path, opts = best_llm_path(settings)
    assert name == "tiny-llm" and path.read_bytes() == blob and opts["n_ctx"] == 1024
