"""The bridge (cancel and pause reach the core), the 100k-row grid, error dialogs, screenshots."""

from __future__ import annotations

import time

import numpy as np
import pytest


class SlowAnalyzer:
    """A real analyzer (mean colour) that takes its time, so a run can be paused and cancelled."""

    name = "slow_mean"
    version = 1

    def analyze(self, image):
        from photosearch.records import AnalysisResult, FactRecord

        time.sleep(0.15)
        r, g, b = np.asarray(image.rgb).reshape(-1, 3).mean(axis=0)
        return AnalysisResult(facts=[FactRecord("color", "red" if r > max(g, b) else "other", 1.0)])


def test_cancel_and_pause_reach_the_indexer(qtbot, core, tmp_path, small_photos):
    from PIL import Image

    from photosearch.app import build_indexer
    from photosearch.gui.bridge import TaskRunner
    from photosearch.gui.indexing import IndexStatus

    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(24):
        rgb = list(small_photos.values())[i % 4]
        Image.fromarray(np.roll(rgb, i, axis=1)).resize((96, 96)).save(folder / f"p{i:02d}.jpg")
    core.store.add_folder(folder)
    core.settings.batch_size = 1
    runner = TaskRunner()
    errors = []
    status = IndexStatus(runner, errors.append)
    qtbot.addWidget(status)
    seen = []

    def job(progress, cancel):
        return build_indexer(core.store, core.settings, analyzers=[SlowAnalyzer()], post_steps=[]).run(
            progress=progress, cancel=cancel
        )

    task = status.start(job)
    task.signals.progress.connect(lambda p: seen.append(p.done))
    qtbot.waitUntil(lambda: any(d >= 2 for d in seen), timeout=30000)
    status.toggle_pause()
    assert task.paused and "Paused" in status.label.text()
    qtbot.wait(400)  # let the batch in flight finish; then nothing moves while paused
    frozen = max(seen)
    qtbot.wait(600)
    assert max(seen) == frozen, "a paused run makes no progress"
    status.toggle_pause()
    assert not task.paused
    qtbot.waitUntil(lambda: max(seen) > frozen, timeout=30000)
    with qtbot.waitSignal(status.finished, timeout=30000) as blocker:
        status.cancel()
    report = blocker.args[0]
    assert report.cancelled, "the cancel flag reached the core"
    assert report.analysed < 24
    assert task.cancel_polls > 0
    assert "Stopped" in status.label.text()
    assert not errors
    runner.shutdown()


def test_failed_task_becomes_a_clear_error(qtbot):
    from photosearch.errors import PhotoSearchError
    from photosearch.gui.bridge import ErrorInfo, TaskRunner
    from photosearch.gui.errors import ErrorReporter

    runner = TaskRunner()
    got = []

    def boom(_p, _c):
        raise PhotoSearchError("the catalog is locked by another process; close it and try again")

    runner.submit(boom, name="Search", on_error=got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=5000)
    info: ErrorInfo = got[0]
    assert info.message.startswith("the catalog is locked")
    assert "Traceback" not in info.message and "Traceback" in info.details
    box = ErrorReporter(None).show(info)
    qtbot.addWidget(box)
    assert box.informativeText() == info.message and "Traceback" in box.detailedText()
    unexpected = ErrorInfo.from_exception(ValueError("bad"))
    assert "ValueError" in unexpected.message and "Traceback" not in unexpected.message
    runner.shutdown()


def test_grid_100k_rows_only_requests_visible_thumbnails(qtbot, tmp_path, small_photos):
    from PIL import Image

    from photosearch.gui.bridge import TaskRunner
    from photosearch.gui.grid import IdRole, ResultsModel, ThumbnailGrid
    from photosearch.gui.thumbs import ThumbnailCache

    thumb = tmp_path / "t.webp"
    Image.fromarray(small_photos["chelsea"]).resize((256, 170)).save(thumb, "WEBP")
    resolved = []

    def resolver(pid):
        resolved.append(pid)
        return str(thumb)

    runner = TaskRunner()
    cache = ThumbnailCache(runner, resolver, size=128, dpr=2.0)
    model = ResultsModel(cache)
    t0 = time.perf_counter()
    model.set_results([{"id": i, "path": f"/photos/{i}.jpg", "score": 1.0} for i in range(100_000)])
    print(f"100k rows set in {time.perf_counter() - t0:.3f}s")
    assert model.rowCount() == 100_000
    view = ThumbnailGrid(icon_size=128)
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(800, 600)
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: len(cache._cache) > 0 and not cache._queue and cache._jobs == 0, timeout=20000)
    first = set(cache.requested)
    assert 0 < len(first) < 100, f"{len(first)} thumbnails requested for one screen"
    assert max(first) < 100
    pix = cache.pixmap(next(iter(first)))
    assert pix is not None and pix.devicePixelRatio() == 2.0 and pix.width() == 256, "high-DPI thumbnail"
    view.scrollToBottom()
    qtbot.waitUntil(lambda: any(k > 99_000 for k in cache.requested), timeout=20000)
    assert len(cache.requested) < 250
    assert model.row_of(99_999) == 99_999 and model.index(5).data(IdRole) == 5
    runner.shutdown()


@pytest.mark.slow
def test_screenshot_script_writes_real_pngs(qtbot, tmp_path):
    from PySide6.QtGui import QImage

    from photosearch.gui.screenshots import SHOTS, take_screenshots

    shots = take_screenshots(tmp_path / "shots", tmp_path / "work")
    assert set(shots) == set(SHOTS)
    for name, path in shots.items():
        assert path.stat().st_size > 5000, name
        img = QImage(str(path))
        assert not img.isNull() and img.width() > 400, name
        small = img.scaled(64, 40)
        colours = {small.pixel(x, y) for x in range(64) for y in range(40)}
        assert len(colours) > 20, f"{name} looks blank"
    _check_map_shot(QImage(str(shots["map"])))
    # the albums view: three tiles whose covers are photos (many colours where the tiles are)
    albums = QImage(str(shots["albums"]))
    tiles = albums.copy(0, albums.height() // 6, albums.width() // 2, albums.height() // 3).scaled(64, 40)
    assert len({tiles.pixel(x, y) for x in range(64) for y in range(40)}) > 300, "albums: no cover photos"


def _check_map_shot(img) -> None:
    """The map's PNG shows sea, land and the demo photos' pins (their colour or thumbnails' frames)."""
    from collections import Counter

    from photosearch.gui.map_view import LAND, PIN, SEA

    seen = Counter(
        img.pixel(x, y) & 0xFFFFFF for x in range(0, img.width(), 2) for y in range(0, img.height(), 2)
    )
    sampled = sum(seen.values())
    assert seen[SEA.rgb() & 0xFFFFFF] > 0.2 * sampled  # most of the world is sea
    assert seen[LAND.rgb() & 0xFFFFFF] > 0.05 * sampled
    assert seen[PIN.rgb() & 0xFFFFFF] > 100 and len(seen) > 50
