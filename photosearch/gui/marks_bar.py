"""The heart and the five stars of the photo view: click the heart to make a photo a favourite,
click a star to give that many stars (the same star again clears them)."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from photosearch.gui.grid import HEART_COLOR, STAR_COLOR, heart_path, star_polygon

ICON = 18
OFF = QColor(150, 150, 150)


def _icon(shape: str, on: bool) -> QIcon:
    pix = QPixmap(ICON * 2, ICON * 2)
    pix.setDevicePixelRatio(2.0)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    rect = QRectF(1, 1, ICON - 2, ICON - 2)
    colour = (HEART_COLOR if shape == "heart" else STAR_COLOR) if on else OFF
    if on:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
    else:
        p.setPen(colour)
        p.setBrush(Qt.BrushStyle.NoBrush)
    if shape == "heart":
        p.drawPath(heart_path(rect))
    else:
        p.drawPolygon(star_polygon(rect))
    p.end()
    return QIcon(pix)


class MarksBar(QWidget):
    """Emits what the user chose; `set_marks` shows a photo's marks (None: no photo)."""

    favourite_toggled = Signal(bool)
    rating_chosen = Signal(int)  # 0 clears the stars

    def __init__(self, parent=None):
        super().__init__(parent)
        self.favourite = False
        self.rating = 0
        lay = QHBoxLayout(self)
        lay.setContentsMargins(4, 0, 4, 0)
        lay.setSpacing(0)
        self.heart = QToolButton(self)
        self.heart.setObjectName("FavouriteButton")
        self.heart.setAutoRaise(True)
        self.heart.setIconSize(QSize(ICON, ICON))
        self.heart.clicked.connect(lambda: self.favourite_toggled.emit(not self.favourite))
        lay.addWidget(self.heart)
        lay.addSpacing(6)
        self.stars: list[QToolButton] = []
        for n in range(1, 6):
            b = QToolButton(self)
            b.setAutoRaise(True)
            b.setIconSize(QSize(ICON, ICON))
            b.setToolTip(f"{n} star{'s' if n > 1 else ''} (Ctrl+{n}); click again to clear (Ctrl+0)")
            b.clicked.connect(lambda _c=False, n=n: self.rating_chosen.emit(0 if n == self.rating else n))
            lay.addWidget(b)
            self.stars.append(b)
        self.set_marks(None)

    def set_marks(self, marks: dict | None) -> None:
        self.setEnabled(marks is not None)
        marks = marks or {}
        self.favourite = bool(marks.get("favourite"))
        self.rating = max(int(marks.get("rating") or 0), 0)
        self.heart.setIcon(_icon("heart", self.favourite))
        self.heart.setToolTip(("Remove from favourites" if self.favourite else "Add to favourites") + " (F)")
        for n, b in enumerate(self.stars, start=1):
            b.setIcon(_icon("star", n <= self.rating))
