"""The dialog that sets a person's birthday: "anna's birthday", "anna at 3", "my twenties" then
find their days."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QDateEdit, QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from photosearch.browse import MONTH_NAMES


def birthday_words(iso: str | None) -> str:
    """ "born 4 March 2019", or "" with no birthday."""
    if not iso:
        return ""
    d = date.fromisoformat(iso)
    return f"born {d.day} {MONTH_NAMES[d.month - 1]} {d.year}"


class BirthdayDialog(QDialog):
    """Pick a day, or clear the birthday; `chosen(iso or None)` is called when one of them is done."""

    def __init__(self, name: str, current: str | None, chosen: Callable[[str | None], None], parent: QWidget):
        super().__init__(parent)
        self.setWindowTitle(f"{name}’s birthday")
        lay = QVBoxLayout(self)
        lay.addWidget(
            QLabel(
                f"When was {name} born? Requests such as “{name} at 3” or “{name} as a baby” use it.", self
            )
        )
        self.date = QDateEdit(self)
        self.date.setCalendarPopup(True)
        self.date.setDisplayFormat("d MMMM yyyy")
        self.date.setDateRange(QDate(1900, 1, 1), QDate.currentDate())
        self.date.setDate(QDate.fromString(current, "yyyy-MM-dd") if current else QDate(2000, 1, 1))
        lay.addWidget(self.date)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.clear = buttons.addButton("No birthday", QDialogButtonBox.ButtonRole.DestructiveRole)
        self.clear.setEnabled(bool(current))
        buttons.accepted.connect(lambda: self._done(self.date.date().toString("yyyy-MM-dd")))
        self.clear.clicked.connect(lambda: self._done(None))
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.chosen = chosen

    def _done(self, iso: str | None) -> None:
        self.chosen(iso)
        self.accept()
