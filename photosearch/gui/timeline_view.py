"""The timeline: the whole library by day, newest first, with month and day headers and a date
scrubber beside it (Immich-style); photos without a date come last under "No date".

* `TimelineModel` — one row per photo (parallel lists from `Core.timeline()`), plus the day groups
  and months found in one pass; no object per photo, so 100k photos cost a few MB.
* `TimelineView` — a `QAbstractItemView` with virtual rows: the layout is arithmetic over day
  groups (month header, day header, rows of square tiles), painting and hit-testing touch only what
  is on screen, so thumbnails are asked of the shared `ThumbnailCache` only for visible photos.
  Selection, keyboard moves, drag out and the context menu are the item view's own.
* `DateScrubber` — a narrow bar with years and months placed by photo counts; clicking or dragging
  jumps to the month under the cursor, and a bubble names it.
* `TimelinePage` — the three together, loaded through `Core` off the GUI thread.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import (
    QAbstractListModel,
    QItemSelection,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    QUrl,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen, QRegion
from PySide6.QtWidgets import QAbstractItemView, QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from photosearch.browse import MONTH_NAMES, Timeline, date_words
from photosearch.gui.grid import IdRole, MarksRole, PathRole, paint_marks
from photosearch.gui.thumbs import ThumbnailCache
from photosearch.ingest.paths import from_db_path

_Index = QModelIndex | QPersistentModelIndex

NO_DATE = "No date"
MONTH_HEADER_H = 46
DAY_HEADER_H = 30
GAP = 4
MARGIN = 12
#: Tile side when the view has no thumbnail cache (tests, the benchmark).
DEFAULT_TILE = 160


@dataclass
class DayGroup:
    """The photos of one day (rows `start` .. `start + count - 1`); key "YYYY-MM-DD", "" = no date."""

    key: str
    start: int
    count: int

    @property
    def month(self) -> str:
        return self.key[:7]


@dataclass
class Month:
    """A month of the timeline (key "YYYY-MM", "" = no date) and its photos' rows."""

    key: str
    start: int
    count: int

    @property
    def year(self) -> str:
        return self.key[:4]

    @property
    def label(self) -> str:
        return month_label(self.key)


def month_label(key: str) -> str:
    """ "March 2019" for "2019-03"; "No date" for ""."""
    if not key:
        return NO_DATE
    return f"{MONTH_NAMES[int(key[5:7]) - 1]} {key[:4]}"


def day_label(key: str) -> str:
    """ "Sat 14 March" for "2019-03-14" (the month header above it says the year)."""
    if not key:
        return NO_DATE
    return date_words(key, time=False).rsplit(" ", 1)[0]


