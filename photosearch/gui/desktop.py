"""Hand a photo or its folder to the desktop (the default application, the file manager). When the
desktop has nothing to open it with, say so and offer to copy the path instead of doing nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget


def open_in_desktop(path: str | Path, parent: QWidget | None, what: str) -> QMessageBox | None:
    """Open `path` with the desktop's default handler; None when it opened, else the message shown
    ("No application … Copy path"). `what` names it for people: "this photo", "this folder"."""
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
        return None
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Information)
    box.setWindowTitle("Nothing to open it with")
    box.setText(f"This computer has no application set up to open {what}.")
    box.setInformativeText(str(path))
    copy = box.addButton("Copy path", QMessageBox.ButtonRole.ActionRole)
    box.addButton(QMessageBox.StandardButton.Close)
    copy.clicked.connect(lambda: QApplication.clipboard().setText(str(path)))
    box.open()  # not modal-blocking: the window stays usable
    return box


def open_photo_file(path: str | Path, parent: QWidget | None) -> QMessageBox | None:
    """The photo in the default image application."""
    return open_in_desktop(path, parent, "this photo")


def show_folder(path: str | Path, parent: QWidget | None) -> QMessageBox | None:
    """The folder holding the photo, in the file manager."""
    return open_in_desktop(Path(path).parent, parent, "this folder")
