"""The window fits the screen it opens on, first time and after a bigger screen saved its size: the
status bar, with indexing's progress and Cancel, must stay on screen (a 1366x768 laptop)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication


def _free() -> QSize:
    return QGuiApplication.primaryScreen().availableGeometry().size()


def test_first_start_fits_the_screen(make_window, core):
    w = make_window(core, size=None)
    free = _free()
    assert free.width() < 1280 or free.height() < 820  # the test screen is smaller than the default
    assert w.width() <= free.width() and w.height() <= free.height()
    assert w.statusBar().geometry().bottom() <= free.height()


def test_a_size_saved_on_a_bigger_screen_is_fitted(make_window, core, qsettings):
    qsettings.setValue("window/size", QSize(2560, 1440))
    w = make_window(core, size=None)
    free = _free()
    assert w.width() <= free.width() and w.height() <= free.height()
    qsettings.setValue("window/size", QSize(700, 540))  # a saved size that fits is kept as it is
    w2 = make_window(core, size=None)
    assert (w2.width(), w2.height()) == (700, 540)
