"""Writes small but valid DNG files (tifffile) for the RAW tests: an RGGB Bayer mosaic, 12-bit,
optionally with an 8-bit RGB preview in IFD0 (the raw image then lives in a SubIFD, as cameras do)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import tifffile

_DNG_TAGS = [
    (50706, "B", 4, (1, 4, 0, 0), True),  # DNGVersion
    (50707, "B", 4, (1, 1, 0, 0), True),  # DNGBackwardVersion
    (50708, "s", 0, "PhotoSearch Test Camera", True),  # UniqueCameraModel
    (50721, "2i", 9, (1, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 1, 0, 1, 0, 1, 1, 1), True),  # ColorMatrix1 = I
    (50778, "H", 1, (21,), True),  # CalibrationIlluminant1: D65
    (50728, "2I", 3, (1, 1, 1, 1, 1, 1), True),  # AsShotNeutral
]
_CFA_TAGS = [
    (33421, "H", 2, (2, 2), True),  # CFARepeatPatternDim
    (33422, "B", 4, (0, 1, 1, 2), True),  # CFAPattern: R G / G B
    (50717, "I", 1, (4095,), True),  # WhiteLevel
]


def write_dng(path: Path, rgb: np.ndarray, preview: np.ndarray | None = None) -> Path:
    h, w = rgb.shape[0] - rgb.shape[0] % 2, rgb.shape[1] - rgb.shape[1] % 2
    v = rgb[:h, :w].astype(np.uint16) * 16  # 8 -> 12 bit
    cfa = np.empty((h, w), np.uint16)
    cfa[0::2, 0::2], cfa[0::2, 1::2] = v[0::2, 0::2, 0], v[0::2, 1::2, 1]
    cfa[1::2, 0::2], cfa[1::2, 1::2] = v[1::2, 0::2, 1], v[1::2, 1::2, 2]
    with tifffile.TiffWriter(path) as tw:
        if preview is not None:
            tw.write(
                np.ascontiguousarray(preview),
                photometric="rgb",
                subfiletype=1,
                subifds=1,
                extratags=_DNG_TAGS,
                metadata=None,
            )
            tw.write(cfa, photometric=32803, subfiletype=0, extratags=_CFA_TAGS, metadata=None)
        else:
            tw.write(cfa, photometric=32803, subfiletype=0, extratags=_DNG_TAGS + _CFA_TAGS, metadata=None)
    return Path(path)
