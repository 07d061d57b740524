"""Pull / resume / verify / remove against the local fake hub."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from photosearch.errors import Cancelled
from photosearch.hub import (
    DownloadError,
    VerifyError,
    install_record,
    installed_models,
    pull_model,
    remove_model,
    verify_model,
)
from photosearch.models.manifest import ManifestError, hub_manifests, parse_listed_size
from tests.hub.conftest import write_manifest


def _blob(n: int, seed: int = 1) -> bytes:
    out = bytearray()
    block = hashlib.sha256(str(seed).encode()).digest()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block
    return bytes(out[:n])


def _hf_manifest(name, repo, files, sha=True):
    return {
        "name": name,
        "role": "clip",
        "tier": "hub",
        "family": "openclip",
        "source": {"type": "hf", "repo": repo, "revision": "main"},
        "files": [
            {"path": p, "sha256": hashlib.sha256(d).hexdigest() if sha else None, "size": len(d)}
            for p, d in files.items()
        ],
    }


def test_pull_hf_repo_installs_verified_files_and_reports_progress(fake_hub, settings):
    files = {"visual/model.onnx": _blob(300_000), "textual/tokenizer.json": b'{"x": 1}'}
    for p, d in files.items():
        fake_hub.add_repo_file("acme/tiny", p, d)
    write_manifest(settings, _hf_manifest("tiny", "acme/tiny", files))
    seen = []
    report = pull_model(settings, "tiny", progress=lambda done, total, msg: seen.append((done, total, msg)))
    root = settings.models_dir / "tiny"
    for p, d in files.items():
        assert (root / p).read_bytes() == d
    assert "tiny" in installed_models(settings)
    assert report.downloaded_bytes == sum(len(d) for d in files.values())
    assert seen and seen[-1][0] == seen[-1][1] == sum(len(d) for d in files.values())
    assert any(m == "visual/model.onnx" for _, _, m in seen)
    assert verify_model(settings, "tiny") == []
    assert not (settings.models_dir / ".partial").exists()
    assert not (root / ".cache").exists()
    # the requests went through the HF resolve endpoint named by HF_ENDPOINT
    assert fake_hub.gets("/acme/tiny/resolve/main/visual/model.onnx")
    # a second pull is a no-op
    n = len(fake_hub.log)
    again = pull_model(settings, "tiny")
    assert again.already_present and len(fake_hub.log) == n


def test_interrupted_hf_download_resumes_with_range(fake_hub, settings, monkeypatch):
    # huggingface-hub writes in DOWNLOAD_CHUNK_SIZE (10 MB) pieces; a smaller size lets a 2 MB test file
    # be cut mid-way with bytes already on disk, as happens with real multi-GB weights.
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "DOWNLOAD_CHUNK_SIZE", 64 * 1024)
    data = _blob(2_000_000, seed=7)
    fake_hub.add_repo_file("acme/big", "textual/model.onnx", data)
    fake_hub.cut_after["textual/model.onnx"] = 700_000
    write_manifest(settings, _hf_manifest("big", "acme/big", {"textual/model.onnx": data}))
    try:
        pull_model(settings, "big")
    except DownloadError:
        pull_model(settings, "big")  # a second run resumes from the .incomplete file
    assert (settings.models_dir / "big" / "textual/model.onnx").read_bytes() == data
    ranged = [rng for _, _, rng in fake_hub.gets("textual/model.onnx") if rng]
    assert ranged and ranged[0].startswith("bytes=") and int(ranged[0][6:].split("-")[0]) > 0


def test_interrupted_url_download_keeps_part_and_resumes(fake_hub, settings, monkeypatch):
    data = _blob(1_500_000, seed=3)
    fake_hub.plain["m/weights.gguf"] = data
    fake_hub.cut_after["m/weights.gguf"] = 400_000
    manifest = {
        "name": "urlmodel",
        "role": "llm",
        "source": {"type": "url", "base_url": fake_hub.url + "/files/m/"},
        "files": [{"path": "weights.gguf", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}],
    }
    write_manifest(settings, manifest)
    # First run: the connection drops and reconnects are disabled, so the pull fails and keeps the .part.
    import photosearch.hub.download as dl

    monkeypatch.setattr(dl, "RETRIES", 0)
    with pytest.raises(DownloadError, match="resume"):
        pull_model(settings, "urlmodel")
    part = settings.models_dir / ".partial" / "urlmodel" / "weights.gguf.part"
    kept = part.stat().st_size
    assert 0 < kept <= 400_000
    assert not (settings.models_dir / "urlmodel").exists()
    pull_model(settings, "urlmodel")
    assert (settings.models_dir / "urlmodel" / "weights.gguf").read_bytes() == data
    assert fake_hub.gets("weights.gguf")[-1][2] == f"bytes={kept}-"
    assert not part.exists()


def test_dropped_url_connection_reconnects_within_one_pull(fake_hub, settings):
    data = _blob(600_000, seed=4)
    fake_hub.plain["r/w.onnx"] = data
    fake_hub.cut_after["r/w.onnx"] = 250_000
    write_manifest(
        settings,
        {
            "name": "reconnect",
            "role": "detector",
            "source": {"type": "url", "base_url": fake_hub.url + "/files/r/"},
            "files": [{"path": "w.onnx", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}],
        },
    )
    pull_model(settings, "reconnect")
    assert (settings.models_dir / "reconnect" / "w.onnx").read_bytes() == data
    assert [rng for _, _, rng in fake_hub.gets("w.onnx")][0] is None
    assert [rng for _, _, rng in fake_hub.gets("w.onnx")][-1].startswith("bytes=")


def test_sha256_mismatch_is_rejected_and_nothing_installed(fake_hub, settings):
    good, bad = _blob(50_000, 1), _blob(50_000, 2)
    fake_hub.add_repo_file("acme/evil", "visual/model.onnx", bad)
    m = _hf_manifest("evil", "acme/evil", {"visual/model.onnx": good})
    write_manifest(settings, m)
    with pytest.raises(VerifyError, match="sha256"):
        pull_model(settings, "evil")
    assert not (settings.models_dir / "evil").exists()
    assert not (settings.models_dir / ".partial" / "evil" / "visual" / "model.onnx").exists()
    assert "evil" not in installed_models(settings)


def test_a_file_of_another_size_is_refused_and_named(fake_hub, settings):
    data = _blob(20_000, 3)
    fake_hub.add_repo_file("acme/resized", "textual/model.onnx", data)
    m = _hf_manifest("resized", "acme/resized", {"textual/model.onnx": data})
    m["files"][0]["size"] = len(data) + 1
    write_manifest(settings, m)
    with pytest.raises(VerifyError, match=r"textual/model.onnx is 20000 bytes, the manifest says 20001"):
        pull_model(settings, "resized")
    assert "resized" not in installed_models(settings)


def test_trust_on_first_use_records_digest_and_detects_tampering(fake_hub, settings):
    data = _blob(10_000, 5)
    fake_hub.add_repo_file("acme/tofu", "visual/model.onnx", data)
    write_manifest(settings, _hf_manifest("tofu", "acme/tofu", {"visual/model.onnx": data}, sha=False))
    report = pull_model(settings, "tofu")
    assert report.not_verified == [("visual/model.onnx", "no checksum is published for this file")]
    rec = install_record(settings, "tofu")
    assert rec["files"][0]["sha256"] == hashlib.sha256(data).hexdigest()
    target = settings.models_dir / "tofu" / "visual" / "model.onnx"
    target.write_bytes(b"x" + data[1:])  # same size, different bytes
    assert any("sha256" in p for p in verify_model(settings, "tofu"))


def test_offline_pull_gives_clear_error_and_no_final_file(settings, monkeypatch):
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens on the discard port
    write_manifest(settings, _hf_manifest("off", "acme/off", {"visual/model.onnx": b"abc"}))
    with pytest.raises(DownloadError, match="cannot reach|failed"):
        pull_model(settings, "off")
    assert not (settings.models_dir / "off").exists()


def test_missing_file_on_hub_is_reported(fake_hub, settings):
    fake_hub.add_repo_file("acme/half", "a.onnx", b"a")
    write_manifest(settings, _hf_manifest("half", "acme/half", {"a.onnx": b"a", "b.onnx": b"b"}))
    with pytest.raises(DownloadError, match="b.onnx"):
        pull_model(settings, "half")
    assert not (settings.models_dir / "half").exists()


def test_cancel_stops_pull_and_installs_nothing(fake_hub, settings):
    data = _blob(300_000, 9)
    fake_hub.plain["c/w.bin"] = data
    write_manifest(
        settings,
        {
            "name": "cancelme",
            "role": "llm",
            "source": {"type": "url", "base_url": fake_hub.url + "/files/c/"},
            "files": [{"path": "w.bin", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}],
        },
    )
    with pytest.raises(Cancelled):
        pull_model(settings, "cancelme", cancel=lambda: True)
    assert not (settings.models_dir / "cancelme").exists()


def test_remove_deletes_model_and_partials(fake_hub, settings):
    fake_hub.add_repo_file("acme/rm", "f.onnx", b"123")
    write_manifest(settings, _hf_manifest("rm", "acme/rm", {"f.onnx": b"123"}))
    pull_model(settings, "rm")
    assert remove_model(settings, "rm") is True
    assert not (settings.models_dir / "rm").exists()
    assert "rm" not in installed_models(settings)
    assert remove_model(settings, "rm") is False
    with pytest.raises(Exception, match="bad model name"):
        remove_model(settings, "../etc")


def test_builtin_manifests_are_valid(settings):
    manifests = hub_manifests(settings)
    roles = {m.role for m in manifests.values()}
    assert {"clip", "vlm", "detector", "llm"} <= roles
    clip_repos = {m.source.get("repo") for m in manifests.values() if m.role == "clip"}
    assert "immich-app/ViT-B-32__openai" in clip_repos
    assert "immich-app/ViT-B-32__laion2b-s34b-b79k" in clip_repos
    assert any("SigLIP2" in (r or "") for r in clip_repos)
    assert any(r and ("XLM-Roberta" in r or "nllb" in r) for r in clip_repos)
    for m in manifests.values():
        assert m.licence, m.name


COMMIT = re.compile(r"^[0-9a-f]{40}$")


def test_every_shipped_hub_manifest_is_pinned_or_says_why():
    """Each file has the sha256 from the hub's public listing or a plain reason it has none; the
    repository is named at a commit or says why not; a pinned file says where its digest was read
    (the two pins that predate this rule are known by name)."""
    from photosearch.models.manifest import BUNDLED_MANIFEST_DIR, load_manifests

    manifests = load_manifests(None, [BUNDLED_MANIFEST_DIR / "hub"], strict=True)
    assert len(manifests) >= 12
    for m in manifests.values():
        rev = str(m.source.get("revision") or "")
        assert COMMIT.match(rev) or m.source.get("revision_note"), (
            f"{m.name}: revision {rev!r} without a reason"
        )
        for f in m.files:
            if f.sha256 is None:
                assert f.unverified and len(f.unverified) > 20, (
                    f"{m.name}: {f.path} has no sha256 and no reason"
                )
            else:
                assert f.unverified is None, f"{m.name}: {f.path} is pinned and says it is not"
                assert f.pinned_from or m.name == "qwen2.5-vl-3b", f"{m.name}: {f.path}: where was it read?"
            if f.size is None and f.size_listed is not None:
                assert parse_listed_size(f.size_listed), f"{m.name}: {f.path}: size_listed {f.size_listed!r}"


def test_download_size_is_known_before_a_pull(settings):
    """Exact where every size is pinned, else the sum of the sizes the hub's pages list, marked 'about'."""
    from photosearch.model_status import download_size
    from photosearch.models.manifest import get_manifest

    assert download_size(get_manifest("qwen2.5-1.5b-instruct", settings)) == "1.1 GB"
    assert download_size(get_manifest("clip-vit-b-32-openai", settings)) == "about 607.2 MB"
    assert parse_listed_size("2.22 MB") == 2_220_000 and parse_listed_size("197 Bytes") == 197
    assert parse_listed_size("big") is None


