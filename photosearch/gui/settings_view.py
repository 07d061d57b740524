"""Settings: folders, privacy (web enrichment off by default), models, performance.

GUI state lives in QSettings; everything the core uses is saved with `Settings.save()`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from photosearch.config import parse_point
from photosearch.errors import PhotoSearchError
from photosearch.gui.bridge import ErrorInfo, TaskRunner
from photosearch.gui.models_view import ModelsView
from photosearch.query.home import HOME_RADIUS_KM

BACKENDS = ("searxng", "wikipedia", "duckduckgo")


def gpu_providers() -> list[str]:
    try:
        import onnxruntime as ort  # photosearch is imported first: telemetry is off

        return list(ort.get_available_providers())
    except Exception:
        return []


def removal_text(path: str, impact: dict[str, int]) -> str:
    """The confirmation's words: what the catalog forgets (the files themselves stay)."""
    lost = [f"{impact['photos']} photo(s)"]
    if impact.get("user_tags"):
        lost.append(f"{impact['user_tags']} tag(s) you added")
    if impact.get("named_faces"):
        lost.append(f"{impact['named_faces']} named face(s)")
    if impact.get("knowledge"):
        lost.append(f"{impact['knowledge']} learned fact(s)")
    return (
        f"Remove {path}?\n\nPhotoSearch forgets {', '.join(lost)} in it. Adding the folder again "
        "re-reads the photos but not your tags and names. The files on disk are not touched."
    )


def accelerator_text(providers: list[str]) -> str:
    """Where the models run, in words: "this computer's processor" or "the graphics card (…)"."""
    if any(p in ("CUDAExecutionProvider", "TensorrtExecutionProvider") for p in providers):
        return "the graphics card (NVIDIA), when it is free; else the processor"
    if any(p in ("ROCMExecutionProvider", "MIGraphXExecutionProvider") for p in providers):
        return "the graphics card (AMD), when it is free; else the processor"
    if "CoreMLExecutionProvider" in providers:
        return "the Apple Neural Engine or graphics, when they can; else the processor"
    if "DmlExecutionProvider" in providers:
        return "the graphics card (DirectML), when it is free; else the processor"
    return "this computer's processor" if providers else "nowhere yet: the model runtime is not installed"


#: The sidecar naming conventions, as the settings tab offers them.
SIDECAR_NAMINGS = (
    ("photo.jpg.xmp (digiKam, darktable)", "photo.jpg.xmp"),
    ("photo.xmp (Lightroom)", "photo.xmp"),
)


