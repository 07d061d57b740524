"""Copying photos out in the background: a status-bar widget with progress and Cancel (the same
pattern as indexing: the core's `export_photos(progress, cancel)` gets the bridge's callables), and
a summary when it ends."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from photosearch.gui.bridge import ErrorInfo, Task, TaskRunner


class ExportStatus(QWidget):
    """`start(job)` runs `job(progress, cancel) -> ExportReport`; `finished` gives the report."""

    finished = Signal(object)  # ExportReport, or None after an error

    def __init__(self, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.runner, self.on_error = runner, on_error
        self.task: Task | None = None
        self.report = None
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("", self)
        self.bar = QProgressBar(self)
        self.bar.setMaximumWidth(160)
        self.bar.setTextVisible(False)
        self.cancel_btn = QToolButton(self)
        self.cancel_btn.setText("Cancel")
        self.cancel_btn.setToolTip("Stop copying (the photos copied so far stay)")
        self.cancel_btn.clicked.connect(self.cancel)
        for w in (self.label, self.bar, self.cancel_btn):
            lay.addWidget(w)
        self.setVisible(False)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done

    def start(self, job: Callable, total: int) -> Task | None:
        if self.running:
            return None
        self.setVisible(True)
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(0)
        self.label.setText(f"Copying {total:,} photo{'s' if total != 1 else ''}…")
        self.bar.setVisible(True)
        self.cancel_btn.setVisible(True)
        self.cancel_btn.setEnabled(True)
        self.task = self.runner.submit(
            job,
            name="Copying photos",
            on_progress=self._progress,
            on_result=self._done,
            on_error=self._failed,
            on_cancelled=lambda: self._done(None),
            throttle_s=0.05,  # thousands of small files: the bar moves, the GUI thread is not flooded
        )
        return self.task

    def _progress(self, p) -> None:
        self.bar.setRange(0, max(p.total, 1))
        self.bar.setValue(p.done)
        self.label.setText(f"Copying {min(p.done + 1, p.total):,} of {p.total:,}…")

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.cancel_btn.setEnabled(False)
            self.label.setText("Stopping after this photo…")

    def _done(self, report) -> None:
        self.task, self.report = None, report
        if report is not None and not report.cancelled:
            self.bar.setValue(self.bar.maximum())  # the last steps may have been throttled away
        self.bar.setVisible(False)
        self.cancel_btn.setVisible(False)
        self.label.setText(report.summary() if report is not None else "Copying stopped")
        self.label.setToolTip(self.label.text())
        self.finished.emit(report)

    def _failed(self, info: ErrorInfo) -> None:
        self.task = None
        self.label.setText("Copying stopped with an error")
        self.cancel_btn.setVisible(False)
        self.on_error(info)
        self.finished.emit(None)
