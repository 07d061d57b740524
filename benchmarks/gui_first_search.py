"""How long the first search after the app starts takes, with and without the background warm-up.

    QT_QPA_PLATFORM=offscreen python -m benchmarks.gui_first_search [--repeat 3]

Builds a small real catalog (example photos, bundled models) in a temp dir, then starts the real main
window in a fresh process per run and times "tabby cat" from submit to results: `cold` (no warm-up)
and `warm` wait 5 s as a person would before typing; `early` types at once, while the warm-up still
loads the models, and also prints what the status line said meanwhile. Prints each run and the
medians; compare them within one run (shared machines are noisy)."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QUERY = "tabby cat"


def build_catalog(root: Path) -> Path:
    from PIL import Image

    from photosearch.app import build_indexer
    from photosearch.catalog import Store
    from photosearch.config import Settings
    from photosearch.evaluate.example import source_photos

    gallery = root / "Pictures"
    gallery.mkdir()
    src = source_photos()
    for name in ("chelsea", "coffee", "astronaut", "rocket", "motorcycle", "china", "flower", "grace_hopper"):
        Image.fromarray(src[name]).save(gallery / f"{name}.jpg", quality=90)
    settings = Settings(data_dir=root / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    build_indexer(store, settings).run()
    store.close()
    return root / "data"


def one_run(data_dir: str, mode: str) -> tuple[float, str]:
    """(ms from submit to results, the status line right after submitting) for one fresh window."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from photosearch.config import Settings
    from photosearch.core import Core
    from photosearch.gui.main_window import MainWindow

    app = QApplication([])
    window = MainWindow(
        Core(Settings(data_dir=Path(data_dir))),
        watch=False,
        warm_up=mode != "cold",
        qsettings=QSettings(str(Path(data_dir) / "bench.ini"), QSettings.Format.IniFormat),
    )
    window.show()
    until = time.perf_counter() + (0.0 if mode == "early" else 5.0)
    while time.perf_counter() < until:
        app.processEvents()
        time.sleep(0.01)
    t0 = time.perf_counter()
    window.run_search(QUERY)
    said = window.search_info.text()
    while "photo" not in window.search_info.text() or window.search_info.text().startswith("Searching"):
        app.processEvents()
        time.sleep(0.002)
    elapsed = (time.perf_counter() - t0) * 1000
    window.runner.shutdown(3000)
    return elapsed, said


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--run", nargs=2, metavar=("DATA_DIR", "MODE"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.run:
        elapsed, said = one_run(args.run[0], args.run[1])
        print(f"{elapsed:.1f}\t{said}")
        return
    with tempfile.TemporaryDirectory(prefix="ps-bench-") as tmp:
        data = build_catalog(Path(tmp))
        times: dict[str, list[float]] = {"cold": [], "warm": [], "early": []}
        for _ in range(args.repeat):
            for mode in times:
                out = (
                    subprocess.run(
                        [sys.executable, __file__, "--run", str(data), mode],
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    .stdout.strip()
                    .splitlines()[-1]
                )
                ms, said = out.split("\t", 1)
                times[mode].append(float(ms))
                print(f"{mode:5}  first search {float(ms):8.1f} ms  (meanwhile: {said!r})", flush=True)
        for mode, values in times.items():
            print(f"median {mode:5} {statistics.median(values):8.1f} ms  ({len(values)} runs)")
        print(
            f"warm-up makes the first search {statistics.median(times['cold']) / statistics.median(times['warm']):.0f}x "
            "faster"
        )


if __name__ == "__main__":
    main()
