"""People: face clusters with a representative face each; name, merge, split, hide, and say which
one is you ("me" in requests)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QIcon, QImage, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QInputDialog,
    QLabel,
    QListView,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.birthday_dialog import BirthdayDialog, birthday_words
from photosearch.gui.bridge import ErrorInfo, TaskRunner
from photosearch.gui.flow import FlowLayout
from photosearch.gui.thumbs import load_image
from photosearch.people.looks import with_article

FACE_SIZE = 96
PersonRole = Qt.ItemDataRole.UserRole + 1
THIS_IS_ME = "This is me"
NOT_ME = "This is not me"


def face_crop(path: str | None, box: list[float] | None, size: int = FACE_SIZE) -> QImage | None:
    """A square crop around a face (normalised box) from a thumbnail or photo file."""
    image = load_image(path, QSize(1024, 1024))
    if image is None or image.isNull():
        return None
    if box:
        x0, y0, x1, y1 = box
        w, h = image.width(), image.height()
        cx, cy = (x0 + x1) / 2 * w, (y0 + y1) / 2 * h
        side = max((x1 - x0) * w, (y1 - y0) * h) * 1.5
        rect = QRect(int(cx - side / 2), int(cy - side / 2), int(side), int(side)).intersected(image.rect())
        image = image.copy(rect)
    return image.scaled(
        size, size, Qt.AspectRatioMode.KeepAspectRatioByExpanding, Qt.TransformationMode.SmoothTransformation
    )


class PeopleView(QWidget):
    """Left: people; right: the faces of the selected person (select faces, then Split)."""

    find_person = Signal(str)

    def __init__(self, core, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.core, self.runner, self.on_error = core, runner, on_error
        self.people: list = []
        # Loads run on a pool and may finish in any order: each one is tagged, and only the
        # newest one may touch the widgets (an older result is stale by definition).
        self._people_gen = 0
        self._faces_gen = 0
        lay = QVBoxLayout(self)
        bar_host = QWidget(self)  # the title and buttons wrap in a narrow window
        bar = FlowLayout(bar_host, spacing=6)
        self.title = QLabel("People", self)
        self.title.setObjectName("SectionTitle")
        bar.addWidget(self.title)
        self.show_hidden = QCheckBox("Show hidden", self)
        self.show_hidden.toggled.connect(lambda _b: self.refresh())
        self.btn_name = QPushButton("Name…", self)
        self.btn_merge = QPushButton("Merge", self)
        self.btn_hide = QPushButton("Hide", self)
        self.btn_split = QPushButton("Split selected faces", self)
        self.btn_find = QPushButton("Show photos", self)
        self.btn_me = QPushButton(THIS_IS_ME, self)
        self.btn_birthday = QPushButton("Birthday…", self)
        self.btn_birthday.setToolTip("When the selected person was born: “Anna at 3”, “my twenties” use it")
        self.btn_me.setToolTip("Requests that say “me” or “my” mean this person")
        self.btn_name.setToolTip("Name the selected person (F2)")
        self.btn_merge.setToolTip("Merge the selected people into the first one")
        self.btn_split.setToolTip("Move the faces selected on the right to a new person")
        for w in (
            self.show_hidden,
            self.btn_find,
            self.btn_me,
            self.btn_birthday,
            self.btn_name,
            self.btn_merge,
            self.btn_hide,
            self.btn_split,
        ):
            bar.addWidget(w)
        lay.addWidget(bar_host)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.list = QListWidget(split)
        self.list.setViewMode(QListView.ViewMode.IconMode)
        self.list.setIconSize(QSize(FACE_SIZE, FACE_SIZE))
        self.list.setGridSize(QSize(FACE_SIZE + 40, FACE_SIZE + 44))
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setMovement(QListView.Movement.Static)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.list.itemDoubleClicked.connect(lambda _i: self.rename())
        self.faces = QListWidget(split)
        self.faces.setViewMode(QListView.ViewMode.IconMode)
        self.faces.setIconSize(QSize(72, 72))
        self.faces.setGridSize(QSize(88, 88))
        self.faces.setResizeMode(QListView.ResizeMode.Adjust)
        self.faces.setMovement(QListView.Movement.Static)
        self.faces.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        split.addWidget(self.list)
        split.addWidget(self.faces)
        split.setSizes([700, 300])
        lay.addWidget(split, 1)
        self.empty = QLabel("No faces found yet. People appear here after indexing photos with faces.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        lay.addWidget(self.empty)
        self.btn_name.clicked.connect(self.rename)
        self.btn_merge.clicked.connect(self.merge_selected)
        self.btn_hide.clicked.connect(self.toggle_hidden)
        self.btn_split.clicked.connect(self.split_selected)
        self.btn_find.clicked.connect(self._find)
        self.btn_me.clicked.connect(self.toggle_me)
        self.btn_birthday.clicked.connect(self.edit_birthday)
        self._selection_changed()

    # ---- loading ----
    def _invalidate_people(self) -> int:
        """Make every people load already started stale; returns the new generation."""
        self._people_gen += 1
        return self._people_gen

    def refresh(self, on_done: Callable[[], None] | None = None) -> None:
        """Reload the people list; a result that arrives after a newer refresh (or an action)
        started is dropped, so the list always reflects the latest state asked for."""
        include_hidden = self.show_hidden.isChecked()
        core = self.core
        gen = self._invalidate_people()

        def job(progress, cancel):
            from photosearch.people import list_people

            people = list_people(core.store, include_hidden=include_hidden)
            out = []
            for p in people:
                if cancel():
                    break
                src = core.thumb_path(p.photo_id) if p.photo_id else None
                out.append((p, face_crop(src, p.box) if src else None))
            return out

        def done(items):
            if gen != self._people_gen:
                return  # a newer load (or an action's reload) owns the list
            self._show(items)
            if on_done:
                on_done()

        def failed(info: ErrorInfo) -> None:
            if gen == self._people_gen:
                self.on_error(info)

        self.runner.submit(job, name="Loading people", on_result=done, on_error=failed)

    def _show(self, items) -> None:
        keep = set(self.selected_ids())  # who was selected stays selected after a change
        self.list.blockSignals(True)
        self.list.clear()
        self.people = [p for p, _ in items]
        for p, image in items:
            label = p.name or (with_article(p.look).capitalize() if p.look else "Someone")
            if p.name and p.name == self.core.owner:
                label += " (you)"
            item = QListWidgetItem(f"{label}\n{p.photo_count} photo{'s' if p.photo_count != 1 else ''}")
            if image is not None:
                item.setIcon(QIcon(QPixmap.fromImage(image)))
            item.setData(PersonRole, p.id)
            if not p.name:
                item.setToolTip("No name yet: select and choose Name… to name this person")
            elif p.birthday:
                item.setToolTip(f"{p.name}, {birthday_words(p.birthday)}")
            item.setTextAlignment(Qt.AlignmentFlag.AlignHCenter)
            if p.hidden:
                item.setForeground(self.palette().placeholderText())
            self.list.addItem(item)
            item.setSelected(p.id in keep)
        self.list.blockSignals(False)
        self._selection_changed()
        self.empty.setVisible(not items)
        self.title.setText(f"People ({len(items)})")

    def selected_ids(self) -> list[int]:
        return [int(i.data(PersonRole)) for i in self.list.selectedItems()]

    def person(self, pid: int):
        return next((p for p in self.people if p.id == pid), None)

    def _selection_changed(self) -> None:
        ids = self.selected_ids()
        self.btn_name.setEnabled(len(ids) == 1)
        named = len(ids) == 1 and bool(self.person(ids[0]) and self.person(ids[0]).name)
        self.btn_find.setEnabled(named)
        self.btn_me.setEnabled(named)
        self.btn_birthday.setEnabled(named)
        is_me = named and self.person(ids[0]).name == self.core.owner
        self.btn_me.setText(NOT_ME if is_me else THIS_IS_ME)
        self.btn_merge.setEnabled(len(ids) >= 2)
        self.btn_hide.setEnabled(bool(ids))
        if len(ids) == 1 and self.person(ids[0]) and self.person(ids[0]).hidden:
            self.btn_hide.setText("Show")
        else:
            self.btn_hide.setText("Hide")
        self._load_faces(ids[0] if len(ids) == 1 else None)

    def _load_faces(self, pid: int | None) -> None:
        self.faces.clear()
        self.btn_split.setEnabled(False)
        self._faces_gen += 1
        if pid is None:
            return
        core = self.core
        gen = self._faces_gen

        def job(progress, cancel):
            from photosearch.people import person_faces

            out = []
            for f in person_faces(core.store, pid)[:200]:
                if cancel():
                    break
                out.append((f, face_crop(core.thumb_path(f.photo_id), f.box, 72)))
            return out

        def done(items):
            if gen != self._faces_gen or self.selected_ids() != [pid]:
                return
            for f, image in items:
                item = QListWidgetItem("")
                if image is not None:
                    item.setIcon(QIcon(QPixmap.fromImage(image)))
                item.setData(PersonRole, f.id)
                item.setToolTip(f.photo_path)
                self.faces.addItem(item)
            self.btn_split.setEnabled(len(items) > 1)

        def failed(info: ErrorInfo) -> None:
            if gen == self._faces_gen:
                self.on_error(info)

        self.runner.submit(job, name="Loading faces", on_result=done, on_error=failed)

    # ---- actions (each runs on the bridge, then refreshes) ----
    def _do(self, name: str, fn, after: Callable[[object], None] | None = None) -> None:
        """Run a change off the GUI thread, then reload. Loads already in flight read the catalog
        before the change was committed, so they are made stale now; the reload starts only after
        the change has committed (or failed: the error is shown and the list re-read either way)."""
        self._invalidate_people()

        def done(result):
            if after:
                after(result)
            self.refresh()

        def failed(info: ErrorInfo) -> None:
            self.on_error(info)
            self.refresh()

        self.runner.submit(lambda _p, _c: fn(), name=name, on_result=done, on_error=failed)

    def name_selected(self, name: str) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            return
        from photosearch.people import name_person

        old = self.person(ids[0]).name if self.person(ids[0]) else None
        self._do(
            "Naming a person",
            lambda: (
                name_person(self.core.store, ids[0], name),
                self.core.owner_renamed(old, name),
                self.core.write_sidecars(),
            ),
        )

    def toggle_me(self) -> None:
        """Say that the selected named person is the user ("me"), or no longer."""
        ids = self.selected_ids()
        p = self.person(ids[0]) if len(ids) == 1 else None
        if not (p and p.name):
            return
        name = None if p.name == self.core.owner else p.name
        self._do("Saying who you are", lambda: self.core.set_owner(name))

    def edit_birthday(self) -> None:
        """Set or clear the selected named person's birthday."""
        ids = self.selected_ids()
        p = self.person(ids[0]) if len(ids) == 1 else None
        if not (p and p.name):
            return
        from photosearch.people import set_birthday

        def chosen(iso: str | None) -> None:
            self._do("Setting a birthday", lambda: set_birthday(self.core.store, p.id, iso))

        self._dialog = BirthdayDialog(p.name, p.birthday, chosen, self)
        self._dialog.open()

    def rename(self) -> None:
        ids = self.selected_ids()
        if len(ids) != 1:
            return
        current = (self.person(ids[0]).name if self.person(ids[0]) else "") or ""
        dlg = QInputDialog(self)
        dlg.setWindowTitle("Name this person")
        dlg.setLabelText("Name (the same name as someone else merges them):")
        dlg.setTextValue(current)
        dlg.textValueSelected.connect(self.name_selected)
        dlg.open()
        self._dialog = dlg

    def merge_selected(self) -> None:
        ids = self.selected_ids()
        if len(ids) < 2:
            return
        from photosearch.people import merge_people

        keep = ids[0]
        self._do(
            "Merging people",
            lambda: (
                [merge_people(self.core.store, keep, other) for other in ids[1:]],
                self.core.write_sidecars(),
            ),
        )

    def toggle_hidden(self) -> None:
        ids = self.selected_ids()
        if not ids:
            return
        from photosearch.people import set_hidden

        hide = not all(self.person(i) and self.person(i).hidden for i in ids)
        self._do("Hiding people", lambda: [set_hidden(self.core.store, i, hide) for i in ids])

    def split_selected(self) -> None:
        face_ids = [int(i.data(PersonRole)) for i in self.faces.selectedItems()]
        if not face_ids:
            return
        from photosearch.people import split_faces

        self._do(
            "Splitting faces", lambda: (split_faces(self.core.store, face_ids), self.core.write_sidecars())
        )

    def _find(self) -> None:
        ids = self.selected_ids()
        p = self.person(ids[0]) if len(ids) == 1 else None
        if p and p.name:
            self.find_person.emit(p.name)

    def _menu(self, pos) -> None:
        menu = QMenu(self)
        menu.addAction("Name…", self.rename).setEnabled(len(self.selected_ids()) == 1)
        menu.addAction("Show photos", self._find).setEnabled(self.btn_find.isEnabled())
        menu.addAction(self.btn_me.text(), self.toggle_me).setEnabled(self.btn_me.isEnabled())
        menu.addAction("Birthday…", self.edit_birthday).setEnabled(self.btn_birthday.isEnabled())
        menu.addAction("Merge", self.merge_selected).setEnabled(len(self.selected_ids()) >= 2)
        menu.addAction(self.btn_hide.text(), self.toggle_hidden)
        menu.exec(self.list.viewport().mapToGlobal(pos))