class TimelineModel(QAbstractListModel):
    """Photos in timeline order; `groups` (days) and `months()` say where each day and month starts."""

    def __init__(self, thumbs: ThumbnailCache | None = None, parent=None):
        super().__init__(parent)
        self.thumbs = thumbs
        self.ids: list[int] = []
        self.paths: list[str] = []
        self.taken: list[str | None] = []
        self.places: list[str | None] = []
        self.groups: list[DayGroup] = []
        self.group_starts: list[int] = []
        self._months: list[Month] | None = None
        self._row_of: dict[int, int] | None = None
        self._day_places: dict[int, str] = {}
        #: the heart and stars of a photo (the main window reads them from the library's model)
        self.marks_of: Callable[[int], dict | None] | None = None
        if thumbs is not None:
            thumbs.ready.connect(self._thumb_ready)

    def set_timeline(self, timeline: Timeline) -> None:
        self.beginResetModel()
        self.ids, self.paths = list(timeline.ids), list(timeline.paths)
        self.taken, self.places = list(timeline.taken), list(timeline.places)
        groups: list[DayGroup] = []
        last = None
        for row, taken in enumerate(self.taken):
            day = taken[:10] if taken else ""
            if day != last:
                groups.append(DayGroup(day, row, 0))
                last = day
        for g, nxt in zip(groups, groups[1:] + [None], strict=True):
            g.count = (nxt.start if nxt else len(self.ids)) - g.start
        self.groups = groups
        self.group_starts = [g.start for g in groups]
        self._months = None
        self._row_of = None
        self._day_places = {}
        self.endResetModel()

    def same_photos(self, timeline: Timeline) -> bool:
        """Would `timeline` show exactly what is shown now (so a refresh can keep the view as it is)?"""
        return (
            self.ids == timeline.ids
            and self.taken == timeline.taken
            and self.places == timeline.places
            and self.paths == timeline.paths
        )

    def months(self) -> list[Month]:
        if self._months is None:
            months: list[Month] = []
            for g in self.groups:
                if months and months[-1].key == g.month:
                    months[-1].count += g.count
                else:
                    months.append(Month(g.month, g.start, g.count))
            self._months = months
        return self._months

    def group_of(self, row: int) -> int:
        return bisect_right(self.group_starts, row) - 1

    def day_place(self, group: int) -> str:
        """The place most of a day's photos were taken at ("" when none says)."""
        if group not in self._day_places:
            g = self.groups[group]
            names = Counter(p for p in self.places[g.start : g.start + g.count] if p)
            self._day_places[group] = names.most_common(1)[0][0] if names else ""
        return self._day_places[group]

    def row_of(self, photo_id: int) -> int | None:
        if self._row_of is None:
            self._row_of = {pid: i for i, pid in enumerate(self.ids)}
        return self._row_of.get(photo_id)

    # ---- Qt model ------------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.ids)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        row = index.row()
        if not index.isValid() or row >= len(self.ids):
            return None
        if role == Qt.ItemDataRole.DecorationRole:
            return self.thumbs.pixmap(self.ids[row]) if self.thumbs is not None else None
        if role == MarksRole:
            return self.marks_of(self.ids[row]) if self.marks_of is not None else None
        if role == Qt.ItemDataRole.DisplayRole:
            return Path(self.paths[row]).name
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [Path(self.paths[row]).name, date_words(self.taken[row])]
            if self.places[row]:
                lines.append(self.places[row])
            return "\n".join(lines)
        if role == IdRole:
            return self.ids[row]
        if role == PathRole:
            return self.paths[row]
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled

    def mimeTypes(self) -> list[str]:
        return ["text/uri-list"]

    def mimeData(self, indexes) -> QMimeData:
        """The dragged photos as file URLs, as from the grid."""
        data = QMimeData()
        rows = sorted({i.row() for i in indexes if i.isValid()})
        data.setUrls([QUrl.fromLocalFile(from_db_path(self.paths[r])) for r in rows])
        return data

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction

    def _thumb_ready(self, photo_id: int) -> None:
        row = self.row_of(photo_id)
        if row is not None:
            idx = self.index(row)
            self.dataChanged.emit(idx, idx, [Qt.ItemDataRole.DecorationRole])


@dataclass
class _Layout:
    """Where each day group sits: `tops[g]` its first header, `rows_top[g]` its first tile row."""

    width: int
    tile: int
    cols: int
    tops: list[int]
    rows_top: list[int]
    month_header: list[bool]
    height: int

    @property
    def cell(self) -> int:
        return self.tile + GAP


