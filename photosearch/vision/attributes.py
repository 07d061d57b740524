"""Photo attributes measured from pixels: black and white (monochrome), light (bright, dark, night),
palette (sepia, sunset), white scenes and the sky's share of the top of the frame.

The quality analyzer writes each attribute that holds as an `attribute` fact (label, score = its
degree 0..1, data = the measures), so a request word matches it like any fact ("dark", "sunset",
"sky"), `not` excludes it and `why` shows it; scene words reach them through `resources/scenes.yaml`
("snow" ≈ white scene, "night sky" ≈ night + sky).

Calibrated on a labelled set whose labels come from the photos' sources, never from a model
(`evaluate/attribute_set.py`; `python -m photosearch.evaluate.attribute_calibration DIR` prints
precision and recall per attribute on its fit part, where thresholds are chosen by best F1, and on
its check part). Monochrome (0.02) and dark (0.3) keep their thresholds: F1 1.000 on both parts
(monochrome: 6+102 positives, 29+102 negatives on fit, 11+51 and 5+51 on check; real+generated).
Sepia's measure missed toned prints (recall 0.078 fit, 0.608 check): its hue band now takes the
cream highlights (8-32, was 8-25) and it needs a tint over half the frame (a cut-out on a plain
background is not toned), recall 1.000 and precision 1.000 on both parts at the same 0.9. Bright,
night, sunset, white scene and sky have too few labelled positives or real negatives to calibrate
and keep their hand-set thresholds; the check part shows "white scene" firing on objects on white
backgrounds and missing shaded snow (polar bear, igloo: 0 of 3).
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
#: Sepia: weakly saturated, tinted nearly all over (a cut-out's plain background is not), and its
#: tinted pixels' hues in the brown-orange-cream band (a toned print's highlights are cream, hue 25-32).
SEPIA_MAX_SATURATION = 0.55
SEPIA_TINTED = 0.5
SEPIA_HUES = (8, 32)
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


#: Each attribute's deciding measure (a key of `measures()`), and whether it holds at or above its
#: threshold (True) or at or under it (False). Calibration sweeps these thresholds.
DECIDED_BY = {
    "monochrome": ("coloured", False),
    "bright": ("brightness", True),
    "dark": ("brightness", False),
    "night": ("black", True),
    "sepia": ("warm", True),
    "sunset": ("warm_sky", True),
    "white scene": ("white", True),
    "sky": ("sky_share", True),
}

#: A measure's value when the attribute's other conditions fail (a bright photo is no night).
FAILS = -1.0


def thresholds() -> dict[str, float]:
    """The threshold each attribute is decided at now."""
    return {
        "monochrome": MONOCHROME_COLOURED,
        "bright": BRIGHT_FROM,
        "dark": DARK_UNDER,
        "night": NIGHT_BLACK_SHARE,
        "sepia": SEPIA_HUE_SHARE,
        "sunset": SUNSET_SHARE,
        "white scene": WHITE_SHARE,
        "sky": SKY_SHARE,
    }


def holds(label: str, value: float, threshold: float) -> bool:
    """Whether `label` holds for a photo whose deciding measure is `value`."""
    higher = DECIDED_BY[label][1]
    if value == FAILS:
        return False
    return value >= threshold if higher else value <= threshold


def measures(rgb: np.ndarray) -> dict[str, float]:
    """The raw measures of an RGB uint8 photo (a small copy is enough: 64-512 px); an attribute's
    deciding measure is `FAILS` where its other conditions do not hold."""
    hsv = cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2HSV)
    h = hsv[..., 0].astype(np.int16)
    s = hsv[..., 1].astype(np.float32) / 255.0
    v = hsv[..., 2].astype(np.float32) / 255.0
    light = float(v.mean())
    out = {
        "coloured": float(((s > 0.2) & (v > 0.2)).mean()),
        "brightness": light,
        "black": float((v < 0.16).mean()) if light <= NIGHT_UNDER else FAILS,
        "white": float(((s < 0.12) & (v > 0.78)).mean()),
    }
    out |= _palette(h, s, v)
    rows = rgb.shape[0]
    top, bottom = slice(0, max(1, rows // 3)), slice(rows - max(1, rows // 3), rows)
    blue = (h >= 95) & (h <= 125) & (s > 0.15) & (s < 0.85) & (v > 0.45)
    sky, below = float(blue[top].mean()), float(blue[bottom].mean())
    out["sky_share"] = (
        sky if below <= sky / 2 else FAILS
    )  # the sky is above: a blue pattern everywhere is not
    return out


def measure(rgb: np.ndarray) -> list[Attribute]:
    """The attributes that hold for an RGB uint8 photo (a small copy is enough: 64-512 px)."""
    m = measures(rgb)
    limit = thresholds()
    out: list[Attribute] = []

    def add(label: str, degree: float, *keys: str) -> None:
        if holds(label, m[DECIDED_BY[label][0]], limit[label]):
            out.append(Attribute(label, degree, {k: round(m[k], 4 if k == "coloured" else 3) for k in keys}))

    add("monochrome", _degree(-m["coloured"], -MONOCHROME_COLOURED, 0.0), "coloured")
    add("bright", _degree(m["brightness"], BRIGHT_FROM, 0.9), "brightness")
    add("dark", _degree(-m["brightness"], -DARK_UNDER, -0.05), "brightness")
    add("night", _degree(m["black"], NIGHT_BLACK_SHARE, 0.9), "brightness", "black")
    add("sepia", _degree(m["warm"], SEPIA_HUE_SHARE, 1.0), "saturation", "warm")
    if not out or out[-1].label != "sepia":  # a sepia print's warm tone is no sunset
        add("sunset", _degree(m["warm_sky"], SUNSET_SHARE, 0.7), "warm_sky", "warm_ground", "lit")
    add("white scene", _degree(m["white"], WHITE_SHARE, 0.9), "white")
    add("sky", _degree(m["sky_share"], SKY_SHARE, 0.9), "sky_share")
    return out


def _degree(x: float, start: float, full: float) -> float:
    """0.5 at `start`, 1.0 at `full`, linear between."""
    return float(np.clip(0.5 + 0.5 * (x - start) / max(full - start, 1e-6), 0.5, 1.0))


def _palette(h: np.ndarray, s: np.ndarray, v: np.ndarray) -> dict[str, float]:
    """Sepia (a photo toned in one warm hue, nothing vivid: `warm`, the tinted pixels' share in the
    brown-orange band) and sunset (a warm, lit sky above a darker ground: `warm_sky`, the top half's
    share of warm, saturated, lit hues)."""
    tinted = s > 0.06
    saturation = float(s.mean())
    toned = tinted.mean() > SEPIA_TINTED and saturation <= SEPIA_MAX_SATURATION and (s > 0.7).mean() < 0.05
    band = (h >= SEPIA_HUES[0]) & (h <= SEPIA_HUES[1])
    warm_band = float((band & tinted).sum() / max(int(tinted.sum()), 1))
    rows = h.shape[0]
    top, bottom = slice(0, max(1, rows // 2)), slice(rows // 2, rows)
    warm = ((h <= 22) | (h >= 165)) & (s > 0.4) & (v > 0.45)
    above, under = float(warm[top].mean()), float(warm[bottom].mean())
    lit = float(v[top].mean()) - float(v[bottom].mean())
    sunset = above >= 1.5 * under and lit >= SUNSET_LIT
    return {
        "saturation": saturation,
        "warm": warm_band if toned else FAILS,
        "warm_sky": above if sunset else FAILS,
        "warm_ground": under,
        "lit": lit,
    }
