"""OCR analyzer: words in the photo (RapidOCR, PP-OCRv4 det + rec in ONNX), run only where text is likely.

Full OCR costs 100-500 ms a photo on two cores, and most photos hold no text. A cheap three-step
gate decides first:

1. *flat check* (~1 ms): a small grey image with almost no strong edges cannot hold text (the bar
   is low — 0.04 % of pixels — so a single small word on a plain board still reaches the probe;
   `python -m benchmarks.ocr_gate` measures recall and cost);
2. *probe* (~10-25 ms): the text detector itself on a 384-px thumbnail; OCR runs when it marks
   at least `probe_min_px` pixels as text. Natural photos (cats, coffee, portraits, grass,
   bricks) give an empty map; signs, documents, captions and posters light up.
3. *screen check* (~1 ms): text too small for the probe (a screenshot's 15-px UI font) sits on
   a flat page: when most of the image is one flat background (`screen_mode_band` of pixels near
   the commonest grey, `screen_flat` of pixels in flat 3x3 neighbourhoods), OCR runs anyway.

Then OCR runs with tuned limits: no angle classifier, the detector limited by the longest side
(`det_limit_type="max"`), the input capped at `max_side` pixels. The recogniser often drops the
space between words in small or tightly set type ("thequickbrownfox"); `respace` puts spaces back
where the line's ink has a word-sized gap between two characters. One `text` fact per line:
label = the text as read, score = recognition confidence, box = (x0, y0, x1, y1) in 0..1.
Every photo also gets one `ocr_gate` fact (label "ran" or "skipped") whose data records the gate's
decision and measurements; search and fact embedding should ignore that kind.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

import photosearch  # noqa: F401 - sets ORT_DISABLE_TELEMETRY before onnxruntime loads
from photosearch.config import Settings
from photosearch.models.base import Model
from photosearch.models.manifest import ModelManifest
from photosearch.models.runtimes.onnx import CUDA, ShrinkingSession, choose_providers, create_session
from photosearch.records import AnalysisResult, FactRecord, PhotoImage
from photosearch.vision.preprocess import resize_max_side

log = logging.getLogger(__name__)

MANIFEST_NAME = "ocr-rapidocr-ppocrv4"


# ---- the gate: pure functions -------------------------------------------------------------------
def to_bgr(rgb: np.ndarray) -> np.ndarray:
    """RGB (or grey, or RGBA) uint8 → contiguous BGR, which the PaddleOCR models expect."""
    if rgb.ndim == 2:
        return cv2.cvtColor(rgb, cv2.COLOR_GRAY2BGR)
    if rgb.shape[2] == 4:
        return cv2.cvtColor(rgb, cv2.COLOR_RGBA2BGR)
    return np.ascontiguousarray(rgb[..., ::-1])


def edge_fraction(bgr: np.ndarray, side: int = 256) -> float:
    """Fraction of strong-edge pixels on a small grey image (Canny 60/160): ~0 for flat images."""
    grey = cv2.cvtColor(resize_max_side(bgr, side, enlarge=False), cv2.COLOR_BGR2GRAY)
    return float(np.count_nonzero(cv2.Canny(grey, 60, 160))) / grey.size


def page_stats(bgr: np.ndarray, side: int = 256) -> tuple[float, float]:
    """(share of pixels within ±4 grey levels of the commonest one, share in flat 3x3 neighbourhoods).
    Screenshots and documents are high on both; natural photos are not."""
    grey = cv2.cvtColor(resize_max_side(bgr, side, enlarge=False), cv2.COLOR_BGR2GRAY)
    hist = np.bincount(grey.ravel(), minlength=256)
    mode = int(hist.argmax())
    band = float(hist[max(0, mode - 4) : mode + 5].sum()) / grey.size
    kernel = np.ones((3, 3), np.uint8)
    spread = cv2.dilate(grey, kernel) - cv2.erode(grey, kernel)
    return band, float(np.count_nonzero(spread <= 2)) / grey.size


def probe_tensor(bgr: np.ndarray, side: int = 384) -> np.ndarray:
    """The detector's input for a probe: longest side `side`, both sides multiples of 32, (x-0.5)/0.5."""
    h, w = bgr.shape[:2]
    scale = side / max(h, w)
    nh = max(32, int(round(h * scale / 32)) * 32)
    nw = max(32, int(round(w * scale / 32)) * 32)
    small = cv2.resize(bgr, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    x = small.astype(np.float32) * (2.0 / 255.0) - 1.0
    return x.transpose(2, 0, 1)[None]


def text_regions(
    prob: np.ndarray,
    shape: tuple[int, int],
    threshold: float = 0.2,
    margin: int = 96,
    max_share: float = 0.6,
    align: int = 32,
) -> list[tuple[int, int, int, int]] | None:
    """Where the probe's text map (probe scale) says text is, as boxes (x0, y0, x1, y1) of an image
    of `shape` (h, w): each blob of text pixels with `margin` pixels around it, overlapping boxes
    merged, sides multiples of `align` (the detector's input unit, so a box is read at the image's
    own scale). None when the boxes cover `max_share` of the image or more: read all of it."""
    h, w = shape
    mask = (prob > threshold).astype(np.uint8)
    n, _labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return None
    sy, sx = h / mask.shape[0], w / mask.shape[1]
    boxes = [
        (x * sx - margin, y * sy - margin, (x + bw) * sx + margin, (y + bh) * sy + margin)
        for x, y, bw, bh, _area in stats[1:]
    ]
    boxes = _merge_boxes([_aligned(b, w, h, align) for b in boxes])
    while True:  # aligning can make boxes overlap again
        merged = _merge_boxes([_aligned(b, w, h, align) for b in boxes])
        if merged == boxes:
            break
        boxes = merged
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) >= max_share * h * w:
        return None
    return boxes


