"""The model manager as a person uses it: rows in plain words, Advanced for the jargon, Recommended
selects a set and says why, and download (progress, cancel), verify and remove through the loopback hub."""

from __future__ import annotations

import hashlib

import pytest
from PySide6.QtCore import Qt

from tests.hub.hub_fakes import FakeHub


@pytest.fixture
def hub(monkeypatch):
    fake = FakeHub().start()
    monkeypatch.setenv("HF_ENDPOINT", fake.url)
    monkeypatch.setenv("HF_HUB_DISABLE_TELEMETRY", "1")
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    yield fake
    fake.stop()


@pytest.fixture
def manager(qtbot, tmp_path):
    from photosearch.config import Settings
    from photosearch.gui.bridge import TaskRunner
    from photosearch.gui.models_view import ModelsView

    settings = Settings(data_dir=tmp_path / "data", threads=2, gpu=False)
    settings.ensure_dirs()
    runner = TaskRunner()
    errors: list = []
    made = []

    def make():
        view = ModelsView(settings, runner, errors.append)
        qtbot.addWidget(view)
        view.resize(780, 560)
        view.show()
        made.append(view)
        return view

    yield settings, make, errors
    runner.shutdown(5000)


def blob(n: int, seed: int) -> bytes:
    out, block = bytearray(), hashlib.sha256(str(seed).encode()).digest()
    while len(out) < n:
        block = hashlib.sha256(block).digest()
        out += block
    return bytes(out[:n])


