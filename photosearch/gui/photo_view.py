"""The large photo view: the image with optional object/face boxes, and everything known about it."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QImage,
    QKeySequence,
    QPainter,
    QPen,
    QPixmap,
    QShortcut,
)
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSplitter,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from photosearch.core import PhotoDetails
from photosearch.gui.desktop import open_photo_file, show_folder
from photosearch.people.looks import FACE_KIND, look_of, with_article

OBJECT_COLOR = QColor(255, 170, 0)
FACE_COLOR = QColor(0, 200, 255)
TEXT_COLOR = QColor(160, 220, 60)


#: Zoom steps (wheel notch, +/-) and limits, in screen pixels per pixel of the photo.
ZOOM_STEP = 1.25
MAX_ZOOM = 16.0


class ImageCanvas(QWidget):
    """Paints the photo fitted to the widget, or zoomed (wheel, +/-, 1:1, double-click) and panned by
    dragging, with labelled boxes when `show_boxes` is on."""

    zoom_changed = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.pixmap: QPixmap | None = None
        self.boxes: list[tuple[list[float], str, QColor]] = []
        self.show_boxes = True
        self.message = ""
        self.full_size = QSize()  # the photo's own size (the pixmap may be a smaller preview)
        self.zoom: float | None = None  # None: fit the widget; else screen px per photo px
        self.center = QPointF(0.5, 0.5)  # the point of the photo (fractions) at the widget's centre
        self._drag: QPointF | None = None
        self.setMinimumSize(320, 240)

    def set_image(self, image: QImage | None, message: str = "", full_size: QSize | None = None) -> None:
        if image is not None and not image.isNull():
            pix = QPixmap.fromImage(image)
            pix.setDevicePixelRatio(1.0)
            self.pixmap = pix
        else:
            self.pixmap = None
        self.full_size = (
            full_size
            if full_size is not None and full_size.isValid()
            else (pix.size() if self.pixmap is not None else QSize())
        )
        self.message = message
        self.fit()

    # ---- zoom and pan ---------------------------------------------------------------------------
    def fit_scale(self) -> float:
        if self.pixmap is None or self.full_size.isEmpty():
            return 1.0
        return min(self.width() / self.full_size.width(), self.height() / self.full_size.height())

    def scale(self) -> float:
        return self.fit_scale() if self.zoom is None else self.zoom

    def fit(self) -> None:
        self.zoom, self.center = None, QPointF(0.5, 0.5)
        self.zoom_changed.emit()
        self.update()

    def set_zoom(self, zoom: float, anchor: QPointF | None = None) -> None:
        """Zoom to `zoom` keeping the photo point under `anchor` (widget coords; default the centre)."""
        if self.pixmap is None:
            return
        lowest = min(self.fit_scale(), 1.0)
        zoom = max(lowest, min(MAX_ZOOM, zoom))
        anchor = anchor if anchor is not None else QPointF(self.width() / 2, self.height() / 2)
        r = self.image_rect()
        fx = (anchor.x() - r.x()) / r.width() if r.width() else 0.5
        fy = (anchor.y() - r.y()) / r.height() if r.height() else 0.5
        w, h = self.full_size.width() * zoom, self.full_size.height() * zoom
        # the photo point at `anchor` stays there: the centre moves by the anchor's offset
        self.center = QPointF(
            fx + (self.width() / 2 - anchor.x()) / w, fy + (self.height() / 2 - anchor.y()) / h
        )
        self.zoom = zoom
        self._clamp()
        self.zoom_changed.emit()
        self.update()

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self.set_zoom(self.scale() * factor, anchor)

    def actual_size(self, anchor: QPointF | None = None) -> None:
        """One pixel of the photo on one pixel of the screen."""
        self.set_zoom(1.0, anchor)

    def _clamp(self) -> None:
        """Keep the photo on screen: centred along a side that fits, edge to edge along one that does not."""
        w, h = self.full_size.width() * self.scale(), self.full_size.height() * self.scale()
        cx, cy = self.center.x(), self.center.y()
        half_x, half_y = self.width() / 2 / w if w else 0.5, self.height() / 2 / h if h else 0.5
        cx = 0.5 if half_x >= 0.5 else min(max(cx, half_x), 1 - half_x)
        cy = 0.5 if half_y >= 0.5 else min(max(cy, half_y), 1 - half_y)
        self.center = QPointF(cx, cy)

    def image_rect(self) -> QRectF:
        if self.pixmap is None:
            return QRectF()
        if self.zoom is None:
            size = QSize(self.pixmap.width(), self.pixmap.height()).scaled(
                self.size(), Qt.AspectRatioMode.KeepAspectRatio
            )
            x = (self.width() - size.width()) / 2
            y = (self.height() - size.height()) / 2
            return QRectF(x, y, size.width(), size.height())
        w, h = self.full_size.width() * self.zoom, self.full_size.height() * self.zoom
        return QRectF(self.width() / 2 - self.center.x() * w, self.height() / 2 - self.center.y() * h, w, h)

    def wheelEvent(self, event) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(ZOOM_STEP**steps, event.position())
        event.accept()

    def mouseDoubleClickEvent(self, event) -> None:
        if self.zoom is None:
            self.actual_size(event.position())
        else:
            self.fit()

    def mousePressEvent(self, event) -> None:
        if self.zoom is not None and event.button() == Qt.MouseButton.LeftButton:
            self._drag = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)

    def mouseMoveEvent(self, event) -> None:
        if self._drag is None:
            return
        delta = event.position() - self._drag
        self._drag = event.position()
        self.pan(delta.x(), delta.y())

    def mouseReleaseEvent(self, _event) -> None:
        self._drag = None
        self.unsetCursor()

    def pan(self, dx: float, dy: float) -> None:
        """Move the photo by (dx, dy) screen pixels."""
        w, h = self.full_size.width() * self.scale(), self.full_size.height() * self.scale()
        if not w or not h:
            return
        self.center = QPointF(self.center.x() - dx / w, self.center.y() - dy / h)
        self._clamp()
        self.update()

    def resizeEvent(self, event) -> None:
        if self.zoom is not None:
            self._clamp()
        super().resizeEvent(event)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.pixmap is None:
            p.setPen(self.palette().placeholderText().color())
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.message or "Loading…")
            return
        r = self.image_rect()
        p.drawPixmap(r, self.pixmap, QRectF(self.pixmap.rect()))
        if not self.show_boxes:
            return
        font = QFont(self.font())
        font.setPointSizeF(max(8.0, font.pointSizeF() * 0.9))
        p.setFont(font)
        for box, label, color in self.boxes:
            x0, y0, x1, y1 = box
            rect = QRectF(
                r.x() + x0 * r.width(), r.y() + y0 * r.height(), (x1 - x0) * r.width(), (y1 - y0) * r.height()
            )
            p.setPen(QPen(color, 2))
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(rect)
            if label:
                w = p.fontMetrics().horizontalAdvance(label) + 8
                h = p.fontMetrics().height() + 2
                tag = QRectF(rect.x(), max(r.y(), rect.y() - h), w, h)
                p.fillRect(tag, color)
                p.setPen(QColor(0, 0, 0))
                p.drawText(tag, Qt.AlignmentFlag.AlignCenter, label)


def _from_the_file(facts: dict) -> str:
    """What the photo's file or its sidecar says (other apps' keywords, title, rating, label), and
    what could not be read of it."""
    e = html.escape
    rows = []
    for kind, title in (("title", "Title"), ("description", "Caption"), ("credit", "By")):
        for f in facts.get(kind, [])[:2]:
            rows.append((title, f["label"]))
    keywords = [f["label"] for f in facts.get("keyword", [])]
    if keywords:
        rows.append(("Keywords", ", ".join(keywords[:30])))
    written = [f for f in facts.get("rating", []) if f.get("analyzer") != "user"]  # yours: the stars above
    if written:
        stars = int(float(written[0]["label"]))
        rows.append(("Rating", "rejected" if stars < 0 else "★" * stars + "☆" * (5 - stars)))
    if facts.get("color_label"):
        rows.append(("Label", facts["color_label"][0]["label"]))
    for f in facts.get("metadata_issue", [])[:3]:
        rows.append(("Skipped", f["label"]))
    return (
        "".join(
            f"<tr><td style='color:gray;padding-right:8px'>{e(k)}</td><td>{e(v)}</td></tr>" for k, v in rows
        ).join(("<table>", "</table>"))
        if rows
        else ""
    )


def _section(title: str, body: str) -> str:
    return f"<h3 style='margin:10px 0 4px 0'>{html.escape(title)}</h3>{body}"


def place_row(d: PhotoDetails) -> str:
    """The "Place" row: its name, the coordinates after it in smaller grey words."""
    if not d.place and not d.gps:
        return ""
    coords = f"{d.gps[0]:.5f}, {d.gps[1]:.5f}" if d.gps else ""
    name = html.escape(d.place or "")
    small = f" <small style='color:gray'>{coords}</small>" if coords and name else coords
    return f"<tr><td style='color:gray;padding-right:8px'>Place</td><td>{name}{small}</td></tr>"


def subject_colours(colour_facts: list[dict]) -> list[str]:
    """The main subject's colours, each once: the detector's box where it found one, else the
    salient centre's (both are `color` facts with `region: subject`)."""
    subject = [f for f in colour_facts if (f.get("data") or {}).get("region") == "subject"]
    boxed = [f for f in subject if f.get("analyzer") == "detector"]
    return list(dict.fromkeys(f["label"] for f in (boxed or subject)))[:4]


