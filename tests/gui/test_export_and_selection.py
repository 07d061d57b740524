"""Issue 22, item 3 (rest): multi-select in the grid with mouse and keyboard, and Export… of the
selection with progress, Cancel and a summary (real files copied)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt

from photosearch.export import ExportReport
from tests.gui.test_flow import search


def _idle(qtbot, w) -> None:
    qtbot.waitUntil(lambda: not w.runner.tasks, timeout=20000)
    qtbot.wait(30)


def _click(qtbot, w, row: int, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    rect = w.grid.visualRect(w.model.index(row))
    qtbot.mouseClick(w.grid.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())


def test_mouse_and_keyboard_select_several_photos(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core, size=(1000, 700))
    search(qtbot, w, "")
    _idle(qtbot, w)
    ids = w.model.ids
    assert len(ids) == 4
    _click(qtbot, w, 0)
    assert w.organize.grid_ids() == [ids[0]]
    _click(qtbot, w, 2, Qt.KeyboardModifier.ControlModifier)
    assert w.organize.grid_ids() == [ids[0], ids[2]]
    _click(qtbot, w, 2, Qt.KeyboardModifier.ControlModifier)  # Ctrl-click again: out of the selection
    assert w.organize.grid_ids() == [ids[0]]
    _click(qtbot, w, 0)
    _click(qtbot, w, 3, Qt.KeyboardModifier.ShiftModifier)  # a range from the clicked photo
    assert w.organize.grid_ids() == ids
    _click(qtbot, w, 1)
    qtbot.keyClick(w.grid, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert w.organize.grid_ids() == [ids[1], ids[2]]
    qtbot.keyClick(w.grid, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(w.grid, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert w.organize.grid_ids() == [ids[0], ids[1]]
    qtbot.keyClick(w.grid, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert w.organize.grid_ids() == ids
    # an action applies to all of them: three stars by key
    qtbot.keyClick(w.grid, Qt.Key.Key_3)
    _idle(qtbot, w)
    assert {m["rating"] for m in core.organize.marks().values()} == {3} and len(core.organize.marks()) == 4


def test_export_copies_the_selection_with_progress_and_a_summary(qtbot, make_window, indexed, tmp_path):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    _idle(qtbot, w)
    sm = w.grid.selectionModel()
    sm.clearSelection()
    for r in (0, 1):
        sm.select(w.model.index(r), QItemSelectionModel.SelectionFlag.Select)
    out = tmp_path / "exported"
    w.organize.choose_folder = lambda: str(out)  # the folder dialog's answer
    seen: list[str] = []
    w.organize.export_status.bar.valueChanged.connect(lambda v: seen.append(v))
    w.organize.act_export.trigger()
    assert w.organize.act_export.shortcut().toString() == "Ctrl+E"
    qtbot.waitUntil(lambda: not w.organize.export_status.running, timeout=20000)
    _idle(qtbot, w)
    report: ExportReport = w.organize.export_status.report
    names = sorted(os.path.basename(w.model.paths[r]) for r in (0, 1))
    assert sorted(os.listdir(out)) == names
    for r in (0, 1):
        assert (out / os.path.basename(w.model.paths[r])).read_bytes() == Path(w.model.paths[r]).read_bytes()
    assert report.summary() in w.search_info.text() and "Copied 2 of 2 photos" in w.search_info.text()
    assert seen and max(seen) == 2
    # again into the same folder: nothing is overwritten
    w.organize.export_selection(folder=str(out))
    qtbot.waitUntil(lambda: not w.organize.export_status.running, timeout=20000)
    _idle(qtbot, w)
    assert len(os.listdir(out)) == 4 and "2 renamed to keep existing files" in w.search_info.text()


def test_cancel_stops_the_copy(qtbot, make_window, indexed, tmp_path, monkeypatch):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    _idle(qtbot, w)
    qtbot.keyClick(w.grid, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    import photosearch.export as export

    gate, started, real_copy = threading.Event(), threading.Event(), export.copy_file

    def slow_copy(src, dest):  # the first photo waits until Cancel was pressed
        started.set()
        gate.wait(10)
        return real_copy(src, dest)

    monkeypatch.setattr(export, "copy_file", slow_copy)
    task = w.organize.export_selection(folder=str(tmp_path / "out"))
    status = w.organize.export_status
    assert status.isVisible() and status.cancel_btn.isVisible() and status.running
    qtbot.waitUntil(started.is_set, timeout=10000)
    status.cancel_btn.click()
    assert status.label.text() == "Stopping after this photo…"
    gate.set()
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    _idle(qtbot, w)
    assert status.report.cancelled and len(status.report.copied) == 1
    assert "stopped before the end" in w.search_info.text() and not status.cancel_btn.isVisible()


def test_nothing_selected_says_so(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "nothing at all matches this zzzzqqq")
    _idle(qtbot, w)
    w.grid.selectionModel().clearSelection()
    w.grid.setCurrentIndex(w.model.index(-1))
    assert w.organize.export_selection(folder="/tmp/x") is None
    assert "Select the photos to copy first" in w.search_info.text()


def test_files_that_could_not_be_copied_are_named_in_a_dialog(qtbot, make_window, indexed, tmp_path):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    _idle(qtbot, w)
    gone = w.model.paths[0]
    Path(gone).unlink()  # the file went away after indexing (a drive unplugged, a file deleted)
    qtbot.keyClick(w.grid, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    w.organize.export_selection(folder=str(tmp_path / "out"))
    qtbot.waitUntil(lambda: not w.organize.export_status.running, timeout=20000)
    _idle(qtbot, w)
    assert len(os.listdir(tmp_path / "out")) == 3
    box = w.errors.dialog
    assert box is not None and box.isVisible() and box.text() == "Some photos were not copied"
    assert "Copied 3 of 4 photos" in box.informativeText() and "1 skipped" in box.informativeText()
    assert f"{gone}: the file is missing (offline or moved?)" in box.detailedText()
