"""What the window does to organise photos: favourites and stars (keys, menu, the viewer's heart
and stars, the tiles' overlay), albums (open, save a search, add and remove photos, drop photos on
the Albums button), and copying a selection out (Export…, with progress and Cancel).

Every action applies to the whole selection of the grid (or the photo shown in the viewer), and
runs through `Core.organize` on the window's TaskRunner, never on the GUI thread.

Keys (the conventions of Shotwell, darktable, Zoner: number keys rate; digiKam: Ctrl+number):
in the grid 0–5 and Ctrl+0–5 give stars (0 clears them), F toggles the heart; in the viewer
Ctrl+0–5 and F (its 0 and 1 are zoom keys)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMenu

from photosearch.gui.bridge import ErrorInfo
from photosearch.gui.export_status import ExportStatus
from photosearch.gui.grid import PHOTO_IDS_MIME, SEPARATOR_ID
from photosearch.gui.marks_bar import MarksBar

if TYPE_CHECKING:
    from photosearch.gui.main_window import MainWindow

#: How long photos dragged over the Albums button wait before the albums open under them.
SPRING_MS = 600


def stars_text(n: int) -> str:
    return "no stars" if n <= 0 else "★" * n


class OrganizeActions(QObject):
    def __init__(self, window: MainWindow):
        super().__init__(window)
        self.w = window
        self.core = window.core
        self.current_album: dict | None = None  # the album the grid shows
        self.editing_album: str | None = None  # a smart album whose search is being changed
        self.manual_albums: list[str] = []
        self.export_status = ExportStatus(window.runner, window.show_error, window)
        self.export_status.finished.connect(self._export_finished)
        window.statusBar().addPermanentWidget(self.export_status)
        self.marks_bar = MarksBar(window.photo_view)
        view = window.photo_view  # beside "3 of 17", where a narrow window still shows it
        view.toolbar.insertWidget(view.act_zoom_out, self.marks_bar)
        view.toolbar.insertSeparator(view.act_zoom_out)
        self.marks_bar.favourite_toggled.connect(lambda on: self.set_favourite(self._viewer_ids(), on))
        self.marks_bar.rating_chosen.connect(lambda n: self.set_rating(self._viewer_ids(), n))
        self._keys()
        self._spring = QTimer(self)
        self._spring.setSingleShot(True)
        self._spring.timeout.connect(window.show_albums)
        self.reload_album_names()

    # ---- wiring --------------------------------------------------------------------------------
    def _keys(self) -> None:
        grid, viewer = self.w.grid, self.w.photo_view
        for n in range(6):
            self._shortcut(grid, str(n), lambda n=n: self.set_rating(self.grid_ids(), n))
            self._shortcut(grid, f"Ctrl+{n}", lambda n=n: self.set_rating(self.grid_ids(), n))
            self._shortcut(viewer, f"Ctrl+{n}", lambda n=n: self.set_rating(self._viewer_ids(), n))
        self._shortcut(grid, "F", lambda: self.toggle_favourite(self.grid_ids()))
        self._shortcut(viewer, "F", lambda: self.toggle_favourite(self._viewer_ids()))

    def _shortcut(self, widget, key: str, slot) -> QShortcut:
        sc = QShortcut(QKeySequence(key), widget, slot)
        sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        return sc

    def add_actions(self, menu_bar, albums_button=None) -> None:
        """The Photos menu (the keys are the grid's and the viewer's) and the drop target."""
        menu = menu_bar.addMenu("&Photos")
        self.act_export = menu.addAction("Export…", lambda: self.export_selection())
        self.act_export.setShortcut("Ctrl+E")
        self.act_export.setToolTip("Copy the original files of the selected photos into a folder")
        self.act_save_search = menu.addAction("Save this search as an album…", lambda: self.save_search())
        self.act_save_search.setShortcut("Ctrl+Shift+S")
        menu.addSeparator()
        menu.addAction("Add to favourites / remove (F)", lambda: self.toggle_favourite(self.target_ids()))
        stars = menu.addMenu("Stars (0–5)")
        for n in range(6):
            stars.addAction(stars_text(n), lambda n=n: self.set_rating(self.target_ids(), n))
        if albums_button is not None:
            albums_button.setAcceptDrops(True)
            albums_button.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        """Photos dragged onto the Albums button: the albums open under them (drop on one)."""
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if event.mimeData().hasFormat(PHOTO_IDS_MIME):
                event.acceptProposedAction()
                if not self._spring.isActive():
                    self._spring.start(SPRING_MS)
                return True
        elif kind in (QEvent.Type.DragLeave, QEvent.Type.Drop):
            self._spring.stop()
        return super().eventFilter(obj, event)

    # ---- which photos --------------------------------------------------------------------------
    def grid_ids(self) -> list[int]:
        """The selected photos, in grid order; the current one when nothing is selected."""
        grid = self.w.grid
        rows = (
            sorted({i.row() for i in grid.selectionModel().selectedIndexes()})
            if grid.selectionModel()
            else []
        )
        ids = [self.w.model.ids[r] for r in rows if self.w.model.ids[r] != SEPARATOR_ID]
        if not ids and grid.current_id() is not None:
            ids = [grid.current_id()]
        return ids

    def _viewer_ids(self) -> list[int]:
        return [self.w.current_photo] if self.w.current_photo is not None else []

    def target_ids(self) -> list[int]:
        """What an action applies to: the photo in the viewer, else the grid's selection."""
        if self.w.stack.currentWidget() is self.w.photo_view:
            return self._viewer_ids()
        return self.grid_ids()

    def _say(self, text: str) -> None:
        self.w.search_info.setText(text)

    # ---- favourites and stars ------------------------------------------------------------------
    def load_marks(self):
        organize = self.core.organize
        return self.w.runner.submit(
            lambda _p, _c: organize.marks(),
            name="Loading favourites",
            on_result=lambda marks: (self.w.model.set_marks(marks), self._show_viewer_marks()),
            on_error=self.w.show_error,
        )

    def toggle_favourite(self, ids: list[int]):
        """The heart on every photo; off again when they all have it already."""
        marks = self.w.model.marks
        on = not ids or not all(marks.get(pid, {}).get("favourite") for pid in ids)
        return self.set_favourite(ids, on)

    def set_favourite(self, ids: list[int], on: bool):
        if not ids:
            return None
        done = "Added to favourites" if on else "Removed from favourites"
        return self._mark(ids, f"{done}: {self._count(ids)}", favourite=on)

    def set_rating(self, ids: list[int], stars: int):
        if not ids:
            return None
        return self._mark(ids, f"{stars_text(stars).capitalize()}: {self._count(ids)}", rating=stars)

    @staticmethod
    def _count(ids: list[int]) -> str:
        return f"{len(ids):,} photo{'s' if len(ids) != 1 else ''}"

    def _mark(self, ids: list[int], said: str, **change):
        organize = self.core.organize

        def done(now: dict) -> None:
            # Only the mark this change set: a change running beside it (a heart given while stars
            # were being set) may have written after `now` was read, and its own result says it.
            unmarked = {"favourite": False, "rating": None}
            merged = {
                pid: {**self.w.model.marks.get(pid, unmarked), **{k: m[k] for k in change if k in m}}
                for pid, m in now.items()
            }
            self.w.model.set_marks(merged, replace=False)
            self._show_viewer_marks()
            self._say(said)

        return self.w.runner.submit(
            lambda _p, _c: organize.set_marks(ids, **change),
            name="Marking photos",
            on_result=done,
            on_error=self.w.show_error,
        )

    def _show_viewer_marks(self) -> None:
        pid = self.w.current_photo
        self.marks_bar.set_marks(
            None if pid is None else self.w.model.marks.get(pid, {"favourite": False, "rating": None})
        )

    def photo_shown(self, _photo_id: int) -> None:
        self._show_viewer_marks()

    def results_shown(self, result: dict) -> None:
        """After every search: the tiles' marks, and whether the grid shows an album."""
        self.current_album = result.get("album")
        self.load_marks()

    # ---- albums --------------------------------------------------------------------------------
    def reload_album_names(self):
        organize = self.core.organize

        def done(names: list[str]) -> None:
            self.manual_albums = names

        return self.w.runner.submit(
            lambda _p, _c: organize.album_names("manual"),
            name="Loading albums",
            on_result=done,
            on_error=self.w.show_error,
        )

    def open_album(self, name: str):
        """The album's photos in the grid (a smart album's search in the chips, ready to edit)."""
        organize, w = self.core.organize, self.w
        w.search_generation += 1
        gen = w.search_generation
        w.stack.setCurrentIndex(w.stack.indexOf(w.grid.parentWidget()))
        self._say("Opening the album…")

        def done(result: dict) -> None:
            if gen != w.search_generation:
                return
            album = result["album"]
            w.last_request = (album.get("request") or "") if album["kind"] == "smart" else ""
            w.search_bar.setText(w.last_request)
            w.show_results(result)
            self.editing_album = album["name"] if album["kind"] == "smart" else None
            n = len(result["results"])
            what = "saved search" if album["kind"] == "smart" else "album"
            self._say(f"Album {album['name']} ({what}): {n:,} photo{'s' if n != 1 else ''}")
            w.grid.setFocus()

        return w.runner.submit(
            lambda _p, _c: organize.album_results(name),
            name="Opening album",
            on_result=done,
            on_error=w.show_error,
        )

    def ask_name(self, title: str, label: str, text: str = "") -> str | None:
        name, ok = QInputDialog.getText(self.w, title, label, text=text)
        return name.strip() if ok and name.strip() else None

    def save_search(self, name: str | None = None):
        """Save the search shown (as the chips have it) as a smart album; the smart album being
        edited takes it when the name is kept."""
        w = self.w
        plan = (w.last_result or {}).get("plan") or w.chips.plan
        if not plan:
            self._say("Search for something first, then save the search as an album.")
            return None
        if name is None:
            name = self.ask_name(
                "Save search as album",
                "Album name (it shows what this search finds, now and later):",
                self.editing_album or w.last_request[:60],
            )
            if name is None:
                return None
        replace = self.editing_album is not None and name.casefold() == self.editing_album.casefold()
        organize, request = self.core.organize, w.last_request

        def done(info: dict) -> None:
            self.editing_album = info["name"]
            self._say(f"{'Updated' if replace else 'Saved'} the album {info['name']}: it stays up to date")
            self.w.albums_view.refresh()

        return w.runner.submit(
            lambda _p, _c: organize.save_search(name, plan, request, replace=replace),
            name="Save search",
            on_result=done,
            on_error=w.show_error,
        )

    def edit_search(self, name: str):
        return self.open_album(name)

    def add_to_album(self, name: str, ids: list[int]):
        organize = self.core.organize
        return self.w.runner.submit(
            lambda _p, _c: organize.add_to_album(name, ids),
            name="Add to album",
            on_result=lambda added: self._say(f"Added {added} of {self._count(ids)} to {name}"),
            on_error=self.w.show_error,
        )

    def new_album_with(self, ids: list[int], name: str | None = None):
        name = name or self.ask_name("New album", "Name of the new album:")
        if name is None:
            return None
        organize = self.core.organize

        def done(info: dict) -> None:
            self._say(f"Made the album {info['name']} with {self._count(ids)}")
            self.reload_album_names()

        return self.w.runner.submit(
            lambda _p, _c: organize.create_album(name, ids),
            name="New album",
            on_result=done,
            on_error=self.w.show_error,
        )

    def remove_from_album(self, ids: list[int]):
        album = self.current_album
        if not album or album["kind"] != "manual":
            return None
        organize, name = self.core.organize, album["name"]
        return self.w.runner.submit(
            lambda _p, _c: organize.remove_from_album(name, ids),
            name="Remove from album",
            on_result=lambda _n: self.open_album(name),
            on_error=self.w.show_error,
        )

    def add_menu_entries(self, menu: QMenu, pid: int) -> None:
        """The grid's context menu: heart, stars, albums, export — for the whole selection."""
        selected = self.grid_ids()
        ids = selected if pid in selected else [pid]
        n = f" ({len(ids)} photos)" if len(ids) > 1 else ""
        menu.addSeparator()
        marks = self.w.model.marks
        fav = all(marks.get(i, {}).get("favourite") for i in ids)
        act = menu.addAction(
            ("Remove from favourites" if fav else "Add to favourites") + n + "\tF",
            lambda: self.set_favourite(ids, not fav),
        )
        act.setCheckable(True)
        act.setChecked(fav)
        stars = menu.addMenu("Stars" + n)
        for k in range(6):
            stars.addAction(f"{stars_text(k)}\t{k}", lambda k=k: self.set_rating(ids, k))
        albums = menu.addMenu("Add to album" + n)
        for name in self.manual_albums:
            albums.addAction(name, lambda name=name: self.add_to_album(name, ids))
        if self.manual_albums:
            albums.addSeparator()
        albums.addAction("New album…", lambda: self.new_album_with(ids))
        if self.current_album and self.current_album["kind"] == "manual":
            menu.addAction(
                f"Remove from album {self.current_album['name']}" + n, lambda: self.remove_from_album(ids)
            )
        menu.addAction("Export…" + n + "\tCtrl+E", lambda: self.export_selection(ids=ids))

    # ---- export --------------------------------------------------------------------------------
    def choose_folder(self) -> str | None:
        folder = QFileDialog.getExistingDirectory(
            self.w, "Copy the photos into this folder", str(Path.home())
        )
        return folder or None

    def export_selection(self, folder: str | None = None, ids: list[int] | None = None):
        ids = list(ids) if ids is not None else self.target_ids()
        if not ids:
            self._say("Select the photos to copy first (Ctrl+A selects all).")
            return None
        if self.export_status.running:
            self._say("Photos are being copied already; wait for it to end or cancel it.")
            return None
        folder = folder or self.choose_folder()
        if not folder:
            return None
        organize = self.core.organize
        return self.export_status.start(
            lambda progress, cancel: organize.export(ids, folder, progress=progress, cancel=cancel), len(ids)
        )

    def _export_finished(self, report) -> None:
        if report is None:
            return
        self._say(report.summary())
        if report.skipped:  # say it where it cannot be missed, every file and why in the details
            details = "\n".join(f"{path}: {why}" for path, why in report.skipped)
            self.w.errors.show(ErrorInfo("Some photos were not copied", report.summary(), details))
