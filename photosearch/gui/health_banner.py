"""A banner above the library when a model is missing or failing, with a "Details" view that runs
the same model check as `photosearch doctor` (photosearch.health)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, TaskRunner


def banner_text(failures: dict[str, dict], missing: dict[str, tuple[str, str]], cache: list[str] = ()) -> str:
    """One sentence: which models are not installed and which failed on how many photos; then
    each cache folder that could not be used."""
    cache_text = " ".join(c[:1].upper() + c[1:] + "." for c in cache)
    parts = []
    if missing:
        parts.append(f"not installed: {', '.join(sorted(missing))}")
    for name, row in sorted(failures.items()):
        parts.append(f"{name} failed on {row['count']} photo{'s' if row['count'] != 1 else ''}")
    models_text = "Some photos are not fully understood — " + "; ".join(parts) + "." if parts else ""
    return " ".join(t for t in (models_text, cache_text) if t)


def details_text(failures: dict[str, dict], missing: dict[str, tuple[str, str]]) -> str:
    lines = []
    for name, (reason, fix) in sorted(missing.items()):
        lines += [f"NOT INSTALLED  {name}: {reason}", f"               fix: {fix}"]
    for name, row in sorted(failures.items()):
        lines.append(f"FAILED  {name} on {row['count']} photo(s); first reason: {row['first_error']}")
    if failures:
        lines.append(
            "After fixing, click “Analyse failed photos again” (or run `photosearch index --retry-failed`)."
        )
    return "\n".join(lines)


class HealthDetails(QDialog):
    """What failed, a button that loads and runs every model (the doctor) to say why and how to fix, and
    one that analyses the failed photos again."""

    retry_requested = Signal()

    def __init__(
        self,
        text: str,
        runner: TaskRunner,
        check: Callable[[], str],
        parent: QWidget | None = None,
        *,
        can_retry: bool = False,
    ):
        super().__init__(parent)
        self.setWindowTitle("Model health")
        self.resize(760, 420)
        self.runner, self.check = runner, check
        lay = QVBoxLayout(self)
        self.text = QPlainTextEdit(text, self)
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        lay.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.check_btn = buttons.addButton("Check every model now", QDialogButtonBox.ButtonRole.ActionRole)
        self.check_btn.clicked.connect(self.run_check)
        self.retry_btn = buttons.addButton(
            "Analyse failed photos again", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.retry_btn.setVisible(can_retry)
        self.retry_btn.clicked.connect(self.retry_requested)
        self.retry_btn.clicked.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.report: str | None = None

    def run_check(self) -> None:
        self.check_btn.setEnabled(False)
        self.text.appendPlainText("\nLoading and running every model on a test photo…")

        def done(report: str) -> None:
            self.report = report
            self.text.appendPlainText(report)
            self.check_btn.setEnabled(True)

        def failed(info: ErrorInfo) -> None:
            self.text.appendPlainText(f"the check itself failed: {info.message}")
            self.check_btn.setEnabled(True)

        self.runner.submit(lambda _p, _c: self.check(), name="model check", on_result=done, on_error=failed)


class HealthBanner(QFrame):
    """Hidden while every model is healthy; `update_health(failures, missing)` shows or hides it."""

    retry_requested = Signal()  # the user asks to analyse the failed photos again

    def __init__(self, runner: TaskRunner, check: Callable[[], str], parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("HealthBanner")
        self.setStyleSheet(
            "#HealthBanner { background: #fff4ce; border: 1px solid #e0b400; border-radius: 4px; }"
            "#HealthBanner QLabel { color: #3d3000; }"
        )
        self.runner, self.check = runner, check
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 6, 10, 6)
        self.label = QLabel("", self)
        self.label.setWordWrap(True)
        lay.addWidget(self.label, 1)
        self.details_btn = QPushButton("Details", self)
        self.details_btn.clicked.connect(self.open_details)
        lay.addWidget(self.details_btn)
        self.failures: dict[str, dict] = {}
        self.missing: dict[str, tuple[str, str]] = {}
        self.dialog: HealthDetails | None = None
        self.hide()

    def update_health(
        self, failures: dict[str, dict], missing: dict[str, tuple[str, str]], cache: list[str] = ()
    ) -> None:
        self.failures, self.missing = failures, missing
        text = banner_text(failures, missing, list(cache))
        self.label.setText(text)
        self.setVisible(bool(text))

    def open_details(self) -> HealthDetails:
        self.dialog = HealthDetails(
            details_text(self.failures, self.missing),
            self.runner,
            self.check,
            self,
            can_retry=bool(self.failures),
        )
        self.dialog.retry_requested.connect(self.retry_requested)
        self.dialog.show()
        return self.dialog
