"""Photo attributes measured from pixels: black and white (monochrome), light (bright, dark, night),
palette (sepia, sunset), white scenes and the sky's share of the top of the frame.

The quality analyzer writes each attribute that holds as an `attribute` fact (label, score = its
degree 0..1, data = the measures), so a request word matches it like any fact ("dark", "sunset",
"sky"), `not` excludes it and `why` shows it; scene words reach them through `resources/scenes.yaml`
("snow" ≈ white scene, "night sky" ≈ night + sky). Thresholds were set by hand on the bundled test
photos and rendered scenes (tests/vision/test_attributes.py), not calibrated on a labelled set.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: The attribute labels the analyzer writes.
ATTRIBUTES = ("monochrome", "bright", "dark", "night", "sepia", "sunset", "white scene", "sky")

#: Monochrome (black and white, greyscale): at most this share of coloured pixels.
MONOCHROME_COLOURED = 0.02
#: Mean brightness (HSV value, 0..1) from which a photo is bright, and under which it is dark / night.
BRIGHT_FROM = 0.62
DARK_UNDER = 0.3
NIGHT_UNDER = 0.22
#: Night: at least this share of nearly black pixels.
NIGHT_BLACK_SHARE = 0.5
#: Sepia: weakly saturated, and its tinted pixels' hues in the brown-orange band.
SEPIA_MAX_SATURATION = 0.55
SEPIA_HUE_SHARE = 0.9
#: Sunset: this share of the top half in warm, saturated, lit hues, the top this much brighter.
SUNSET_SHARE = 0.25
SUNSET_LIT = 0.1
#: A white scene (snow, a white beach, fog): this share of bright, unsaturated pixels.
WHITE_SHARE = 0.45
#: Sky: this share of the top third in sky blue (overcast skies are not told from white walls).
SKY_SHARE = 0.35


@dataclass(frozen=True)
class Attribute:
    label: str
    degree: float
    data: dict


def measure(rgb: np.ndarray) -> list[Attribute]:
    """The attributes that hold for an RGB uint8 photo (a small copy is enough: 64-512 px)."""
    hsv = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2HSV)
    h = hsv[..., 0].astype(np.int16)
    s = hsv[..., 1].astype(np.float32) / 255.0
    v = hsv[..., 2].astype(np.float32) / 255.0
    out: list[Attribute] = []
    coloured = float(((s > 0.2) & (v > 0.2)).mean())
    if coloured <= MONOCHROME_COLOURED:
        degree = _degree(-coloured, -MONOCHROME_COLOURED, 0.0)
        out.append(Attribute("monochrome", degree, {"coloured": round(coloured, 4)}))
    light = float(v.mean())
    black = float((v < 0.16).mean())
    if light >= BRIGHT_FROM:
        out.append(Attribute("bright", _degree(light, BRIGHT_FROM, 0.9), {"brightness": round(light, 3)}))
    if light <= DARK_UNDER:
        out.append(Attribute("dark", _degree(-light, -DARK_UNDER, -0.05), {"brightness": round(light, 3)}))
    if light <= NIGHT_UNDER and black >= NIGHT_BLACK_SHARE:
        data = {"brightness": round(light, 3), "black": round(black, 3)}
        out.append(Attribute("night", _degree(black, NIGHT_BLACK_SHARE, 0.9), data))
    out += _palette(h, s, v)
    white = float(((s < 0.12) & (v > 0.78)).mean())
    if white >= WHITE_SHARE:
        out.append(Attribute("white scene", _degree(white, WHITE_SHARE, 0.9), {"white": round(white, 3)}))
    rows = rgb.shape[0]
    top, bottom = slice(0, max(1, rows // 3)), slice(rows - max(1, rows // 3), rows)
    blue = (h >= 95) & (h <= 125) & (s > 0.15) & (s < 0.85) & (v > 0.45)
    sky, below = float(blue[top].mean()), float(blue[bottom].mean())
    if sky >= SKY_SHARE and below <= sky / 2:  # the sky is above: a blue pattern everywhere is not
        out.append(Attribute("sky", _degree(sky, SKY_SHARE, 0.9), {"sky_share": round(sky, 3)}))
    return out


def _degree(x: float, start: float, full: float) -> float:
    """0.5 at `start`, 1.0 at `full`, linear between."""
    return float(np.clip(0.5 + 0.5 * (x - start) / max(full - start, 1e-6), 0.5, 1.0))


def _palette(h: np.ndarray, s: np.ndarray, v: np.ndarray) -> list[Attribute]:
    """Sepia (a photo toned in one warm hue, nothing vivid) and sunset (a warm, lit sky above a
    darker ground)."""
    out = []
    tinted = s > 0.06
    saturation = float(s.mean())
    if tinted.mean() > 0.3 and saturation <= SEPIA_MAX_SATURATION and (s > 0.7).mean() < 0.05:
        share = float(((h >= 8) & (h <= 25) & tinted).sum() / max(int(tinted.sum()), 1))
        if share >= SEPIA_HUE_SHARE:
            data = {"saturation": round(saturation, 3), "warm": round(share, 3)}
            out.append(Attribute("sepia", _degree(share, SEPIA_HUE_SHARE, 1.0), data))
    rows = h.shape[0]
    top, bottom = slice(0, max(1, rows // 2)), slice(rows // 2, rows)
    warm = ((h <= 22) | (h >= 165)) & (s > 0.4) & (v > 0.45)
    above, under = float(warm[top].mean()), float(warm[bottom].mean())
    lit = float(v[top].mean()) - float(v[bottom].mean())
    toned = bool(out)  # a sepia print's warm tone is no sunset
    if not toned and above >= SUNSET_SHARE and above >= 1.5 * under and lit >= SUNSET_LIT:
        data = {"warm_sky": round(above, 3), "warm_ground": round(under, 3), "lit": round(lit, 3)}
        out.append(Attribute("sunset", _degree(above, SUNSET_SHARE, 0.7), data))
    return out
