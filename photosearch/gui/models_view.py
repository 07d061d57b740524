"""Model manager for people: each optional (hub) model with what it makes better, its download and disk
size, where it runs and what stays private; a Recommended button that picks a set for this computer
and says why; download with progress and cancel, verify, remove. Runtime names, roles, tiers and
checksums only in the Advanced section. The words come from `photosearch.model_guide` (no Qt there)."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, Task, TaskRunner
from photosearch.model_guide import benefit, privacy_line, runs_on_words
from photosearch.model_status import human_size

INTRO = (
    "Optional models make search and Ask better. Each one is downloaded once and runs on this computer; "
    "your photos never leave it."
)


@dataclass
class ModelRow:
    name: str
    tier: str  # bundled | hub
    role: str
    present: bool
    size: int
    description: str = ""
    provider: str = ""
    integrity: str = ""
    download_size: str = ""  # hub: what a pull fetches ("about 605 MB"), shown before it
    source: dict | None = None
    licence: str = ""
    runtime: str = ""
    not_verified: list | None = None

    @property
    def benefit(self) -> str:
        return benefit(self.name, self.role, self.description)

    @property
    def runs_on(self) -> str:
        return runs_on_words(self.provider)

    @property
    def privacy(self) -> str:
        return (
            privacy_line(self.source or {})
            if self.tier == "hub"
            else "Installed with the app; runs on this computer."
        )

    @property
    def download_words(self) -> str:
        if self.tier != "hub":
            return "included"
        return "size not listed" if self.download_size in ("", "unknown") else self.download_size

    @property
    def disk_words(self) -> str:
        return human_size(self.size) if self.present and self.size else "—"

    @property
    def status_words(self) -> str:
        if self.tier == "hub":
            return "Downloaded" if self.present else "Not downloaded"
        return "Included" if self.present else "Missing"


def list_models(settings) -> list[ModelRow]:
    """Every model the app knows, optional (hub) ones first: the rows `photosearch models list` shows."""
    from photosearch.model_status import model_rows

    rows = [
        ModelRow(
            r["name"],
            r["tier"],
            r["role"],
            r["present"],
            r["size_bytes"],
            r["description"],
            r["provider"],
            r["integrity"],
            r["download_size"],
            r.get("source") or {},
            r.get("licence", ""),
            r.get("runtime", ""),
            r.get("not_verified") or [],
        )
        for r in model_rows(settings)
    ]
    return sorted(rows, key=lambda r: r.tier != "hub")


def pull_summary(name: str, report) -> str:
    """One line after a download, in plain words: installed, and which files could not be verified."""
    if report.already_present:
        return f"{name}: already installed"
    if not report.not_verified:
        return f"{name}: installed and verified"
    paths = ", ".join(path for path, _reason in report.not_verified)
    return f"{name}: installed; not verified (no published checksum): {paths}"


def verify_one(settings, row: ModelRow) -> list[str]:
    """Problems found (empty = intact)."""
    if row.tier == "hub":
        from photosearch.hub import verify_model

        return verify_model(settings, row.name)
    from photosearch.models.manifest import get_manifest

    problems = []
    for st in get_manifest(row.name, settings).verify(settings):
        if not st.present:
            problems.append(f"{st.key}: missing")
        elif not st.ok:
            problems.append(f"{st.key}: sha256 mismatch")
    return problems


def recommendation_for(settings):
    """(hardware, recommendation) for this computer: `model_guide.recommend` over the hub models."""
    from photosearch.model_guide import candidates, detect_hardware, recommend
    from photosearch.model_status import model_rows

    hw = detect_hardware(settings)
    return hw, recommend(candidates(model_rows(settings)), hw)


def hardware_words(hw) -> str:
    gpu = "a graphics card the models can use" if hw.gpu else "no graphics card the models can use"
    return (
        f"This computer: {hw.ram_bytes / 1e9:.0f} GB of memory, {hw.cores} processor cores, {gpu}, "
        f"{hw.disk_free_bytes / 1e9:.0f} GB of free disk."
    )


class ModelsView(QWidget):
    COLUMNS = ("", "Model", "Makes better", "Download", "On disk", "Runs on", "Status")
    CHECK, NAME, BENEFIT, DOWNLOAD, DISK, RUNS_ON, STATUS = range(7)

    def __init__(self, settings, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.settings, self.runner, self.on_error = settings, runner, on_error
        self.rows: list[ModelRow] = []
        self.task: Task | None = None
        self.queue: list[str] = []  # models still to download, in order
        self.downloading: str | None = None
        self.recommended: list[str] = []
        lay = QVBoxLayout(self)
        intro = QLabel(INTRO, self)
        intro.setWordWrap(True)
        lay.addWidget(intro)
        rec_row = QHBoxLayout()
        self.btn_recommend = QPushButton("Recommended for this computer", self)
        self.btn_recommend.setToolTip(
            "Select a good set of models for this computer's memory, graphics and disk"
        )
        self.btn_recommend.clicked.connect(self.recommend)
        rec_row.addWidget(self.btn_recommend)
        rec_row.addStretch(1)
        lay.addLayout(rec_row)
        self.recommend_note = QLabel("", self)
        self.recommend_note.setWordWrap(True)
        self.recommend_note.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.recommend_box = QScrollArea(self)  # the reasons scroll: the table keeps its room at 800x600
        self.recommend_box.setWidget(self.recommend_note)
        self.recommend_box.setWidgetResizable(True)
        self.recommend_box.setFrameShape(QFrame.Shape.NoFrame)
        self.recommend_box.setMaximumHeight(110)
        self.recommend_box.setVisible(False)
        lay.addWidget(self.recommend_box)

        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(self.BENEFIT, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(self.NAME, QHeaderView.ResizeMode.Interactive)
        self.table.setColumnWidth(self.NAME, 170)  # long names elide: the line on what it does gets the room
        self.table.itemSelectionChanged.connect(self._selection)
        self.table.itemChanged.connect(self._checked)
        lay.addWidget(self.table, 1)

        self.details = QLabel("", self)
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.details)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        lay.addWidget(self.progress)
        row = QHBoxLayout()
        self.btn_pull = QPushButton("Download selected", self)
        self.btn_cancel = QPushButton("Cancel", self)
        self.btn_verify = QPushButton("Verify", self)
        self.btn_remove = QPushButton("Remove", self)
        self.btn_refresh = QPushButton("Refresh", self)
        for b in (self.btn_pull, self.btn_cancel, self.btn_verify, self.btn_remove):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.btn_refresh)
        lay.addLayout(row)
        self.btn_pull.clicked.connect(self.download_checked)
        self.btn_verify.clicked.connect(self.verify_selected)
        self.btn_remove.clicked.connect(self.remove_selected)
        self.btn_cancel.clicked.connect(self.cancel)
        self.btn_refresh.clicked.connect(self.refresh)
        self.btn_cancel.setEnabled(False)

        self.advanced = QToolButton(self)  # runtime names, roles, checksums: folded away
        self.advanced.setText("Advanced")
        self.advanced.setCheckable(True)
        self.advanced.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced.setArrowType(Qt.ArrowType.RightArrow)
        self.advanced.setAutoRaise(True)
        self.advanced_text = QLabel("", self)
        self.advanced_text.setWordWrap(True)
        self.advanced_text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advanced_text.setVisible(False)
        self.advanced.toggled.connect(self._toggle_advanced)
        lay.addWidget(self.advanced)
        lay.addWidget(self.advanced_text)
        self.refresh()

    def _toggle_advanced(self, shown: bool) -> None:
        self.advanced.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.advanced_text.setVisible(shown)

    # ---- the table ----
    def refresh(self) -> None:
        checked = set(self.checked_names())
        selected = self.selected()
        try:
            self.rows = list_models(self.settings)
        except Exception as exc:  # a broken manifest dir must not break the dialog
            self.on_error(ErrorInfo.from_exception(exc, "Cannot list models"))
            self.rows = []
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            check = QTableWidgetItem("")
            if r.tier == "hub" and not r.present:
                check.setFlags(
                    Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                )
                check.setCheckState(Qt.CheckState.Checked if r.name in checked else Qt.CheckState.Unchecked)
                check.setToolTip("Select to download")
            else:
                check.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            cells = (r.name, r.benefit, r.download_words, r.disk_words, r.runs_on, self._status_of(r))
            self.table.setItem(i, self.CHECK, check)
            for j, text in enumerate(cells, start=1):
                item = QTableWidgetItem(text)
                item.setToolTip(r.benefit if j == self.BENEFIT else r.name if j == self.NAME else "")
                if j == self.STATUS and not r.present:
                    item.setForeground(self.palette().placeholderText())
                self.table.setItem(i, j, item)
        self.table.blockSignals(False)
        if selected is not None:
            self.select_name(selected.name)
        self._selection()

    def _status_of(self, r: ModelRow) -> str:
        if r.name == self.downloading:
            return "Downloading…"
        if r.name in self.queue:
            return "Waiting to download"
        return r.status_words

    def row_of(self, name: str) -> int:
        return next((i for i, r in enumerate(self.rows) if r.name == name), -1)

    def checked_names(self) -> list[str]:
        out = []
        for i, r in enumerate(self.rows):
            item = self.table.item(i, self.CHECK)
            if item is not None and item.checkState() == Qt.CheckState.Checked:
                out.append(r.name)
        return out

    def set_checked(self, names: list[str]) -> None:
        self.table.blockSignals(True)
        for i, r in enumerate(self.rows):
            item = self.table.item(i, self.CHECK)
            if item is not None and item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                item.setCheckState(Qt.CheckState.Checked if r.name in names else Qt.CheckState.Unchecked)
        self.table.blockSignals(False)
        self._selection()

    def selected(self) -> ModelRow | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.rows[rows[0].row()] if rows and rows[0].row() < len(self.rows) else None

    def select_name(self, name: str) -> None:
        i = self.row_of(name)
        if i >= 0:
            self.table.selectRow(i)

    def _checked(self, item: QTableWidgetItem) -> None:
        if item.column() == self.CHECK:
            self._selection()

    def _selection(self) -> None:
        r = self.selected()
        busy = self.task is not None and not self.task.done
        todo = [n for n in self.checked_names() if not self.rows[self.row_of(n)].present]
        self.btn_pull.setText(f"Download selected ({len(todo)})" if todo else "Download selected")
        self.btn_pull.setEnabled(bool(todo) and not busy)
        self.btn_verify.setEnabled(bool(r and r.present and not busy))
        self.btn_remove.setEnabled(bool(r and r.tier == "hub" and r.present and not busy))
        self.btn_recommend.setEnabled(not busy)
        self._show_details(r)

    def _show_details(self, r: ModelRow | None) -> None:
        if r is None:
            self.details.setText("Select a model to see what it does, what it costs and what stays private.")
            self.advanced_text.setText("")
            return
        e = html.escape
        sizes = (
            f"Download {e(r.download_words)}; on disk {e(r.disk_words)}"
            if r.tier == "hub"
            else f"Included with the app; on disk {e(r.disk_words)}"
        )
        self.details.setText(
            f"<b>{e(r.name)}</b> — {e(r.benefit)}<br>{sizes}; runs on the {e(r.runs_on)}."
            f"<br><i>{e(r.privacy)}</i>"
        )
        src = r.source or {}
        lines = [
            f"Role: {r.role}; tier: {r.tier}; runtime: {r.runtime}; provider: {r.provider}",
            f"Checked by: {r.integrity}"
            + (
                " (" + "; ".join(f"{f['path']}: {f['reason']}" for f in r.not_verified) + ")"
                if r.not_verified
                else ""
            ),
        ]
        if src:
            lines.append(
                "Source: "
                + ", ".join(
                    f"{k} {v}" for k, v in src.items() if k in ("type", "repo", "revision", "base_url")
                )
            )
        if r.licence:
            lines.append(f"Licence: {r.licence}")
        if r.description:
            lines.append(f"Description: {r.description}")
        self.advanced_text.setText("\n".join(lines))

    # ---- recommended ----
    def recommend(self) -> None:
        """Select the recommended set for this computer and say why (hardware is read off the GUI thread)."""
        settings = self.settings
        self.recommend_box.setVisible(True)
        self.recommend_note.setText("Looking at this computer…")
        self.runner.submit(
            lambda _p, _c: recommendation_for(settings),
            name="Recommending models",
            on_result=self._recommended,
            on_error=self._failed,
        )

    def _recommended(self, got) -> None:
        hw, rec = got
        self.recommended = list(rec.names)
        self.set_checked(rec.names)
        why = "".join(f"<li>{html.escape(r)}</li>" for r in rec.reasons)
        todo = [n for n in rec.names if not self.rows[self.row_of(n)].present]
        then = (
            f"<b>Selected {len(todo)} to download</b> (press Download selected)."
            if todo
            else "<b>Everything recommended is already here.</b>"
        )
        self.recommend_note.setText(
            f"{then} {html.escape(hardware_words(hw))}<ul style='margin:0'>{why}</ul>"
        )

    # ---- work ----
    def _run(self, name: str, fn, on_result, *, progress: bool = False) -> None:
        self.btn_cancel.setEnabled(True)
        self.progress.setVisible(progress)
        self.progress.setRange(0, 0)

        def done(result):
            self._end()
            on_result(result)

        self.task = self.runner.submit(
            fn,
            name=name,
            on_progress=self._on_progress,
            on_result=done,
            on_error=self._failed_task,
            on_cancelled=lambda: self._cancelled(name),
            throttle_s=0.1,
        )
        self._selection()

    def _failed(self, info: ErrorInfo) -> None:
        self.status.setText(info.message)
        self.on_error(info)

    def _failed_task(self, info: ErrorInfo) -> None:
        self.queue.clear()
        self._end()
        self._failed(info)

    def _cancelled(self, name: str) -> None:
        self.queue.clear()
        self._end()
        self.status.setText(f"{name}: cancelled")

    def _end(self) -> None:
        self.btn_cancel.setEnabled(False)
        self.progress.setVisible(False)
        self.task = None
        self.downloading = None
        self.refresh()

    def cancel(self) -> None:
        self.queue.clear()
        if self.task is not None:
            self.task.cancel()

    def _on_progress(self, item) -> None:
        done, total, label = item
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))
            self.progress.setFormat(f"{self.downloading}: {human_size(done)} of {human_size(total)}")
        self.status.setText(f"Downloading {self.downloading} ({label})…")

    def download_checked(self) -> None:
        """Download every selected model that is not here yet, one after the other."""
        self.queue = [n for n in self.checked_names() if not self.rows[self.row_of(n)].present]
        self._next_download()

    def pull_selected(self) -> None:
        """Download the highlighted model."""
        r = self.selected()
        if r and r.tier == "hub" and not r.present:
            self.queue = [r.name]
            self._next_download()

    def _next_download(self) -> None:
        if not self.queue or (self.task is not None and not self.task.done):
            return
        name = self.queue.pop(0)
        self.downloading = name
        settings = self.settings
        self.status.setText(f"Downloading {name}…")
        self.refresh()

        def job(progress, cancel):
            from photosearch.hub import pull_model

            return pull_model(
                settings, name, progress=lambda d, t, label: progress((d, t, label)), cancel=cancel
            )

        def pulled(report) -> None:
            self.status.setText(pull_summary(name, report))
            self._next_download()

        self._run(f"Downloading {name}", job, pulled, progress=True)

    def verify_selected(self) -> None:
        r = self.selected()
        if not r:
            return
        settings = self.settings
        self.status.setText(f"Verifying {r.name}…")
        self._run(
            f"Verifying {r.name}",
            lambda _p, _c: verify_one(settings, r),
            lambda problems: self.status.setText(
                f"{r.name}: intact (every file checked)"
                if not problems
                else f"{r.name}: " + "; ".join(problems)
            ),
        )

    def remove_selected(self) -> None:
        r = self.selected()
        if not r or r.tier != "hub":
            return
        settings = self.settings

        def job(_p, _c):
            from photosearch.hub import remove_model

            return remove_model(settings, r.name)

        self._run(f"Removing {r.name}", job, lambda _ok: self.status.setText(f"{r.name}: removed"))


__all__ = ["ModelsView", "list_models", "runs_on_words"]
