"""The results grid: a `QAbstractListModel` of photo ids shown by a `QListView` in icon mode.

The model stores plain lists (100k rows cost a few MB); thumbnails are asked for only when a row is
painted, i.e. visible. When a search returns closest matches below the cut-off, a separator cell
("no confident match — closest:", id `SEPARATOR_ID`, not selectable) stands before them; partial
matches say what they lack in their tooltip.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import (
    QAbstractListModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    QSize,
    QSizeF,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QColor, QKeyEvent, QPainter, QPainterPath, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
)

from photosearch.gui.thumbs import ThumbnailCache
from photosearch.ingest.paths import from_db_path
from photosearch.query.evidence_words import why_words

IdRole = Qt.ItemDataRole.UserRole + 1
PathRole = Qt.ItemDataRole.UserRole + 2
ScoreRole = Qt.ItemDataRole.UserRole + 3
WhyRole = Qt.ItemDataRole.UserRole + 4
StateRole = Qt.ItemDataRole.UserRole + 5  # "full" | "partial" | "closest" | "separator"
MarksRole = Qt.ItemDataRole.UserRole + 6  # {"favourite": bool, "rating": int | None} or None
#: The dragged photos' ids (an album takes them when they are dropped on it).
PHOTO_IDS_MIME = "application/x-photosearch-photo-ids"

SEPARATOR_ID = -1
SEPARATOR_TEXT = "no confident match — closest:"
SEPARATOR_AFTER_TEXT = "less sure — closest:"  # when confident results come before it


def separator_text(row: int) -> str:
    """The separator's words: "no confident match" only when nothing confident stands before it."""
    return SEPARATOR_TEXT if row == 0 else SEPARATOR_AFTER_TEXT


_Index = QModelIndex | QPersistentModelIndex


def info_lines(info: dict | None) -> str:
    """A photo's date taken and place as tooltip lines ("\nSat 14 March 2019, 10:30\nLisbon, Portugal")."""
    if not info:
        return ""
    from photosearch.browse import date_words

    return "".join(f"\n{x}" for x in (date_words(info.get("taken")), info.get("place")) if x)


