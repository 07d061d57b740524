"""Recall and cost of the OCR text gate on text-bearing photos (prints figures, asserts nothing).

    python -m benchmarks.ocr_gate [--json OUT]

Text-bearing set (every photo must reach OCR): signs rendered with DejaVu fonts — one large clear
word filling most of the frame, words at every size from 4 % to 70 % of the height, dark on light,
light on dark and coloured, on plain boards and pasted into real photos — plus the real scene-text
photos and document pages of Debian's `opencv-doc` and scikit-image's `page` when installed.
Text-free set (how often the gate saves the OCR): scikit-image, scikit-learn and matplotlib photos.
Prints the gate's recall, its false-run rate on the text-free set, and milliseconds per photo
(gate alone, OCR when it runs, and the average over both sets).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from photosearch.config import Settings

WORDS = (
    "EXIT",
    "STOP",
    "OPEN",
    "SALE",
    "CAFE",
    "HOTEL",
    "PARKING",
    "PIZZA",
    "BAKERY",
    "TAXI",
    "NO ENTRY",
    "WELCOME",
    "Platform 9",
    "Station",
    "Books",
    "SOLD OUT",
    "Park",
    "Beach",
    "Zoo",
    "Gift Shop",
)
FONTS = ("DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSansMono-Bold.ttf")
COLOURS = (
    ((250, 250, 245), (20, 20, 20)),
    ((20, 60, 140), (255, 255, 255)),
    ((200, 30, 30), (255, 255, 255)),
    ((30, 110, 50), (250, 250, 250)),
    ((250, 210, 30), (10, 10, 10)),
    ((0, 0, 0), (255, 200, 0)),
)
OPENCV = Path("/usr/share/doc/opencv-doc/examples")
REAL_TEXT = (
    "text/scenetext01.jpg",
    "text/scenetext02.jpg",
    "text/scenetext03.jpg",
    "text/scenetext04.jpg",
    "text/scenetext05.jpg",
    "text/scenetext06.jpg",
    "data/imageTextN.png",
    "data/imageTextR.png",
)


def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    for d in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu"):
        if (Path(d) / name).is_file():
            return ImageFont.truetype(str(Path(d) / name), size)
    from matplotlib import font_manager

    return ImageFont.truetype(font_manager.findfont("DejaVu Sans:bold"), size)


def sign(
    word: str,
    font: str,
    colours,
    size: tuple[int, int],
    height_share: float,
    backdrop: np.ndarray | None = None,
) -> np.ndarray:
    """A word whose letters are `height_share` of the frame's height (capped by its width)."""
    w, h = size
    bg, fg = colours
    px = max(8, int(h * height_share))
    f = _font(font, px)
    while f.getbbox(word)[2] - f.getbbox(word)[0] > 0.92 * w and px > 8:
        px = int(px * 0.9)
        f = _font(font, px)
    x0, y0, x1, y1 = f.getbbox(word)
    tw, th = x1 - x0, y1 - y0
    if backdrop is None:
        img = Image.new("RGB", (w, h), bg)
    else:
        img = Image.fromarray(backdrop).convert("RGB").resize((w, h))
        ImageDraw.Draw(img).rectangle(
            (
                (w - tw) // 2 - px // 3,
                (h - th) // 2 - px // 3,
                (w + tw) // 2 + px // 3,
                (h + th) // 2 + px // 3,
            ),
            fill=bg,
        )
    ImageDraw.Draw(img).text(((w - tw) // 2 - x0, (h - th) // 2 - y0), word, font=f, fill=fg)
    return np.asarray(img)


def _photos() -> dict[str, np.ndarray]:
    from photosearch.evaluate.example import source_photos

    return source_photos()


def text_set() -> Iterator[tuple[str, np.ndarray]]:
    photos = list(_photos().values())
    i = 0
    for share in (0.04, 0.07, 0.1, 0.15, 0.25, 0.4, 0.55, 0.7):
        for size in ((640, 480), (1280, 960), (480, 640)):
            word = WORDS[i % len(WORDS)]
            backdrop = photos[i % len(photos)] if i % 3 == 2 else None
            yield (
                f"sign {word!r} {int(share * 100)}% {size[0]}x{size[1]}"
                + (" on a photo" if backdrop is not None else ""),
                sign(word, FONTS[i % len(FONTS)], COLOURS[i % len(COLOURS)], size, share, backdrop),
            )
            i += 1
    for word in WORDS[:10]:  # the reported case: one big clear word is all the photo holds
        yield f"big word {word!r}", sign(word, FONTS[0], COLOURS[i % len(COLOURS)], (1024, 768), 0.6)
        i += 1
    for word in ("GO", "EXIT", "A", "OK", "BAR", "ZOO"):  # letters nearly as tall as the frame
        for font in ("DejaVuSans-Bold.ttf", "DejaVuSans-ExtraLight.ttf"):
            yield f"huge word {word!r} {font}", sign(word, font, COLOURS[i % len(COLOURS)], (800, 600), 0.9)
            i += 1
    for word in ("EXIT", "Books", "PARKING"):  # low contrast: grey on grey
        yield f"low-contrast {word!r}", sign(word, FONTS[1], ((150, 150, 150), (95, 95, 95)), (800, 600), 0.3)
    for rel in REAL_TEXT:
        if (OPENCV / rel).is_file():
            yield f"opencv {rel}", np.asarray(Image.open(OPENCV / rel).convert("RGB"))
    try:
        from skimage import data

        yield "skimage page", np.stack([data.page()] * 3, axis=-1)
    except ImportError:
        pass


def measure(analyzer, images) -> list[dict]:
    from photosearch.vision.ocr import to_bgr

    out = []
    for name, rgb in images:
        t0 = time.perf_counter()
        decision = analyzer.decide(to_bgr(rgb))
        gate_ms = (time.perf_counter() - t0) * 1000
        ocr_ms = 0.0
        lines: list[str] = []
        if decision.run:
            t1 = time.perf_counter()
            lines = [t for _q, t, _s in analyzer.model.predict(to_bgr(rgb))]
            ocr_ms = (time.perf_counter() - t1) * 1000
        out.append(
            {
                "name": name,
                "run": decision.run,
                "reason": decision.reason,
                "gate_ms": gate_ms,
                "ocr_ms": ocr_ms,
                "lines": lines[:3],
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="OCR text gate recall and cost")
    ap.add_argument("--json", type=Path, help="write the per-photo figures here")
    args = ap.parse_args(argv)
    from photosearch.vision.ocr import OcrAnalyzer

    analyzer = OcrAnalyzer(Settings())
    analyzer.load()
    analyzer.decide(np.zeros((64, 64, 3), np.uint8))  # warm-up
    texts = measure(analyzer, text_set())
    plain = measure(analyzer, list(_photos().items()))
    recall = sum(r["run"] for r in texts) / len(texts)
    missed = [r["name"] + f" ({r['reason']})" for r in texts if not r["run"]]
    everything = texts + plain
    summary = {
        "text_photos": len(texts),
        "recall": round(recall, 4),
        "missed": missed,
        "text_free_photos": len(plain),
        "false_run_rate": round(sum(r["run"] for r in plain) / len(plain), 4),
        "gate_ms_mean": round(statistics.mean(r["gate_ms"] for r in everything), 2),
        "ocr_ms_mean_when_run": round(
            statistics.mean([r["ocr_ms"] for r in everything if r["run"]] or [0]), 1
        ),
        "ms_per_text_photo": round(statistics.mean(r["gate_ms"] + r["ocr_ms"] for r in texts), 1),
        "ms_per_text_free_photo": round(statistics.mean(r["gate_ms"] + r["ocr_ms"] for r in plain), 1),
    }
    print(json.dumps(summary, indent=1))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "text": texts, "text_free": plain}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
