"""OCR analyzer: words in the photo (RapidOCR, PP-OCRv4 det + rec in ONNX), run only where text is likely.

Full OCR costs 100-500 ms a photo on two cores, and most photos hold no text. A cheap two-step
gate decides first:

1. *flat check* (~1 ms): a small grey image with almost no strong edges cannot hold text;
2. *probe* (~10-25 ms): the text detector itself on a 384-px thumbnail; OCR runs only when it
   marks at least `probe_min_px` pixels as text. Natural photos (cats, coffee, portraits, grass,
   bricks) give an empty map; signs, screenshots, documents and captions light up.

Then OCR runs with tuned limits: no angle classifier, the detector limited by the longest side
(`det_limit_type="max"`), the input capped at `max_side` pixels. One `text` fact per line:
label = the text as read, score = recognition confidence, box = (x0, y0, x1, y1) in 0..1.
Every photo also gets one `ocr_gate` fact (label "ran" or "skipped") whose data records the gate's
decision and measurements; search and fact embedding should ignore that kind.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

import photosearch  # noqa: F401 - sets ORT_DISABLE_TELEMETRY before onnxruntime loads
from photosearch.catalog.store import AnalysisResult, FactRecord
from photosearch.config import Settings
from photosearch.vision.analyzer import PhotoImage
from photosearch.vision.manifest import ManifestError, ModelManifest, get_manifest
from photosearch.vision.runtime import Model

log = logging.getLogger(__name__)

MANIFEST_NAME = "ocr-rapidocr-ppocrv4"

# Used when models/ has no manifest for OCR (the lead may add this same content as JSON there).
BUILTIN_MANIFEST: dict[str, Any] = {
    "name": MANIFEST_NAME,
    "role": "ocr",
    "tier": "bundled",
    "runtime": "onnx",
    "version": 1,
    "licence": "Apache-2.0 (PaddleOCR PP-OCRv4 models via RapidOCR)",
    "description": "PP-OCRv4 text detector (DB) + recogniser (SVTR, Chinese/English) in ONNX, run by rapidocr-onnxruntime",
    "source": {
        "package": "rapidocr-onnxruntime",
        "module": "rapidocr_onnxruntime",
        "package_version": "1.4.4",
        "extra_packages": ["pyclipper", "shapely", "six", "PyYAML", "opencv-python-headless"],
        "install": "pip install --no-deps rapidocr-onnxruntime==1.4.4",
    },
    "files": [
        {"key": "det", "path": "models/ch_PP-OCRv4_det_infer.onnx",
         "sha256": "d2a7720d45a54257208b1e13e36a8479894cb74155a5efe29462512d42f49da9", "size": 4745517},
        {"key": "rec", "path": "models/ch_PP-OCRv4_rec_infer.onnx",
         "sha256": "48fc40f24f6d2a207a2b1091d3437eb3cc3eb6b676dc3ef9c37384005483683b", "size": 10857958},
    ],
    "preprocess": {
        "max_side": 1280,
        "det_limit_type": "max",
        "use_angle_cls": False,
        "text_score": 0.5,
        "probe_side": 384,
        "probe_threshold": 0.5,
        "probe_min_px": 20,
        "flat_side": 256,
        "flat_min_edge_fraction": 0.002,
    },
}


def ocr_manifest(settings: Settings | None = None) -> ModelManifest:
    """The OCR manifest from models/ when there is one, else the built-in one."""
    try:
        return get_manifest(MANIFEST_NAME, settings)
    except ManifestError:
        return ModelManifest.from_dict(BUILTIN_MANIFEST)


# ---- the gate: pure functions -------------------------------------------------------------------
def to_bgr(rgb: np.ndarray) -> np.ndarray:
    """RGB (or grey, or RGBA) uint8 → contiguous BGR, which the PaddleOCR models expect."""
    if rgb.ndim == 2:
        return cv2.cvtColor(rgb, cv2.COLOR_GRAY2BGR)
    if rgb.shape[2] == 4:
        return cv2.cvtColor(rgb, cv2.COLOR_RGBA2BGR)
    return np.ascontiguousarray(rgb[..., ::-1])


def resize_max_side(img: np.ndarray, side: int) -> np.ndarray:
    h, w = img.shape[:2]
    scale = side / max(h, w)
    if scale >= 1:
        return img
    return cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def edge_fraction(bgr: np.ndarray, side: int = 256) -> float:
    """Fraction of strong-edge pixels on a small grey image (Canny 60/160): ~0 for flat images."""
    grey = cv2.cvtColor(resize_max_side(bgr, side), cv2.COLOR_BGR2GRAY)
    return float(np.count_nonzero(cv2.Canny(grey, 60, 160))) / grey.size


def probe_tensor(bgr: np.ndarray, side: int = 384) -> np.ndarray:
    """The detector's input for a probe: longest side `side`, both sides multiples of 32, (x-0.5)/0.5."""
    h, w = bgr.shape[:2]
    scale = side / max(h, w)
    nh = max(32, int(round(h * scale / 32)) * 32)
    nw = max(32, int(round(w * scale / 32)) * 32)
    small = cv2.resize(bgr, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    x = small.astype(np.float32) * (2.0 / 255.0) - 1.0
    return x.transpose(2, 0, 1)[None]


@dataclass
class GateDecision:
    run: bool
    reason: str  # flat | no_text | text | forced
    edge_fraction: float
    probe_px: int = 0
    ms: float = 0.0

    def as_data(self) -> dict[str, Any]:
        return {
            "skipped": not self.run,
            "reason": self.reason,
            "edge_fraction": round(self.edge_fraction, 5),
            "probe_px": self.probe_px,
            "gate_ms": round(self.ms, 2),
        }


# ---- the model ----------------------------------------------------------------------------------
class OcrModel(Model):
    """RapidOCR with tuned limits; `predict(bgr)` → [(quad 4x2, text, score)], `probe(bgr)` → text px."""

    manifest_name = MANIFEST_NAME
    thread_safe = True  # ONNX Runtime sessions; RapidOCR keeps no per-call state we rely on

    def __init__(self, settings: Settings | None = None, manifest: ModelManifest | None = None):
        super().__init__(settings, manifest or ocr_manifest(settings))
        self._engine: Any = None

    @property
    def params(self) -> dict[str, Any]:
        return {**BUILTIN_MANIFEST["preprocess"], **self.manifest.preprocess}

    def _load(self) -> None:
        for key in ("det", "rec"):
            self.manifest.require(key, self.settings)
        from rapidocr_onnxruntime import RapidOCR

        from photosearch.vision.onnx_session import CUDA, choose_providers

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

    def probe(self, bgr: np.ndarray) -> int:
        """How many pixels of a small copy the text detector marks as text."""
        self.load()
        p = self.params
        prob = self._engine.text_det.infer(probe_tensor(bgr, int(p["probe_side"])))[0]
        return int(np.count_nonzero(prob[0, 0] > float(p["probe_threshold"])))

    def _predict(self, bgr: np.ndarray) -> list[tuple[np.ndarray, str, float]]:
        result, _elapsed = self._engine(bgr, use_cls=False)
        out = []
        for quad, text, score in result or []:
            out.append((np.asarray(quad, dtype=np.float32).reshape(4, 2), str(text), float(score)))
        return out

    def _close(self) -> None:
        self._engine = None


# ---- the analyzer -------------------------------------------------------------------------------
class OcrAnalyzer:
    """`text` facts per line read in the photo, plus one `ocr_gate` fact saying whether OCR ran."""

    name = "ocr"
    version = 1

    def __init__(self, settings: Settings | None = None, *, gate: bool = True, model: OcrModel | None = None):
        self.settings = settings if settings is not None else Settings()
        self.model = model or OcrModel(self.settings)
        self.gate_enabled = gate

    def load(self) -> None:
        self.model.load()

    def close(self) -> None:
        self.model.close()

    def decide(self, bgr: np.ndarray) -> GateDecision:
        """The cheap text gate (see module docstring)."""
        t0 = time.perf_counter()
        p = self.model.params
        edges = edge_fraction(bgr, int(p["flat_side"]))
        if not self.gate_enabled:
            return GateDecision(True, "forced", edges, 0, (time.perf_counter() - t0) * 1000)
        if edges < float(p["flat_min_edge_fraction"]):
            return GateDecision(False, "flat", edges, 0, (time.perf_counter() - t0) * 1000)
        px = self.model.probe(bgr)
        run = px >= int(p["probe_min_px"])
        return GateDecision(run, "text" if run else "no_text", edges, px, (time.perf_counter() - t0) * 1000)

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        rgb = image.rgb
        if rgb is None or rgb.size == 0 or rgb.ndim not in (2, 3):
            raise ValueError(f"photo {image.photo_id}: not an image array")
        bgr = to_bgr(rgb)
        decision = self.decide(bgr)
        facts: list[FactRecord] = []
        lines = 0
        ocr_ms = 0.0
        if decision.run:
            t0 = time.perf_counter()
            h, w = bgr.shape[:2]
            for quad, text, score in self.model.predict(bgr):
                text = " ".join(text.split())
                if not text or (len(text) == 1 and score < 0.8):
                    continue
                facts.append(FactRecord(kind="text", label=text, score=score, box=quad_to_box(quad, w, h),
                                        data={"line": lines}))
                lines += 1
            ocr_ms = (time.perf_counter() - t0) * 1000
        gate = decision.as_data() | {"lines": lines, "ocr_ms": round(ocr_ms, 1)}
        facts.append(FactRecord(kind="ocr_gate", label="ran" if decision.run else "skipped", score=1.0, data=gate))
        return AnalysisResult(facts=facts)


def quad_to_box(quad: np.ndarray, width: int, height: int) -> list[float]:
    """A detector quadrilateral (pixels) → axis-aligned (x0, y0, x1, y1) in 0..1."""
    xs = np.clip(quad[:, 0] / max(width, 1), 0.0, 1.0)
    ys = np.clip(quad[:, 1] / max(height, 1), 0.0, 1.0)
    return [round(float(xs.min()), 5), round(float(ys.min()), 5), round(float(xs.max()), 5), round(float(ys.max()), 5)]


def text_of(result: AnalysisResult) -> list[str]:
    """The lines an OCR result read, in reading order."""
    return [f.label for f in result.facts if f.kind == "text"]