class ResultsModel(QAbstractListModel):
    marks_changed = Signal()  # hearts or stars changed: views reading them through `marks_of` repaint

    def __init__(self, thumbs: ThumbnailCache, parent=None):
        super().__init__(parent)
        self.thumbs = thumbs
        self.ids: list[int] = []
        self.paths: list[str] = []
        self.scores: list[float] = []
        self.why: list[list] = []
        self.states: list[str] = []
        self.missing: list[list[str]] = []
        self.info: dict[int, dict] = {}  # id -> {"taken", "place"} (gui/photo_info.py fills it)
        self._row_of: dict[int, int] | None = None
        self._placeholder: QPixmap | None = None
        self.marks: dict[int, dict] = {}  # photo id -> the heart and stars the tile shows
        #: where another view's tiles read the marks from (the library's model holds everyone's)
        self.marks_of: Callable[[int], dict | None] | None = None
        thumbs.ready.connect(self._thumb_ready)

    def set_results(self, results: list[dict]) -> None:
        self.beginResetModel()
        rows: list[dict] = []
        for r in results:
            if r.get("below_cutoff") and not any(x.get("id") == SEPARATOR_ID for x in rows):
                rows.append({"id": SEPARATOR_ID, "path": "", "score": 0.0, "state": "separator"})
            rows.append(r)
        self.ids = [int(r["id"]) for r in rows]
        self.paths = [str(r.get("path", "")) for r in rows]
        self.scores = [float(r.get("score") or 0.0) for r in rows]
        self.why = [r.get("why") or [] for r in rows]
        self.states = [
            r.get("state")
            or ("closest" if r.get("below_cutoff") else "partial" if r.get("partial") else "full")
            for r in rows
        ]
        self.missing = [list(r.get("missing") or []) for r in rows]
        self._row_of = None
        self.endResetModel()

    def photo_count(self) -> int:
        """Rows that are photos (the separator is not)."""
        return len(self.ids) - self.ids.count(SEPARATOR_ID)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if index.isValid() and index.row() < len(self.ids) and self.ids[index.row()] == SEPARATOR_ID:
            return Qt.ItemFlag.NoItemFlags
        return super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled

    def mimeTypes(self) -> list[str]:
        return ["text/uri-list", PHOTO_IDS_MIME]

    def mimeData(self, indexes) -> QMimeData:
        """The dragged photos as file URLs (a file manager copies them, an editor opens them)."""
        data = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid() and self.ids[i.row()] != SEPARATOR_ID})
        data.setUrls([QUrl.fromLocalFile(from_db_path(self.paths[r])) for r in rows])
        data.setData(PHOTO_IDS_MIME, " ".join(str(self.ids[r]) for r in rows).encode())
        return data

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.ids)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        row = index.row()
        if not index.isValid() or row >= len(self.ids):
            return None
        if role == StateRole:
            return self.states[row]
        if role == MarksRole:
            return (self.marks_of or self.marks.get)(self.ids[row])
        if self.ids[row] == SEPARATOR_ID:
            if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                return separator_text(row)
            return SEPARATOR_ID if role == IdRole else None
        if role == Qt.ItemDataRole.DecorationRole:
            return self.thumbs.pixmap(self.ids[row]) or self.placeholder()
        if role == Qt.ItemDataRole.DisplayRole:
            return Path(self.paths[row]).name
        if role == Qt.ItemDataRole.ToolTipRole:
            reasons = why_words(self.why[row])
            state = {
                "partial": "partial match: no " + ", ".join(self.missing[row]),
                "closest": "below the cut-off (closest match)",
            }.get(self.states[row])
            return (
                f"{self.paths[row]}"
                + info_lines(self.info.get(self.ids[row]))
                + f"\nscore {self.scores[row]:.3f}"
                + (f"\n{state}" if state else "")
                + (f"\nmatched: {reasons}" if reasons else "")
            )
        if role == IdRole:
            return self.ids[row]
        if role == PathRole:
            return self.paths[row]
        if role == ScoreRole:
            return self.scores[row]
        if role == WhyRole:
            return self.why[row]
        return None

    def set_info(self, info: dict[int, dict]) -> None:
        """Dates and places of the shown photos (for tooltips), which arrive after the results."""
        self.info = info

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

    def set_marks(self, marks: dict[int, dict], *, replace: bool = True) -> None:
        """The hearts and stars the tiles show (`replace`: these are all of them; else an update)."""
        if replace:
            self.marks = {pid: m for pid, m in marks.items() if m.get("favourite") or m.get("rating")}
        else:
            for pid, m in marks.items():
                if m.get("favourite") or m.get("rating"):
                    self.marks[pid] = m
                else:
                    self.marks.pop(pid, None)
        if self.ids:
            self.dataChanged.emit(self.index(0), self.index(len(self.ids) - 1), [MarksRole])
        self.marks_changed.emit()

    def _thumb_ready(self, photo_id: int) -> None:
        row = self.row_of(photo_id)
        if row is not None:
            idx = self.index(row)
            self.dataChanged.emit(idx, idx, [Qt.ItemDataRole.DecorationRole])


HEART_COLOR = QColor(229, 57, 53)
STAR_COLOR = QColor(255, 193, 7)


def paint_marks(painter: QPainter, rect, marks: dict) -> None:
    """A small heart (favourite) and the stars in the tile's top-left corner, on a dark pill so they
    read over any photo."""
    stars = int(marks.get("rating") or 0)
    heart = bool(marks.get("favourite"))
    if not heart and stars <= 0:
        return
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    unit = 14
    width = (unit + 2 if heart else 0) + (stars * unit if stars > 0 else 0) + 8
    pill = QRectF(rect.left() + 4, rect.top() + 4, width, unit + 6)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(0, 0, 0, 150))
    painter.drawRoundedRect(pill, 6, 6)
    x = pill.left() + 4
    y = pill.top() + 3
    if heart:
        painter.setBrush(HEART_COLOR)
        painter.drawPath(heart_path(QRectF(x, y, unit, unit)))
        x += unit + 2
    painter.setBrush(STAR_COLOR)
    for _ in range(max(stars, 0)):
        painter.drawPolygon(star_polygon(QRectF(x, y, unit, unit)))
        x += unit
    painter.restore()


