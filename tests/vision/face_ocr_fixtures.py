"""Fixtures for OCR, faces and people (imported by tests/vision and tests/people conftests): real models loaded once per session, small real photos."""

from __future__ import annotations

import numpy as np
import pytest

import photosearch  # noqa: F401  (sets ORT_DISABLE_TELEMETRY before onnxruntime loads)
from photosearch.catalog.store import Store
from photosearch.config import Settings
from photosearch.records import AnalysisResult
from tests.vision.helpers import photo_image, resize


@pytest.fixture(scope="session")
def model_settings() -> Settings:
    return Settings(threads=2, gpu=False)


@pytest.fixture(scope="session")
def astronaut() -> np.ndarray:
    from skimage import data

    return data.astronaut()


@pytest.fixture(scope="session")
def grace() -> np.ndarray:
    from matplotlib import cbook
    from PIL import Image

    with cbook.get_sample_data("grace_hopper.jpg") as fh:
        return np.asarray(Image.open(fh).convert("RGB"))


@pytest.fixture(scope="session")
def ocr(model_settings):
    from photosearch.vision.ocr import OcrAnalyzer

    analyzer = OcrAnalyzer(model_settings)
    analyzer.load()
    yield analyzer
    analyzer.close()


@pytest.fixture(scope="session")
def faces(model_settings):
    from photosearch.vision.faces import FaceAnalyzer

    analyzer = FaceAnalyzer(model_settings)
    analyzer.load()
    yield analyzer
    analyzer.close()


@pytest.fixture(scope="session")
def face_variants(astronaut, grace) -> dict[str, np.ndarray]:
    """Two views of the astronaut's face and two of Grace Hopper's (crops, a mirror, resizes)."""
    return {
        "astronaut": astronaut,
        "astronaut_mirror": resize(np.ascontiguousarray(astronaut[:300, 60:420][:, ::-1]), 720, 600),
        "grace": grace,
        "grace_crop": resize(grace[30:450, 40:480], 660, 630),
    }


@pytest.fixture(scope="session")
def face_results(faces, face_variants) -> dict[str, AnalysisResult]:
    return {
        name: faces.analyze(photo_image(rgb, i + 1, name))
        for i, (name, rgb) in enumerate(face_variants.items())
    }


@pytest.fixture
def store(tmp_path) -> Store:
    s = Store("sqlite:///" + str(tmp_path / "c.db"))
    yield s
    s.close()
