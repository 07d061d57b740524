"""The OCR text gate on text-bearing photos (the real bundled detector): it must not skip a photo
with clear text — a single word filling the frame, small words on a plain board, low contrast,
real street signs and document pages — while text-free photos still skip the OCR."""

from __future__ import annotations

import pytest

from benchmarks.ocr_gate import OPENCV, REAL_TEXT, _photos, sign, text_set
from photosearch.vision.ocr import to_bgr
from tests.required import require_file

pytestmark = pytest.mark.slow


def test_gate_recall_on_text_bearing_photos(ocr):
    for rel in REAL_TEXT:  # the real street signs and pages (Debian opencv-doc, a dev-extra package)
        require_file(OPENCV / rel, "opencv-doc")
    decisions = [(name, ocr.decide(to_bgr(rgb))) for name, rgb in text_set()]
    assert {f"opencv {rel}" for rel in REAL_TEXT} <= {name for name, _ in decisions}
    missed = [f"{name}: {d.reason}" for name, d in decisions if not d.run]
    recall = 1 - len(missed) / len(decisions)
    assert len(decisions) >= 50 and recall >= 0.98, missed


def test_one_large_word_and_one_small_word_both_reach_ocr(ocr):
    for share in (0.04, 0.9):
        d = ocr.decide(
            to_bgr(sign("EXIT", "DejaVuSans-Bold.ttf", ((250, 250, 245), (20, 20, 20)), (640, 480), share))
        )
        assert d.run, (share, d)


def test_text_free_photos_still_skip_ocr(ocr):
    runs = [name for name, rgb in _photos().items() if ocr.decide(to_bgr(rgb)).run]
    assert runs == []
