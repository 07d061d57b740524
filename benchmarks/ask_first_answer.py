"""How soon Ask shows its first step and its first answer, cold (a new process) and warm.

    python -m benchmarks.ask_first_answer [--workdir DIR] [--repeat 3] [--before]

Builds (once, in DIR) a catalog of real photos (scikit-image, scikit-learn, matplotlib) with EXIF dates
and GPS, indexed by the bundled models. Then, in a new process per repeat: the time from calling the
local answer to its first step and to its answer, for the first question of the process (cold: modules,
catalog and place index not loaded) and after `Core.warm_ask` (what the Ask panel does when it opens),
then every photo asked again (warm). `--before` also times the local path the Ask panel used before
issue 22 (the bundled LLM describing regions, MiniLM; no first answer until the end) in one process.
Prints figures and the load average; never asserts times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

#: (photo, EXIF date, GPS) — GPS where a real place fits the photo's subject.
PHOTOS = {
    "astronaut": (datetime(1984, 2, 7, 13, 15), (28.5729, -80.649)),  # Kennedy Space Center
    "rocket": (datetime(2009, 7, 15, 22, 3), (28.6082, -80.6041)),
    "chelsea": (datetime(2021, 6, 5, 16, 40), (38.7223, -9.1393)),  # Lisbon
    "coffee": (datetime(2022, 11, 2, 8, 5), None),
    "camera": (datetime(1990, 5, 1, 10, 0), None),
    "china": (datetime(2015, 4, 12, 11, 20), (39.9163, 116.3972)),  # Beijing
    "flower": (datetime(2018, 8, 30, 18, 45), None),
    "grace_hopper": (None, None),
}
QUESTION = "what is this?"

CHILD = r"""
import json, sys, time
t_process = time.perf_counter()
from photosearch.config import Settings
from photosearch.core import Core
settings = Settings.load(sys.argv[1])
core = Core(settings)
ids = json.loads(sys.argv[2])
question = sys.argv[3]
opened = time.perf_counter() - t_process


def timed(pid):
    marks = {}
    t0 = time.perf_counter()
    from photosearch.ask.local import answer_locally  # cold: its import is part of the first answer
    def progress(item):
        marks.setdefault("first_step", time.perf_counter() - t0)
    data = answer_locally(core.store, settings, pid, question, progress=progress)
    return {"first_step_s": marks["first_step"], "answer_s": time.perf_counter() - t0, "answer": data["answer"]}

first_pid = ids[0]
cold = timed(first_pid)  # modules, catalog and place index not loaded yet
t = time.perf_counter()
warm_s = core.warm_ask(ids[1])  # what the panel does when it opens on a photo
warm_up = time.perf_counter() - t
after_warm = timed(ids[1])
again = [timed(pid) for pid in ids for _ in range(3)]
print(json.dumps({"open_s": opened, "cold": cold, "warm_up_s": warm_up, "after_warm": after_warm, "again": again}))
"""

BEFORE = r"""
import json, sys, time
from photosearch.config import Settings
from photosearch.core import Core
settings = Settings.load(sys.argv[1])
core = Core(settings)
ids = json.loads(sys.argv[2])
out = []
for pid in ids:
    t0 = time.perf_counter()
    from photosearch.enrich.assistant import Assistant, default_describer, local_knowledge
    from photosearch.enrich.chain import SourceBook
    from photosearch.enrich.detect import open_detector
    from photosearch.enrich.generation import generate
    from photosearch.enrich.textutil import get_embedder
    from photosearch.models.llm import get_llm
    llm, embedder = get_llm(settings), get_embedder(settings)
    assistant = Assistant(core.store, backend=None, llm=llm, embedder=embedder,
                          detector=open_detector(settings), describer=default_describer(settings, llm))
    regions, rgb = assistant.regions_for(pid, sys.argv[3])
    answer = generate(sys.argv[3], regions, [], SourceBook(), llm=llm, describer=assistant.describer,
                      image=rgb, embedder=embedder, local=local_knowledge(core.store, pid, regions))
    out.append({"answer_s": time.perf_counter() - t0, "answer": answer.text})
