"""The large photo view: the image with optional object/face boxes, and everything known about it."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QSplitter,
    QTextBrowser,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from photosearch.core import PhotoDetails
from photosearch.gui.desktop import open_photo_file, show_folder

OBJECT_COLOR = QColor(255, 170, 0)
FACE_COLOR = QColor(0, 200, 255)
TEXT_COLOR = QColor(160, 220, 60)


class ImageCanvas(QWidget):
    """Paints the photo fitted to the widget, with labelled boxes when `show_boxes` is on."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.pixmap: QPixmap | None = None
        self.boxes: list[tuple[list[float], str, QColor]] = []
        self.show_boxes = True
        self.message = ""
        self.setMinimumSize(320, 240)

    def set_image(self, image: QImage | None, message: str = "") -> None:
        if image is not None and not image.isNull():
            pix = QPixmap.fromImage(image)
            pix.setDevicePixelRatio(1.0)
            self.pixmap = pix
        else:
            self.pixmap = None
        self.message = message
        self.update()

    def image_rect(self) -> QRectF:
        if self.pixmap is None:
            return QRectF()
        size = QSize(self.pixmap.width(), self.pixmap.height()).scaled(
            self.size(), Qt.AspectRatioMode.KeepAspectRatio
        )
        x = (self.width() - size.width()) / 2
        y = (self.height() - size.height()) / 2
        return QRectF(x, y, size.width(), size.height())

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
    if facts.get("rating"):
        stars = int(float(facts["rating"][0]["label"]))
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
    if d.exif:
        rows = "".join(
            f"<tr><td style='color:gray;padding-right:8px'>{e(k)}</td><td>{e(v)}</td></tr>"
            for k, v in d.exif.items()
        )
        parts.append(_section("Details", f"<table>{rows}</table>"))
    if d.faces:
        names = [e(f["name"]) if f["name"] else "<span style='color:gray'>unnamed</span>" for f in d.faces]
        parts.append(_section("People", ", ".join(names)))
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
    for kind in ("kind", "quality", "color", "attribute"):
        frame = [f for f in d.facts.get(kind, []) if not (f.get("data") or {}).get("region")]
        if frame:
            parts.append(_section(kind.capitalize(), ", ".join(e(f["label"]) for f in frame[:6])))
    subject = [f for f in d.facts.get("color", []) if (f.get("data") or {}).get("region") == "subject"]
    if subject:  # the salient centre's colours (the quality analyzer's `region: subject`)
        parts.append(_section("Colour of the subject", ", ".join(e(f["label"]) for f in subject[:4])))
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
        self.act_next = tb.addAction("Next ›", lambda: self.navigate.emit(1))
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
        self.act_similar = tb.addAction("Find similar", lambda: self._emit(self.find_similar))
        self.act_people = tb.addAction("Same people", lambda: self._emit(self.find_same_people))
        self.act_ask = tb.addAction("Ask…", lambda: self._emit(self.ask_requested))
        lay.addWidget(tb)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.canvas = ImageCanvas(split)
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
        self.canvas.update()

    def set_image(self, image: QImage | None, message: str = "") -> None:
        self.canvas.set_image(image, message)

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
