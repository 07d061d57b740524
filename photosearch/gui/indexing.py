"""Indexing in the background with a status-bar widget: progress, photos/s, ETA, per-stage counts,
pause/resume/cancel. The core's `Indexer.run(progress, cancel)` gets the bridge's callables."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QToolButton, QWidget

from photosearch.gui.bridge import ErrorInfo, Task, TaskRunner

STAGES = {
    "listing": "Looking for photos",
    "ingest": "Reading photos",
    "analyze": "Analysing",
    "post": "Finishing",
    "done": "Done",
    "waiting": "Waiting",
}


def format_eta(seconds: float | None) -> str:
    if seconds is None or seconds != seconds or seconds < 0:
        return "—"
    seconds = int(seconds + 0.5)
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def progress_text(p) -> str:
    """One status line for an `IndexProgress`."""
    stage = STAGES.get(p.stage, p.stage)
    if p.stage == "post":
        return f"{stage}: {p.path or ''}".strip()
    if p.stage == "waiting":
        return p.path or stage + "…"
    if p.stage in ("listing",) or not p.total:
        return stage + "…"
    eta = (p.total - p.done) / p.rate if p.rate > 0 else None
    counts = ", ".join(f"{k} {v}" for k, v in (p.counts or {}).items() if v)
    text = f"{stage} {p.done}/{p.total} · {p.rate:.1f} photos/s · ETA {format_eta(eta)}"
    return text + (f" · {counts}" if counts else "")


# The core's warnings say what to do at a command line; here the same step is a button.
_CLI_RERUN = "run `photosearch index` again"
_GUI_RERUN = "click Index now"


def warning_text(warnings: list[str]) -> str:
    """What the user must fix (the disk is full, a folder cannot be written), each on its line."""
    return "\n".join(f"⚠ {w.replace(_CLI_RERUN, _GUI_RERUN)}" for w in warnings)


class IndexStatus(QWidget):
    """Status-bar widget; `start(indexer_factory)` runs one index."""

    finished = Signal(object)  # IndexReport
    progressed = Signal(object)  # IndexProgress, as the run reports it

    def __init__(self, runner: TaskRunner, on_error: Callable[[ErrorInfo], None], parent=None):
        super().__init__(parent)
        self.runner, self.on_error = runner, on_error
        self.task: Task | None = None
        self.last = None
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel("", self)
        self.warning = QLabel("", self)  # the run's warnings (disk full…) until the next run starts
        self.warning.setObjectName("indexWarning")
        self.warning.setStyleSheet("color: #b3261e; font-weight: bold;")
        self.warning.setWordWrap(True)
        self.warning.setVisible(False)
        self.bar = QProgressBar(self)
        self.bar.setMaximumWidth(220)
        self.bar.setTextVisible(False)
        self.pause_btn = QToolButton(self)
        self.pause_btn.setText("Pause")
        self.pause_btn.clicked.connect(self.toggle_pause)
        self.cancel_btn = QToolButton(self)
        self.cancel_btn.setText("Cancel")
        self.cancel_btn.clicked.connect(self.cancel)
        for w in (self.label, self.warning, self.bar, self.pause_btn, self.cancel_btn):
            lay.addWidget(w)
        self._idle()

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done

    def start(self, job: Callable, name: str = "Indexing") -> Task | None:
        """`job(progress, cancel)` usually builds an indexer and calls `run`."""
        if self.running:
            return None
        self.setVisible(True)
        self.bar.setRange(0, 0)
        self.label.setText("Starting…")
        self._show_warnings([])
        self.pause_btn.setText("Pause")
        for b in (self.bar, self.pause_btn, self.cancel_btn):
            b.setVisible(True)
        self.task = self.runner.submit(
            job,
            name=name,
            on_progress=self._progress,
            on_result=self._done,
            on_error=self._failed,
            on_cancelled=lambda: self._done(None),
        )
        return self.task

    def _progress(self, p) -> None:
        self.last = p
        if p.total:
            self.bar.setRange(0, p.total)
            self.bar.setValue(p.done)
        else:
            self.bar.setRange(0, 0)
        text = progress_text(p)
        if self.task and self.task.paused:
            text = "Paused · " + text
        self.label.setText(text)
        self.progressed.emit(p)

    def toggle_pause(self) -> None:
        if not self.task:
            return
        if self.task.paused:
            self.task.resume()
            self.pause_btn.setText("Pause")
            self.label.setText(self.label.text().removeprefix("Paused · "))
        else:
            self.task.pause()
            self.pause_btn.setText("Resume")
            self.label.setText("Paused · " + self.label.text())

    def cancel(self) -> None:
        if self.task:
            self.task.cancel()
            self.label.setText("Stopping after the current batch…")

    def _done(self, report) -> None:
        self.task = None
        if report is not None:
            photos = report.added + report.changed + report.moved
            what = "Stopped" if report.cancelled else "Up to date"
            self.label.setText(
                f"{what}: {photos} new or changed, {report.analysed} analysed, "
                f"{report.failed} skipped ({report.elapsed_s:.1f} s)"
            )
            self._show_warnings(report.warnings)
        else:
            self.label.setText("Stopped")
        self._idle()
        self.finished.emit(report)

    def _show_warnings(self, warnings: list[str]) -> None:
        text = warning_text(warnings)
        self.warning.setText(text)
        self.warning.setToolTip(text)
        self.warning.setVisible(bool(warnings))

    def _failed(self, info: ErrorInfo) -> None:
        self.task = None
        self.label.setText("Indexing stopped with an error")
        self._idle()
        self.on_error(info)
        self.finished.emit(None)

    def _idle(self) -> None:
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        for b in (self.bar, self.pause_btn, self.cancel_btn):
            b.setVisible(False)