def heart_path(r: QRectF) -> QPainterPath:
    """A heart filling `r`."""
    path = QPainterPath()
    w, h = r.width(), r.height()
    path.moveTo(r.left() + w / 2, r.top() + h * 0.95)
    path.cubicTo(
        r.left() - w * 0.1,
        r.top() + h * 0.5,
        r.left() + w * 0.1,
        r.top() - h * 0.1,
        r.left() + w / 2,
        r.top() + h * 0.25,
    )
    path.cubicTo(
        r.left() + w * 0.9,
        r.top() - h * 0.1,
        r.right() + w * 0.1,
        r.top() + h * 0.5,
        r.left() + w / 2,
        r.top() + h * 0.95,
    )
    return path


def star_polygon(r: QRectF) -> QPolygonF:
    """A five-pointed star filling `r`."""
    import math

    cx, cy = r.center().x(), r.center().y() + r.height() * 0.04
    outer, inner = r.width() / 2, r.width() / 2 * 0.45
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(QPointF(cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return QPolygonF(points)


class ThumbDelegate(QStyledItemDelegate):
    """Fixed cell size without reading the model: layout never asks for a thumbnail, painting does."""

    def __init__(self, view: QListView):
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        return self.view.gridSize() - QSize(4, 4)

    def _framed_if_selected(self, painter: QPainter, option: QStyleOptionViewItem) -> QStyleOptionViewItem:
        """A selected photo is framed whole, thumbnail and name, in the highlight colour; the style's
        own selection would fill only the space under a wide thumbnail with a block of colour."""
        if not option.state & QStyle.StateFlag.State_Selected:
            return option
        colour = option.palette.highlight().color()
        fill = QColor(colour)
        fill.setAlpha(48)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(colour, 2))
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(option.rect).adjusted(1, 1, -1, -1), 6, 6)
        painter.restore()
        plain = QStyleOptionViewItem(option)
        plain.state &= ~QStyle.StateFlag.State_Selected
        return plain

    def _icon_rect(self, option: QStyleOptionViewItem, index: _Index) -> QRectF:
        """Where the thumbnail is drawn: at the top of the cell, centred across (icon mode)."""
        pix = index.data(Qt.ItemDataRole.DecorationRole)
        size = pix.deviceIndependentSize() if isinstance(pix, QPixmap) else QSizeF(self.view.iconSize())
        r = option.rect
        left = r.left() + (r.width() - size.width()) / 2
        return QRectF(left, r.top() + 1, size.width(), size.height())

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        if index.data(IdRole) != SEPARATOR_ID:
            super().paint(painter, self._framed_if_selected(painter, option), index)
            marks = index.data(MarksRole)
            if marks:
                paint_marks(painter, self._icon_rect(option, index), marks)
            return
        painter.save()
        rect = option.rect.adjusted(6, 6, -6, -6)
        painter.setPen(option.palette.placeholderText().color())
        painter.drawLine(rect.left(), rect.top(), rect.left(), rect.bottom())
        painter.drawText(
            rect.adjusted(8, 0, 0, 0),
            int(Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap),
            separator_text(index.row()),
        )
        painter.restore()


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
        # photos drag out as files (to a file manager, an editor, a mail); Ctrl/Shift-click and
        # Ctrl+A select several; a drag that starts on empty space still draws a selection band
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setItemDelegate(ThumbDelegate(self))
        self.set_icon_size(icon_size)
        self.doubleClicked.connect(self._double_clicked)

    def _double_clicked(self, idx) -> None:
        pid = int(idx.data(IdRole))
        if pid != SEPARATOR_ID:
            self.open_requested.emit(pid)

    def set_icon_size(self, size: int) -> None:
        self.setIconSize(QSize(size, size))
        self.setGridSize(QSize(size + 24, size + 34))

    def current_id(self) -> int | None:
        idx = self.currentIndex()
        pid = int(idx.data(IdRole)) if idx.isValid() else None
        return None if pid == SEPARATOR_ID else pid

    def selected_ids(self) -> list[int]:
        if not self.selectionModel():
            return []
        return [
            pid
            for i in self.selectionModel().selectedIndexes()
            if (pid := int(i.data(IdRole))) != SEPARATOR_ID
        ]

    def keyPressEvent(self, event: QKeyEvent) -> None:
        pid = self.current_id()
        if pid is not None and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.open_requested.emit(pid)
            return
        if pid is not None and event.key() == Qt.Key.Key_Space:
            self.preview_requested.emit(pid)
            return
        super().keyPressEvent(event)
