"""Fixtures for the hub area: a fake hub on loopback, isolated settings, tiny generated models."""

from __future__ import annotations

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