class SettingsDialog(QDialog):
    folders_changed = Signal()
    saved = Signal()

    def __init__(self, core, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.core, self.settings = core, core.settings
        self.on_error = on_error
        self.setWindowTitle("PhotoSearch settings")
        self.resize(720, 520)
        lay = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        lay.addWidget(self.tabs)
        # folders
        page = QWidget()
        fl = QVBoxLayout(page)
        fl.addWidget(
            QLabel(
                "Folders PhotoSearch watches. Removing one forgets its photos in the catalog; "
                "the files are never touched. An offline folder (e.g. an unplugged drive) keeps "
                "its photos.",
                page,
                wordWrap=True,
            )
        )
        self.folder_list = QListWidget(page)
        fl.addWidget(self.folder_list, 1)
        row = QHBoxLayout()
        self.btn_add = QPushButton("Add folder…", page)
        self.btn_remove = QPushButton("Remove", page)
        self.btn_add.clicked.connect(self._pick_folder)
        self.btn_remove.clicked.connect(self._remove_folder)
        row.addWidget(self.btn_add)
        row.addWidget(self.btn_remove)
        row.addStretch(1)
        fl.addLayout(row)
        self.tabs.addTab(page, "Folders")
        # privacy
        page = QWidget()
        form = QFormLayout(page)
        self.web = QCheckBox("Allow web enrichment (the Chain of Search)", page)
        self.web.setToolTip(
            "Off by default. Only text queries leave the machine, never photos; you approve each one."
        )
        self.backend = QComboBox(page)
        self.backend.addItems(list(BACKENDS))
        self.search_url = QLineEdit(page)
        self.search_url.setPlaceholderText("https://searx.example.org (SearxNG with the JSON API enabled)")
        self.private = QCheckBox("Allow fetching pages on private/loopback addresses", page)
        form.addRow(self.web)
        form.addRow("Search backend", self.backend)
        form.addRow("Search URL", self.search_url)
        form.addRow(self.private)
        note = QLabel(
            "PhotoSearch works fully offline. With web enrichment off, nothing leaves this computer.",
            page,
            wordWrap=True,
        )
        form.addRow(note)
        self.web.toggled.connect(self._privacy_enabled)
        self.tabs.addTab(page, "Privacy")
        # sidecars: the user's work travels with their photos (opt-in)
        page = QWidget()
        form = QFormLayout(page)
        self.writeback = QCheckBox("Write names, tags, ratings and captions into XMP sidecars", page)
        self.sidecar_naming = QComboBox(page)
        for text, value in SIDECAR_NAMINGS:
            self.sidecar_naming.addItem(text, value)
        form.addRow(
            QLabel(
                "PhotoSearch always reads the keywords, captions, ratings, labels and named faces that "
                "other apps wrote into your photos and into their sidecar files. With this on, what you "
                "do here (the names you give people, your tags, ratings and captions) is also written "
                "into a small sidecar file beside each photo, which digiKam, darktable and Lightroom "
                "read. Your photos themselves are never changed; what a sidecar already holds is kept.",
                page,
                wordWrap=True,
            )
        )
        form.addRow(self.writeback)
        form.addRow("Sidecar name", self.sidecar_naming)
        self.writeback.toggled.connect(self.sidecar_naming.setEnabled)
        self.tabs.addTab(page, "Sidecars")
        # home: what "abroad" and "my home town" mean
        page = QWidget()
        form = QFormLayout(page)
        form.addRow(
            QLabel(
                "Requests such as “photos taken abroad”, “my home town” or “far from home” go by your "
                "home. Left empty, home is the town where most of your photos with a place were taken.",
                page,
                wordWrap=True,
            )
        )
        self.home = QLineEdit(page)
        self.home.setPlaceholderText("Where most of your photos with a place were taken")
        self.home.setToolTip("A town, a region or a country: “Lisbon”, “Springfield, Illinois”")
        form.addRow("Home town", self.home)
        # the house: "kids at home"
        self.home_spot = QLabel(page, wordWrap=True)
        self.forget_spot = QPushButton("Find it from my photos", page)
        self.forget_spot.setToolTip("Home becomes the spot where you took photos on the most days again")
        self.forget_spot.clicked.connect(self._forget_home_spot)
        form.addRow("At home", self.home_spot)
        form.addRow("", self.forget_spot)
        self.tabs.addTab(page, "Home")
        # models
        self.models = ModelsView(self.settings, runner, on_error, self)
        self.tabs.addTab(self.models, "Models")
        # performance
        page = QWidget()
        form = QFormLayout(page)
        self.threads = QSpinBox(page)
        self.threads.setRange(1, 64)
        self.decode = QSpinBox(page)
        self.decode.setRange(1, 32)
        self.batch = QSpinBox(page)
        self.batch.setRange(1, 512)
        self.lanes = QSpinBox(page)
        self.lanes.setRange(1, 16)
        self.lanes.setToolTip("How many kinds of analysis (text, objects, faces…) run at the same time")
        self.gpu = QCheckBox("Use the GPU when available", page)
        providers = gpu_providers()
        gpu_names = [p for p in providers if p != "CPUExecutionProvider"]
        self.accelerator = QLabel(accelerator_text(providers), page)
        self.provider = QLabel(", ".join(providers) or "onnxruntime not installed", page)
        self.provider.setWordWrap(True)
        if not gpu_names:
            self.gpu.setToolTip("No graphics card the models can use was found")
        form.addRow("Model threads", self.threads)
        form.addRow("Photos read at once", self.decode)
        form.addRow("Photos per batch", self.batch)
        form.addRow("Analyses at once", self.lanes)
        form.addRow(self.gpu)
        form.addRow("Models run on", self.accelerator)
        advanced = QGroupBox("Advanced", page)
        advanced.setCheckable(True)
        advanced.setChecked(False)  # folded: runtime names are for people who ask for them
        adv_form = QFormLayout(advanced)
        adv_form.addRow("ONNX Runtime providers", self.provider)
        self.provider_label = adv_form.labelForField(self.provider)
        # folded, the box shows nothing but its title: not even the runtime's name as a row label
        advanced.toggled.connect(lambda on: adv_form.setRowVisible(0, on))
        adv_form.setRowVisible(0, False)
        form.addRow(advanced)
        self.tabs.addTab(page, "Performance")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.load()

    def load(self) -> None:
        s = self.settings
        self.web.setChecked(bool(s.web_enabled))
        self.backend.setCurrentText(s.search_backend or "searxng")
        self.search_url.setText(s.search_url or "")
        self.private.setChecked(bool(s.allow_private_addresses))
        self.threads.setValue(int(s.threads))
        self.decode.setValue(int(s.decode_workers))
        self.batch.setValue(int(s.batch_size))
        self.lanes.setValue(int(s.model_lanes))
        self.gpu.setChecked(bool(s.gpu))
        self.writeback.setChecked(bool(s.sidecar_writeback))
        self.sidecar_naming.setCurrentIndex(max(0, self.sidecar_naming.findData(s.sidecar_naming)))
        self.home.setText(s.home or "")
        self._spot = s.home_spot
        self._show_home_spot()
        self.sidecar_naming.setEnabled(self.writeback.isChecked())
        self._privacy_enabled(self.web.isChecked())
        self.refresh_folders()

    def _show_home_spot(self) -> None:
        """Say where "at home" is: set from a photo, or found from the photos."""
        point = parse_point(self._spot or "")
        metres = round(HOME_RADIUS_KM * 1000)
        self.home_spot.setText(
            f"Within {metres} m of where a photo you chose was taken ({point[0]:.4f}, {point[1]:.4f}). "
            "Right-click a photo and choose “This was taken at home” to move it."
            if point
            else f"Within {metres} m of where you took photos on the most days. Right-click a photo taken "
            "at home and choose “This was taken at home” if that is not your home."
        )
        self.forget_spot.setEnabled(bool(self._spot))

    def _forget_home_spot(self) -> None:
        self._spot = None
        self._show_home_spot()

    def _privacy_enabled(self, on: bool) -> None:
        for w in (self.backend, self.search_url, self.private):
            w.setEnabled(on)

    def refresh_folders(self) -> None:
        self.folder_list.clear()
        for f in self.core.folders():
            item = QListWidgetItem(
                ("● " if f["online"] else "○ ") + f["path"] + ("" if f["online"] else "  (offline)")
            )
            item.setData(Qt.ItemDataRole.UserRole, f["path"])
            item.setToolTip(
                "online" if f["online"] else "offline: the folder is not reachable; its photos are kept"
            )
            self.folder_list.addItem(item)

    def add_folder(self, path: str) -> None:
        self.core.store.add_folder(path)
        self.refresh_folders()
        self.folders_changed.emit()

    def _pick_folder(self) -> None:
        dlg = QFileDialog(self, "Add a photo folder")
        dlg.setFileMode(QFileDialog.FileMode.Directory)
        dlg.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dlg.fileSelected.connect(self.add_folder)
        dlg.open()
        self._dialog = dlg

    def _remove_folder(self) -> None:
        """Ask first, saying what is lost; remove only when the user confirms."""
        item = self.folder_list.currentItem()
        if item is None:
            return
        path = item.data(Qt.ItemDataRole.UserRole)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Remove folder?",
            removal_text(path, self.core.store.folder_removal_impact(path)),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        remove = box.addButton("Remove and forget", QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _r: self._removal_answered(path, box.clickedButton() is remove))
        self.confirm_box = box
        box.open()

    def _removal_answered(self, path: str, confirmed: bool) -> None:
        self.confirm_box = None
        if not confirmed:
            return
        self.core.store.remove_folder(path)
        self.refresh_folders()
        self.folders_changed.emit()

    def save(self) -> None:
        s = self.settings
        s.web_enabled = self.web.isChecked()
        s.search_backend = self.backend.currentText()
        s.search_url = self.search_url.text().strip() or None
        s.allow_private_addresses = self.private.isChecked()
        s.threads = self.threads.value()
        s.decode_workers = self.decode.value()
        s.batch_size = self.batch.value()
        s.model_lanes = self.lanes.value()
        s.gpu = self.gpu.isChecked()
        s.sidecar_writeback = self.writeback.isChecked()
        s.sidecar_naming = self.sidecar_naming.currentData()
        s.home = " ".join(self.home.text().split()) or None
        s.home_spot = self._spot
        try:
            s.save()  # refuses to overwrite a settings.json that no longer parses
        except PhotoSearchError as exc:
            self.on_error(ErrorInfo.from_exception(exc, "Settings were not saved"))
            return
        self.saved.emit()
        self.accept()
