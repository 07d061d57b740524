"""Photo attributes measured from pixels: black and white (monochrome), light (bright, dark, night),
palette (sepia, sunset, colourful), white scenes and the sky's share of the top of the frame.

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
backgrounds and missing shaded snow (polar bear, igloo: 0 of 3). Colourful counts the vivid hue
families (runs of neighbouring hues that cover a share of the photo, one per 60° of a run); a cut-out's light background is left
out of the photo's area, so a parrot on a white page is as colourful as one in a tree. Its threshold
(three families) is hand-set too: the sources call few photos colourful (rainbow lorikeet).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: The attribute labels the analyzer writes.
ATTRIBUTES = ("monochrome", "bright", "dark", "night", "sepia", "sunset", "white scene", "sky", "colourful")

#: Monochrome (black and white, greyscale): at most this share of coloured pixels.
MONOCHROME_COLOURED = 0.02
#: Mean brightness (HSV value, 0..1) from which a photo is bright, and under which it is dark / night.
BRIGHT_FROM = 0.62
DARK_UNDER = 0.3
NIGHT_UNDER = 0.22
#: Night: at least this share of nearly black pixels.
NIGHT_BLACK_SHARE = 0.5
#: ...and a frame border (its outer tenth) less black than this: a subject lit on a black backdrop
#: (a cat on velvet, a product shot, a guitar on stage) is dark all round; a night has sky and ground.
BACKDROP_BLACK = 0.97
#: Sepia: weakly saturated, tinted nearly all over (a cut-out's plain background is not), and its
#: tinted pixels' hues in the brown-orange-cream band (a toned print's highlights are cream, hue 25-32).
SEPIA_MAX_SATURATION = 0.55
SEPIA_TINTED = 0.5
SEPIA_HUES = (8, 32)
SEPIA_HUE_SHARE = 0.9
#: ...in one tint: the tinted pixels' saturation spreads (standard deviation) at most this much. Toned
#: prints spread 0.03-0.06 and the labelled set's sepia copies up to 0.114; a sunset's sky, orange to
#: pale over a dark ground, 0.165 (it was called sepia, and so no sunset); brown cut-outs 0.10-0.19.
SEPIA_SPREAD = 0.13
#: Sunset: this share of the top half in warm, saturated, lit hues, the top this much brighter.
SUNSET_SHARE = 0.25
SUNSET_LIT = 0.1
#: A white scene (snow, a white beach, fog): this share of bright, unsaturated pixels.
WHITE_SHARE = 0.45
#: Sky: this share of the top third in sky blue (overcast skies are not told from white walls).
SKY_SHARE = 0.35
#: Colourful: at least this many hue families (`_hue_families`) of vivid pixels (saturation and
#: value over `VIVID`), each bin covering `HUE_SHARE` of the photo less its light background; full at 5.
COLOURFUL_HUES = 3
COLOURFUL_FULL = 5
VIVID = (0.5, 0.35)
HUE_SHARE = 0.03
HUE_BINS = 36
HUE_BIN_SHARE = 0.005
FAMILY_WIDTH = 60
#: The light background's share that is left out counts for at most this much of the frame.
BACKGROUND_MAX = 0.75


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
    "colourful": ("hues", True),
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
        "colourful": COLOURFUL_HUES,
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
        "black": float((v < 0.16).mean())
        if light <= NIGHT_UNDER and _border_black(v) < BACKDROP_BLACK
        else FAILS,
        "white": float(((s < 0.12) & (v > 0.78)).mean()),
    }
    out |= _palette(h, s, v)
    out["hues"] = _hue_families(h, s, v, out["white"])
    rows = rgb.shape[0]
    top, bottom = slice(0, max(1, rows // 3)), slice(rows - max(1, rows // 3), rows)
    blue = (h >= 95) & (h <= 125) & (s > 0.15) & (s < 0.85) & (v > 0.45)
    sky, below = float(blue[top].mean()), float(blue[bottom].mean())
    out["sky_share"] = (
        sky if below <= sky / 2 else FAILS
    )  # the sky is above: a blue pattern everywhere is not
    return out


def _border_black(v: np.ndarray) -> float:
    """The share of nearly black pixels in the outer tenth of the frame, all four sides."""
    rows, cols = max(1, v.shape[0] // 10), max(1, v.shape[1] // 10)
    ring = np.concatenate([v[:rows].ravel(), v[-rows:].ravel(), v[:, :cols].ravel(), v[:, -cols:].ravel()])
    return float((ring < 0.16).mean())


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
    add("colourful", _degree(m["hues"], COLOURFUL_HUES, COLOURFUL_FULL), "hues")
    return out


def _degree(x: float, start: float, full: float) -> float:
    """0.5 at `start`, 1.0 at `full`, linear between."""
    return float(np.clip(0.5 + 0.5 * (x - start) / max(full - start, 1e-6), 0.5, 1.0))


def _hue_families(h: np.ndarray, s: np.ndarray, v: np.ndarray, white: float) -> float:
    """How many hue families a photo's vivid pixels form. The hue circle (OpenCV 0..179) is cut into
    10° bins, each a share of the photo with its light background (`white`) left out. Bins over
    `HUE_BIN_SHARE` that touch form a run; a run over `HUE_SHARE` holds as many families as it has
    peaks parted by a valley under half the lower one (red and yellow beside each other are two, an
    orange that straddles two bins is one), and at least one per `FAMILY_WIDTH` degrees (a rainbow)."""
    vivid = (s > VIVID[0]) & (v > VIVID[1])
    area = h.size * (1.0 - min(white, BACKGROUND_MAX))
    share = np.bincount(h[vivid].astype(np.int32) * HUE_BINS // 180, minlength=HUE_BINS) / max(area, 1.0)
    present = share >= HUE_BIN_SHARE
    if present.all():
        return 360.0 / FAMILY_WIDTH
    start = int(np.flatnonzero(~present)[0])  # walk the circle from a gap
    families, run = 0, []
    for i in range(HUE_BINS + 1):
        k = (start + i) % HUE_BINS
        if i < HUE_BINS and present[k]:
            run.append(float(share[k]))
            continue
        if run and sum(run) >= HUE_SHARE:
            wide = round(len(run) * (360 / HUE_BINS) / FAMILY_WIDTH)
            families += max(1, wide, _peaks(run))
        run = []
    return float(families)


def _peaks(run: list[float]) -> int:
    """Peaks along a run of hue shares that a valley under half the lower peak parts."""
    tops = [i for i, x in enumerate(run) if x >= max(run[max(i - 1, 0) : i + 2])]
    count, peak, last = 1, run[tops[0]], tops[0]
    for i in tops[1:]:
        if min(run[last : i + 1]) < 0.5 * min(peak, run[i]):
            count, peak = count + 1, run[i]
        else:
            peak = max(peak, run[i])
        last = i
    return count


def _palette(h: np.ndarray, s: np.ndarray, v: np.ndarray) -> dict[str, float]:
    """Sepia (a photo toned in one warm tint, nothing vivid: `warm`, the tinted pixels' share in the
    brown-orange band) and sunset (a warm, lit sky above a darker ground: `warm_sky`, the top half's
    share of warm, saturated, lit hues)."""
    tinted = s > 0.06
    saturation = float(s.mean())
    spread = float(s[tinted].std()) if tinted.any() else 0.0
    toned = (
        tinted.mean() > SEPIA_TINTED
        and saturation <= SEPIA_MAX_SATURATION
        and (s > 0.7).mean() < 0.05
        and spread <= SEPIA_SPREAD
    )
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
        "tint_spread": spread,
        "warm": warm_band if toned else FAILS,
        "warm_sky": above if sunset else FAILS,
        "warm_ground": under,
        "lit": lit,
    }