def test_malformed_manifest_names_the_file(settings):
    d = settings.models_dir / "manifests"
    d.mkdir(parents=True, exist_ok=True)
    (d / "broken.json").write_text(
        json.dumps(
            {
                "name": "broken",
                "role": "clip",
                "files": [{"path": "../x"}],
                "source": {"type": "hf", "repo": "a/b"},
            }
        )
    )
    with pytest.raises(ManifestError, match="broken.json"):
        hub_manifests(settings)


def test_a_folder_is_pulled_whole_with_every_external_data_file(fake_hub, settings):
    """The XLM-R CLIP export keeps its text tower as many per-tensor external-data files in textual/ (no
    model.onnx_data): a fixed file list "succeeded" and left a text model that cannot load."""
    named = {"visual/model.onnx": _blob(2_000, 1), "textual/tokenizer.json": b'{"t": 1}'}
    tensors = {f"textual/onnx__MatMul_{i}": _blob(500 + i, i + 10) for i in range(40)}
    tensors["textual/model.onnx"] = _blob(3_000, 99)
    tensors["textual/deep/embeddings.weight"] = _blob(700, 98)
    for p, d in {**named, **tensors, "unrelated/readme.md": b"not pulled"}.items():
        fake_hub.add_repo_file("acme/xlmr", p, d)
    manifest = _hf_manifest("xlmr", "acme/xlmr", named) | {"folders": ["textual"]}
    write_manifest(settings, manifest)
    report = pull_model(settings, "xlmr")
    root = settings.models_dir / "xlmr"
    for p, d in {**named, **tensors}.items():
        assert (root / p).read_bytes() == d, p
    assert not (root / "unrelated").exists()
    assert report.downloaded_bytes == sum(len(d) for d in {**named, **tensors}.values())
    assert {f["path"] for f in install_record(settings, "xlmr")["files"]} == set(named) | set(tensors)
    assert verify_model(settings, "xlmr") == []
    (root / "textual" / "onnx__MatMul_7").unlink()  # a lost tensor file is seen, not ignored
    assert verify_model(settings, "xlmr") == ["textual/onnx__MatMul_7: missing"]


def test_a_folder_the_hub_does_not_have_is_a_clear_error(fake_hub, settings):
    fake_hub.add_repo_file("acme/nofolder", "visual/model.onnx", b"x")
    write_manifest(
        settings,
        _hf_manifest("nofolder", "acme/nofolder", {"visual/model.onnx": b"x"}) | {"folders": ["textual"]},
    )
    with pytest.raises(DownloadError, match="lists no files under textual/"):
        pull_model(settings, "nofolder")
    assert "nofolder" not in installed_models(settings)
