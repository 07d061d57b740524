"""Light/dark following the system palette; the stylesheet uses palette roles so it adapts."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication


def resources_dir() -> Path:
    """`resources/` next to the package, or inside a PyInstaller bundle."""
    base = Path(getattr(sys, "_MEIPASS", Path(__file__).resolve().parents[2]))
    return base / "resources"


def app_icon() -> QIcon:
    for name in ("photosearch.svg", "photosearch.png"):
        p = resources_dir() / "icons" / name
        if p.is_file():
            return QIcon(str(p))
    return QIcon()


def is_dark() -> bool:
    hints = QGuiApplication.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if callable(scheme):
        value = scheme()
        if value == Qt.ColorScheme.Dark:
            return True
        if value == Qt.ColorScheme.Light:
            return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def dark_palette() -> QPalette:
    p = QPalette()
    base, window, text = QColor(30, 31, 34), QColor(43, 45, 48), QColor(223, 225, 229)
    p.setColor(QPalette.ColorRole.Window, window)
    p.setColor(QPalette.ColorRole.WindowText, text)
    p.setColor(QPalette.ColorRole.Base, base)
    p.setColor(QPalette.ColorRole.AlternateBase, window)
    p.setColor(QPalette.ColorRole.Text, text)
    p.setColor(QPalette.ColorRole.Button, window)
    p.setColor(QPalette.ColorRole.ButtonText, text)
    p.setColor(QPalette.ColorRole.ToolTipBase, base)
    p.setColor(QPalette.ColorRole.ToolTipText, text)
    p.setColor(QPalette.ColorRole.Highlight, QColor(53, 116, 240))
    p.setColor(QPalette.ColorRole.HighlightedText, QColor(255, 255, 255))
    p.setColor(QPalette.ColorRole.Link, QColor(110, 160, 255))
    p.setColor(QPalette.ColorRole.PlaceholderText, QColor(140, 143, 148))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(120, 122, 126))
    return p


def apply_theme(app: QApplication, dark: bool | None = None) -> bool:
    """Fusion style, dark palette when the system is dark; returns whether dark was applied."""
    app.setStyle("Fusion")
    dark = is_dark() if dark is None else dark
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    qss = resources_dir() / "styles" / "app.qss"
    if qss.is_file():
        app.setStyleSheet(qss.read_text(encoding="utf-8"))
    return dark


def follow_system(app: QApplication) -> None:
    """Re-apply the theme when the system switches between light and dark."""
    hints = QGuiApplication.styleHints()
    signal = getattr(hints, "colorSchemeChanged", None)
    if signal is not None:
        signal.connect(lambda _scheme: apply_theme(app))
