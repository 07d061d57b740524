"""Issue 22, item 2 (part): the viewer zooms (wheel, +/−, 1:1, fit, double-click), pans by dragging,
says "3 of 17", fills the screen (F11) and plays a slideshow (F5)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QSize, Qt
from PySide6.QtGui import QImage

from photosearch.gui import main_window
from photosearch.gui.photo_view import ImageCanvas
from tests.gui.test_flow import search


def _canvas(qtbot, size=(400, 300), photo=(1600, 1200)) -> ImageCanvas:
    c = ImageCanvas()
    qtbot.addWidget(c)
    c.resize(*size)
    c.show()
    image = QImage(photo[0] // 2, photo[1] // 2, QImage.Format.Format_RGB32)  # a half-size preview
    image.fill(Qt.GlobalColor.darkGreen)
    c.set_image(image, "", full_size=QSize(*photo))
    return c


def test_zoom_keeps_the_point_under_the_cursor_and_pans_within_the_photo(qtbot):
    c = _canvas(qtbot)
    assert c.zoom is None and abs(c.scale() - 0.25) < 1e-6  # fitted: 1600 px into 400
    fit = c.image_rect()
    assert fit.width() == 400 and fit.height() == 300
    anchor = QPointF(100, 75)  # a quarter in: the photo point (0.25, 0.25)
    c.zoom_by(2.0, anchor)
    r = c.image_rect()
    assert abs(c.scale() - 0.5) < 1e-6 and r.width() == 800
    assert abs((anchor.x() - r.x()) / r.width() - 0.25) < 1e-6  # the same photo point under the cursor
    c.actual_size()
    assert c.scale() == 1.0 and c.image_rect().width() == 1600  # one photo pixel per screen pixel
    c.pan(10_000, 10_000)  # dragged far right/down: stops at the photo's top-left corner
    assert c.image_rect().topLeft() == QPointF(0, 0)
    c.pan(-10_000, -10_000)
    r = c.image_rect()
    assert r.right() == 400 and r.bottom() == 300
    c.zoom_by(1000)
    assert c.scale() == 16.0  # capped
    c.fit()
    assert c.zoom is None and c.image_rect() == fit


def test_wheel_and_double_click_zoom(qtbot):
    c = _canvas(qtbot)
    qtbot.mouseDClick(c, Qt.MouseButton.LeftButton, pos=QPoint(200, 150))
    assert c.scale() == 1.0
    qtbot.mouseDClick(c, Qt.MouseButton.LeftButton, pos=QPoint(200, 150))
    assert c.zoom is None
    from PySide6.QtGui import QWheelEvent

    event = QWheelEvent(
        QPointF(200, 150), QPointF(c.mapToGlobal(QPoint(200, 150))), QPoint(0, 0), QPoint(0, 120),
        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False,
    )  # fmt: skip
    c.wheelEvent(event)
    assert abs(c.scale() - 0.25 * 1.25) < 1e-6


def test_position_keys_full_screen_and_slideshow(qtbot, make_window, indexed, monkeypatch):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")  # the whole library, newest first
    total = sum(1 for pid in w.model.ids if pid != main_window.SEPARATOR_ID)
    w.open_photo(w.model.ids[0])
    qtbot.waitUntil(lambda: w.photo_view.position.text() == f"1 of {total}", timeout=20000)
    w.photo_view.canvas.resize(400, 300)
    qtbot.keyClick(w.photo_view, Qt.Key.Key_1)
    assert w.photo_view.zoom_label.text() != "Fit"
    qtbot.keyClick(w.photo_view, Qt.Key.Key_0)
    assert w.photo_view.zoom_label.text() == "Fit"
    w.toggle_full_screen()
    assert w.isFullScreen()
    w.escape()
    assert not w.isFullScreen()
    monkeypatch.setattr(main_window, "SLIDESHOW_MS", 50)
    w.toggle_slideshow()
    assert w.photo_view.act_slideshow.isChecked()
    qtbot.waitUntil(lambda: w.photo_view.position.text() == f"{total} of {total}", timeout=20000)
    qtbot.waitUntil(lambda: not w.slideshow.isActive(), timeout=5000)  # it stops after the last
    assert not w.photo_view.act_slideshow.isChecked()


def test_f5_and_f11_reach_their_actions(qtbot, make_window, indexed, monkeypatch):
    """F5 plays the slideshow and F11 fills the screen when pressed: no other action claims the key
    (a second F5 binding made Qt drop both as ambiguous)."""
    core, _ids = indexed
    w = make_window(core)
    w.show()
    qtbot.waitExposed(w)
    search(qtbot, w, "")
    w.open_photo(w.model.ids[0])
    qtbot.waitUntil(lambda: w.photo_view.position.text().startswith("1 of"), timeout=20000)
    monkeypatch.setattr(main_window, "SLIDESHOW_MS", 60_000)
    w.activateWindow()
    w.photo_view.setFocus()
    qtbot.keyClick(w.photo_view, Qt.Key.Key_F5)
    assert w.slideshow.isActive()
    qtbot.keyClick(w.photo_view, Qt.Key.Key_F5)
    assert not w.slideshow.isActive()
    qtbot.keyClick(w.photo_view, Qt.Key.Key_F11)
    qtbot.waitUntil(w.isFullScreen, timeout=5000)
    qtbot.keyClick(w.photo_view, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not w.isFullScreen(), timeout=5000)


def test_no_two_window_shortcuts_share_a_key(qtbot, make_window, indexed):
    """Qt fires neither of two shortcuts on one key ("ambiguous"): every key the window listens to,
    from actions and shortcuts alike, belongs to one of them per widget it applies to."""
    from PySide6.QtGui import QAction, QShortcut

    core, _ids = indexed
    w = make_window(core)
    seen: dict[tuple[str, int], str] = {}
    for action in w.findChildren(QAction):
        if action.shortcutContext() == Qt.ShortcutContext.WidgetShortcut:
            continue  # only when its own widget has focus
        scope = id(action.parent()) if action.shortcutContext() != Qt.ShortcutContext.WindowShortcut else 0
        for key in action.shortcuts():
            name = key.toString()
            assert (name, scope) not in seen, f"{name}: {action.text()!r} and {seen[(name, scope)]!r}"
            seen[(name, scope)] = action.text()
    for shortcut in w.findChildren(QShortcut):
        scope = id(shortcut.parent()) if shortcut.context() != Qt.ShortcutContext.WindowShortcut else 0
        name = shortcut.key().toString()
        assert (name, scope) not in seen and (name, 0) not in seen, f"{name} is bound twice"
        seen[(name, scope)] = "shortcut"