def face_words(d: PhotoDetails) -> list[str]:
    """Each face as HTML: its person's name, else how it looks, "a woman (no name yet)"."""
    e = html.escape
    said = [(f["label"], f["score"], f["box"]) for f in d.facts.get(FACE_KIND, [])]
    out = []
    for face in d.faces:
        if face["name"]:
            out.append(e(face["name"]))
            continue
        look = with_article(look_of(face["box"], said))
        out.append(
            f"{e(look)} <span style='color:gray'>(no name yet)</span>"
            if look
            else "<span style='color:gray'>no name yet</span>"
        )
    return out


def details_html(d: PhotoDetails) -> str:
    """The info panel as HTML (links open in the browser only when clicked)."""
    e = html.escape
    parts = [
        f"<h2 style='margin:0'>{e(d.name)}</h2><div style='color:gray'>{e(str(Path(d.path).parent))}</div>"
    ]
    if not d.online:
        parts.append("<p style='color:#c0392b'>The file is offline (its folder is not reachable).</p>")
    caption = d.facts.get("caption")
    if caption:
        parts.append(f"<p><i>{e(caption[0]['label'])}</i></p>")
    if d.exif or d.gps:
        lines = [
            f"<tr><td style='color:gray;padding-right:8px'>{e(k)}</td><td>{e(v)}</td></tr>"
            for k, v in d.exif.items()
        ]
        lines.insert(1 if "Taken" in d.exif else 0, place_row(d))  # when, then where
        rows = "".join(lines)
        parts.append(_section("Details", f"<table>{rows}</table>"))
    if d.faces:
        parts.append(_section("People", ", ".join(face_words(d))))
    tags = [
        t
        for t in d.facts.get("tag", []) + d.facts.get("user_tag", [])
        if not (t["data"] or {}).get("hypernym")
    ]
    if tags:
        parts.append(
            _section(
                "Tags",
                ", ".join(
                    f"{e(t['label'])} <span style='color:gray'>{t['score']:.0%}</span>" for t in tags[:15]
                ),
            )
        )
    written = _from_the_file(d.facts)
    if written:
        parts.append(_section("From the file", written))
    if d.facts.get("object"):
        parts.append(
            _section(
                "Objects",
                ", ".join(
                    f"{e(o['label'])} <span style='color:gray'>{o['score']:.0%}</span>"
                    for o in d.facts["object"][:20]
                ),
            )
        )
    if d.facts.get("text"):
        words = " ".join(t["label"] for t in d.facts["text"][:60])
        parts.append(_section("Text found", f"<p style='font-family:monospace'>{e(words)}</p>"))
    for kind, title in (
        ("kind", "Kind"),
        ("quality", "Quality"),
        ("color", "Colour"),
        ("attribute", "Looks"),
    ):
        frame = [f for f in d.facts.get(kind, []) if not (f.get("data") or {}).get("region")]
        if frame:
            parts.append(_section(title, ", ".join(dict.fromkeys(e(f["label"]) for f in frame[:6]))))
    subject = subject_colours(d.facts.get("color", []))
    if subject:
        parts.append(_section("Colour of the subject", ", ".join(e(c) for c in subject)))
    if d.facts.get("knowledge"):
        items = []
        for k in d.facts["knowledge"]:
            data = k["data"] or {}
            facts = data.get("facts")
            facts_html = (
                f"<br>{e(facts if isinstance(facts, str) else '; '.join(map(str, facts or [])))}"
                if facts
                else ""
            )
            links = " ".join(
                f"<a href='{e(s.get('url', ''))}'>[{i + 1}] {e(s.get('title') or s.get('url', ''))}</a>"
                for i, s in enumerate(data.get("sources") or [])
            )
            cat = (
                f" <span style='color:gray'>({e(str(data['category']))})</span>"
                if data.get("category")
                else ""
            )
            items.append(f"<p><b>{e(k['label'])}</b>{cat}{facts_html}<br>{links}</p>")
        parts.append(_section("Learned knowledge", "".join(items)))
    return "".join(parts)


