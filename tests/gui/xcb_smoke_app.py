"""Drive the real app as a person would, on whatever display QT_QPA_PLATFORM names (xcb under Xvfb in
the smoke test): start `photosearch-gui`, choose the gallery folder on the welcome page, wait until
indexing is done, type a search, read the results, take a screenshot of the screen, quit.

Usage: python xcb_smoke_app.py DATA_DIR GALLERY SCREENSHOT.png "QUERY"
Prints one JSON line (platform, results, timings) and exits with the app's exit status.
"""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from photosearch.gui.app import main
from photosearch.gui.main_window import MainWindow

TIMEOUT_S = 420


def drive(gallery: str, screenshot: str, query: str, data_dir: str) -> None:
    state: dict = {"t0": time.monotonic(), "phase": "start", "platform": QGuiApplication.platformName()}

    def window() -> MainWindow | None:
        return next(
            (w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None
        )

    def finish(ok: bool, why: str = "") -> None:
        state.update(ok=ok, why=why, seconds=round(time.monotonic() - state["t0"], 1))
        print(json.dumps(state, default=str), flush=True)
        w = window()
        if w is not None:
            w.close()
        QApplication.exit(0 if ok else 1)

    def indexed(report) -> None:
        state["index"] = {k: getattr(report, k, None) for k in ("seen", "added", "failed", "analysed")}
        state["index"]["broken_analyzers"] = report.broken_analyzers() if report is not None else None

    def tick() -> None:
        if time.monotonic() - state["t0"] > TIMEOUT_S:
            return finish(False, f"timed out in phase {state['phase']}")
        w = window()
        if w is None:
            return
        if state["phase"] == "start":
            w.index_status.finished.connect(indexed)
            w.welcome.folders_chosen.emit([gallery])  # what the folder picker and drag & drop emit
            state["phase"] = "indexing"
        elif state["phase"] == "indexing":
            if "index" not in state or w.index_status.running:
                return
            state["indexed_s"] = round(time.monotonic() - state["t0"], 1)
            state["banner_after_index"] = w.health_banner.isVisible() and w.health_banner.label.text()
            w.search_bar.setFocus()
            w.search_bar.clear()
            QTest.keyClicks(w.search_bar, query)
            QTest.keyClick(w.search_bar, Qt.Key.Key_Return)
            state["phase"] = "searching"
        elif state["phase"] == "searching":
            if (
                w.last_request != query
                or w.search_task is None
                or not w.search_task.done
                or w.search_info.text() == "Searching…"
            ):
                return
            state["results"] = [p.rsplit("/", 1)[-1] for p in w.model.paths[:10]]
            state["status_line"] = w.search_info.text()
            state["phase"] = "screenshot"
            QTimer.singleShot(800, shoot)  # let thumbnails arrive

    def shoot() -> None:
        w = window()
        w.raise_()
        w.activateWindow()
        QApplication.processEvents()
        # the health check the index's end started has long answered: a banner now is a finding
        state["banner"] = w.health_banner.isVisible() and w.health_banner.label.text()
        image = QGuiApplication.primaryScreen().grabWindow(0)  # the whole X screen, as a person sees it
        state["screenshot"] = screenshot if image.save(screenshot) else None
        state["served"] = served(data_dir, query)
        timer.stop()
        finish(bool(state["results"]) and bool(state["screenshot"]))

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(200)
    _keep.append(timer)


_keep: list = []


def served(data_dir: str, query: str) -> list[str] | None:
    """What `photosearch search QUERY` in a terminal gets from the running app (its search socket)."""
    from photosearch.config import Settings
    from photosearch.search_socket.client import served_search

    found = served_search(
        Settings.load(data_dir), query, None, 5000, explain=True, now=None
    )  # as the app asks
    return [r["path"].rsplit("/", 1)[-1] for r in found.result["results"][:10]] if found else None


if __name__ == "__main__":
    data_dir, gallery, shot, query = sys.argv[1:5]
    app = QApplication([sys.argv[0]])
    drive(gallery, shot, query, data_dir)
    sys.exit(main(["--data-dir", data_dir, "--no-watch"]))
