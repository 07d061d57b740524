"""`photosearch models pull/remove` end to end against the fake hub."""

from __future__ import annotations

import hashlib
import json

import pytest

from photosearch.cli import main
from tests.hub.conftest import write_manifest


@pytest.fixture
def cli_settings(settings, fake_hub, monkeypatch):
    monkeypatch.setenv("PHOTOSEARCH_DATA_DIR", str(settings.data_dir))
    data = b"weights" * 1000
    fake_hub.add_repo_file("acme/cli", "m.onnx", data)
    write_manifest(
        settings,
        {
            "name": "cli-model",
            "role": "detector",
            "tier": "hub",
            "runtime": "onnx",
            "licence": "test",
            "source": {"repo": "acme/cli"},
            "files": [{"path": "m.onnx", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}],
        },
    )
    return settings


def test_cli_pull_then_remove(cli_settings, capsys):
    assert main(["--data-dir", str(cli_settings.data_dir), "models", "pull", "cli-model", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "cli-model" and out["downloaded_bytes"] == 7000
    assert out["provider"] == "CPUExecutionProvider"
    assert (cli_settings.models_dir / "cli-model" / "m.onnx").is_file()
    assert main(["--data-dir", str(cli_settings.data_dir), "models", "pull", "cli-model"]) == 0
    assert "already installed" in capsys.readouterr().out
    assert main(["--data-dir", str(cli_settings.data_dir), "models", "remove", "cli-model"]) == 0
    assert not (cli_settings.models_dir / "cli-model").exists()
    assert main(["--data-dir", str(cli_settings.data_dir), "models", "remove", "cli-model"]) == 1


def test_cli_unknown_model_is_a_clear_error(cli_settings, capsys):
    assert main(["--data-dir", str(cli_settings.data_dir), "models", "pull", "no-such-model"]) == 1
    err = capsys.readouterr().err
    assert "no hub model called 'no-such-model'" in err and "cli-model" in err


def test_models_list_says_in_plain_words_which_models_are_verified(tmp_path, capsys):
    assert main(["--data-dir", str(tmp_path), "--json", "models", "list"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)["models"]}
    assert rows["qwen2.5-vl-3b"]["integrity"] == "verified"  # public pins, revision pinned to a commit
    assert rows["qwen2.5-vl-3b"]["source"]["revision"] == "5037fcf163dd95d1e41d1974465f0898ed108ca2"
    assert rows["qwen2.5-1.5b-instruct"]["integrity"] == "verified"
    assert rows["llava-1.5-7b"]["integrity"] == "verified"
    assert rows["llava-1.6-mistral-7b"]["integrity"] == "verified"
    assert rows["moondream2"]["integrity"] == "verified"
    assert rows["clip-vit-b-32-openai"]["integrity"] == "partly verified"  # its config.json is pinned
    assert rows["smolvlm-500m"]["integrity"] == "not verified"
    assert rows["clip-vit-b-32-openai"]["download_size"] == "about 607.2 MB"
    why = {f["path"]: f["reason"] for f in rows["clip-vit-b-32-openai"]["not_verified"]}
    assert (
        "config.json" not in why and "visual/model.onnx" in why and "no checksum" in why["visual/model.onnx"]
    )
    assert all(r["integrity"] == "verified" for r in rows.values() if r["tier"] == "bundled")
    assert main(["--data-dir", str(tmp_path), "models", "list"]) == 0
    text = capsys.readouterr().out
    assert "CHECKED BY" in text.splitlines()[0] and "not verified" in text
    assert "about 607.2 MB" in text  # the download size, before a pull
