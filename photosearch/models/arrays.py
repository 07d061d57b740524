"""Array helpers every model shares (numpy only, so importing them costs nothing)."""

from __future__ import annotations

import numpy as np


def l2_normalize(v: np.ndarray, axis: int = -1) -> np.ndarray:
    """float32 rows of unit length along `axis`; an all-zero row stays zero."""
    v = np.asarray(v, dtype=np.float32)
    norm = np.linalg.norm(v, axis=axis, keepdims=True)
    return v / np.maximum(norm, 1e-12)
