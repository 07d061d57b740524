"""Issue 22, item 1 (browse): the timeline (day and month headers, newest first, "No date" last, a
date scrubber, lazy thumbnails, open/arrows/back, selection and the context menu), the folder tree
(counts, click-through), and dates and place names in the grid's tooltips and the photo details."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMenu

from photosearch.browse import date_words

LISBON = (38.7139, -9.1394)
SINTRA = (38.7877, -9.3906)
#: (folder, name, taken, gps): across days, months and years, two without a date.
PHOTOS = (
    ("2021/March", "tram", datetime(2021, 3, 20, 10, 0), LISBON),
    ("2021/March", "tiles", datetime(2021, 3, 20, 15, 30), LISBON),
    ("2021/March", "palace", datetime(2021, 3, 7, 9, 0), SINTRA),
    ("2021", "newyear", datetime(2021, 1, 2, 12, 0), None),
    ("2019", "summer", datetime(2019, 8, 10, 8, 0), None),
    ("Scans", "scan1", None, None),
    ("Scans", "scan2", None, None),
)


@pytest.fixture
def dated(tmp_path: Path, core, small_photos):
    """A real catalog of `PHOTOS` (JPEGs with EXIF dates and GPS), indexed, with its places named."""
    from photosearch.app import build_indexer
    from photosearch.evaluate.example import exif_bytes
    from photosearch.query.resolvers.places import ensure_place_facts

    root = tmp_path / "Pictures"
    sources = list(small_photos.values())
    for i, (folder, name, taken, gps) in enumerate(PHOTOS):
        (root / folder).mkdir(parents=True, exist_ok=True)
        rgb = np.ascontiguousarray(sources[i % len(sources)][i * 8 :, i * 8 :, :3])
        Image.fromarray(rgb).save(root / folder / f"{name}.jpg", quality=90, exif=exif_bytes(taken, gps=gps))
    core.store.add_folder(root)
    build_indexer(core.store, core.settings, analyzers=[], post_steps=[]).run()
    ensure_place_facts(core.store)
    ids = {Path(p["path"]).stem: p["id"] for p in core.all_photos()}
    return core, ids, root.resolve()


def synthetic(core, root: Path, photos: int = 2000) -> list[int]:
    """A large real catalog made fast: photos rows inserted directly (no files), ~14 a month."""
    from sqlalchemy import insert

    from photosearch.catalog.models import Folder, Photo

    start = datetime(2012, 1, 1)
    rows = [
        {
            "id": i,
            "folder_id": 1,
            "path": f"{root}/IMG_{i:05d}.jpg",
            "content_hash": f"{i:064x}",
            "size": 1,
            "mtime": 0.0,
            "taken_at": start + timedelta(hours=52 * i),
            "state": "active",
        }
        for i in range(1, photos + 1)
    ]
    with core.store.begin() as conn:
        conn.execute(insert(Folder), [{"id": 1, "path": str(root), "online": True}])
        conn.execute(insert(Photo), rows)
    return [r["id"] for r in rows]


def open_timeline(qtbot, w):
    w.show_timeline()
    qtbot.waitUntil(lambda: w.timeline.info.text() != "Loading…", timeout=10000)  # delivered
    return w.timeline


def test_timeline_groups_by_day_under_month_headers_newest_first_undated_last(qtbot, make_window, dated):
    from photosearch.gui.timeline_view import day_label, month_label

    core, ids, _root = dated
    w = make_window(core)
    page = open_timeline(qtbot, w)
    model = page.model
    names = {v: k for k, v in ids.items()}
    order = [names[i] for i in model.ids]
    assert order[:5] == ["tiles", "tram", "palace", "newyear", "summer"]
    assert sorted(order[5:]) == ["scan1", "scan2"]  # no date: last
    assert [(g.key, g.count) for g in model.groups] == [
        ("2021-03-20", 2),
        ("2021-03-07", 1),
        ("2021-01-02", 1),
        ("2019-08-10", 1),
        ("", 2),
    ]
    assert [m.label for m in model.months()] == ["March 2021", "January 2021", "August 2019", "No date"]
    assert [day_label(g.key) for g in model.groups] == [
        "Sat 20 March",
        "Sun 7 March",
        "Sat 2 January",
        "Sat 10 August",
        "No date",
    ]
    assert month_label("2019-08") == "August 2019"
    # the day's header names where most of its photos were taken
    assert model.day_place(0) == "Lisbon, Portugal" and model.day_place(1) == "Sintra, Lisbon, Portugal"
    assert page.info.text() == "7 photos · 2019–2021 · 2 without a date"
    # the layout puts a month header above the first day of each month only
    lay = page.view.layout_now()
    assert lay.month_header == [True, False, True, True, True]
    first, second = page.view._tile_rect(0), page.view._tile_rect(1)
    assert first.top() == second.top() and second.left() > first.left()  # one day: one row
    assert page.view._tile_rect(2).top() > first.bottom()  # the next day below, under its header


def test_scrubber_jumps_to_the_month_and_names_it(qtbot, make_window, core, tmp_path):
    synthetic(core, tmp_path / "Pictures")
    w = make_window(core, size=(900, 650))
    page = open_timeline(qtbot, w)
    view, scrubber = page.view, page.scrubber
    months = page.model.months()
    assert len(months) > 100 and view.verticalScrollBar().maximum() > 10 * view.viewport().height()
    target = months[len(months) // 2]
    y = scrubber.y_of(target.start + target.count // 2)
    qtbot.mouseMove(scrubber, QPoint(20, y))
    qtbot.waitUntil(lambda: scrubber.bubble.isVisible())
    assert scrubber.bubble.text() == target.label  # the bubble names the month under the cursor
    qtbot.mouseClick(scrubber, Qt.MouseButton.LeftButton, pos=QPoint(20, y))
    row = view.first_visible_row()
    assert page.model.taken[row][:7] == target.key  # the view shows that month at its top
    group = next(g for g, grp in enumerate(page.model.groups) if grp.month == target.key)
    assert view.verticalOffset() == view.layout_now().tops[group]  # its header is the first line
    assert abs(scrubber.y_of(scrubber.position) - y) <= scrubber.height() // 50  # the marker followed


def test_only_visible_thumbnails_are_asked_for(qtbot, make_window, core, tmp_path):
    ids = synthetic(core, tmp_path / "Pictures")
    w = make_window(core, size=(900, 650))
    qtbot.waitUntil(lambda: len(w.thumbs._cache) > 0 and not w.thumbs._inflight)
    w.thumbs.clear()  # the library grid asked for (and cached) its own visible photos
    w.thumbs.requested.clear()
    page = open_timeline(qtbot, w)
    view = page.view

    def visible() -> set[int]:
        rect = view.viewport().rect()
        return {
            page.model.ids[r]
            for r in range(len(ids))
            if view.visualRect(page.model.index(r, 0)).intersects(rect)
        }

    qtbot.waitUntil(lambda: len(w.thumbs.requested) > 0)
    shown = visible()
    assert 0 < len(shown) < 60
    assert w.thumbs.requested <= shown, "a thumbnail off screen was asked for"
    w.thumbs.requested.clear()
    page.view.scroll_to_month(page.model.months()[40].key)
    qtbot.waitUntil(lambda: len(w.thumbs.requested) > 0)
    assert w.thumbs.requested <= visible()
    assert len(w.thumbs.requested) < 60  # of 2,000


def test_enter_opens_arrows_follow_the_timeline_and_back_returns_there(qtbot, make_window, dated):
    core, ids, _root = dated
    w = make_window(core)
    qtbot.waitUntil(lambda: w.model.rowCount() == len(PHOTOS))
    w.model.set_results(list(reversed(core.all_photos())))  # the grid in another order
    page = open_timeline(qtbot, w)
    view = page.view
    view.setFocus()
    view.setCurrentIndex(page.model.index(1, 0))
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: w.photo_view.details is not None and w.photo_view.details.id == ids["tram"])
    assert w.photo_view.position.text() == "2 of 7"
    qtbot.keyClick(w.photo_view, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: w.photo_view.details.id == ids["palace"])  # the timeline's next, not the grid's
    qtbot.keyClick(w.photo_view, Qt.Key.Key_Escape)
    assert w.stack.currentWidget() is page
    assert page.model.ids[view.currentIndex().row()] == ids["palace"]
    # double-click opens too
    view.scrollTo(page.model.index(0, 0))
    rect = view.visualRect(page.model.index(0, 0))
    assert view.viewport().rect().contains(rect.center())
    # what a real double-click sends: a click, then the double-click (QTest sends only the latter)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.mouseDClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: w.photo_view.details is not None and w.photo_view.details.id == ids["tiles"])


def test_selection_and_context_menu(qtbot, make_window, dated, monkeypatch):
    core, ids, _root = dated
    w = make_window(core)
    page = open_timeline(qtbot, w)
    view, model = page.view, page.model
    centre = [view.visualRect(model.index(r, 0)).center() for r in range(model.rowCount())]
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=centre[0])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, centre[3])
    selected = sorted(i.row() for i in view.selectionModel().selectedIndexes())
    assert selected == [0, 1, 2, 3]  # the run in timeline order, across days
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier, centre[5]
    )
    assert sorted(i.row() for i in view.selectionModel().selectedIndexes()) == [0, 1, 2, 3, 5]
    menus: list[QMenu] = []
    monkeypatch.setattr(page, "exec_menu", lambda menu, _at: menus.append(menu))  # not modal in a test
    view.customContextMenuRequested.emit(centre[2])
    assert menus, "no context menu"
    actions = {a.text(): a for a in menus[0].actions()}
    assert {"Open", "Show in folder", "Find similar"} <= set(actions)
    actions["Open"].trigger()
    qtbot.waitUntil(lambda: w.photo_view.details is not None and w.photo_view.details.id == ids["palace"])
    assert w.sequence is model  # arrows go on through the timeline


def test_folder_tree_counts_and_click_through(qtbot, make_window, dated):
    from photosearch.gui.folder_tree import FolderPathRole

    core, ids, root = dated
    w = make_window(core)
    w.show_folders()
    page = w.folders_page
    qtbot.waitUntil(lambda: page.model.rowCount() > 0, timeout=10000)
    top = page.tree_model.item(0, 0)
    assert top.data(FolderPathRole) == str(root) and page.tree_model.item(0, 1).text() == "7"

    def rows(item) -> dict[str, str]:
        return {item.child(r, 0).text(): item.child(r, 1).text() for r in range(item.rowCount())}

    assert rows(top) == {"2019": "1", "2021": "4", "Scans": "2"}
    y2021 = next(top.child(r, 0) for r in range(top.rowCount()) if top.child(r, 0).text() == "2021")
    assert rows(y2021) == {"March": "3"}
    # the watched folder shows everything; a click on 2021 shows its photos and its subfolder's
    assert sorted(page.model.ids) == sorted(ids.values())
    page.tree.expandAll()
    rect = page.tree.visualRect(y2021.index())
    qtbot.mouseClick(page.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: page.folder == str(root / "2021") and page.model.rowCount() == 4)
    assert page.model.ids == [ids["tiles"], ids["tram"], ids["palace"], ids["newyear"]]  # newest first
    assert page.title.text() == "2021 · 4 photos"
    page.grid.setFocus()
    page.grid.setCurrentIndex(page.model.index(2))
    qtbot.keyClick(page.grid, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: w.photo_view.details is not None and w.photo_view.details.id == ids["palace"])
    assert w.photo_view.position.text() == "3 of 4"


def test_tooltips_and_details_name_the_place_and_date(qtbot, make_window, dated):
    from photosearch.gui.photo_view import details_html

    core, ids, _root = dated
    w = make_window(core)
    qtbot.waitUntil(lambda: w.model.rowCount() == len(PHOTOS) and bool(w.model.info), timeout=10000)
    row = w.model.row_of(ids["tram"])
    tip = w.model.data(w.model.index(row), Qt.ItemDataRole.ToolTipRole)
    assert "Sat 20 March 2021, 10:00" in tip and "Lisbon, Portugal" in tip, tip
    scan = w.model.data(w.model.index(w.model.row_of(ids["scan1"])), Qt.ItemDataRole.ToolTipRole)
    assert "No date" in scan and "Portugal" not in scan
    page = open_timeline(qtbot, w)
    tip = page.model.data(page.model.index(page.model.row_of(ids["palace"]), 0), Qt.ItemDataRole.ToolTipRole)
    assert tip.splitlines() == ["palace.jpg", "Sun 7 March 2021, 09:00", "Sintra, Lisbon, Portugal"]
    d = core.details(ids["palace"])
    assert d.place == "Sintra, Lisbon, Portugal" and "GPS" not in d.exif
    assert d.exif["Taken"] == "Sun 7 March 2021, 09:00"  # in words, as the timeline says it
    assert d.exif["Added"].split(",")[0] == date_words(datetime.now(), time=False)  # catalogued today, here
    html = details_html(d)
    assert "Sintra, Lisbon, Portugal <small" in html and "38.78770" in html  # coordinates after, smaller
    assert html.index(">Taken<") < html.index(">Place<") < html.index(">Size<")  # when, then where
    assert core.details(ids["scan1"]).place is None and "Place" not in details_html(
        core.details(ids["scan1"])
    )


def test_a_photo_with_gps_is_named_before_the_places_step_ran(dated):
    """The indexer's places step names photos; until it has, the tooltip's place comes from the
    offline geocoder directly (never coordinates alone)."""
    from sqlalchemy import delete

    from photosearch.catalog.models import Analysis, Fact

    core, ids, _root = dated
    with core.store.session() as s:
        s.execute(delete(Fact).where(Fact.kind == "place"))
        s.execute(delete(Analysis).where(Analysis.analyzer == "place"))
    info = core.photo_info([ids["tram"], ids["summer"]])
    assert info[ids["tram"]]["place"] == "Lisbon, Portugal"
    assert info[ids["summer"]] == {"taken": datetime(2019, 8, 10, 8, 0), "place": None}


def test_the_shown_timeline_follows_indexing(qtbot, make_window, dated, small_photos):
    from photosearch.app import build_indexer
    from photosearch.evaluate.example import exif_bytes

    core, ids, root = dated
    w = make_window(
        core, indexer_factory=lambda: build_indexer(core.store, core.settings, analyzers=[], post_steps=[])
    )
    page = open_timeline(qtbot, w)
    assert page.model.rowCount() == len(PHOTOS)
    rgb = np.ascontiguousarray(small_photos["rocket"][::2, ::2, :3])
    Image.fromarray(rgb).save(root / "2019" / "launch.jpg", exif=exif_bytes(datetime(2020, 5, 1, 7, 0)))
    w.last_request = "rocket"  # an earlier search, refreshed when indexing ends
    w.start_indexing()
    qtbot.waitUntil(lambda: page.model.rowCount() == len(PHOTOS) + 1, timeout=20000)
    assert "May 2020" in [m.label for m in page.model.months()]
    qtbot.waitUntil(lambda: w.search_task is None or w.search_task.done, timeout=20000)
    assert w.stack.currentWidget() is page  # it stayed on the timeline, the search refreshed behind it


def test_arrow_keys_move_by_tile_and_by_day(qtbot, make_window, dated):
    core, _ids, _root = dated
    w = make_window(core)
    page = open_timeline(qtbot, w)
    view, model = page.view, page.model
    assert view.layout_now().cols >= 2
    view.setFocus()
    view.setCurrentIndex(model.index(1, 0))  # the second photo of the first day
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.currentIndex().row() == 2  # the next day holds one photo: its first
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert view.currentIndex().row() == 0  # the same column of the day above
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.currentIndex().row() == 2  # Right runs on across days
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.currentIndex().row() == model.rowCount() - 1
    rect = view.visualRect(view.currentIndex())
    assert view.viewport().rect().contains(rect)  # scrolled into view
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.currentIndex().row() == 0 and view.verticalOffset() == 0


def test_a_place_index_that_fails_leaves_the_coordinates(dated, monkeypatch, caplog):
    from sqlalchemy import delete

    from photosearch import browse
    from photosearch.catalog.models import Analysis, Fact
    from photosearch.gui.photo_view import details_html

    core, ids, _root = dated
    with core.store.session() as s:
        s.execute(delete(Fact).where(Fact.kind == "place"))
        s.execute(delete(Analysis).where(Analysis.analyzer == "place"))

    def broken(_coords):
        raise OSError("rg_cities1000.csv: no such file")

    monkeypatch.setattr(browse, "geocode_names", broken)
    d = core.details(ids["tram"])  # the details still open
    assert d.place is None and d.gps == pytest.approx(LISBON, abs=1e-4)
    assert "38.71390, -9.13940" in details_html(d)
    assert "cannot name the places of 1 photos" in caplog.text


def test_a_resize_keeps_the_photo_at_the_top(qtbot, make_window, core, tmp_path):
    synthetic(core, tmp_path / "Pictures", photos=600)
    w = make_window(core, size=(1000, 700))
    page = open_timeline(qtbot, w)
    view = page.view
    view.scroll_to_month(page.model.months()[10].key)
    row = view.first_visible_row()
    cols = view.layout_now().cols
    w.resize(700, 700)
    qtbot.waitUntil(lambda: view.layout_now().cols < cols)
    top = view.first_visible_row()
    assert page.model.groups[page.model.group_of(top)] is page.model.groups[page.model.group_of(row)]


def test_the_status_line_speaks_of_the_page_shown(qtbot, make_window, dated):
    from tests.gui.test_flow import search

    core, _ids, _root = dated
    w = make_window(core)
    search(qtbot, w, "")
    said = w.search_info.text()
    assert said.startswith(f"{len(PHOTOS)} photos")
    open_timeline(qtbot, w)
    assert w.search_info.text() == ""  # the library's count is not the timeline's
    w.show_library()
    assert w.search_info.text() == said


def test_hearts_and_stars_show_on_timeline_and_folder_tiles(qtbot, make_window, dated):
    from photosearch.gui.grid import MarksRole

    core, ids, root = dated
    w = make_window(core)
    w.resize(900, 700)
    w.show()
    page = open_timeline(qtbot, w)
    qtbot.waitUntil(lambda: not w.runner.tasks, timeout=20000)
    first = page.model.index(0)
    pid = page.model.ids[0]
    rect = page.view.visualRect(first)
    corner = rect.adjusted(0, 0, -rect.width() // 2, -rect.height() * 3 // 4)  # where the marks sit

    def corner_pixels():
        page.view.viewport().repaint()
        return page.view.viewport().grab(corner).toImage()

    before = corner_pixels()
    assert page.model.data(first, MarksRole) is None
    w.organize.set_favourite([pid], True)
    w.organize.set_rating([pid], 4)
    # the two marks are set by two tasks that may end in either order: wait for both
    qtbot.waitUntil(
        lambda: (page.model.data(first, MarksRole) or {}) == {"favourite": True, "rating": 4}, timeout=20000
    )
    assert corner_pixels() != before  # the heart and stars are drawn on the tile
    w.show_folders()
    w.folders_page.show_folder(str(root.resolve()))  # the watched folder: every photo, subfolders too
    folder_model = w.folders_page.model
    qtbot.waitUntil(lambda: folder_model.row_of(pid) is not None, timeout=20000)
    assert folder_model.data(folder_model.index(folder_model.row_of(pid)), MarksRole)["rating"] == 4


def test_a_heart_and_stars_set_at_once_both_stay(qtbot, make_window, dated, monkeypatch):
    """Two marks set at the same time: the one that finishes last read the catalog before the other
    wrote, so its result still shows the old heart; the tiles keep both marks all the same."""
    import time

    core, ids, _root = dated
    w = make_window(core)
    pid = next(iter(ids.values()))

    def set_marks(photo_ids, favourite=None, rating=None):
        if rating is not None:  # read before the heart was written, returned after it
            time.sleep(0.3)
            return {p: {"favourite": False, "rating": rating} for p in photo_ids}
        return {p: {"favourite": bool(favourite), "rating": None} for p in photo_ids}

    qtbot.waitUntil(lambda: not w.runner.tasks, timeout=20000)  # the window's own first loads
    monkeypatch.setattr(core.organize, "set_marks", set_marks)
    w.organize.set_rating([pid], 4)
    w.organize.set_favourite([pid], True)
    qtbot.waitUntil(lambda: not w.runner.tasks, timeout=10000)
    assert w.model.marks[pid] == {"favourite": True, "rating": 4}


def _viewing(qtbot, w, pid: int) -> None:
    """Open a photo in the viewer and wait until its details show."""
    w.open_photo(pid)
    qtbot.waitUntil(lambda: w.photo_view.details is not None and w.photo_view.details.id == pid)


def _off_for_one_on_for_another(qtbot, w, entry, find, without: int, says: str, with_: int) -> None:
    """The viewer's `entry` is off for the photo `without` (its find says `says` instead), on for the
    photo `with_`, and chosen there."""
    _viewing(qtbot, w, without)
    assert not entry.isEnabled()
    find(without)
    qtbot.waitUntil(lambda: w.search_info.text() == says, timeout=20000)
    _viewing(qtbot, w, with_)
    assert entry.isEnabled()
    entry.trigger()


def _choose(w, pid: int, name: str, entry: str) -> None:
    """Choose `entry` in the grid's menu of the photo `name` (id `pid`)."""
    next(a for a in w.grid_menu(pid, f"{name}.jpg").actions() if a.text() == entry).trigger()


