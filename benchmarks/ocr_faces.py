"""Print OCR and face latencies on real sample photos (prints figures, asserts nothing).

    python -m benchmarks.ocr_faces [--threads N] [--repeat R]

Needs the dev extras for sample photos (scikit-image, scikit-learn, matplotlib) and a TTF font
(DejaVu from fonts-dejavu-core, or matplotlib's bundled copy) for the rendered signs.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from photosearch.config import Settings
from photosearch.records import PhotoImage


def _font(size: int):
    from PIL import ImageFont

    for p in (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ):
        if Path(p).is_file():
            return ImageFont.truetype(p, size)
    from matplotlib import font_manager

    return ImageFont.truetype(font_manager.findfont("DejaVu Sans"), size)


def _resize(rgb: np.ndarray, side: int) -> np.ndarray:
    from PIL import Image

    h, w = rgb.shape[:2]
    s = side / max(h, w)
    return np.asarray(Image.fromarray(rgb).resize((round(w * s), round(h * s)), Image.BICUBIC))


def natural_photos() -> dict[str, np.ndarray]:
    from matplotlib import cbook
    from PIL import Image
    from skimage import data
    from sklearn.datasets import load_sample_images

    with cbook.get_sample_data("grace_hopper.jpg") as fh:
        grace = np.asarray(Image.open(fh).convert("RGB"))
    china, flower = load_sample_images().images
    return {
        "astronaut": data.astronaut(),
        "chelsea": data.chelsea(),
        "coffee": data.coffee(),
        "rocket": data.rocket(),
        "china": china,
        "flower": flower,
        "grace_hopper": grace,
        "astronaut@1280": _resize(data.astronaut(), 1280),
    }


def text_photos() -> dict[str, np.ndarray]:
    from PIL import Image, ImageDraw
    from skimage import data

    sign = Image.new("RGB", (900, 600), (30, 90, 160))
    ImageDraw.Draw(sign).multiline_text(
        (60, 150), "OPEN DAILY 9 TO 5\nFRESH COFFEE", font=_font(60), fill=(255, 255, 255), spacing=30
    )
    shot = Image.new("RGB", (1280, 800), (245, 245, 245))
    d = ImageDraw.Draw(shot)
    for i in range(12):
        d.text(
            (30, 60 + i * 28),
            f"Item {i}: the quick brown fox jumps over the lazy dog",
            font=_font(15),
            fill=(20, 20, 20),
        )
    photo = Image.fromarray(data.coffee()).resize((1200, 800))
    d = ImageDraw.Draw(photo)
    d.rectangle((700, 80, 1150, 220), fill=(200, 30, 30))
    d.text((720, 110), "CAFE ROMA", font=_font(60), fill=(255, 255, 255))
    return {
        "sign 900x600": np.asarray(sign),
        "screenshot 1280x800 (12 lines)": np.asarray(shot),
        "photo with sign 1200x800": np.asarray(photo),
        "skimage page": np.stack([data.page()] * 3, axis=-1),
    }


def _time(fn: Callable[[], object], repeat: int) -> tuple[float, float, object]:
    """Median wall ms and median CPU ms of this process (CPU time does not grow when other
    processes compete for the cores, so it is the steadier figure on a busy machine)."""
    fn()  # warm-up
    wall, cpu, out = [], [], None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu), out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    from photosearch.vision.faces import FaceAnalyzer
    from photosearch.vision.ocr import OcrAnalyzer, text_of, to_bgr

    settings = Settings(threads=args.threads)
    ocr, faces = OcrAnalyzer(settings), FaceAnalyzer(settings)
    t0 = time.perf_counter()
    ocr.load()
    t1 = time.perf_counter()
    faces.load()
    t2 = time.perf_counter()
    print(f"threads={args.threads} repeat={args.repeat} (median ms; cpu = CPU time of all threads)")
    print(f"load: ocr {1000 * (t1 - t0):.0f} ms, faces {1000 * (t2 - t1):.0f} ms\n")

    natural, texty = natural_photos(), text_photos()
    head = f"{'OCR':<32}{'size':>10}{'gate':>7}{'cpu':>7}{'total':>8}{'cpu':>8}  decision: text"
    print(head)
    for name, rgb in {**natural, **texty}.items():
        img = PhotoImage(0, name, rgb, rgb.shape[1], rgb.shape[0])
        gate_ms, gate_cpu, decision = _time(lambda rgb=rgb: ocr.decide(to_bgr(rgb)), args.repeat)
        total_ms, total_cpu, result = _time(lambda img=img: ocr.analyze(img), args.repeat)
        words = " | ".join(text_of(result))[:50]
        size = f"{rgb.shape[1]}x{rgb.shape[0]}"
        print(
            f"{name:<32}{size:>10}{gate_ms:>7.0f}{gate_cpu:>7.0f}{total_ms:>8.0f}{total_cpu:>8.0f}  "
            f"{decision.reason}: {words}"
        )

    # traits: the gender and age networks alone, on the chips of the faces found (face_traits.py)
    print(f"\n{'Faces':<32}{'size':>10}{'ms':>7}{'cpu':>7}{'traits':>8}  faces: what they look like")
    sides = faces.traits.chip_sizes
    padding = float(faces.traits.params["chip_padding"])
    for name, rgb in natural.items():
        img = PhotoImage(0, name, rgb, rgb.shape[1], rgb.shape[0])
        ms, cpu, result = _time(lambda img=img: faces.analyze(img), args.repeat)
        found = faces.model.predict(rgb, sides, padding)
        chips = ([f.chips[sides[0]] for f in found], [f.chips[sides[1]] for f in found])
        traits_ms, _cpu, _ = _time(lambda chips=chips: faces.traits.predict(*chips), args.repeat)
        size = f"{rgb.shape[1]}x{rgb.shape[0]}"
        words = ", ".join(f"{f.label} {f.score:.0%}" for f in result.facts)
        print(f"{name:<32}{size:>10}{ms:>7.0f}{cpu:>7.0f}{traits_ms:>8.1f}  {len(result.faces)}: {words}")
    ocr.close()
    faces.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
