"""How long the first search after the app starts takes, with and without the background warm-up.

    QT_QPA_PLATFORM=offscreen python -m benchmarks.gui_first_search [--repeat 3]

Builds a small real catalog (example photos, bundled models) in a temp dir, then starts the real main
window in a fresh process per run, waits 5 s as a person would before typing, and times "tabby cat"
from submit to results. Prints each run and the medians; compare the two in one run (shared machines
are noisy)."""

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


def one_run(data_dir: str, warm: bool) -> float:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from photosearch.config import Settings
    from photosearch.core import Core
    from photosearch.gui.main_window import MainWindow

    app = QApplication([])
    window = MainWindow(Core(Settings(data_dir=Path(data_dir))), watch=False, warm_up=warm,
                        qsettings=QSettings(str(Path(data_dir) / "bench.ini"), QSettings.Format.IniFormat))
    window.show()
    until = time.perf_counter() + 5.0
    while time.perf_counter() < until:
        app.processEvents()
        time.sleep(0.01)
    t0 = time.perf_counter()
    window.run_search(QUERY)
    while "photo" not in window.search_info.text() or window.search_info.text() == "Searching…":
        app.processEvents()
        time.sleep(0.002)
    elapsed = (time.perf_counter() - t0) * 1000
    window.runner.shutdown(3000)
    return elapsed


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--run", nargs=2, metavar=("DATA_DIR", "MODE"), help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.run:
        print(f"{one_run(args.run[0], args.run[1] == 'warm'):.1f}")
        return
    with tempfile.TemporaryDirectory(prefix="ps-bench-") as tmp:
        data = build_catalog(Path(tmp))
        times: dict[str, list[float]] = {"cold": [], "warm": []}
        for _ in range(args.repeat):
            for mode in ("cold", "warm"):
                out = subprocess.run([sys.executable, __file__, "--run", str(data), mode], capture_output=True,
                                     text=True, check=True).stdout.strip().splitlines()[-1]
                times[mode].append(float(out))
                print(f"{mode:4}  first search {float(out):8.1f} ms", flush=True)
        for mode, values in times.items():
            print(f"median {mode:4} {statistics.median(values):8.1f} ms  ({len(values)} runs)")
        print(f"warm-up makes the first search {statistics.median(times['cold']) / statistics.median(times['warm']):.0f}x "
              "faster")


if __name__ == "__main__":
    main()
