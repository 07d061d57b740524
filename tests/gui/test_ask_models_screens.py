"""The Ask panel and the model manager as rendered at 800x600, read back with the bundled text reader:
the PNGs say what a person should see, not just that something was drawn."""

from __future__ import annotations

import numpy as np
from PIL import Image

from tests.required import require


def read_png(path) -> list[str]:
    from photosearch.config import Settings
    from photosearch.vision.ocr import OcrModel, to_bgr

    model = OcrModel(Settings())
    rgb = np.asarray(Image.open(path).convert("RGB"))
    return [" ".join(text.split()) for _quad, text, _score in model.predict(to_bgr(rgb))]


def test_ask_and_models_pngs_show_the_answer_and_the_choices(qtbot, tmp_path):
    from photosearch.gui.screenshots import take_screenshots

    require("rapidocr_onnxruntime")
    shots = take_screenshots(tmp_path / "shots", tmp_path / "work", size=(800, 600))
    assert Image.open(shots["ask"]).size == (800, 600)

    ask = read_png(shots["ask"])
    text = " ".join(ask)
    assert "Ask about astronaut.jpg" in ask, ask
    assert "Eileen Collins is in the photo." in text, ask  # the answer, in sentences
    assert "Most likely an astronaut" in text, ask  # the tagger's candidate with its confidence
    assert any(line.startswith("Looking at the regions") for line in ask), ask  # the steps it took
    assert "Working" not in text and "Stopped" not in text, ask

    models = read_png(shots["models"])
    text = " ".join(models)
    assert "Recommended for this computer" in models, models
    assert "Selected" in text and "This computer:" in text, models  # the choice and why
    assert "Makes better" in text and "Download" in text and "processor" in text, models
    assert "your photos never" in text, models  # the privacy line
    assert "ExecutionProvider" not in text, models
