"""Fixtures for the hub area: a fake hub on loopback, isolated settings, tiny generated models."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

import photosearch  # noqa: F401  (sets ORT/HF telemetry env before onnxruntime / huggingface_hub)
from photosearch.config import Settings
from tests.hub.hub_fakes import FakeHub


@pytest.fixture
def fake_hub(monkeypatch):
    hub = FakeHub().start()
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    yield hub
    hub.stop()


@pytest.fixture
def settings(tmp_path) -> Settings:
    s = Settings(data_dir=tmp_path / "data", threads=2, gpu=False)
    s.ensure_dirs()
    return s


def write_manifest(settings: Settings, manifest: dict) -> Path:
    d = settings.models_dir / "manifests"
    d.mkdir(parents=True, exist_ok=True)
    p = d / f"{manifest['name']}.json"
    p.write_text(json.dumps(manifest), encoding="utf-8")
    return p


def pull_tiny_owl(hub: FakeHub, settings: Settings, name: str, size: int = 64) -> None:
    """Serve a tiny OWLv2 export in the Xenova layout (model under onnx/), write its manifest, pull it."""
    from photosearch.hub import pull_model
    from tests.hub import tiny_models

    files = tiny_models.owl_repo_files(size)
    remote = {p: "onnx/model_quantized.onnx" if p == "model.onnx" else p for p in files}
    for p, d in files.items():
        hub.add_repo_file("Xenova/tiny-owl", remote[p], d)
    write_manifest(
        settings,
        {
            "name": name,
            "role": "detector",
            "tier": "hub",
            "runtime": "onnx",
            "family": "owlv2",
            "licence": "test",
            "source": {"repo": "Xenova/tiny-owl"},
            "files": [
                {
                    "path": p,
                    "remote": remote[p] if remote[p] != p else None,
                    "sha256": hashlib.sha256(d).hexdigest(),
                    "size": len(d),
                }
                for p, d in files.items()
            ],
            "preprocess": {"threshold": 0.5},
        },
    )
    pull_model(settings, name)
