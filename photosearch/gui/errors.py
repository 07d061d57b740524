"""Clear error dialogs: a sentence for the user, the technical details folded away."""

from __future__ import annotations

import logging
import sys

from PySide6.QtWidgets import QMessageBox, QWidget

from photosearch.gui.bridge import ErrorInfo

log = logging.getLogger(__name__)


class ErrorReporter:
    """Shows errors non-modally (never blocks a worker or a test); remembers the last ones."""

    def __init__(self, parent: QWidget | None = None):
        self.parent = parent
        self.shown: list[ErrorInfo] = []
        self.dialog: QMessageBox | None = None

    def show(self, info: ErrorInfo) -> QMessageBox:
        self.shown.append(info)
        log.warning("%s: %s", info.title, info.message)
        box = QMessageBox(self.parent)
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(info.title)
        box.setText(info.title)
        box.setInformativeText(info.message)
        if info.details:
            box.setDetailedText(info.details)  # the expandable "Show Details…" part
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.open()
        self.dialog = box
        return box

    def exception(self, exc: BaseException, title: str = "Something went wrong") -> QMessageBox:
        return self.show(ErrorInfo.from_exception(exc, title))

    def install_excepthook(self) -> None:
        """Uncaught exceptions in GUI slots become a dialog instead of a traceback on stderr."""
        previous = sys.excepthook

        def hook(etype, value, tb):
            if issubclass(etype, KeyboardInterrupt):
                previous(etype, value, tb)
                return
            value.__traceback__ = tb
            try:
                self.exception(value, "Unexpected error")
            except Exception:
                previous(etype, value, tb)

        sys.excepthook = hook
