"""Issue 22, item 3 (part): "Open with…" and "Show in folder" hand the photo to the desktop; when the
desktop has no handler, a message says so and offers to copy the path (it used to do nothing)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.gui.test_flow import search


def _open_first(qtbot, w):
    pid = w.model.ids[0]
    task = w.open_photo(pid)
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    return w.photo_view.details.path


def test_without_a_handler_the_user_is_told_and_can_copy_the_path(qtbot, make_window, indexed, monkeypatch):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    path = _open_first(qtbot, w)
    asked: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: asked.append(url.toLocalFile()) or False)
    w.photo_view.open_folder()
    box = w.photo_view.desktop_message
    assert asked == [str(Path(path).parent)]
    assert isinstance(box, QMessageBox) and box.isVisible() and "folder" in box.text()
    copy = next(b for b in box.buttons() if b.text() == "Copy path")
    copy.click()
    assert QApplication.clipboard().text() == str(Path(path).parent)
    w.photo_view.open_with_default()
    assert asked[-1] == path and "photo" in w.photo_view.desktop_message.text()


def test_with_a_handler_nothing_is_in_the_way(qtbot, make_window, indexed, monkeypatch):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    path = _open_first(qtbot, w)
    asked: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: asked.append(url.toLocalFile()) or True)
    w.photo_view.open_with_default()
    assert asked == [path] and w.photo_view.desktop_message is None
    menu = w.grid_menu(w.model.ids[0], w.model.paths[0])
    labels = [a.text() for a in menu.actions()]
    assert "Open with the default application" in labels and "Show in folder" in labels
