"""The indexing view tells the user what they must fix: a run that could not write thumbnails because
the disk is full (a real, full tmpfs) ends with the warning and what to do, shown in the window."""

from __future__ import annotations

from photosearch.app import build_indexer
from photosearch.gui.bridge import TaskRunner
from photosearch.gui.indexing import IndexStatus, warning_text
from photosearch.ingest.report import IndexReport
from tests.conftest import fill_disk, tmpfs


def _run(qtbot, status: IndexStatus, job) -> IndexReport:
    with qtbot.waitSignal(status.finished, timeout=60000) as blocker:
        status.start(job)
    return blocker.args[0]


def test_a_full_disk_is_shown_with_what_to_do_and_cleared_by_the_next_good_run(qtbot, core, gallery):
    core.store.add_folder(gallery)
    runner = TaskRunner()
    status = IndexStatus(runner, on_error=lambda info: None)
    qtbot.addWidget(status)
    status.show()

    def job(progress, cancel):
        return build_indexer(core.store, core.settings, analyzers=[], post_steps=[]).run(
            progress=progress, cancel=cancel
        )

    with tmpfs(core.settings.thumbs_dir, "256k"):
        fill_disk(core.settings.thumbs_dir)
        report = _run(qtbot, status, job)
        assert report.failed_by_reason == {"disk_full": 4}
        shown = status.warning.text()
        assert status.warning.isVisible() and "4 skipped" in status.label.text()
        assert "the disk is full" in shown and "free some space and click Index now" in shown
        assert "photosearch index" not in shown  # the window's words, not the command line's
        assert shown == warning_text(report.warnings) and len(report.warnings) == 1

    report = _run(qtbot, status, job)  # space again: retried, indexed, the warning goes
    assert report.added == 4 and report.warnings == []
    assert not status.warning.isVisible() and status.warning.text() == ""
    runner.shutdown()


def test_each_warning_gets_its_line():
    text = warning_text(
        [
            "cannot write thumbnails to /t: Permission denied; fix the folder and run "
            "`photosearch index` again (nothing was lost)",
            "second",
        ]
    )
    assert text.splitlines() == [
        "⚠ cannot write thumbnails to /t: Permission denied; fix the folder and click Index now (nothing was lost)",
        "⚠ second",
    ]


def test_the_app_catches_up_with_photos_added_while_it_was_closed_then_watches(
    qtbot, make_window, core, gallery
):
    """A folder holds photos the catalog does not know yet (added while the app was closed): on
    start the app indexes them, with the progress shown, shows them, and only then watches."""
    core.store.add_folder(gallery)  # registered, never indexed

    def indexer():
        return build_indexer(core.store, core.settings, analyzers=[], post_steps=[])

    w = make_window(core, watch=True, indexer_factory=indexer)
    assert w.index_status.running and w.watcher is None  # the catch-up first
    qtbot.waitUntil(lambda: w.model.rowCount() == 4, timeout=60000)
    qtbot.waitUntil(lambda: w.watcher is not None, timeout=10000)
    assert "Up to date" in w.index_status.label.text()
    w.refresh_library_state()  # later refreshes do not index again
    assert not w.index_status.running
    w.stop_watching()


def test_new_photos_appear_in_the_library_while_the_run_indexes_them(
    qtbot, make_window, core, gallery, monkeypatch
):
    """A first run over a big library takes hours: the library shows the photos that have landed
    as the run goes, not a blank page until it ends; the run then completes as before."""
    from photosearch.gui import main_window
    from tests.fakes import MeanColourAnalyzer

    monkeypatch.setattr(main_window, "LIVE_REFRESH_S", 0.0)
    monkeypatch.setattr(main_window, "LIVE_REFRESH_SHARE", 1.0)  # a slow machine's listing still fits
    core.store.add_folder(gallery)
    core.settings.batch_size = 1  # each photo lands on its own

    def indexer():
        return build_indexer(
            core.store, core.settings, analyzers=[MeanColourAnalyzer(sleep_s=0.6)], post_steps=[]
        )

    w = make_window(core, watch=True, indexer_factory=indexer)
    assert w.index_status.running
    seen_while_running: list[int] = []

    def some_shown_while_running() -> bool:
        if w.index_status.running and w.model.rowCount() > 0:
            seen_while_running.append(w.model.rowCount())
        return bool(seen_while_running)

    qtbot.waitUntil(some_shown_while_running, timeout=60000)
    qtbot.waitUntil(lambda: not w.index_status.running and w.model.rowCount() == 4, timeout=60000)
    w.stop_watching()