def test_photos_from_the_same_day_from_the_menu_and_the_viewer(qtbot, make_window, dated):
    """A photo's "Photos from the same day" is a request in the search bar: that day's photos, oldest
    first; a photo with no date says it has none, and the viewer's button is off for it."""
    core, ids, _root = dated
    w = make_window(core)
    qtbot.waitUntil(lambda: w.model.rowCount() == len(PHOTOS))
    _choose(w, ids["tiles"], "tiles", "Photos from the same day")
    qtbot.waitUntil(lambda: w.search_bar.text() == "photos from 20 March 2021, oldest first", timeout=20000)
    qtbot.waitUntil(lambda: w.model.ids == [ids["tram"], ids["tiles"]], timeout=20000)
    day = w.photo_view.act_same_day
    _off_for_one_on_for_another(
        qtbot, w, day, w.find_same_day, ids["scan1"], "This photo has no date", ids["palace"]
    )
    qtbot.waitUntil(lambda: w.search_bar.text() == "photos from 7 March 2021, oldest first", timeout=20000)
    qtbot.waitUntil(lambda: w.model.ids == [ids["palace"]], timeout=20000)


def test_photos_from_the_same_place_from_the_menu_and_the_viewer(qtbot, make_window, dated):
    """A photo's "Photos from the same place" is the request for its town; a photo with no known
    place says so, and the viewer's entry is off for it."""
    core, ids, _root = dated
    w = make_window(core)
    qtbot.waitUntil(lambda: w.model.rowCount() == len(PHOTOS))
    town = core.details(ids["tram"]).place.split(",")[0]
    _choose(w, ids["tram"], "tram", "Photos from the same place")
    qtbot.waitUntil(lambda: w.search_bar.text() == f"photos in {town}", timeout=20000)
    # the town's photos, and those of its region (Sintra lies in Lisbon's district), none without GPS
    town_and_region = {ids["tram"], ids["tiles"], ids["palace"]}
    qtbot.waitUntil(lambda: set(w.model.ids) == town_and_region, timeout=20000)
    place, no_place = w.photo_view.act_same_place, "This photo has no known place"
    _off_for_one_on_for_another(
        qtbot, w, place, w.find_same_place, ids["summer"], no_place, ids["palace"]
    )  # no GPS
    palace_town = core.details(ids["palace"]).place.split(",")[0]
    qtbot.waitUntil(lambda: w.search_bar.text() == f"photos in {palace_town}", timeout=20000)
    qtbot.waitUntil(lambda: w.model.ids[:1] == [ids["palace"]], timeout=20000)
    assert ids["summer"] not in w.model.ids


