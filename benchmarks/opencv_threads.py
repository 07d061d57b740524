"""CPU and wall time of the detector's OpenCV DNN pass on one thread and on two (prints figures).

    python -m benchmarks.opencv_threads [--count 20] [--rounds 2]

Makes camera-like 12 MP photos (`benchmarks/camera_set.py`), decodes them as indexing does (1280 px),
and runs the bundled SSD MobileNet on each with OpenCV's pool at one and at two threads, alternating
rounds; prints milliseconds of wall and CPU time per photo for each, and whether the outputs are
identical. The indexer's model lanes already keep the cores busy, so the pool's size is chosen by
CPU per photo (`models/runtimes/opencv_dnn.opencv_threads`).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from benchmarks.camera_set import write_camera_set
from photosearch.config import Settings
from photosearch.ingest.decode import open_image


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)

    import cv2

    from photosearch.vision.detector import SsdMobileNetDetector

    with tempfile.TemporaryDirectory() as tmp:
        paths = write_camera_set(Path(tmp), 12, args.count)
        images = [np.asarray(open_image(p, max_side=1280).image) for p in paths]
    model = SsdMobileNetDetector(Settings())
    model.load()
    outputs: dict[int, list[np.ndarray]] = {}
    for _ in range(args.rounds):
        for threads in (2, 1):
            cv2.setNumThreads(threads)
            t0, c0 = time.perf_counter(), time.process_time()
            found = [model._predict(a) for a in images]
            wall = (time.perf_counter() - t0) / len(images) * 1000
            cpu = (time.process_time() - c0) / len(images) * 1000
            print(
                f"  {threads} thread{'s' if threads > 1 else ' '}: wall {wall:6.1f} ms  CPU {cpu:6.1f} ms per photo"
            )
            outputs.setdefault(threads, found)
    same = all(np.array_equal(a, b) for a, b in zip(outputs[1], outputs[2], strict=True))
    print(f"  outputs identical on one and two threads: {same}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