class PhotoView(QWidget):
    """Shows one photo of a list; emits the actions the window carries out."""

    back_requested = Signal()
    navigate = Signal(int)  # -1 / +1
    find_similar = Signal(int)
    find_same_people = Signal(int)
    find_same_day = Signal(int)
    find_same_place = Signal(int)
    ask_requested = Signal(int)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.details: PhotoDetails | None = None
        self.desktop_message = None  # the "nothing to open it with" message, while shown
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.toolbar = QToolBar(self)
        tb = self.toolbar
        self.act_back = tb.addAction("◀ Back", self.back_requested.emit)
        self.act_back.setToolTip("Back to the results (Esc)")
        tb.addSeparator()
        self.act_prev = tb.addAction("‹ Previous", lambda: self.navigate.emit(-1))
        self.position = QLabel("", self)
        self.position.setObjectName("PhotoPosition")
        tb.addWidget(self.position)
        self.act_next = tb.addAction("Next ›", lambda: self.navigate.emit(1))
        tb.addSeparator()
        self.act_zoom_out = tb.addAction("−", lambda: self.canvas.zoom_by(1 / ZOOM_STEP))
        self.act_zoom_out.setToolTip("Zoom out (−)")
        self.zoom_label = QLabel("Fit", self)
        tb.addWidget(self.zoom_label)
        self.act_zoom_in = tb.addAction("+", lambda: self.canvas.zoom_by(ZOOM_STEP))
        self.act_zoom_in.setToolTip("Zoom in (+, or the mouse wheel)")
        self.act_actual = tb.addAction("1:1", self.canvas_actual_size)
        self.act_actual.setToolTip("Actual size: one photo pixel per screen pixel (1, or double-click)")
        self.act_fit = tb.addAction("Fit", self.canvas_fit)
        self.act_fit.setToolTip("Fit the window (0, or double-click again)")
        self.act_slideshow = tb.addAction("Slideshow")
        self.act_slideshow.setCheckable(True)
        self.act_slideshow.setToolTip("Show the photos one after another (F5; Esc stops)")
        self.act_full_screen = tb.addAction("Full screen")
        self.act_full_screen.setToolTip("Fill the screen (F11; Esc leaves)")
        tb.addSeparator()
        self.act_boxes = tb.addAction("Boxes")
        self.act_boxes.setCheckable(True)
        self.act_boxes.setChecked(True)
        self.act_boxes.setToolTip("Show objects and faces (B)")
        self.act_boxes.setShortcut("B")
        self.act_boxes.toggled.connect(self._toggle_boxes)
        tb.addSeparator()
        self.act_open = tb.addAction("Open with…", self.open_with_default)
        self.act_open.setToolTip("Open the photo in this computer's default application for it")
        self.act_folder = tb.addAction("Show in folder", self.open_folder)
        self.act_copy = tb.addAction("Copy path", self.copy_path)
        tb.addWidget(self._find_button())
        self.act_ask = tb.addAction("Ask…", lambda: self._emit(self.ask_requested))
        lay.addWidget(tb)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.canvas = ImageCanvas(split)
        self.canvas.zoom_changed.connect(self._show_zoom)
        for keys, slot in (
            (("+", "="), lambda: self.canvas.zoom_by(ZOOM_STEP)),
            (("-",), lambda: self.canvas.zoom_by(1 / ZOOM_STEP)),
            (("1",), self.canvas_actual_size),
            (("0",), self.canvas_fit),
        ):
            for key in keys:
                sc = QShortcut(QKeySequence(key), self, slot)
                sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.info = QTextBrowser(split)
        self.info.setOpenExternalLinks(True)
        self.info.setMinimumWidth(200)
        split.addWidget(self.canvas)
        split.addWidget(self.info)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([900, 340])
        self.splitter = split
        body = QHBoxLayout()
        body.addWidget(split)
        lay.addLayout(body, 1)

    def _find_button(self) -> QToolButton:
        """ "Find similar", with the other photos like this one under its arrow: with the same people,
        from the same day."""
        self.act_similar = QAction("Find similar", self)
        self.act_similar.triggered.connect(lambda: self._emit(self.find_similar))
        self.act_people = QAction("Photos with the same people", self)
        self.act_people.triggered.connect(lambda: self._emit(self.find_same_people))
        self.act_same_day = QAction("Photos from the same day", self)
        self.act_same_day.triggered.connect(lambda: self._emit(self.find_same_day))
        self.act_same_place = QAction("Photos from the same place", self)
        self.act_same_place.triggered.connect(lambda: self._emit(self.find_same_place))
        button = QToolButton(self)
        button.setDefaultAction(self.act_similar)
        menu = QMenu(button)
        menu.addActions([self.act_similar, self.act_people, self.act_same_day, self.act_same_place])
        button.setMenu(menu)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        button.setToolTip(
            "Find similar photos; the arrow finds those with the same people or from the same day"
        )
        self.find_button = button
        return button

    def canvas_actual_size(self) -> None:
        self.canvas.actual_size()

    def canvas_fit(self) -> None:
        self.canvas.fit()

    def _emit(self, signal) -> None:
        if self.details is not None:
            signal.emit(self.details.id)

    def show_details(self, d: PhotoDetails) -> None:
        self.details = d
        boxes = []
        for o in d.facts.get("object", []):
            if o.get("box"):
                boxes.append((o["box"], f"{o['label']} {o['score']:.0%}", OBJECT_COLOR))
        for f in d.faces:
            boxes.append((f["box"], f["name"] or "?", FACE_COLOR))
        self.canvas.boxes = boxes
        self.info.setHtml(details_html(d))
        self.act_people.setEnabled(any(f["name"] for f in d.faces))
        self.act_same_day.setEnabled("Taken" in d.exif)
        self.act_same_place.setEnabled(bool(d.place))
        self.canvas.update()

    def set_image(self, image: QImage | None, message: str = "") -> None:
        d = self.details
        # the catalog keeps the photo's upright size: 1:1 means the original's pixels, even when the
        # preview shown is smaller
        full = QSize(d.width, d.height) if d is not None and d.width and d.height else None
        self.canvas.set_image(image, message, full)

    def set_position(self, number: int | None, total: int) -> None:
        """Where this photo is in the list: "3 of 17"."""
        self.position.setText(f"{number:,} of {total:,}" if number else "")

    def _show_zoom(self) -> None:
        c = self.canvas
        self.zoom_label.setText("Fit" if c.zoom is None else f"{c.scale():.0%}")

    def _toggle_boxes(self, on: bool) -> None:
        self.canvas.show_boxes = on
        self.canvas.update()

    def open_folder(self) -> None:
        if self.details:
            self.desktop_message = show_folder(self.details.path, self)

    def open_with_default(self) -> None:
        if self.details:
            self.desktop_message = open_photo_file(self.details.path, self)

    def copy_path(self) -> None:
        if self.details:
            QApplication.clipboard().setText(self.details.path)