def serve(hub: FakeHub, settings, name: str, size: int) -> bytes:
    """A small hub model on the loopback hub and its manifest in the user's manifest folder."""
    from tests.hub.conftest import write_manifest

    data = blob(size, len(name))
    hub.add_repo_file(f"acme/{name}", "visual/model.onnx", data)
    write_manifest(
        settings,
        {
            "name": name,
            "role": "clip",
            "tier": "hub",
            "family": "openclip",
            "licence": "MIT",
            "source": {"type": "hf", "repo": f"acme/{name}", "revision": "main"},
            "files": [
                {"path": "visual/model.onnx", "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
            ],
        },
    )
    return data


def cells(view, name: str) -> dict[str, str]:
    i = view.row_of(name)
    return {view.COLUMNS[j] or "check": view.table.item(i, j).text() for j in range(len(view.COLUMNS))}


def test_rows_say_what_each_model_does_and_costs_in_plain_words(manager):
    settings, make, errors = manager
    view = make()
    hub_rows = [r for r in view.rows if r.tier == "hub"]
    assert hub_rows and view.rows[: len(hub_rows)] == hub_rows, "the optional models come first"
    row = cells(view, "clip-vit-b-32-openai")
    assert row["Makes better"].startswith("Search by describing a photo in your own words")
    assert row["Download"] == "about 607.2 MB" and row["On disk"] == "—"
    assert row["Runs on"] == "processor" and row["Status"] == "Not downloaded"
    assert cells(view, "siglip2-vit-b-16")["Download"] == "size not listed"
    owl = cells(view, "owlv2-base-patch16")["Makes better"]
    assert "0.45 s" in owl, "a figure where the repository measured one"
    visible = " ".join(" ".join(cells(view, r.name).values()) for r in view.rows)
    assert "ExecutionProvider" not in visible and "hub" not in visible.split()

    view.select_name("clip-vit-b-32-openai")
    details = view.details.text()
    assert (
        "Downloaded once from Hugging Face (immich-app/ViT-B-32__openai); runs on this computer; your photos never leave it."
        in details
    )
    assert "runs on the processor" in details and "ExecutionProvider" not in details
    assert not view.advanced.isChecked() and not view.advanced_text.isVisible(), "jargon is folded away"
    view.advanced.setChecked(True)
    assert view.advanced_text.isVisible()
    assert "provider: CPUExecutionProvider" in view.advanced_text.text()
    assert "revision" in view.advanced_text.text() and "Checked by:" in view.advanced_text.text()
    assert not errors


def test_recommended_selects_a_set_for_this_computer_and_says_why(qtbot, manager):
    from photosearch.gui.models_view import recommendation_for

    settings, make, errors = manager
    view = make()
    assert view.checked_names() == []
    view.btn_recommend.click()
    qtbot.waitUntil(lambda: "This computer:" in view.recommend_note.text(), timeout=30000)
    _hw, rec = recommendation_for(settings)
    assert rec.names and view.checked_names() == [n for n in (r.name for r in view.rows) if n in rec.names]
    note = view.recommend_note.text()
    assert "GB of memory" in note and f"<b>Selected {len(rec.names)} to download</b>" in note
    assert all(reason.split(":")[0].split()[-1] in note for reason in rec.reasons)
    assert view.btn_pull.text() == f"Download selected ({len(rec.names)})" and view.btn_pull.isEnabled()
    assert not errors


def test_download_verify_remove_through_the_loopback_hub(qtbot, manager, hub):
    settings, make, errors = manager
    data = serve(hub, settings, "tiny-clip", 400_000)
    view = make()
    assert cells(view, "tiny-clip")["Download"] == "400.0 KB"
    i = view.row_of("tiny-clip")
    view.table.item(i, view.CHECK).setCheckState(Qt.CheckState.Checked)
    assert view.btn_pull.text() == "Download selected (1)"
    progress: list[int] = []
    view.progress.valueChanged.connect(progress.append)
    view.btn_pull.click()
    assert cells(view, "tiny-clip")["Status"] == "Downloading…" and view.btn_cancel.isEnabled()
    qtbot.waitUntil(
        lambda: view.task is None and cells(view, "tiny-clip")["Status"] == "Downloaded", timeout=30000
    )
    assert progress and max(progress) == 1000, "the bar moved to the end"
    assert view.status.text() == "tiny-clip: installed and verified"
    assert cells(view, "tiny-clip")["On disk"] == "400.0 KB" and view.checked_names() == []

    view.select_name("tiny-clip")
    assert view.btn_verify.isEnabled() and view.btn_remove.isEnabled()
    view.btn_verify.click()
    qtbot.waitUntil(lambda: view.task is None, timeout=30000)
    assert view.status.text() == "tiny-clip: intact (every file checked)"
    (settings.models_dir / "tiny-clip" / "visual" / "model.onnx").write_bytes(data[:-1] + b"X")
    view.btn_verify.click()
    qtbot.waitUntil(lambda: view.task is None, timeout=30000)
    assert view.status.text().startswith("tiny-clip: ") and "intact" not in view.status.text()

    view.btn_remove.click()
    qtbot.waitUntil(lambda: view.task is None, timeout=30000)
    assert view.status.text() == "tiny-clip: removed"
    assert cells(view, "tiny-clip")["Status"] == "Not downloaded"
    assert not (settings.models_dir / "tiny-clip").exists()
    assert not errors


def test_cancel_stops_the_download_and_the_rest_of_the_queue(qtbot, manager, hub):
    settings, make, errors = manager
    serve(hub, settings, "big-a", 8_000_000)
    serve(hub, settings, "big-b", 8_000_000)
    view = make()
    view.set_checked(["big-a", "big-b"])
    view.btn_pull.click()
    assert view.downloading == "big-a" and view.queue == ["big-b"]
    assert cells(view, "big-b")["Status"] == "Waiting to download"
    view.btn_cancel.click()
    qtbot.waitUntil(lambda: view.task is None, timeout=30000)
    assert view.status.text() == "Downloading big-a: cancelled"
    assert view.queue == [] and cells(view, "big-a")["Status"] == "Not downloaded"
    assert cells(view, "big-b")["Status"] == "Not downloaded"
    assert not (settings.models_dir / "big-a").exists() and not (settings.models_dir / "big-b").exists()
    assert not errors
