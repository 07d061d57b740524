"""How a photo is cut into the views the classifiers read (`preprocess.views`)."""

from __future__ import annotations

import numpy as np
import pytest

from photosearch.vision.preprocess import PART_ASPECT, combine_views, views


def _strip(h: int, w: int) -> np.ndarray:
    """Each column (or row) numbered, so a view says which part of the photo it is."""
    cols = np.broadcast_to(np.arange(w, dtype=np.int32)[None, :], (h, w))
    rows = np.broadcast_to(np.arange(h, dtype=np.int32)[:, None], (h, w))
    return np.stack([cols, rows, np.zeros_like(cols)], axis=-1)


@pytest.mark.parametrize("size", [(1080, 1920), (360, 720), (1000, 1000), (1920, 1080), (5, 3)])
def test_an_ordinary_photo_is_one_view(size):
    rgb = _strip(*size)
    (only,) = views(rgb)
    assert only is rgb


@pytest.mark.parametrize("size", [(298, 1920), (500, 1200), (1500, 400)])
def test_a_panorama_is_read_whole_and_in_overlapping_parts_that_cover_it(size):
    rgb = _strip(*size)
    whole, *parts = views(rgb)
    assert whole is rgb and len(parts) >= 2
    wide = size[1] >= size[0]
    channel, short = (0, size[0]) if wide else (1, size[1])  # the column or row number
    spans = [(int(p[..., channel].min()), int(p[..., channel].max())) for p in parts]
    assert spans[0][0] == 0 and spans[-1][1] == max(size) - 1
    assert all(a[1] >= b[0] for a, b in zip(spans, spans[1:], strict=False))  # no gap between parts
    for p in parts:
        assert min(p.shape[:2]) == short
        assert max(p.shape[:2]) / short == pytest.approx(PART_ASPECT, abs=0.01)


def test_views_combine_at_each_class_s_strongest():
    one, two = np.array([0.7, 0.2, 0.1], np.float32), np.array([0.1, 0.1, 0.8], np.float32)
    assert combine_views([one]) is one
    assert combine_views([one, two]).tolist() == pytest.approx([0.7, 0.2, 0.8])
