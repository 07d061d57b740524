"""Issue 22, item 4 (marks): the heart and stars in the viewer, the grid's keys and context menu, for
the whole selection; the tiles show them (pixels), and the requests find them."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor

from tests.gui.test_flow import search


def _select(w, rows: list[int]) -> None:
    sm = w.grid.selectionModel()
    sm.clearSelection()
    for r in rows:
        sm.select(w.model.index(r), QItemSelectionModel.SelectionFlag.Select)


def _wait_idle(qtbot, w) -> None:
    qtbot.waitUntil(lambda: not w.runner.tasks, timeout=20000)
    qtbot.wait(20)


def _marks(core) -> dict:
    return core.organize.marks()


def test_keys_in_the_grid_mark_the_whole_selection(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    _wait_idle(qtbot, w)
    w.grid.setFocus()
    _select(w, [0, 2])
    picked = [w.model.ids[0], w.model.ids[2]]
    qtbot.keyClick(w.grid, Qt.Key.Key_4)
    _wait_idle(qtbot, w)
    assert {pid: m["rating"] for pid, m in _marks(core).items()} == {picked[0]: 4, picked[1]: 4}
    qtbot.keyClick(w.grid, Qt.Key.Key_F)
    _wait_idle(qtbot, w)
    assert all(_marks(core)[p]["favourite"] for p in picked)
    assert w.model.marks[picked[0]] == {"favourite": True, "rating": 4}
    qtbot.keyClick(w.grid, Qt.Key.Key_F)  # all have the heart: F takes it away
    _wait_idle(qtbot, w)
    assert not any(_marks(core)[p]["favourite"] for p in picked)
    qtbot.keyClick(w.grid, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)  # digiKam's clear
    _wait_idle(qtbot, w)
    assert _marks(core) == {} and w.model.marks == {}


def test_the_viewer_heart_and_stars(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    pid = w.model.ids[1]
    w.open_photo(pid)
    qtbot.waitUntil(
        lambda: w.photo_view.details is not None and w.photo_view.details.id == pid, timeout=20000
    )
    _wait_idle(qtbot, w)
    bar = w.organize.marks_bar
    assert bar.isEnabled() and not bar.favourite and bar.rating == 0
    bar.heart.click()
    _wait_idle(qtbot, w)
    assert _marks(core)[pid]["favourite"] and bar.favourite
    assert bar.heart.toolTip().startswith("Remove from favourites")
    bar.stars[2].click()  # three stars
    _wait_idle(qtbot, w)
    assert _marks(core)[pid]["rating"] == 3 and bar.rating == 3
    bar.stars[2].click()  # the same star again clears them
    _wait_idle(qtbot, w)
    assert _marks(core)[pid]["rating"] is None and bar.rating == 0
    w.photo_view.setFocus()
    qtbot.keyClick(w.photo_view, Qt.Key.Key_5, Qt.KeyboardModifier.ControlModifier)
    _wait_idle(qtbot, w)
    assert _marks(core)[pid]["rating"] == 5 and bar.rating == 5
    qtbot.keyClick(w.photo_view, Qt.Key.Key_F)
    _wait_idle(qtbot, w)
    assert not _marks(core)[pid]["favourite"]
    qtbot.keyClick(w.photo_view, Qt.Key.Key_0)  # 0 stays the viewer's "fit", not a rating
    _wait_idle(qtbot, w)
    assert _marks(core)[pid]["rating"] == 5
    qtbot.keyClick(w.photo_view, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)  # not a view switch
    _wait_idle(qtbot, w)
    assert _marks(core)[pid]["rating"] == 2 and w.stack.currentWidget() is w.photo_view
    qtbot.keyClick(w.photo_view, Qt.Key.Key_4, Qt.KeyboardModifier.AltModifier)  # the views are Alt+1…7
    assert w.stack.currentWidget() is w.timeline


def test_context_menu_marks_and_tiles_show_them(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core, size=(900, 600))
    search(qtbot, w, "")
    _wait_idle(qtbot, w)
    _select(w, [0, 1])
    pid = w.model.ids[0]
    menu = w.grid_menu(pid, w.model.paths[0])
    w.organize.add_menu_entries(menu, pid)
    labels = [a.text() for a in menu.actions()]
    before = w.grid.viewport().grab().toImage()
    fav = next(a for a in menu.actions() if a.text().startswith("Add to favourites (2 photos)"))
    assert any(t.startswith("Stars (2 photos)") for t in labels)
    assert any(t.startswith("Add to album (2 photos)") for t in labels)
    assert any(t.startswith("Export… (2 photos)") for t in labels)
    fav.trigger()
    _wait_idle(qtbot, w)
    stars = next(a for a in menu.actions() if a.text().startswith("Stars")).menu()
    next(a for a in stars.actions() if a.text().startswith("★★ \t") or a.text().startswith("★★\t")).trigger()
    _wait_idle(qtbot, w)
    assert {p: m for p, m in _marks(core).items()} == {
        w.model.ids[0]: {"favourite": True, "rating": 2},
        w.model.ids[1]: {"favourite": True, "rating": 2},
    }
    w.grid.viewport().update()
    qtbot.wait(50)
    after = w.grid.viewport().grab().toImage()
    for row in (0, 1):
        heart, star = _overlay_pixels(w, before, row), _overlay_pixels(w, after, row)
        assert star[0] - heart[0] > 10 and star[1] - heart[1] > 10, (row, heart, star)
    assert _overlay_pixels(w, after, 3) == _overlay_pixels(w, before, 3)  # unmarked: nothing drawn


def _overlay_pixels(w, image, row: int) -> tuple[int, int]:
    """(heart-red, star-yellow) pixels in the top band of a tile, where the marks are drawn."""
    from photosearch.gui.grid import HEART_COLOR, STAR_COLOR

    rect = w.grid.visualRect(w.model.index(row))
    dpr = image.devicePixelRatio()
    counts = [0, 0]
    for y in range(int(rect.top() * dpr), int((rect.top() + 30) * dpr)):
        for x in range(int(rect.left() * dpr), int(rect.right() * dpr)):
            c = QColor(image.pixel(x, y))
            for i, want in enumerate((HEART_COLOR, STAR_COLOR)):
                if (
                    max(abs(c.red() - want.red()), abs(c.green() - want.green()), abs(c.blue() - want.blue()))
                    < 14
                ):
                    counts[i] += 1
    return counts[0], counts[1]


def test_requests_find_the_marks_made_in_the_app(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    core.organize.set_marks([ids["chelsea"], ids["rocket"]], favourite=True)
    core.organize.set_marks([ids["rocket"]], rating=4)
    core.organize.set_marks([ids["coffee"]], rating=2)
    search(qtbot, w, "favourite photos")
    assert sorted(w.model.ids) == sorted([ids["chelsea"], ids["rocket"]])
    search(qtbot, w, "4 stars and up")
    assert [i for i, s in zip(w.model.ids, w.model.states, strict=True) if s == "full"] == [ids["rocket"]]
    search(qtbot, w, "rated 2 or more")
    assert sorted(i for i, s in zip(w.model.ids, w.model.states, strict=True) if s == "full") == sorted(
        [ids["rocket"], ids["coffee"]]
    )
