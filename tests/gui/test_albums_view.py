"""Issue 22, item 4 (albums): the Albums view (Alt+7) with cover tiles and counts, manual albums
filled from the grid's menu or by dropping photos on a tile, smart albums saved from a search that
stay current, edited through the chips and saved again; open, rename, delete."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QToolButton

from photosearch.gui.albums_view import NameRole, tile_text
from photosearch.gui.grid import PHOTO_IDS_MIME
from tests.gui.test_flow import search


def _idle(qtbot, w) -> None:
    qtbot.waitUntil(lambda: not w.runner.tasks, timeout=20000)
    qtbot.wait(30)


def _tiles(w) -> dict[str, str]:
    t = w.albums_view.tiles
    return {t.item(i).data(NameRole): t.item(i).text() for i in range(t.count())}


def test_albums_view_tiles_open_and_follow_the_library(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    assert w.act_albums.shortcut() == QKeySequence("Alt+7")
    w.act_albums.trigger()
    _idle(qtbot, w)
    assert w.stack.currentWidget() is w.albums_view and w.albums_view.tiles.count() == 0
    assert "No albums yet" in w.albums_view.status.text()
    # a manual album from the grid's menu, with the selected photos
    w.show_library()
    w.organize.new_album_with([ids["chelsea"], ids["coffee"]], name="Kitchen and cat")
    _idle(qtbot, w)
    assert w.organize.manual_albums == ["Kitchen and cat"]
    # a smart album from the search shown
    search(qtbot, w, "cat")
    w.organize.save_search(name="Cats")
    _idle(qtbot, w)
    w.show_albums()
    _idle(qtbot, w)
    assert _tiles(w) == {
        "Cats": "Cats\n1 photo · saved search",
        "Kitchen and cat": "Kitchen and cat\n2 photos",
    }
    # the tile shows the cover photo (not the grey placeholder)
    t = w.albums_view.tiles
    icon = t.item(0).icon().pixmap(150, 150).toImage()
    colours = {QColor(icon.pixel(x, y)).name() for x in range(10, 140, 13) for y in range(10, 140, 13)}
    assert len(colours) > 20
    # open the manual album: its photos in the grid, oldest first
    t.setCurrentRow(1)
    w.albums_view.btn_open.click()
    _idle(qtbot, w)
    assert w.stack.currentWidget() is w.grid.parentWidget()
    assert sorted(w.model.ids) == sorted([ids["chelsea"], ids["coffee"]])
    assert w.organize.current_album["name"] == "Kitchen and cat"
    assert "Album Kitchen and cat" in w.search_info.text()
    # remove one from it through the grid's menu
    pid = ids["coffee"]
    w.grid.setCurrentIndex(w.model.index(w.model.row_of(pid)))
    menu = w.grid_menu(pid, w.model.paths[w.model.row_of(pid)])
    w.organize.add_menu_entries(menu, pid)
    next(a for a in menu.actions() if a.text() == "Remove from album Kitchen and cat").trigger()
    _idle(qtbot, w)
    assert w.model.ids == [ids["chelsea"]]
    # Escape goes from the albums back to the library
    w.show_albums()
    _idle(qtbot, w)
    qtbot.keyClick(w.albums_view.tiles, Qt.Key.Key_Escape)
    assert w.stack.currentWidget() is not w.albums_view


def test_smart_album_is_edited_in_the_chips_and_saved_again(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    w.organize.save_search(name="Animals")
    _idle(qtbot, w)
    w.show_albums()
    _idle(qtbot, w)
    w.albums_view.select("Animals")
    assert w.albums_view.btn_edit.isEnabled()
    w.albums_view.btn_edit.click()
    _idle(qtbot, w)
    assert w.chips.plan["where"] == {"concept": "cat"} and w.search_bar.text() == "cat"
    assert w.model.ids == [ids["chelsea"]]
    # change the plan in the chips (as the chip editor does) and save it under the same name
    task = w.run_search(
        plan={"version": 1, "where": {"or": [{"concept": "cat"}, {"concept": "rocket"}]}, "compose": {}},
        keep_request=True,
    )
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    _idle(qtbot, w)
    w.organize.save_search(name="animals")
    _idle(qtbot, w)
    assert sorted(w.model.ids) == sorted([ids["chelsea"], ids["rocket"]])
    assert set(core.organize.photo_ids("Animals")) == {ids["chelsea"], ids["rocket"]}
    assert [a["name"] for a in core.organize.albums()] == ["Animals"]  # updated, not a second album


def test_dropping_photos_on_a_tile_and_on_the_albums_button(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    core.organize.create_album("Trip")
    core.organize.save_search("Smart", {"where": {"concept": "cat"}})
    w.show_albums()
    _idle(qtbot, w)
    tiles = w.albums_view.tiles
    # the grid's drag carries the photo ids
    data = w.model.mimeData([w.model.index(0), w.model.index(1)])
    assert data.hasFormat(PHOTO_IDS_MIME)
    dragged = [w.model.ids[0], w.model.ids[1]]
    row = next(i for i in range(tiles.count()) if tiles.item(i).data(NameRole) == "Trip")
    pos = QPointF(tiles.visualItemRect(tiles.item(row)).center())
    drop = QDropEvent(
        pos, Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    tiles.dropEvent(drop)
    assert drop.isAccepted()
    _idle(qtbot, w)
    assert sorted(core.organize.photo_ids("Trip")) == sorted(dragged)
    assert "Added 2 photos to Trip" in w.albums_view.status.text()
    assert _tiles(w)["Trip"] == tile_text({"name": "Trip", "kind": "manual", "count": 2})
    # a smart album takes no photos
    smart = next(i for i in range(tiles.count()) if tiles.item(i).data(NameRole) == "Smart")
    pos = QPointF(tiles.visualItemRect(tiles.item(smart)).center())
    drop = QDropEvent(
        pos, Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    tiles.dropEvent(drop)
    assert not drop.isAccepted()
    # dragging photos over the Albums button opens the albums under them
    w.show_library()
    widget = next(b for b in w.findChildren(QToolButton) if b.defaultAction() is w.act_albums)
    enter = QDragEnterEvent(
        QPoint(5, 5),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted() and w.organize._spring.isActive()  # noqa: SLF001
    qtbot.waitUntil(lambda: w.stack.currentWidget() is w.albums_view, timeout=3000)


def test_rename_and_delete(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    core.organize.create_album("Old name")
    w.show_albums()
    _idle(qtbot, w)
    w.albums_view.select("Old name")
    w.albums_view.rename_album("New name")
    _idle(qtbot, w)
    assert list(_tiles(w)) == ["New name"] and w.organize.manual_albums == ["New name"]
    w.albums_view.select("New name")
    w.albums_view.delete_album(confirm=False)
    _idle(qtbot, w)
    assert _tiles(w) == {} and core.organize.albums() == [] and w.organize.manual_albums == []


def test_tile_menu_and_keys(qtbot, make_window, indexed, monkeypatch):
    from PySide6.QtWidgets import QInputDialog, QMessageBox

    core, ids = indexed
    w = make_window(core)
    search(qtbot, w, "")
    core.organize.save_search("Cats", {"where": {"concept": "cat"}}, "cat")
    w.show_albums()
    _idle(qtbot, w)
    w.albums_view.select("Cats")
    labels = [a.text() for a in w.albums_view.tile_menu().actions()]
    assert labels == ["Open", "Edit search", "Rename…\tF2", "Delete\tDel"]
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Kittens", True))
    w.albums_view.tiles.setFocus()
    qtbot.keyClick(w.albums_view.tiles, Qt.Key.Key_F2)
    _idle(qtbot, w)
    assert list(_tiles(w)) == ["Kittens"]
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    w.albums_view.select("Kittens")
    qtbot.keyClick(w.albums_view.tiles, Qt.Key.Key_Delete)
    _idle(qtbot, w)
    assert list(_tiles(w)) == ["Kittens"]  # the question was answered No
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.keyClick(w.albums_view.tiles, Qt.Key.Key_Delete)
    _idle(qtbot, w)
    assert _tiles(w) == {} and core.organize.albums() == []
