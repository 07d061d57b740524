"""Cheap signals users filter on: sharp/blurry, photo/screenshot/document, dominant colours.

All measures run on a small normalised copy (longest side 512, colours on 64 px), so they cost a
few milliseconds and do not depend on the photo's resolution.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.attributes import measure
from photosearch.vision.preprocess import ensure_rgb, gray, resize_max_side

log = logging.getLogger(__name__)

BLUR_SIDE = 512
#: A document holds at least this many lines of text, holding at least this share of its ink marks.
TEXT_LINES = 5
TEXT_SHARE = 0.6
# Laplacian variance of the textured pixels of the sharpest quarter of 4x4 tiles at 512 px. Real
# photos measure ~150-6000; a Gaussian blur of sigma >= 1.5 px (at 512 px) brings most under 100.
BLUR_THRESHOLD = 100.0
#: A pixel whose 3x3 neighbourhood spans at most this many grey levels is flat (no detail to judge).
FLAT_SPREAD = 2
#: A tile counts for sharpness when at least this share of its pixels is textured.
TEXTURED_TILE = 0.05
COLOR_SIDE = 64
COLOR_MIN_FRACTION = 0.1
MAX_COLORS = 4

# Common screen sizes (either orientation): phones, tablets, laptops, monitors.
SCREEN_SIZES = {
    (640, 1136),
    (750, 1334),
    (828, 1792),
    (1080, 1920),
    (1080, 2340),
    (1080, 2400),
    (1125, 2436),
    (1170, 2532),
    (1179, 2556),
    (1242, 2208),
    (1242, 2688),
    (1284, 2778),
    (1290, 2796),
    (1440, 2560),
    (1440, 3200),
    (1536, 2048),
    (1620, 2160),
    (1640, 2360),
    (1668, 2388),
    (2048, 2732),
    (720, 1280),
    (720, 1600),
    (1366, 768),
    (1280, 800),
    (1440, 900),
    (1536, 864),
    (1600, 900),
    (1680, 1050),
    (1920, 1200),
    (2560, 1440),
    (2560, 1600),
    (2880, 1800),
    (3024, 1964),
    (3456, 2234),
    (3840, 2160),
    (5120, 2880),
    (1280, 1024),
    (1024, 768),
    (1920, 1080),
    (1280, 720),
    (3840, 2400),
    (2736, 1824),
}
SCREEN_SIZES |= {(h, w) for (w, h) in SCREEN_SIZES}

COLOR_NAMES = (
    "black",
    "white",
    "gray",
    "red",
    "orange",
    "brown",
    "yellow",
    "green",
    "teal",
    "blue",
    "purple",
    "pink",
)


def blur_score(rgb: np.ndarray, prescaled: bool = False) -> float:
    """Sharpness: Laplacian variance over the textured pixels of the sharpest quarter of 4x4 tiles on
    a 512 px grey copy (`prescaled`: `rgb` is already that copy).

    Using the sharpest tiles keeps a sharp subject on a soft background "sharp"; leaving out the flat
    pixels (a plain wall, the sky, a cut-out's white ground) keeps a small sharp subject "sharp" too,
    where the flat share of its tiles once diluted it: 51 % of the real set's photos, mostly objects
    on plain grounds, measured blurry, 19 % now, while 94 % of their copies blurred by a Gaussian of
    sigma 1.5-2 px still do (docs/EVALUATION.md, "Blur"). Tiles under `TEXTURED_TILE` textured
    pixels do not count; an image with none is measured whole."""
    g = gray(rgb) if prescaled else gray(rgb, BLUR_SIDE)
    lap = cv2.Laplacian(g, cv2.CV_64F)
    kernel = np.ones((3, 3), np.uint8)
    textured = (cv2.dilate(g, kernel).astype(np.int16) - cv2.erode(g, kernel)) > FLAT_SPREAD
    h, w = lap.shape
    ny, nx = min(4, h), min(4, w)  # strip-like images get fewer tiles
    whole, kept = [], []
    for y in range(ny):
        for x in range(nx):
            tile = (slice(y * h // ny, (y + 1) * h // ny), slice(x * w // nx, (x + 1) * w // nx))
            whole.append(lap[tile].var())
            mask = textured[tile]
            if mask.mean() >= TEXTURED_TILE:
                kept.append(lap[tile][mask].var())
    tiles = kept or whole
    return float(np.mean(sorted(tiles)[-max(1, len(tiles) // 4) :]))


def is_blurry(blur: float, threshold: float = BLUR_THRESHOLD) -> bool:
    return blur < threshold


@dataclass
class KindSignals:
    flat: float  # fraction of pixels in perfectly flat 3x3 neighbourhoods (synthetic images)
    colors: float  # distinct colours / pixels of a 128 px sample (low for UI renders)
    axis_edges: float  # fraction of edge pixels on long horizontal/vertical runs (UI layout)
    white: float  # fraction of bright unsaturated pixels (paper, web pages)
    edges: float  # edge pixel density (text)
    screen_size: bool  # full size matches a common screen resolution
    camera: bool  # EXIF names a camera
    png: bool
    text_rows: int = 0  # lines of text on a regular pitch (pages, receipts)
    text_share: float = 0.0  # share of the ink marks that sit in those lines


#: Text layout is measured at this size: body text of a photographed page stays 4+ px tall.
TEXT_SIDE = 768
#: Lines of text that say a flat, few-colour picture is a screen (menus, labels, messages).
SCREEN_TEXT_ROWS = 2


def _rows_at(xs: np.ndarray, ys: np.ndarray, hs: np.ndarray, theta: float) -> tuple[int, int]:
    """(lines on the dominant line pitch, marks in them) with the page turned by `theta` radians."""
    c, s = np.cos(theta), np.sin(theta)
    yr, xr = -xs * s + ys * c, xs * c + ys * s
    order = np.argsort(yr)
    yr, xr, hr = yr[order], xr[order], hs[order]
    hm = float(np.median(hs))
    rows: list[tuple[float, int]] = []
    i = 0
    while i < yr.size:
        j = i
        while j + 1 < yr.size and yr[j + 1] - yr[i] <= 0.5 * hm:
            j += 1
        hh = hr[i : j + 1]
        if (
            j - i + 1 >= 6
            and np.std(hh) / max(float(np.mean(hh)), 1.0) < 0.45
            and np.ptp(xr[i : j + 1]) >= 5 * hm
        ):
            rows.append((float(np.mean(yr[i : j + 1])), j - i + 1))
        i = j + 1
    if len(rows) < 3:
        return len(rows), sum(m for _, m in rows)
    ys_r = np.array([r[0] for r in rows])
    gaps = np.diff(ys_r)
    pitch = float(np.median(gaps))
    regular = np.abs(gaps - pitch) <= 0.35 * pitch
    members = np.array([m for _, m in rows])
    keep = np.concatenate([[True], regular]) | np.concatenate([regular, [True]])
    return int(regular.sum()) + 1, int(members[keep].sum())


def text_layout(rgb: np.ndarray) -> tuple[int, float]:
    """(lines of text, share of ink marks in them): dark marks of letter size on bright unsaturated
    paper, grouped into lines of similar-height marks on a regular pitch, the page turned by up to
    ±9°. Pages and receipts give 5+ lines holding most marks; grass, fur and signs do not."""
    small = resize_max_side(ensure_rgb(rgb), TEXT_SIDE, "area")
    g = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    bg = cv2.morphologyEx(g, cv2.MORPH_CLOSE, np.ones((11, 11), np.uint8)).astype(np.float32)
    ink = ((bg - g.astype(np.float32)) > np.maximum(18.0, 0.12 * bg)).astype(np.uint8)
    sat = cv2.cvtColor(small, cv2.COLOR_RGB2HSV)[..., 1]
    _n, _lab, st, cen = cv2.connectedComponentsWithStats(ink, 8)
    h, w, area = st[1:, cv2.CC_STAT_HEIGHT], st[1:, cv2.CC_STAT_WIDTH], st[1:, cv2.CC_STAT_AREA]
    xi = np.clip(cen[1:, 0].astype(int), 0, g.shape[1] - 1)
    yi = np.clip(cen[1:, 1].astype(int), 0, g.shape[0] - 1)
    letter = (h >= 4) & (h <= 40) & (w <= 3 * h + 6) & (area >= 6)
    on_paper = (bg[yi, xi] >= 0.55 * np.percentile(bg, 99)) & (sat[yi, xi] < 60)
    ok = letter & on_paper
    if ok.sum() < 30:
        return 0, 0.0
    xs, ys, hs = cen[1:, 0][ok], cen[1:, 1][ok], h[ok].astype(np.float64)
    rows, members = max(_rows_at(xs, ys, hs, np.deg2rad(a)) for a in (-9, -6, -3, 0, 3, 6, 9))
    return rows, members / float(ok.sum())


def kind_signals(image: PhotoImage, small: np.ndarray | None = None) -> KindSignals:
    """Measure on `small` (the photo at 512 px) when the caller already has it."""
    if small is None:
        small = resize_max_side(image.rgb, BLUR_SIDE, "nearest" if _is_synthetic_hint(image) else "area")
    g = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    dil = cv2.dilate(g, np.ones((3, 3), np.uint8))
    ero = cv2.erode(g, np.ones((3, 3), np.uint8))
    flat = float(np.mean((dil.astype(np.int16) - ero) == 0))
    packed = small[::4, ::4].reshape(-1, 3).astype(np.uint32)  # 128 px sample keeps np.unique cheap
    codes = (packed[:, 0] << 16) | (packed[:, 1] << 8) | packed[:, 2]
    colors = len(np.unique(codes)) / max(1, len(codes))
    edges = cv2.Canny(g, 80, 160) > 0
    density = float(edges.mean())
    # Long straight runs: an edge pixel whose row or column neighbours (15 px) are all edges.
    kh = cv2.morphologyEx(edges.astype(np.uint8), cv2.MORPH_OPEN, np.ones((1, 15), np.uint8))
    kv = cv2.morphologyEx(edges.astype(np.uint8), cv2.MORPH_OPEN, np.ones((15, 1), np.uint8))
    axis = float(((kh | kv) > 0).sum() / max(1, edges.sum()))
    hsv = cv2.cvtColor(small, cv2.COLOR_RGB2HSV)
    white = float(np.mean((hsv[..., 2] > 190) & (hsv[..., 1] < 40)))
    size = (int(image.full_width), int(image.full_height))
    rows, share = text_layout(image.rgb)
    return KindSignals(
        flat=flat,
        colors=colors,
        axis_edges=axis,
        white=white,
        edges=density,
        screen_size=size in SCREEN_SIZES,
        camera=_has_camera_exif(image.path),
        png=str(image.path).lower().endswith(".png"),
        text_rows=rows,
        text_share=share,
    )


def _is_synthetic_hint(image: PhotoImage) -> bool:
    return str(image.path).lower().endswith((".png", ".gif", ".bmp"))


def _has_camera_exif(path: str) -> bool:
    try:
        if not path or not Path(path).is_file():
            return False
        from PIL import Image

        with Image.open(path) as im:
            exif = im.getexif()
        return bool(exif.get(0x010F) or exif.get(0x0110))  # Make, Model
    except Exception:  # noqa: BLE001 - unreadable EXIF just means "no camera evidence"
        return False


def shows_a_screen(s: KindSignals) -> bool:
    """A screen's size or lines of interface text. A flat picture of few colours without either is
    a graphic or an object cut out on a plain ground (a product shot, a sticker), not a screenshot."""
    return s.screen_size or s.text_rows >= SCREEN_TEXT_ROWS


#: A screen score from which a picture is a screenshot (if it shows a screen, `shows_a_screen`).
SCREEN_SCORE = 0.55


def screen_score(s: KindSignals) -> float:
    """How much a picture looks rendered for a screen: flat, few colours, straight edges."""
    return (
        0.45 * min(1.0, s.flat / 0.45)
        + 0.2 * (1.0 if s.colors < 0.05 else 0.5 if s.colors < 0.15 else 0.0)
        + 0.15 * min(1.0, s.axis_edges / 0.3)
        + 0.25 * s.screen_size
        + 0.1 * s.png
        - 0.5 * s.camera
    )


def classify_kind(s: KindSignals) -> tuple[str, float]:
    """photo | screenshot | document, with a 0..1 confidence."""
    shot = screen_score(s)
    doc = (
        0.5 * min(1.0, s.white / 0.6)
        + 0.3 * (1.0 if 0.03 <= s.edges <= 0.35 else 0.0)
        + 0.2 * (1.0 if s.flat < 0.45 else 0.0)
    )
    if shot >= SCREEN_SCORE and shows_a_screen(s):
        return "screenshot", float(min(1.0, shot))
    lines = s.text_rows >= TEXT_LINES and s.text_share >= TEXT_SHARE
    if lines:  # a page, a receipt, a letter photographed: lines of text on paper
        return "document", float(min(1.0, 0.6 + 0.04 * s.text_rows))
    if doc >= 0.8 and s.white >= 0.45 and s.text_rows >= 3:
        return "document", float(min(1.0, doc))
    return "photo", float(min(1.0, max(0.5, 1.0 - max(shot, doc * 0.5))))


def color_name(h: np.ndarray, s: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Map OpenCV HSV (H 0..179, S/V 0..255) pixels to indices into COLOR_NAMES."""
    h = h.astype(np.int16)
    out = np.full(h.shape, COLOR_NAMES.index("gray"), dtype=np.int8)
    chroma = (s >= 45) & (v >= 50)
    hue_names = [
        ((h < 8) | (h >= 172), "red"),
        ((h >= 8) & (h < 20), "orange"),
        ((h >= 20) & (h < 34), "yellow"),
        ((h >= 34) & (h < 78), "green"),
        ((h >= 78) & (h < 96), "teal"),
        ((h >= 96) & (h < 130), "blue"),
        ((h >= 130) & (h < 150), "purple"),
        ((h >= 150) & (h < 172), "pink"),
    ]
    for mask, name in hue_names:
        out[chroma & mask] = COLOR_NAMES.index(name)
    brown = chroma & (h < 25) & ((h >= 8) | (h < 8) & (v < 120)) & (v < 150)
    out[brown] = COLOR_NAMES.index("brown")
    light_red = chroma & ((h < 8) | (h >= 160)) & (s < 110) & (v > 180)
    out[light_red] = COLOR_NAMES.index("pink")
    out[~chroma & (v >= 200)] = COLOR_NAMES.index("white")
    out[v < 50] = COLOR_NAMES.index("black")
    return out


def dominant_colors(
    rgb: np.ndarray, min_fraction: float = COLOR_MIN_FRACTION, limit: int = MAX_COLORS
) -> list[tuple[str, float, str]]:
    """[(name, fraction, mean hex)], largest first, of a 64 px copy."""
    small = resize_max_side(rgb, COLOR_SIDE)
    hsv = cv2.cvtColor(small, cv2.COLOR_RGB2HSV)
    idx = color_name(hsv[..., 0], hsv[..., 1], hsv[..., 2]).reshape(-1)
    pixels = small.reshape(-1, 3)
    counts = np.bincount(idx, minlength=len(COLOR_NAMES))
    total = counts.sum()
    out = []
    for i in np.argsort(-counts):
        frac = counts[i] / total
        if frac < min_fraction or len(out) >= limit:
            break
        mean = pixels[idx == i].mean(axis=0).round().astype(int)
        out.append((COLOR_NAMES[i], float(frac), "#{:02x}{:02x}{:02x}".format(*mean)))
    return out


#: The subject's colours: the salient centre of the frame (the middle half of each side), where a
#: photographer puts what the photo is of; a colour counts there from this share.
SUBJECT = "subject"
SUBJECT_MIN_FRACTION = 0.15


def subject_crop(rgb: np.ndarray) -> np.ndarray:
    """The middle half of the frame along each side."""
    h, w = rgb.shape[:2]
    return rgb[h // 4 : h - h // 4 or h, w // 4 : w - w // 4 or w]


class QualityAnalyzer:
    """Writes `quality` (sharp|blurry, data.blur), `kind` (photo|screenshot|document, data with the
    signals), `color` facts (named dominant colours, score = fraction of the photo; and of its
    salient centre, `data.region = "subject"`) and `attribute` facts (`vision.attributes`: bright,
    dark, night, sepia, sunset, white scene, sky, colourful; score = degree)."""

    name = "quality"
    # 2: documents are recognised by their lines of text; 3: the subject's colours, attributes;
    # 4: sepia calibrated (vision/attributes.py); 5: a screenshot shows a screen's size or its text;
    # 6: sharpness is judged on the textured pixels; 7: colourful; 8: a subject on a black backdrop
    # is no night; 9: sepia is one tint, so a sunset's warm light is a sunset
    version = 9

    def __init__(self, settings=None, blur_threshold: float = BLUR_THRESHOLD):
        self.settings = settings
        self.blur_threshold = blur_threshold

    def available(self) -> bool:
        return True

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        rgb = ensure_rgb(image.rgb)
        small = resize_max_side(rgb, BLUR_SIDE, "nearest" if _is_synthetic_hint(image) else "area")
        blur = blur_score(small, prescaled=True)
        blurry = is_blurry(blur, self.blur_threshold)
        # Confidence grows with the distance from the threshold on a log scale.
        conf = float(min(1.0, 0.5 + abs(np.log10(max(blur, 1e-3) / self.blur_threshold))))
        signals = kind_signals(image, small)
        kind, kind_score = classify_kind(signals)
        facts = [
            FactRecord(
                kind="quality",
                label="blurry" if blurry else "sharp",
                score=conf,
                data={"blur": round(blur, 2), "threshold": self.blur_threshold},
            ),
            FactRecord(
                kind="kind",
                label=kind,
                score=kind_score,
                data={k: (round(v, 4) if isinstance(v, float) else v) for k, v in signals.__dict__.items()},
            ),
        ]
        for name, frac, hexrgb in dominant_colors(small):
            facts.append(
                FactRecord(
                    kind="color", label=name, score=frac, data={"fraction": round(frac, 4), "rgb": hexrgb}
                )
            )
        for attr in measure(small):
            facts.append(FactRecord(kind="attribute", label=attr.label, score=attr.degree, data=attr.data))
        for name, frac, hexrgb in dominant_colors(subject_crop(small), min_fraction=SUBJECT_MIN_FRACTION):
            facts.append(
                FactRecord(
                    kind="color",
                    label=name,
                    score=frac,
                    data={"fraction": round(frac, 4), "rgb": hexrgb, "region": SUBJECT},
                )
            )
        return AnalysisResult(facts=facts)

    def analyze_batch(self, images: list[PhotoImage]) -> list[AnalysisResult]:
        return [self.analyze(img) for img in images]
