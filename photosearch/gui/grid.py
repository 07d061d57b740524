"""The results grid: a `QAbstractListModel` of photo ids shown by a `QListView` in icon mode.

The model stores plain lists (100k rows cost a few MB); thumbnails are asked for only when a row is
painted, i.e. visible.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QListView, QStyledItemDelegate, QStyleOptionViewItem

from photosearch.gui.thumbs import ThumbnailCache

IdRole = Qt.ItemDataRole.UserRole + 1
PathRole = Qt.ItemDataRole.UserRole + 2
ScoreRole = Qt.ItemDataRole.UserRole + 3
WhyRole = Qt.ItemDataRole.UserRole + 4

_Index = QModelIndex | QPersistentModelIndex


class ResultsModel(QAbstractListModel):
    def __init__(self, thumbs: ThumbnailCache, parent=None):
        super().__init__(parent)
        self.thumbs = thumbs
        self.ids: list[int] = []
        self.paths: list[str] = []
        self.scores: list[float] = []
        self.why: list[list] = []
        self._row_of: dict[int, int] | None = None
        self._placeholder: QPixmap | None = None
        thumbs.ready.connect(self._thumb_ready)

    def set_results(self, results: list[dict]) -> None:
        self.beginResetModel()
        self.ids = [int(r["id"]) for r in results]
        self.paths = [str(r.get("path", "")) for r in results]
        self.scores = [float(r.get("score") or 0.0) for r in results]
        self.why = [r.get("why") or [] for r in results]
        self._row_of = None
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.ids)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        row = index.row()
        if not index.isValid() or row >= len(self.ids):
            return None
        if role == Qt.ItemDataRole.DecorationRole:
            return self.thumbs.pixmap(self.ids[row]) or self.placeholder()
        if role == Qt.ItemDataRole.DisplayRole:
            return Path(self.paths[row]).name
        if role == Qt.ItemDataRole.ToolTipRole:
            why = self.why[row]
            reasons = ", ".join(str(w if not isinstance(w, dict) else w.get("atom", w)) for w in why[:6])
            return f"{self.paths[row]}\nscore {self.scores[row]:.3f}" + (f"\n{reasons}" if reasons else "")
        if role == IdRole:
            return self.ids[row]
        if role == PathRole:
            return self.paths[row]
        if role == ScoreRole:
            return self.scores[row]
        if role == WhyRole:
            return self.why[row]
        return None

    def row_of(self, photo_id: int) -> int | None:
        if self._row_of is None:
            self._row_of = {pid: i for i, pid in enumerate(self.ids)}
        return self._row_of.get(photo_id)

    def placeholder(self) -> QPixmap:
        size = self.thumbs.size
        if self._placeholder is None or self._placeholder.width() != size:
            pix = QPixmap(size, size)
            pix.fill(Qt.GlobalColor.transparent)
            p = QPainter(pix)
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor(128, 128, 128, 60))
            p.drawRoundedRect(4, 4, size - 8, size - 8, 8, 8)
            p.end()
            self._placeholder = pix
        return self._placeholder

    def _thumb_ready(self, photo_id: int) -> None:
        row = self.row_of(photo_id)
        if row is not None:
            idx = self.index(row)
            self.dataChanged.emit(idx, idx, [Qt.ItemDataRole.DecorationRole])


class ThumbDelegate(QStyledItemDelegate):
    """Fixed cell size without reading the model: layout never asks for a thumbnail, painting does."""

    def __init__(self, view: QListView):
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        return self.view.gridSize() - QSize(4, 4)


class ThumbnailGrid(QListView):
    """Icon-mode list with uniform items; Enter/double-click opens, Space previews."""

    open_requested = Signal(int)
    preview_requested = Signal(int)

    def __init__(self, parent=None, icon_size: int = 160):
        super().__init__(parent)
        self.setViewMode(QListView.ViewMode.IconMode)
        self.setUniformItemSizes(True)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setMovement(QListView.Movement.Static)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setItemDelegate(ThumbDelegate(self))
        self.set_icon_size(icon_size)
        self.doubleClicked.connect(lambda idx: self.open_requested.emit(int(idx.data(IdRole))))

    def set_icon_size(self, size: int) -> None:
        self.setIconSize(QSize(size, size))
        self.setGridSize(QSize(size + 24, size + 34))

    def current_id(self) -> int | None:
        idx = self.currentIndex()
        return int(idx.data(IdRole)) if idx.isValid() else None

    def selected_ids(self) -> list[int]:
        return [int(i.data(IdRole)) for i in self.selectionModel().selectedIndexes()] if self.selectionModel() else []

    def keyPressEvent(self, event: QKeyEvent) -> None:
        pid = self.current_id()
        if pid is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.open_requested.emit(pid)
            return
        if pid is not None and event.key() == Qt.Key.Key_Space:
            self.preview_requested.emit(pid)
            return
        super().keyPressEvent(event)
