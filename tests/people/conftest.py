"""The people tests use the real face fixtures of the vision tests."""

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
