"""Folders: the watched folders and their subfolders that hold photos, with photo counts; a click
shows that folder's photos (subfolders included, newest first) in a grid beside the tree.

The tree and the photos come from `Core` (`folder_tree`, `folder_photos`) off the GUI thread; the
grid is the library's own `ThumbnailGrid` over a `ResultsModel`, so opening, selecting, dragging out
and the context menu work as in the library.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QLabel, QSplitter, QTreeView, QVBoxLayout, QWidget

from photosearch.browse import FolderNode
from photosearch.gui.grid import ResultsModel, ThumbnailGrid
from photosearch.gui.thumbs import ThumbnailCache

FolderPathRole = Qt.ItemDataRole.UserRole + 20


def folder_item(node: FolderNode) -> list[QStandardItem]:
    """The tree row of a folder (its name; its photo count) with its subfolders below it."""
    name = QStandardItem(node.name if node.online else f"{node.name} (offline)")
    name.setData(node.path, FolderPathRole)
    name.setToolTip(
        f"{node.path}\n{node.count:,} photo{'s' if node.count != 1 else ''}"
        + (f" ({node.own:,} in this folder itself)" if node.children and node.own else "")
    )
    name.setEditable(False)
    count = QStandardItem(f"{node.count:,}")
    count.setData(
        int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), Qt.ItemDataRole.TextAlignmentRole
    )
    count.setEditable(False)
    for child in node.children:
        name.appendRow(folder_item(child))
    return [name, count]


class FolderTreePage(QWidget):
    """The folder tree on the left, the chosen folder's photos on the right."""

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
        self.tree_model = QStandardItemModel(self)
        self.tree_model.setHorizontalHeaderLabels(["Folder", "Photos"])
        self.tree = QTreeView(self)
        self.tree.setModel(self.tree_model)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderHidden(True)
        self.tree.clicked.connect(self._chosen)
        self.tree.selectionModel().currentChanged.connect(lambda cur, _prev: self._chosen(cur))
        self.model = ResultsModel(thumbs, self)
        self.grid = ThumbnailGrid(self, thumbs.size)
        self.grid.setModel(self.model)
        self.grid.open_requested.connect(self.open_requested)
        self.grid.preview_requested.connect(self.open_requested)
        self.grid.customContextMenuRequested.connect(self._menu)
        self.title = QLabel("Choose a folder", self)
        self.title.setObjectName("FolderTitle")
        right = QWidget(self)
        right_lay = QVBoxLayout(right)
        right_lay.setContentsMargins(6, 0, 0, 0)
        right_lay.addWidget(self.title)
        right_lay.addWidget(self.grid, 1)
        self.splitter = QSplitter(self)
        self.splitter.addWidget(self.tree)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([230, 570])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 4)
        lay.addWidget(self.splitter)
        self.folder: str | None = None
        self.task = None
        self.photos_task = None

    def refresh(self):
        """Read the folders again (off the GUI thread), keeping the chosen one."""
        core = self.core
        self.task = self.runner.submit(
            lambda _p, _c: core.folder_tree(), name="Folders", on_result=self._loaded, on_error=self.on_error
        )
        return self.task

    def _loaded(self, nodes: list[FolderNode]) -> None:
        self.tree_model.removeRows(0, self.tree_model.rowCount())
        for node in nodes:
            self.tree_model.appendRow(folder_item(node))
        self.tree.expandToDepth(0)
        self.tree.resizeColumnToContents(1)
        self.tree.header().setStretchLastSection(False)
        self.tree.header().setSectionResizeMode(0, self.tree.header().ResizeMode.Stretch)
        if not nodes:
            self.title.setText("No folders yet: add one in Settings.")
            return
        chosen = self.item_for(self.folder) if self.folder else None
        index = (chosen or self.tree_model.item(0)).index()
        before = self.photos_task
        self.tree.setCurrentIndex(index)  # shows the folder, unless it was already current
        if self.photos_task is before:
            self._chosen(index, force=True)  # the same folder: its photos may have changed

    def item_for(self, path: str) -> QStandardItem | None:
        """The tree row of a folder path (None when the tree has no such folder)."""
        for row in self.tree_model.findItems("*", Qt.MatchFlag.MatchWildcard | Qt.MatchFlag.MatchRecursive):
            if row.data(FolderPathRole) == path:
                return row
        return None

    def show_folder(self, path: str):
        """Show a folder's photos in the grid (through `Core`, off the GUI thread)."""
        self.folder = path
        core = self.core
        self.title.setText(f"{Path(path).name} · loading…")
        self.title.setToolTip(path)

        def done(results: list[dict]) -> None:
            if path != self.folder:
                return  # another folder was chosen meanwhile
            self.model.set_results(results)
            n = len(results)
            self.title.setText(f"{Path(path).name} · {n:,} photo{'s' if n != 1 else ''}")
            if results:
                self.grid.setCurrentIndex(self.model.index(0))

        self.photos_task = self.runner.submit(
            lambda _p, _c: core.folder_photos(path),
            name="Folder photos",
            on_result=done,
            on_error=self.on_error,
        )
        return self.photos_task

    def reveal(self, photo_id: int) -> None:
        """Make a photo current in the grid (after the viewer moved through this folder)."""
        row = self.model.row_of(photo_id)
        if row is not None:
            self.grid.setCurrentIndex(self.model.index(row))
            self.grid.scrollTo(self.model.index(row))

    def _chosen(self, index: QModelIndex, *, force: bool = False) -> None:
        if not index.isValid():
            return
        path = index.siblingAtColumn(0).data(FolderPathRole)
        if path and (force or path != self.folder):
            self.show_folder(path)

    def _menu(self, pos: QPoint) -> None:
        idx = self.grid.indexAt(pos)
        if not idx.isValid():
            return
        menu = self.menu_for(self.model.ids[idx.row()], self.model.paths[idx.row()], self.model)
        menu.exec(self.grid.viewport().mapToGlobal(pos))
