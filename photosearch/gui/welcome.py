"""First run: choose photo folders (button or drag & drop); indexing starts in the background."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QFileDialog, QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from photosearch.gui.theme import app_icon


class DropZone(QFrame):
    folders_dropped = Signal(list)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("DropZone")
        self.setAcceptDrops(True)
        self.setMinimumSize(420, 150)
        lay = QVBoxLayout(self)
        label = QLabel("Drop photo folders here", self)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(label)

    def _folders(self, event) -> list[str]:
        md = event.mimeData()
        if not md.hasUrls():
            return []
        return [u.toLocalFile() for u in md.urls() if u.isLocalFile() and Path(u.toLocalFile()).is_dir()]

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if self._folders(event):
            self.setProperty("hover", True)
            self.style().polish(self)
            event.acceptProposedAction()

    def dragLeaveEvent(self, _event) -> None:
        self.setProperty("hover", False)
        self.style().polish(self)

    def dropEvent(self, event: QDropEvent) -> None:
        folders = self._folders(event)
        self.setProperty("hover", False)
        self.style().polish(self)
        if folders:
            event.acceptProposedAction()
            self.folders_dropped.emit(folders)


class WelcomeView(QWidget):
    folders_chosen = Signal(list)

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.addStretch(1)
        icon = QLabel(self)
        icon.setPixmap(app_icon().pixmap(96, 96))
        icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(icon)
        title = QLabel("Welcome to PhotoSearch", self)
        title.setObjectName("WelcomeTitle")
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(title)
        text = QLabel(
            "Choose the folders with your photos. PhotoSearch looks at every photo on this computer — "
            "tags, objects, text, faces — and keeps the folders in sync. Nothing leaves your machine.",
            self,
        )
        text.setObjectName("WelcomeText")
        text.setWordWrap(True)
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setMaximumWidth(560)
        text.setMinimumWidth(320)
        text.setMinimumHeight(90)  # three lines at the 11pt of the stylesheet
        lay.addWidget(text, 0, Qt.AlignmentFlag.AlignHCenter)
        self.drop = DropZone(self)
        self.drop.folders_dropped.connect(self.folders_chosen.emit)
        lay.addWidget(self.drop, 0, Qt.AlignmentFlag.AlignHCenter)
        self.button = QPushButton("Choose a folder…", self)
        self.button.setDefault(True)
        self.button.clicked.connect(self.pick)
        lay.addWidget(self.button, 0, Qt.AlignmentFlag.AlignHCenter)
        self.status = QLabel("", self)
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self.status)
        lay.addStretch(2)

    def pick(self) -> None:
        start = Path.home() / "Pictures"
        dlg = QFileDialog(self, "Choose a photo folder", str(start if start.is_dir() else Path.home()))
        dlg.setFileMode(QFileDialog.FileMode.Directory)
        dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dlg.fileSelected.connect(lambda p: self.folders_chosen.emit([p]) if p else None)
        dlg.open()
        self._dialog = dlg