def test_taken_at_home_from_the_menu_sets_where_home_is(qtbot, make_window, dated):
    """No spot has photos from three days, so "at home" was a home's look; a photo's "This was taken at home"
    makes where it was taken home (kept in the settings file), and "photos at home" then finds the
    photos taken there. A photo with no GPS says it cannot tell; Settings can forget the spot."""
    from photosearch.config import Settings
    from photosearch.gui.bridge import TaskRunner
    from photosearch.gui.settings_view import SettingsDialog

    core, ids, _root = dated
    w = make_window(core)
    qtbot.waitUntil(lambda: w.model.rowCount() == len(PHOTOS))
    _choose(w, ids["summer"], "summer", "This was taken at home")
    qtbot.waitUntil(lambda: "no GPS position" in w.search_info.text(), timeout=20000)
    assert core.settings.home_spot is None
    _choose(w, ids["tram"], "tram", "This was taken at home")
    qtbot.waitUntil(
        lambda: w.search_info.text().startswith("Home is now where this photo was taken ("), timeout=20000
    )
    assert Settings.load(core.settings.data_dir).home_spot == core.settings.home_spot is not None
    w.run_search("photos at home")
    qtbot.waitUntil(lambda: set(w.model.ids) == {ids["tram"], ids["tiles"]}, timeout=20000)
    assert "the home you set from a photo" in w.search_info.text()
    dialog = SettingsDialog(core, TaskRunner(), on_error=lambda info: None)
    qtbot.addWidget(dialog)
    assert "a photo you chose" in dialog.home_spot.text() and dialog.forget_spot.isEnabled()
    dialog.forget_spot.click()
    assert "on the most days" in dialog.home_spot.text() and not dialog.forget_spot.isEnabled()
    dialog.save()
    assert Settings.load(core.settings.data_dir).home_spot is None