def _aligned(box, w: int, h: int, align: int) -> tuple[int, int, int, int]:
    """The box clipped to the image, grown to multiples of `align` where the image has room."""
    x0, y0, x1, y1 = (
        max(0, int(box[0])),
        max(0, int(box[1])),
        min(w, int(np.ceil(box[2]))),
        min(h, int(np.ceil(box[3]))),
    )

    def grow(a: int, b: int, size: int) -> tuple[int, int]:
        length = min(size, -(-(b - a) // align) * align)
        b = min(size, a + length)
        return max(0, b - length), b

    x0, x1 = grow(x0, x1, w)
    y0, y1 = grow(y0, y1, h)
    return x0, y0, x1, y1


def _merge_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Union overlapping boxes until none overlap."""
    boxes = sorted(boxes)
    changed = True
    while changed:
        changed = False
        out: list[tuple[int, int, int, int]] = []
        for b in boxes:
            for i, o in enumerate(out):
                if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    out[i] = (min(b[0], o[0]), min(b[1], o[1]), max(b[2], o[2]), max(b[3], o[3]))
                    changed = True
                    break
            else:
                out.append(b)
        boxes = sorted(out)
    return boxes


@dataclass
class GateDecision:
    run: bool
    reason: str  # flat | no_text | text | screen_like | forced
    edge_fraction: float
    probe_px: int = 0
    page_band: float | None = None
    page_flat: float | None = None
    ms: float = 0.0
    text_map: np.ndarray | None = field(default=None, repr=False)  # the probe's map (probe scale)

    def as_data(self) -> dict[str, Any]:
        data = {
            "skipped": not self.run,
            "reason": self.reason,
            "edge_fraction": round(self.edge_fraction, 5),
            "probe_px": self.probe_px,
            "gate_ms": round(self.ms, 2),
        }
        if self.page_band is not None:
            data["page_band"] = round(self.page_band, 4)
            data["page_flat"] = round(self.page_flat or 0.0, 4)
        return data


# ---- spaces between words ----------------------------------------------------------------------
def ink_gaps(
    crop: np.ndarray, min_gap_ratio: float = 0.22, letter_factor: float = 2.2
) -> list[tuple[float, float]]:
    """Blank column runs inside a text-line crop wide enough to be word spaces (pixels).

    A space is wider than `min_gap_ratio` x the ink height and than `letter_factor` x the typical
    (median) gap between letters, so large fonts with loose letter spacing are not split."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    if grey.size == 0 or grey.shape[0] < 4 or grey.shape[1] < 4:
        return []
    _, bw = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = bw > 0
    if np.count_nonzero(ink) > ink.size / 2:  # ink is the minority colour
        ink = ~ink
    rows = np.flatnonzero(ink.any(axis=1))
    cols = ink.any(axis=0)
    inked = np.flatnonzero(cols)
    if rows.size == 0 or inked.size < 2:
        return []
    runs, start = [], None
    for x in range(int(inked[0]), int(inked[-1]) + 1):
        if not cols[x] and start is None:
            start = x
        elif cols[x] and start is not None:
            runs.append((start, x))
            start = None
    if not runs:
        return []
    typical = float(np.median([b - a for a, b in runs]))
    min_gap = max(2.0, min_gap_ratio * float(rows[-1] - rows[0] + 1), letter_factor * typical)
    return [(float(a), float(b)) for a, b in runs if b - a >= min_gap]


def respace(text: str, info: Any, crop: np.ndarray) -> str:
    """Insert a space between two recognised characters when a word-sized ink gap lies between
    their positions. `info` is RapidOCR's word info: [columns, words, columns per word, ...]."""
    try:
        n_cols, words, word_cols = float(info[0]), info[1], info[2]
        chars = [c for w in words for c in w]
        cols = [int(c) for wc in word_cols for c in wc]
    except (TypeError, IndexError, ValueError):
        return text
    if len(chars) != len(cols) or len(chars) < 2 or n_cols <= 0:
        return text
    gaps = ink_gaps(crop)
    if not gaps:
        return text
    cell = crop.shape[1] / n_cols
    xs = [(c + 0.5) * cell for c in cols]
    cuts = {
        i
        for i in range(1, len(chars))
        if chars[i - 1] != " "
        and chars[i] != " "
        and not (chars[i - 1].isdigit() and chars[i].isdigit())  # "111" in small type: keep numbers whole
        and any(xs[i - 1] < (a + b) / 2 < xs[i] for a, b in gaps)
    }
    # a cut that leaves a lone letter ("CAF E") is more likely a wide letter gap than a word
    bounds = sorted(
        {0, len(chars)}
        | cuts
        | {i for i, c in enumerate(chars) if c == " "}
        | {i + 1 for i, c in enumerate(chars) if c == " "}
    )
    for start, end in zip(bounds, bounds[1:], strict=False):
        if end - start == 1 and chars[start].isalpha() and chars[start] not in "aAI":
            cuts -= {start, end}
    return "".join((" " + c) if i in cuts else c for i, c in enumerate(chars))


# ---- the model ----------------------------------------------------------------------------------
class OcrModel(Model):
    """RapidOCR with tuned limits; `predict(bgr)` → [(quad 4x2, text, score)], `probe(bgr)` → text px."""

    manifest_name = MANIFEST_NAME
    thread_safe = False  # RapidOCR's detector keeps per-call state (its resize op): one call at a time

    def __init__(self, settings: Settings | None = None, manifest: ModelManifest | None = None):
        super().__init__(settings, manifest)
        self._engine: Any = None

    @property
    def params(self) -> dict[str, Any]:
        return self.manifest.preprocess

    def _load(self) -> None:
        for key in ("det", "rec"):
            self.manifest.require(key, self.settings)
        from rapidocr_onnxruntime import RapidOCR

        p = self.params
        use_cuda = choose_providers(self.settings)[0] == CUDA
        threads = max(1, int(self.settings.threads))
        logging.getLogger("RapidOCR").setLevel(logging.ERROR)
        logging.getLogger("OrtInferSession").setLevel(logging.ERROR)
        self._engine = RapidOCR(
            use_cls=False,
            max_side_len=int(p["max_side"]),
            det_limit_type=p["det_limit_type"],
            det_limit_side_len=int(p["max_side"]),
            text_score=float(p["text_score"]),
            intra_op_num_threads=threads,
            inter_op_num_threads=1,
            det_use_cuda=use_cuda,
            rec_use_cuda=use_cuda,
            cls_use_cuda=False,
            det_model_path=str(self.manifest.path("det", self.settings)),
            rec_model_path=str(self.manifest.path("rec", self.settings)),
        )
        # RapidOCR's sessions spin their threads between operators; ours sleep (runtimes/onnx.py).
        # Input shapes vary with every photo and text line: an arena, emptied after each run.
        self._engine.text_det.infer.session = ShrinkingSession(
            create_session(self.manifest.path("det", self.settings), self.settings)
        )
        self._engine.text_rec.session.session = ShrinkingSession(
            create_session(self.manifest.path("rec", self.settings), self.settings)
        )
        self._engine.text_det.get_preprocess = _table_preprocess(self._engine.text_det)

    def probe(self, bgr: np.ndarray) -> int:
        """How many pixels of a small copy the text detector marks as text."""
        return int(np.count_nonzero(self.probe_map(bgr) > float(self.params["probe_threshold"])))

    def probe_map(self, bgr: np.ndarray) -> np.ndarray:
        """The text detector's text probability per pixel of a small copy (probe_side, multiples of 32)."""
        self.load()
        x = probe_tensor(bgr, int(self.params["probe_side"]))
        with self._run_lock:
            return self._engine.text_det.infer(x)[0][0, 0]

    def _predict(
        self, bgr: np.ndarray, regions: list[tuple[int, int, int, int]] | None = None
    ) -> list[tuple[np.ndarray, str, float]]:
        """Lines read in the photo; with `regions` (boxes of `bgr`), the detector looks only there."""
        try:
            return self._read_lines(bgr, regions)
        except AttributeError:  # a RapidOCR other than 1.4.x: its plain pipeline (no space repair)
            result, _elapsed = self._engine(bgr, use_cls=False)
            return [
                (np.asarray(q, dtype=np.float32).reshape(4, 2), str(t), float(sc))
                for q, t, sc in result or []
            ]

    def _read_lines(
        self, bgr: np.ndarray, regions: list[tuple[int, int, int, int]] | None = None
    ) -> list[tuple[np.ndarray, str, float]]:
        """RapidOCR's pipeline step by step (1.4.x), keeping each character's position so that
        spaces the recogniser dropped between words can be put back from the ink gaps."""
        engine = self._engine
        raw_h, raw_w = bgr.shape[:2]
        img, ratio_h, ratio_w = engine.preprocess(bgr)
        record: dict[str, Any] = {"preprocess": {"ratio_h": ratio_h, "ratio_w": ratio_w}}
        img, record = engine.maybe_add_letterbox(img, record)
        if regions is not None and img.shape[:2] == bgr.shape[:2]:
            boxes = self._detect_in(img, regions)
        else:  # resized or letterboxed for the detector: regions of `bgr` no longer line up
            boxes, _ = engine.auto_text_det(img)
        if boxes is None or len(boxes) == 0:
            return []
        crops = engine.get_crop_img_list(img, boxes)
        recs, _ = engine.text_rec(crops, True)
        quads = engine._get_origin_points(boxes, record, raw_h, raw_w)
        min_score = float(self.params["text_score"])
        out = []
        for quad, crop, (text, score, info) in zip(quads, crops, recs, strict=True):
            if float(score) < min_score:
                continue
            text = respace(str(text), info, crop)
            out.append((np.asarray(quad, dtype=np.float32).reshape(4, 2), text, float(score)))
        return out

    def _detect_in(
        self, img: np.ndarray, regions: list[tuple[int, int, int, int]]
    ) -> list[np.ndarray] | None:
        """The detector on each region at the image's own scale, boxes back in image coordinates,
        in reading order (as RapidOCR's whole-image detection returns them)."""
        found = []
        for x0, y0, x1, y1 in regions:
            boxes, _ = self._engine.text_det(np.ascontiguousarray(img[y0:y1, x0:x1]))
            if boxes is not None and len(boxes):
                found.append(np.asarray(boxes, dtype=np.float32) + np.float32([x0, y0]))
        if not found:
            return None
        return self._engine.sorted_boxes(np.concatenate(found))

    def _close(self) -> None:
        self._engine = None


def _table_preprocess(detector) -> Any:
    """RapidOCR's `TextDetector.get_preprocess`, giving `TableDetPreProcess` (its values, cheaper)."""
    from rapidocr_onnxruntime.ch_ppocr_det.utils import DetPreProcess

    class TableDetPreProcess(DetPreProcess):
        """The detector's input with the float32 values RapidOCR's own normalize gives, read from a
        256-entry table per channel: its normalize runs in float64 over the whole image (~45 ms and
        ~90 MB at 1280 px), ours is three lookups into the (1, 3, H, W) input."""

        def __init__(self, *args):
            super().__init__(*args)
            levels = np.repeat(np.arange(256, dtype=np.uint8)[None, :, None], 3, axis=2)
            self.table = np.ascontiguousarray(self.normalize(levels)[0].T.astype(np.float32))  # (3, 256)

        def __call__(self, img: np.ndarray) -> np.ndarray | None:
            if img.ndim != 3 or img.shape[2] != 3 or img.dtype != np.uint8:
                return super().__call__(img)
            resized = self.resize(img)
            if resized is None:
                return None
            out = np.empty((1, 3, *resized.shape[:2]), np.float32)
            for c in range(3):
                np.take(self.table[c], resized[..., c], out=out[0, c], mode="clip")
            return out

    def get_preprocess(max_wh: int) -> DetPreProcess:
        plain = type(detector).get_preprocess(detector, max_wh)
        return TableDetPreProcess(plain.limit_side_len, plain.limit_type, plain.mean, plain.std)

    return get_preprocess


# ---- the analyzer -------------------------------------------------------------------------------
class OcrAnalyzer:
    """`text` facts per line read in the photo, plus one `ocr_gate` fact saying whether OCR ran."""

    name = "ocr"
    # 2: the flat check lets small words on plain boards through to the probe; 3: a panorama is read
    # at a larger size (`ingest.decode.fit_box`)
    version = 3

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        gate: bool = True,
        regions: bool = False,
        model: OcrModel | None = None,
    ):
        self.settings = settings if settings is not None else Settings()
        self.model = model or OcrModel(self.settings)
        self.gate_enabled = gate
        # Detect only where the probe saw text: half the OCR CPU on a camera set, but text the probe
        # cannot see is not read (real set: 61 -> 56 lines), so off unless asked (docs/SCALE.md).
        self.regions_enabled = regions

    def available(self) -> bool:
        """True when the model files are installed (loads nothing)."""
        return self.model.available()

    def load(self) -> None:
        self.model.load()

    def close(self) -> None:
        self.model.close()

    def decide(self, bgr: np.ndarray) -> GateDecision:
        """The cheap text gate (see module docstring)."""
        t0 = time.perf_counter()
        p = self.model.params
        edges = edge_fraction(bgr, int(p["flat_side"]))
        decision = GateDecision(True, "forced", edges)
        if not self.gate_enabled:
            pass
        elif edges < float(p["flat_min_edge_fraction"]):
            decision = GateDecision(False, "flat", edges)
        else:
            decision.text_map = self.model.probe_map(bgr)
            decision.probe_px = int(np.count_nonzero(decision.text_map > float(p["probe_threshold"])))
            if decision.probe_px >= int(p["probe_min_px"]):
                decision.reason = "text"
            else:
                band, flat = page_stats(bgr, int(p["flat_side"]))
                decision.page_band, decision.page_flat = band, flat
                screen = band >= float(p["screen_mode_band"]) and flat >= float(p["screen_flat"])
                decision.run, decision.reason = screen, "screen_like" if screen else "no_text"
        decision.ms = (time.perf_counter() - t0) * 1000
        return decision

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        rgb = image.rgb
        if rgb is None or rgb.size == 0 or rgb.ndim not in (2, 3):
            raise ValueError(f"photo {image.photo_id}: not an image array")
        # The gate looks at a small copy (the probe's size): no full-size BGR copy for photos it skips.
        small = to_bgr(resize_max_side(rgb, int(self.model.params["probe_side"]), enlarge=False))
        decision = self.decide(small)
        facts: list[FactRecord] = []
        lines = 0
        ocr_ms = 0.0
        if decision.run:
            t0 = time.perf_counter()
            bgr = to_bgr(rgb)
            h, w = bgr.shape[:2]
            regions = None
            if self.regions_enabled and decision.reason == "text" and decision.text_map is not None:
                regions = text_regions(decision.text_map, (h, w))  # None: text all over, read it all
            for quad, text, score in self.model.predict(bgr, regions):
                text = " ".join(text.split())
                if not text or (len(text) == 1 and score < 0.8):
                    continue
                facts.append(
                    FactRecord(
                        kind="text",
                        label=text,
                        score=score,
                        box=quad_to_box(quad, w, h),
                        data={"line": lines},
                    )
                )
                lines += 1
            ocr_ms = (time.perf_counter() - t0) * 1000
        gate = decision.as_data() | {"lines": lines, "ocr_ms": round(ocr_ms, 1)}
        facts.append(
            FactRecord(kind="ocr_gate", label="ran" if decision.run else "skipped", score=1.0, data=gate)
        )
        return AnalysisResult(facts=facts)


def quad_to_box(quad: np.ndarray, width: int, height: int) -> list[float]:
    """A detector quadrilateral (pixels) → axis-aligned (x0, y0, x1, y1) in 0..1."""
    xs = np.clip(quad[:, 0] / max(width, 1), 0.0, 1.0)
    ys = np.clip(quad[:, 1] / max(height, 1), 0.0, 1.0)
    return [
        round(float(xs.min()), 5),
        round(float(ys.min()), 5),
        round(float(xs.max()), 5),
        round(float(ys.max()), 5),
    ]


def text_of(result: AnalysisResult) -> list[str]:
    """The lines an OCR result read, in reading order."""
    return [f.label for f in result.facts if f.kind == "text"]