class TimelineView(QAbstractItemView):
    """Square tiles under month and day headers, laid out by arithmetic over day groups."""

    open_requested = Signal(int)
    first_visible_changed = Signal(int)  # the row of the first photo on screen (the scrubber follows)

    def __init__(self, parent=None, thumbs: ThumbnailCache | None = None):
        super().__init__(parent)
        self.thumbs = thumbs
        self._layout: _Layout | None = None
        self._anchor: int | None = None  # where a Shift selection starts
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the scrubber is the bar
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setMouseTracking(True)
        self.doubleClicked.connect(self._double_clicked)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)

    # ---- layout -------------------------------------------------------------------------------
    def tile_size(self) -> int:
        return self.thumbs.size if self.thumbs is not None else DEFAULT_TILE

    def timeline_model(self) -> TimelineModel | None:
        m = self.model()
        return m if isinstance(m, TimelineModel) else None

    def layout_now(self) -> _Layout:
        """The layout for the current width and tile size (made again only when either changed)."""
        width, tile = self.viewport().width(), self.tile_size()
        lay = self._layout
        if lay is None or lay.width != width or lay.tile != tile:
            lay = self.relayout()
        return lay

    def relayout(self) -> _Layout:
        model = self.timeline_model()
        width, tile = self.viewport().width(), self.tile_size()
        cols = max(1, (width - 2 * MARGIN + GAP) // (tile + GAP))
        tops, rows_top, month_header = [], [], []
        y, last_month = MARGIN // 2, None
        for g in model.groups if model is not None else []:
            tops.append(y)
            first_of_month = g.month != last_month
            month_header.append(first_of_month)
            if first_of_month:
                y += MONTH_HEADER_H
                last_month = g.month
            if g.key:  # "No date" has its month header only
                y += DAY_HEADER_H
            rows_top.append(y)
            y += -(-g.count // cols) * (tile + GAP) + GAP
        self._layout = _Layout(width, tile, cols, tops, rows_top, month_header, y + MARGIN)
        self.updateGeometries()
        return self._layout

    def updateGeometries(self) -> None:
        lay = self._layout
        bar = self.verticalScrollBar()
        height = self.viewport().height()
        bar.setRange(0, max(0, (lay.height if lay else 0) - height))
        bar.setPageStep(max(1, height))
        bar.setSingleStep(max(1, (lay.cell if lay else DEFAULT_TILE) // 3))
        super().updateGeometries()

    def resizeEvent(self, event) -> None:
        # the photo at the top, by the layout it was seen in (the viewport has its new width already)
        anchor = self.first_visible_row(self._layout) if self._layout is not None else None
        super().resizeEvent(event)
        self.relayout()
        if anchor is not None:  # the photo at the top stays at the top
            self.verticalScrollBar().setValue(self._headed_top(anchor, self._tile_rect(anchor)))

    def reset(self) -> None:
        super().reset()
        self._layout = None
        self.relayout()
        self.verticalScrollBar().setValue(0)
        self.viewport().update()

    def _tile_rect(self, row: int) -> QRect:
        """A photo's tile in content coordinates."""
        lay, model = self.layout_now(), self.timeline_model()
        g = model.group_of(row)
        i = row - model.groups[g].start
        x = MARGIN + (i % lay.cols) * lay.cell
        y = lay.rows_top[g] + (i // lay.cols) * lay.cell
        return QRect(x, y, lay.tile, lay.tile)

    def _row_at(self, x: int, y: int) -> int | None:
        """The photo whose tile holds content point (x, y), or None (a header, the gaps)."""
        model = self.timeline_model()
        if model is None or not model.groups:
            return None
        lay = self.layout_now()
        g = bisect_right(lay.tops, y) - 1
        if g < 0 or y < lay.rows_top[g]:
            return None
        col, col_off = divmod(x - MARGIN, lay.cell)
        line, line_off = divmod(y - lay.rows_top[g], lay.cell)
        if x < MARGIN or col >= lay.cols or col_off >= lay.tile or line_off >= lay.tile:
            return None
        i = line * lay.cols + col
        return model.groups[g].start + i if i < model.groups[g].count else None

    def first_visible_row(self, lay: _Layout | None = None) -> int | None:
        """The first photo whose tile row reaches into the view (by `lay`, else the current layout)."""
        model = self.timeline_model()
        if model is None or not model.groups or (lay is not None and len(lay.tops) != len(model.groups)):
            return None
        lay = lay or self.layout_now()
        y = self.verticalOffset()
        g = max(0, bisect_right(lay.tops, y) - 1)
        line = max(0, (y - lay.rows_top[g]) // lay.cell)
        row = model.groups[g].start + min(line * lay.cols, model.groups[g].count - 1)
        i = row - model.groups[g].start
        if lay.rows_top[g] + (i // lay.cols) * lay.cell + lay.tile < y and g + 1 < len(model.groups):
            row = model.groups[g + 1].start  # the gap after a day's last line
        return row

    # ---- QAbstractItemView --------------------------------------------------------------------
    def visualRect(self, index: _Index) -> QRect:
        if not index.isValid() or self.timeline_model() is None:
            return QRect()
        return self._tile_rect(index.row()).translated(0, -self.verticalOffset())

    def indexAt(self, point: QPoint) -> QModelIndex:
        row = self._row_at(point.x(), point.y() + self.verticalOffset())
        return self.model().index(row, 0) if row is not None else QModelIndex()

    def scrollTo(self, index: _Index, hint=QAbstractItemView.ScrollHint.EnsureVisible) -> None:
        if not index.isValid():
            return
        rect = self._tile_rect(index.row())
        top, height = self.verticalOffset(), self.viewport().height()
        bar = self.verticalScrollBar()
        head = self._headed_top(index.row(), rect)
        if hint == QAbstractItemView.ScrollHint.PositionAtTop:
            bar.setValue(head)
        elif hint == QAbstractItemView.ScrollHint.PositionAtCenter:
            bar.setValue(rect.center().y() - height // 2)
        elif head < top:
            bar.setValue(head)  # the headers above come into view with it
        elif rect.bottom() > top + height:
            bar.setValue(rect.bottom() - height + GAP)
        self.viewport().update()

    def _headed_top(self, row: int, rect: QRect) -> int:
        """Where to scroll to show a tile with what labels it: its day's headers (and month's) for
        the day's first line, else the line just above."""
        model, lay = self.timeline_model(), self.layout_now()
        g = model.group_of(row)
        if (row - model.groups[g].start) < lay.cols:
            return lay.tops[g] if g else 0  # the very top for the newest day
        return rect.top() - GAP

    def horizontalOffset(self) -> int:
        return 0

    def verticalOffset(self) -> int:
        return self.verticalScrollBar().value()

    def isIndexHidden(self, index: _Index) -> bool:
        return False

    def moveCursor(self, action, modifiers) -> QModelIndex:
        model = self.timeline_model()
        current = self.currentIndex()
        if model is None or not model.ids:
            return QModelIndex()
        n = len(model.ids)
        row = current.row() if current.isValid() else 0
        A = QAbstractItemView.CursorAction
        if not current.isValid():
            row = 0
        elif action in (A.MoveLeft, A.MovePrevious):
            row -= 1
        elif action in (A.MoveRight, A.MoveNext):
            row += 1
        elif action in (A.MoveUp, A.MoveDown):
            row = self._vertical_neighbour(row, -1 if action == A.MoveUp else 1)
        elif action in (A.MovePageUp, A.MovePageDown):
            step = self.viewport().height() * (-1 if action == A.MovePageUp else 1)
            rect = self._tile_rect(row)
            target = rect.center().y() + step
            row = self._nearest_row(rect.center().x(), target)
        elif action == A.MoveHome:
            row = 0
        elif action == A.MoveEnd:
            row = n - 1
        return model.index(max(0, min(n - 1, row)), 0)

    def _vertical_neighbour(self, row: int, step: int) -> int:
        """The photo above/below in the same column (the nearest in the next day's rows)."""
        model, lay = self.timeline_model(), self.layout_now()
        g = model.group_of(row)
        group = model.groups[g]
        i = row - group.start
        col = i % lay.cols
        if 0 <= i + step * lay.cols < group.count:
            return row + step * lay.cols
        if step > 0 and i // lay.cols < (group.count - 1) // lay.cols:
            return group.start + group.count - 1  # the last, shorter row of this day
        other = g + step
        if not 0 <= other < len(model.groups):
            return row
        og = model.groups[other]
        if step > 0:
            return og.start + min(col, og.count - 1)
        last_line = (og.count - 1) // lay.cols
        return og.start + min(last_line * lay.cols + col, og.count - 1)

    def _nearest_row(self, x: int, y: int) -> int:
        model, lay = self.timeline_model(), self.layout_now()
        y = max(0, min(lay.height, y))
        g = max(0, bisect_right(lay.tops, y) - 1)
        group = model.groups[g]
        line = max(0, min((group.count - 1) // lay.cols, (y - lay.rows_top[g]) // lay.cell))
        col = max(0, min(lay.cols - 1, (x - MARGIN) // lay.cell))
        return group.start + min(line * lay.cols + col, group.count - 1)

    def setSelection(self, rect: QRect, command) -> None:
        """A click selects one photo; Shift (click or arrows) selects the run from the anchor to the
        other corner in timeline order, and a band dragged from empty space the run it spans, as
        galleries do (never a rectangle across days)."""
        model = self.timeline_model()
        if model is None or not model.ids:
            return
        r = rect.normalized().translated(0, self.verticalOffset())
        corners = [r.topLeft(), r.bottomRight(), r.topRight(), r.bottomLeft()]  # opposite: 0-1, 2-3
        hits = [self._row_at(c.x(), c.y()) for c in corners]
        if r.width() <= 1 and r.height() <= 1:
            if hits[0] is None:
                return
            first = last = hits[0]
        elif self._anchor is not None and self._anchor in hits:
            i = hits.index(self._anchor)
            other = corners[i ^ 1]
            target = hits[i ^ 1]
            if target is None:
                target = self._nearest_row(other.x(), other.y())
            first, last = sorted((self._anchor, target))
        else:
            near = [self._nearest_row(c.x(), c.y()) for c in corners]
            first, last = min(near), max(near)
        sel = QItemSelection(model.index(first, 0), model.index(last, 0))
        self.selectionModel().select(sel, command)

    def currentChanged(self, current: QModelIndex, previous: QModelIndex) -> None:
        super().currentChanged(current, previous)
        if not QApplication.keyboardModifiers() & Qt.KeyboardModifier.ShiftModifier:
            self._anchor = current.row() if current.isValid() else None
        self.viewport().update()

    def visualRegionForSelection(self, selection: QItemSelection) -> QRegion:
        return QRegion(self.viewport().rect())  # one repaint of what is visible: few tiles

    # ---- events ---------------------------------------------------------------------------------
    def _double_clicked(self, idx: QModelIndex) -> None:
        if idx.isValid():
            self.open_requested.emit(int(idx.data(IdRole)))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        idx = self.currentIndex()
        space = event.key() == Qt.Key.Key_Space and not event.modifiers()  # Ctrl+Space: select
        if idx.isValid() and (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) or space):
            self.open_requested.emit(int(idx.data(IdRole)))
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if not self.indexAt(event.position().toPoint()).isValid() and not (
            event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        ):
            self.clearSelection()
        super().mousePressEvent(event)

    def _scrolled(self, _value: int) -> None:
        row = self.first_visible_row()
        if row is not None:
            self.first_visible_changed.emit(row)

    def scroll_to_month(self, key: str) -> None:
        """Put a month's header at the top of the view."""
        model = self.timeline_model()
        if model is None:
            return
        lay = self.layout_now()
        for g, group in enumerate(model.groups):
            if group.month == key:
                self.verticalScrollBar().setValue(lay.tops[g])
                break
        self.viewport().update()

    # ---- painting ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        model = self.timeline_model()
        painter = QPainter(self.viewport())
        if model is None or not model.groups:
            painter.end()
            return
        lay = self.layout_now()
        top, bottom = self.verticalOffset(), self.verticalOffset() + self.viewport().height()
        painter.translate(0, -top)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        pal = self.palette()
        month_font, day_font = QFont(self.font()), QFont(self.font())
        month_font.setPointSizeF(self.font().pointSizeF() * 1.45)
        month_font.setBold(True)
        day_font.setBold(True)
        selection = self.selectionModel()
        current = self.currentIndex().row() if self.currentIndex().isValid() else -1
        g = max(0, bisect_right(lay.tops, top) - 1)
        while g < len(model.groups) and lay.tops[g] < bottom:
            group = model.groups[g]
            y = lay.tops[g]
            if lay.month_header[g]:
                painter.setFont(month_font)
                painter.setPen(pal.text().color())
                rect = QRect(MARGIN, y, lay.width - 2 * MARGIN, MONTH_HEADER_H)
                painter.drawText(
                    rect,
                    int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                    month_label(group.month),
                )
                y += MONTH_HEADER_H
            if group.key:
                painter.setFont(day_font)
                painter.setPen(pal.text().color())
                rect = QRect(MARGIN, y, lay.width - 2 * MARGIN, DAY_HEADER_H - 4)
                align = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
                label = day_label(group.key)
                painter.drawText(rect, align, label)
                place = model.day_place(g)
                if place:
                    shift = painter.fontMetrics().horizontalAdvance(label + "  ")
                    painter.setFont(self.font())
                    painter.setPen(pal.placeholderText().color())
                    painter.drawText(rect.adjusted(shift, 0, 0, 0), align, place)
            first_line = max(0, (top - lay.rows_top[g]) // lay.cell)
            last_line = (bottom - lay.rows_top[g]) // lay.cell
            for i in range(first_line * lay.cols, min(group.count, (last_line + 1) * lay.cols)):
                row = group.start + i
                index = model.index(row, 0)
                self._paint_tile(
                    painter,
                    self._tile_rect(row),
                    index,
                    selected=selection is not None and selection.isSelected(index),
                    current=row == current,
                )
            g += 1
        painter.end()

    def _paint_tile(
        self, painter: QPainter, rect: QRect, index: QModelIndex, *, selected: bool, current: bool
    ):
        pix = index.data(Qt.ItemDataRole.DecorationRole)
        if pix is None or pix.isNull():
            painter.fillRect(rect, QColor(128, 128, 128, 60))
        else:  # a centred square of the photo fills the tile
            w, h = pix.width(), pix.height()
            side = min(w, h)
            source = QRect((w - side) // 2, (h - side) // 2, side, side)
            painter.drawPixmap(rect, pix, source)
        marks = index.data(MarksRole)
        if marks:
            paint_marks(painter, rect, marks)
        if selected:
            color = QColor(self.palette().highlight().color())
            color.setAlpha(90)
            painter.fillRect(rect, color)
            painter.setPen(QPen(self.palette().highlight().color(), 3))
            painter.drawRect(rect.adjusted(1, 1, -2, -2))
        elif current and self.hasFocus():
            painter.setPen(QPen(self.palette().highlight().color(), 2, Qt.PenStyle.DashLine))
            painter.drawRect(rect.adjusted(1, 1, -2, -2))


class DateScrubber(QWidget):
    """Years and months of the timeline on a narrow bar, spaced by how many photos each holds."""

    month_chosen = Signal(str)
    PAD = 10

    def __init__(self, parent=None):
        super().__init__(parent)
        self.months: list[Month] = []
        self.total = 0
        self.position = 0  # the row of the first photo on screen
        self.hover_y: int | None = None
        self.setFixedWidth(56)
        self.setMouseTracking(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.bubble = QLabel(parent)
        self.bubble.setObjectName("ScrubberBubble")
        self.bubble.setStyleSheet(
            "#ScrubberBubble { background: palette(highlight); color: palette(highlighted-text);"
            " border-radius: 9px; padding: 3px 10px; font-weight: bold; }"
        )
        self.bubble.hide()

    def set_months(self, months: list[Month]) -> None:
        self.months = months
        self.total = sum(m.count for m in months)
        self.update()

    def set_position(self, row: int) -> None:
        self.position = row
        self.update()

    def y_of(self, row: int) -> int:
        """Where photo `row` sits on the bar."""
        span = max(1, self.height() - 2 * self.PAD)
        return self.PAD + int(span * row / max(1, self.total))

    def month_at(self, y: float) -> Month | None:
        if not self.months:
            return None
        span = max(1, self.height() - 2 * self.PAD)
        row = int((y - self.PAD) / span * self.total)
        starts = [m.start for m in self.months]
        return self.months[max(0, min(len(self.months) - 1, bisect_right(starts, row) - 1))]

    # ---- events ---------------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._choose(event.position().y())

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self.hover_y = int(event.position().y())
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._choose(event.position().y())
        self._show_bubble(event.position().y())
        self.update()

    def leaveEvent(self, event) -> None:
        self.hover_y = None
        self.bubble.hide()
        self.update()
        super().leaveEvent(event)

    def _choose(self, y: float) -> None:
        month = self.month_at(y)
        if month is not None:
            self.month_chosen.emit(month.key)

    def _show_bubble(self, y: float) -> None:
        month = self.month_at(y)
        if month is None or self.parentWidget() is None:
            self.bubble.hide()
            return
        self.bubble.setText(month.label)
        self.bubble.adjustSize()
        at = self.mapTo(self.parentWidget(), QPoint(0, int(y)))
        top = max(
            0, min(self.parentWidget().height() - self.bubble.height(), at.y() - self.bubble.height() // 2)
        )
        self.bubble.move(at.x() - self.bubble.width() - 6, top)
        self.bubble.show()
        self.bubble.raise_()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        w = self.width()
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, self.font().pointSizeF() * 0.85))
        p.setFont(small)
        line_h = p.fontMetrics().height()
        last_year, last_label_y, last_dot_y = None, -1000, -1000
        for m in self.months:
            y = self.y_of(m.start)
            if m.year != last_year:
                last_year = m.year
                if y - last_label_y >= line_h:  # a year label where it does not overlap the last
                    p.setPen(pal.text().color())
                    label = m.year or "—"
                    p.drawText(QRect(0, y, w - 6, line_h), int(Qt.AlignmentFlag.AlignRight), label)
                    last_label_y = y
                    continue
            if y - last_dot_y >= 4:  # a month, where months are not too close to tell apart
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(pal.placeholderText().color())
                p.drawEllipse(QPoint(w - 10, y + line_h // 2), 1.5, 1.5)
                last_dot_y = y
        if self.months:  # where the view is now
            y = self.y_of(self.position)
            p.setPen(QPen(pal.highlight().color(), 3))
            p.drawLine(6, y, w - 2, y)
        if self.hover_y is not None:
            p.setPen(QPen(pal.highlight().color(), 1))
            p.drawLine(0, self.hover_y, w, self.hover_y)
        p.end()

    def sizeHint(self) -> QSize:
        return QSize(56, 400)


class TimelinePage(QWidget):
    """The timeline view and its scrubber, loaded through `Core` in the background."""

    open_requested = Signal(int)

    def __init__(
        self,
        core,
        runner,
        thumbs: ThumbnailCache,
        menu_for: Callable[[int, str, object], object],  # (id, path, sequence) -> QMenu
        on_error: Callable,
        parent=None,
    ):
        super().__init__(parent)
        self.core, self.runner, self.menu_for, self.on_error = core, runner, menu_for, on_error
        self.model = TimelineModel(thumbs, self)
        self.view = TimelineView(self, thumbs)
        self.view.setModel(self.model)
        self.view.open_requested.connect(self.open_requested)
        self.view.customContextMenuRequested.connect(self._menu)
        self.scrubber = DateScrubber(self)
        self.scrubber.month_chosen.connect(self.view.scroll_to_month)
        self.view.first_visible_changed.connect(self.scrubber.set_position)
        self.info = QLabel("Loading…", self)
        self.info.setObjectName("TimelineInfo")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 4, 4)
        lay.addWidget(self.info)
        row = QHBoxLayout()
        row.setSpacing(2)
        row.addWidget(self.view, 1)
        row.addWidget(self.scrubber)
        lay.addLayout(row, 1)
        self.task = None

    def refresh(self):
        """Load the timeline again (off the GUI thread); an unchanged library keeps the view as it is."""
        core = self.core
        self.task = self.runner.submit(
            lambda _p, _c: core.timeline(), name="Timeline", on_result=self._loaded, on_error=self.on_error
        )
        return self.task

    def _loaded(self, timeline: Timeline) -> None:
        if not self.model.same_photos(timeline):
            self.model.set_timeline(timeline)
            self.scrubber.set_months(self.model.months())
            self.scrubber.set_position(0)
        n, months = len(timeline), self.model.months()
        dated = [m for m in months if m.key]
        if not n:
            self.info.setText("No photos yet: add a folder in Settings and they appear here by date.")
        else:
            span = f" · {dated[-1].year}–{dated[0].year}" if dated else ""
            undated = sum(m.count for m in months if not m.key)
            extra = f" · {undated:,} without a date" if undated else ""
            self.info.setText(f"{n:,} photo{'s' if n != 1 else ''}{span}{extra}")

    def reveal(self, photo_id: int) -> None:
        """Make a photo current and visible (after the viewer moved through the timeline)."""
        row = self.model.row_of(photo_id)
        if row is not None:
            index = self.model.index(row, 0)
            self.view.setCurrentIndex(index)
            self.view.scrollTo(index)

    def _menu(self, pos: QPoint) -> None:
        idx = self.view.indexAt(pos)
        if not idx.isValid():
            return
        if not self.view.selectionModel().isSelected(idx):
            self.view.setCurrentIndex(idx)
        menu = self.menu_for(int(idx.data(IdRole)), str(idx.data(PathRole)), self.model)
        self.exec_menu(menu, self.view.viewport().mapToGlobal(pos))

    def exec_menu(self, menu, at: QPoint) -> None:
        menu.exec(at)
