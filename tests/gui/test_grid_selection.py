"""A selected photo in the grid is framed whole, thumbnail and name: the style's own selection filled
the space under a wide thumbnail with a block of the highlight colour (seen on xcb under Xvfb)."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtGui import QColor

from tests.gui.test_flow import search


def _near(c: QColor, want: QColor, tol: int = 16) -> bool:
    return max(abs(c.red() - want.red()), abs(c.green() - want.green()), abs(c.blue() - want.blue())) < tol


def _share(image, rect, want: QColor, rows: range) -> float:
    """The share of the tile's pixels in these rows (tile coordinates) that are the colour."""
    dpr = image.devicePixelRatio()
    hits = total = 0
    for y in rows:
        for x in range(rect.left() + 4, rect.right() - 4):
            total += 1
            hits += _near(QColor(image.pixel(int(x * dpr), int((rect.top() + y) * dpr))), want)
    return hits / max(total, 1)


def test_a_selected_tile_is_framed_not_filled(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core, size=(900, 600))
    search(qtbot, w, "")
    qtbot.waitUntil(lambda: not w.runner.tasks and w.model.rowCount() > 1, timeout=20000)
    w.grid.selectionModel().clearSelection()
    w.grid.selectionModel().select(w.model.index(0), QItemSelectionModel.SelectionFlag.Select)
    w.grid.viewport().update()
    qtbot.wait(50)
    image = w.grid.viewport().grab().toImage()
    highlight = w.grid.palette().highlight().color()
    rect = w.grid.visualRect(w.model.index(0))
    dpr = image.devicePixelRatio()
    left_edge = [
        _near(QColor(image.pixel(int((rect.left() + dx) * dpr), int((rect.top() + y) * dpr))), highlight)
        for y in range(10, rect.height() - 10)
        for dx in (1, 2, 3)
    ]
    assert sum(left_edge) / len(left_edge) > 0.3  # a frame down the tile's side
    caption = range(rect.height() - 30, rect.height() - 6)
    assert _share(image, rect, highlight, caption) < 0.2  # no block of colour under the thumbnail
    other = w.grid.visualRect(w.model.index(1))
    assert _share(image, other, highlight, range(2, other.height() - 2)) < 0.02  # unselected: unframed
