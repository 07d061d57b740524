"""Albums: a tile per album with its cover photo and how many photos it holds. Double-click (or
Enter) opens it in the grid; drop photos dragged from the grid on a tile you fill by hand to add
them. Smart albums are saved searches: they are run again each time this view is shown."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QDragEnterEvent,
    QDragMoveEvent,
    QDropEvent,
    QIcon,
    QImage,
    QKeySequence,
    QPainter,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QInputDialog,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, TaskRunner
from photosearch.gui.flow import FlowLayout
from photosearch.gui.grid import PHOTO_IDS_MIME
from photosearch.gui.thumbs import load_image

COVER = 150
NameRole = Qt.ItemDataRole.UserRole + 1
KindRole = Qt.ItemDataRole.UserRole + 2


def photo_ids_of(mime) -> list[int]:
    """The photo ids a drag from the grid carries (none from anywhere else)."""
    if mime is None or not mime.hasFormat(PHOTO_IDS_MIME):
        return []
    text = bytes(mime.data(PHOTO_IDS_MIME)).decode("ascii", "replace")
    return [int(x) for x in text.split() if x.isdigit()]


def tile_text(album: dict) -> str:
    count = album.get("count")
    amount = "cannot be shown now" if count is None else f"{count:,} photo{'s' if count != 1 else ''}"
    return f"{album['name']}\n{amount}" + (" · saved search" if album["kind"] == "smart" else "")


def cover_icon(image: QImage | None, smart: bool) -> QIcon:
    """The cover photo (decoded off the GUI thread) cropped square, or a grey tile; a smart album's
    tile has a magnifier badge."""
    pix = QPixmap(COVER, COVER)
    pix.fill(QColor(128, 128, 128, 50))
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    if image is not None and not image.isNull():
        scaled = image.scaled(
            COVER,
            COVER,
            Qt.AspectRatioMode.KeepAspectRatioByExpanding,
            Qt.TransformationMode.SmoothTransformation,
        )
        p.drawImage(0, 0, scaled, (scaled.width() - COVER) // 2, (scaled.height() - COVER) // 2)
    if smart:  # a small magnifying glass: this album is a search
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(0, 0, 0, 150))
        p.drawEllipse(COVER - 36, COVER - 36, 30, 30)
        pen = p.pen()
        pen.setStyle(Qt.PenStyle.SolidLine)
        pen.setColor(QColor("white"))
        pen.setWidth(3)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(COVER - 31, COVER - 31, 14, 14)
        p.drawLine(COVER - 19, COVER - 19, COVER - 12, COVER - 12)
    p.end()
    return QIcon(pix)


class AlbumTiles(QListWidget):
    """The tiles; photos dropped on a manual album's tile are added to it (`photos_dropped`)."""

    photos_dropped = Signal(str, list)  # album name, photo ids

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setViewMode(QListView.ViewMode.IconMode)
        self.setIconSize(QSize(COVER, COVER))
        self.setGridSize(QSize(COVER + 30, COVER + 54))
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setMovement(QListView.Movement.Static)
        self.setWordWrap(True)
        self.setUniformItemSizes(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.viewport().setAcceptDrops(True)

    def _target(self, event) -> QListWidgetItem | None:
        item = self.itemAt(event.position().toPoint())
        if item is None or item.data(KindRole) != "manual" or not photo_ids_of(event.mimeData()):
            return None
        return item

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if photo_ids_of(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        item = self._target(event)
        if item is not None:
            self.setCurrentItem(item)
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        item = self._target(event)
        if item is None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.photos_dropped.emit(item.data(NameRole), photo_ids_of(event.mimeData()))


class AlbumsView(QWidget):
    """Album tiles and what can be done with them; `open_album(name)` asks the window to show one,
    `edit_search(name)` to put a smart album's search in the search bar for editing."""

    open_album = Signal(str)
    edit_search = Signal(str)
    save_search_requested = Signal()
    changed = Signal()  # albums were added, renamed or deleted

    def __init__(self, core, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.core, self.runner, self.on_error = core, runner, on_error
        self.albums: list[dict] = []
        self.note = ""  # what the last change did, shown once the tiles are loaded again
        self._gen = 0
        self.loading = None
        lay = QVBoxLayout(self)
        bar_host = QWidget(self)
        bar = FlowLayout(bar_host, spacing=6)
        self.title = QLabel("Albums", self)
        self.title.setObjectName("SectionTitle")
        bar.addWidget(self.title)
        self.btn_new = QPushButton("New album…", self)
        self.btn_new.setToolTip(
            "An album you fill yourself: right-click photos → Add to album, or drag them here"
        )
        self.btn_save = QPushButton("Save current search…", self)
        self.btn_save.setToolTip("A smart album: the search runs again whenever you open it (Ctrl+Shift+S)")
        self.btn_open = QPushButton("Open", self)
        self.btn_edit = QPushButton("Edit search", self)
        self.btn_edit.setToolTip(
            "Put this smart album's search in the search bar to change it, then save it again"
        )
        self.btn_rename = QPushButton("Rename…", self)
        self.btn_delete = QPushButton("Delete", self)
        self.btn_delete.setToolTip("Delete the album (its photos stay in your library)")
        for b in (
            self.btn_new,
            self.btn_save,
            self.btn_open,
            self.btn_edit,
            self.btn_rename,
            self.btn_delete,
        ):
            bar.addWidget(b)
        lay.addWidget(bar_host)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.tiles = AlbumTiles(self)
        lay.addWidget(self.tiles, 1)
        self.btn_new.clicked.connect(lambda: self.new_album())
        self.btn_save.clicked.connect(self.save_search_requested.emit)
        self.btn_open.clicked.connect(self._open_current)
        self.btn_edit.clicked.connect(lambda: self._with_current(self.edit_search.emit))
        self.btn_rename.clicked.connect(lambda: self.rename_album())
        self.btn_delete.clicked.connect(lambda: self.delete_album())
        self.tiles.itemActivated.connect(lambda item: self.open_album.emit(item.data(NameRole)))
        self.tiles.currentItemChanged.connect(lambda *_a: self._update_buttons())
        self.tiles.photos_dropped.connect(self.add_photos)
        self.tiles.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tiles.customContextMenuRequested.connect(self._tile_menu)
        for key, slot in (("F2", lambda: self.rename_album()), ("Del", lambda: self.delete_album())):
            sc = QShortcut(QKeySequence(key), self.tiles, slot)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
        self._update_buttons()

    # ---- loading ---------------------------------------------------------------------------------
    def refresh(self):
        """Load the albums (smart ones are searched now) off the GUI thread."""
        self._gen += 1
        gen, organize = self._gen, self.core.organize
        self.status.setText("Loading albums…")

        def job(_p, _c):
            albums = organize.albums()
            icons = {a["name"]: load_image(a.get("cover_thumb"), QSize(COVER * 2, COVER * 2)) for a in albums}
            return albums, icons

        def done(result) -> None:
            if gen == self._gen:
                self.show_albums(*result)

        self.loading = self.runner.submit(job, name="Loading albums", on_result=done, on_error=self.on_error)
        return self.loading

    def show_albums(self, albums: list[dict], images: dict | None = None) -> None:
        current = self.current_name()
        images = images or {}
        self.albums = albums
        self.tiles.clear()
        for a in albums:
            item = QListWidgetItem(cover_icon(images.get(a["name"]), a["kind"] == "smart"), tile_text(a))
            item.setData(NameRole, a["name"])
            item.setData(KindRole, a["kind"])
            tip = a.get("problem") or (
                f"Saved search: {a['request']}" if a["kind"] == "smart" and a.get("request") else ""
            )
            item.setToolTip(tip or "Photos you put in this album, oldest first")
            item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
            self.tiles.addItem(item)
            if a["name"] == current:
                self.tiles.setCurrentItem(item)
        note, self.note = self.note, ""
        if note:
            self.status.setText(note)
        elif albums:
            self.status.setText(
                "Double-click an album to see its photos. Drag photos from the library onto an album to add them."
            )
        else:
            self.status.setText(
                "No albums yet. Make one with New album…, or search for something and save the search: "
                "a saved search stays up to date as photos are added."
            )
        self._update_buttons()

    # ---- the selected album --------------------------------------------------------------------
    def current_name(self) -> str | None:
        item = self.tiles.currentItem()
        return item.data(NameRole) if item is not None else None

    def current_kind(self) -> str | None:
        item = self.tiles.currentItem()
        return item.data(KindRole) if item is not None else None

    def select(self, name: str) -> None:
        for i in range(self.tiles.count()):
            if self.tiles.item(i).data(NameRole) == name:
                self.tiles.setCurrentRow(i)

    def _with_current(self, fn) -> None:
        name = self.current_name()
        if name:
            fn(name)

    def tile_menu(self) -> QMenu:
        """What can be done with the selected album (its tile's context menu)."""
        menu = QMenu(self)
        menu.addAction("Open", self._open_current)
        if self.current_kind() == "smart":
            menu.addAction("Edit search", lambda: self._with_current(self.edit_search.emit))
        menu.addAction("Rename…\tF2", lambda: self.rename_album())
        menu.addAction("Delete\tDel", lambda: self.delete_album())
        return menu

    def _tile_menu(self, pos) -> None:
        item = self.tiles.itemAt(pos)
        if item is not None:
            self.tiles.setCurrentItem(item)
            self.tile_menu().exec(self.tiles.viewport().mapToGlobal(pos))

    def _open_current(self) -> None:
        self._with_current(self.open_album.emit)

    def _update_buttons(self) -> None:
        has = self.current_name() is not None
        for b in (self.btn_open, self.btn_rename, self.btn_delete):
            b.setEnabled(has)
        self.btn_edit.setEnabled(self.current_kind() == "smart")

    # ---- changes -------------------------------------------------------------------------------
    def _run(self, fn, name: str, done=None):
        def finished(result) -> None:
            if done is not None:
                done(result)
            self.changed.emit()
            self.refresh()

        return self.runner.submit(lambda _p, _c: fn(), name=name, on_result=finished, on_error=self.on_error)

    def new_album(self, name: str | None = None, photo_ids: list[int] | None = None):
        if name is None:
            name, ok = QInputDialog.getText(self, "New album", "Name of the new album:")
            if not ok or not name.strip():
                return None
        organize, ids = self.core.organize, list(photo_ids or [])
        return self._run(
            lambda: organize.create_album(name, ids),
            "New album",
            lambda info: setattr(self, "note", f"Made the album {info['name']}"),
        )

    def rename_album(self, new_name: str | None = None):
        name = self.current_name()
        if name is None:
            return None
        if new_name is None:
            new_name, ok = QInputDialog.getText(self, "Rename album", "New name:", text=name)
            if not ok or not new_name.strip() or new_name == name:
                return None
        organize = self.core.organize
        return self._run(lambda: organize.rename_album(name, new_name), "Rename album")

    def delete_album(self, confirm: bool = True):
        name = self.current_name()
        if name is None:
            return None
        if confirm:
            answer = QMessageBox.question(
                self, "Delete album", f"Delete the album “{name}”? Its photos stay in your library."
            )
            if answer != QMessageBox.StandardButton.Yes:
                return None
        organize = self.core.organize
        return self._run(lambda: organize.delete_album(name), "Delete album")

    def add_photos(self, name: str, photo_ids: list[int]):
        organize = self.core.organize
        n = len(photo_ids)

        def said(added: int) -> None:
            already = n - added
            self.note = f"Added {added} photo{'s' if added != 1 else ''} to {name}" + (
                f" ({already} already in it)" if already else ""
            )

        return self._run(lambda: organize.add_to_album(name, photo_ids), "Add to album", said)