print(json.dumps(out))
"""


def _photos() -> dict:
    import matplotlib.cbook
    import numpy as np
    from PIL import Image
    from skimage import color, data
    from sklearn.datasets import load_sample_images

    china, flower = load_sample_images().images
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as fh:
        hopper = np.asarray(Image.open(fh).convert("RGB"))
    return {
        "astronaut": data.astronaut(),
        "rocket": data.rocket(),
        "chelsea": data.chelsea(),
        "coffee": data.coffee(),
        "camera": color.gray2rgb(data.camera()),
        "china": china,
        "flower": flower,
        "grace_hopper": hopper,
    }


def _exif(taken: datetime | None, gps: tuple[float, float] | None) -> bytes:
    import piexif

    def dms(v: float):
        v = abs(v)
        d, m = int(v), int((v - int(v)) * 60)
        s = round(((v - d) * 60 - m) * 60 * 100)
        return ((d, 1), (m, 1), (s, 100))

    ifd: dict = {"0th": {}, "Exif": {}, "GPS": {}}
    if taken:
        ifd["Exif"][piexif.ExifIFD.DateTimeOriginal] = taken.strftime("%Y:%m:%d %H:%M:%S").encode()
    if gps:
        lat, lon = gps
        ifd["GPS"] = {
            piexif.GPSIFD.GPSLatitudeRef: b"N" if lat >= 0 else b"S",
            piexif.GPSIFD.GPSLatitude: dms(lat),
            piexif.GPSIFD.GPSLongitudeRef: b"E" if lon >= 0 else b"W",
            piexif.GPSIFD.GPSLongitude: dms(lon),
        }
    return piexif.dump(ifd)


def build_catalog(workdir: Path) -> tuple[Path, list[int]]:
    """The photos, indexed by the bundled models (once: a second run reuses the catalog)."""
    from PIL import Image

    from photosearch.app import build_indexer
    from photosearch.catalog.models import Photo
    from photosearch.config import Settings
    from photosearch.core import Core

    data_dir, folder = workdir / "data", workdir / "Pictures"
    settings = Settings(data_dir=data_dir)
    core = Core(settings)
    if not core.photo_count():
        folder.mkdir(parents=True, exist_ok=True)
        for name, rgb in _photos().items():
            taken, gps = PHOTOS[name]
            Image.fromarray(rgb).save(folder / f"{name}.jpg", quality=90, exif=_exif(taken, gps))
        core.store.add_folder(folder)
        t = time.perf_counter()
        build_indexer(core.store, settings).run()
        print(
            f"indexed {core.photo_count()} photos with the bundled models in {time.perf_counter() - t:.0f} s"
        )
        settings.save()
    with core.store.session() as s:
        order = {name: i for i, name in enumerate(PHOTOS)}
        rows = sorted(s.query(Photo.id, Photo.path).all(), key=lambda r: order.get(Path(r.path).stem, 99))
    core.store.close()
    return data_dir, [r.id for r in rows]


def _child(code: str, *args: str) -> object:
    env = dict(os.environ, ORT_DISABLE_TELEMETRY="1")
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"the ask process failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.ask_first_answer", description=__doc__.splitlines()[0]
    )
    ap.add_argument("--workdir", default=str(Path.home() / ".cache" / "photosearch-bench" / "ask"))
    ap.add_argument("--repeat", type=int, default=3, help="new processes (cold runs)")
    ap.add_argument("--before", action="store_true", help="also time the local path Ask used before issue 22")
    args = ap.parse_args(argv)
    print(f"machine: {os.cpu_count()} cores; load average at start {_load()}")
    data_dir, ids = build_catalog(Path(args.workdir))
    ids_json = json.dumps(ids)
    runs = [_child(CHILD, str(data_dir), ids_json, QUESTION) for _ in range(args.repeat)]
    for i, r in enumerate(runs, 1):
        c, w = r["cold"], r["after_warm"]
        print(
            f"process {i}: Python + catalog open {r['open_s']:.2f} s; cold first step {c['first_step_s'] * 1000:.1f} ms, first answer {c['answer_s']:.2f} s; "
            f"warm-up {r['warm_up_s']:.2f} s, then first step {w['first_step_s'] * 1000:.1f} ms, "
            f"answer {w['answer_s'] * 1000:.0f} ms"
        )
    again = [a for r in runs for a in r["again"]]
    print(
        f"cold (median of {len(runs)}): first step {statistics.median(r['cold']['first_step_s'] for r in runs) * 1000:.1f} ms, "
        f"first answer {statistics.median(r['cold']['answer_s'] for r in runs):.2f} s"
    )
    print(
        f"warm (n={len(again)}): first step median {statistics.median(a['first_step_s'] for a in again) * 1000:.1f} ms, "
        f"answer median {statistics.median(a['answer_s'] for a in again) * 1000:.0f} ms, "
        f"max {max(a['answer_s'] for a in again) * 1000:.0f} ms"
    )
    print("answers:")
    names = list(PHOTOS)
    for name, a in zip(names, runs[0]["again"][::3], strict=False):
        print(f"  {name}: {a['answer']}")
    if args.before:
        before = _child(BEFORE, str(data_dir), json.dumps(ids[:3]), QUESTION)
        for name, b in zip(names, before, strict=False):
            print(
                f"before issue 22, {name}: nothing shown until the answer at {b['answer_s']:.1f} s: {b['answer']}"
            )
    print(f"load average at end {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
