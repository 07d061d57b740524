"""A one-line label that ends in "…" when its text is wider than it, and never widens the window;
its tooltip holds the whole text."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class ElidedLabel(QLabel):
    """`text()` is the whole text; what is painted is cut to the width with an ellipsis."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._tip_if_cut()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._tip_if_cut()

    def _tip_if_cut(self) -> None:
        """The whole text as the tooltip while it is wider than the label; none while it fits."""
        cut = self.fontMetrics().horizontalAdvance(self.text()) > self.width()
        self.setToolTip(self.text() if cut else "")

    def shown_text(self) -> str:
        """The text as painted: whole, or cut with "…" to the label's width."""
        rect = self.contentsRect()
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        rect = self.contentsRect()
        painter.drawText(rect, int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.shown_text())
