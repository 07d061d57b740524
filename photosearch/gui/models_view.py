"""Model manager: bundled and hub models, presence, size, pull with progress, verify, remove."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, Task, TaskRunner
from photosearch.model_status import human_size


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


def runs_on_words(provider: str) -> str:
    """Where a model runs, for people ("processor", "graphics card"); the runtime's own name (e.g.
    `CPUExecutionProvider`) stays in the cell's tooltip and in `photosearch models list`."""
    if not provider or provider == "-":
        return "—"
    text = provider.lower()
    if any(k in text for k in ("cuda", "tensorrt", "rocm", "gpu", "directml", "dml", "coreml", "metal")):
        return "graphics card"
    return "processor"


def list_models(settings) -> list[ModelRow]:
    """Every model the app knows, bundled first: the rows `photosearch models list` shows."""
    from photosearch.model_status import model_rows

    return [
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
        )
        for r in model_rows(settings)
    ]


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


class ModelsView(QWidget):
    COLUMNS = ("Model", "Tier", "Role", "Status", "Size", "Runs on", "Checked by")

    def __init__(self, settings, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.settings, self.runner, self.on_error = settings, runner, on_error
        self.rows: list[ModelRow] = []
        self.task: Task | None = None
        lay = QVBoxLayout(self)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setHorizontalHeaderLabels(self.COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemSelectionChanged.connect(self._selection)
        lay.addWidget(self.table, 1)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        lay.addWidget(self.status)
        self.progress = QProgressBar(self)
        self.progress.setVisible(False)
        lay.addWidget(self.progress)
        row = QHBoxLayout()
        self.btn_pull = QPushButton("Download", self)
        self.btn_verify = QPushButton("Verify", self)
        self.btn_remove = QPushButton("Remove", self)
        self.btn_cancel = QPushButton("Cancel", self)
        self.btn_refresh = QPushButton("Refresh", self)
        for b in (self.btn_pull, self.btn_verify, self.btn_remove, self.btn_cancel):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(self.btn_refresh)
        lay.addLayout(row)
        self.btn_pull.clicked.connect(self.pull_selected)
        self.btn_verify.clicked.connect(self.verify_selected)
        self.btn_remove.clicked.connect(self.remove_selected)
        self.btn_cancel.clicked.connect(lambda: self.task and self.task.cancel())
        self.btn_refresh.clicked.connect(self.refresh)
        self.btn_cancel.setEnabled(False)
        self.refresh()

    def refresh(self) -> None:
        try:
            self.rows = list_models(self.settings)
        except Exception as exc:  # a broken manifest dir must not break the dialog
            self.on_error(ErrorInfo.from_exception(exc, "Cannot list models"))
            self.rows = []
        self.table.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            status = "installed" if r.present else ("not downloaded" if r.tier == "hub" else "missing")
            cells = (
                r.name,
                r.tier,
                r.role,
                status,
                human_size(r.size) if r.present and r.size else (r.download_size or "—"),
                runs_on_words(r.provider),
                r.integrity,
            )
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j == 0:
                    item.setToolTip(r.description)
                if j == 5:
                    item.setToolTip(f"Runtime: {r.provider}")
                if j == 3 and not r.present:
                    item.setForeground(self.palette().placeholderText())
                self.table.setItem(i, j, item)
        self._selection()

    def selected(self) -> ModelRow | None:
        rows = self.table.selectionModel().selectedRows()
        return self.rows[rows[0].row()] if rows else None

    def select_name(self, name: str) -> None:
        for i, r in enumerate(self.rows):
            if r.name == name:
                self.table.selectRow(i)

    def _selection(self) -> None:
        r = self.selected()
        busy = self.task is not None and not self.task.done
        self.btn_pull.setEnabled(bool(r and r.tier == "hub" and not r.present and not busy))
        self.btn_verify.setEnabled(bool(r and r.present and not busy))
        self.btn_remove.setEnabled(bool(r and r.tier == "hub" and r.present and not busy))
        if r and r.tier == "hub" and not r.present and not busy:
            self.status.setText(f"{r.name}: download size {r.download_size}; {r.integrity}")

    def _run(self, name: str, fn, on_result, *, progress: bool = False) -> None:
        self.btn_cancel.setEnabled(True)
        self.progress.setVisible(progress)
        self.progress.setRange(0, 0)

        def done(result):
            self._end()
            on_result(result)

        def failed(info):
            self._end()
            self.status.setText(info.message)
            self.on_error(info)

        def cancelled():
            self._end()
            self.status.setText(f"{name}: cancelled")

        self.task = self.runner.submit(
            fn,
            name=name,
            on_progress=self._on_progress,
            on_result=done,
            on_error=failed,
            on_cancelled=cancelled,
            throttle_s=0.1,
        )
        self._selection()

    def _end(self) -> None:
        self.btn_cancel.setEnabled(False)
        self.progress.setVisible(False)
        self.task = None
        self.refresh()

    def _on_progress(self, item) -> None:
        done, total, label = item
        if total:
            self.progress.setRange(0, 1000)
            self.progress.setValue(int(1000 * done / total))
            self.progress.setFormat(f"{human_size(done)} of {human_size(total)}")
        self.status.setText(f"downloading {label}…")

    def pull_selected(self) -> None:
        r = self.selected()
        if not r:
            return
        settings = self.settings
        self.status.setText(f"Downloading {r.name}…")

        def job(progress, cancel):
            from photosearch.hub import pull_model

            return pull_model(
                settings, r.name, progress=lambda d, t, label: progress((d, t, label)), cancel=cancel
            )

        self._run(
            f"Downloading {r.name}",
            job,
            lambda rep: self.status.setText(pull_summary(r.name, rep)),
            progress=True,
        )

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
                f"{r.name}: intact (sha256 checked)" if not problems else f"{r.name}: " + "; ".join(problems)
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


__all__ = ["ModelsView", "list_models", "Qt"]
