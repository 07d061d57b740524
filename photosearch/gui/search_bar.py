"""The search bar: history (↓ on an empty bar) and completion of the word being typed."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCompleter, QLineEdit

MAX_HISTORY = 50


class SearchBar(QLineEdit):
    submitted = Signal(str)
    cleared = Signal()  # Escape emptied the box: the search and its results go too

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("SearchBar")
        self.setPlaceholderText(
            "Search your photos — e.g. “Anna and the dog at the beach last summer”  (Ctrl+F)"
        )
        self.setClearButtonEnabled(True)
        self.history: list[str] = []
        self.words: list[str] = []
        self._model = QStringListModel(self)
        self.completer_ = QCompleter(self._model, self)
        self.completer_.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer_.setFilterMode(Qt.MatchFlag.MatchStartsWith)
        self.completer_.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer_.setMaxVisibleItems(12)
        self.completer_.setWidget(self)
        self.completer_.activated.connect(self._insert)
        self.textEdited.connect(self._on_edit)
        self.returnPressed.connect(self._submit)

    # ---- data ----
    def set_words(self, words: list[str]) -> None:
        self.words = list(words)
        self._refresh()

    def set_history(self, history: list[str]) -> None:
        self.history = [h for h in history if h][:MAX_HISTORY]
        self._refresh()

    def add_history(self, query: str) -> None:
        query = query.strip()
        if not query:
            return
        self.history = [query] + [h for h in self.history if h != query]
        self.history = self.history[:MAX_HISTORY]
        self._refresh()

    def _refresh(self) -> None:
        seen: dict[str, None] = {}
        for w in self.history + self.words:
            seen.setdefault(w, None)
        self._model.setStringList(list(seen))

    # ---- completion ----
    def current_word(self) -> str:
        text = self.text()[: self.cursorPosition()]
        return text.rsplit(" ", 1)[-1] if text else ""

    def _on_edit(self, text: str) -> None:
        prefix = text if text in self.history or " " not in text else self.current_word()
        if len(prefix) < 1:
            self.completer_.popup().hide()
            return
        self.completer_.setCompletionPrefix(prefix)
        if (
            self.completer_.completionCount()
            and self.completer_.currentCompletion().lower() != prefix.lower()
        ):
            self.completer_.complete()
        else:
            self.completer_.popup().hide()

    def _insert(self, completion: str) -> None:
        if completion in self.history:
            self.setText(completion)
            return
        pos = self.cursorPosition()
        before, after = self.text()[:pos], self.text()[pos:]
        head = before.rsplit(" ", 1)[0] + " " if " " in before else ""
        self.setText(
            head + completion + (" " if not after.startswith(" ") else "") + after.lstrip(" ")
            if after
            else head + completion
        )
        self.setCursorPosition(len(head + completion))

    def show_history(self) -> None:
        if not self.history:
            return
        self.completer_.setCompletionPrefix("")
        self.completer_.complete()

    def _submit(self) -> None:
        self.completer_.popup().hide()
        self.add_history(self.text())
        self.submitted.emit(self.text().strip())

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Down and not self.text() and not self.completer_.popup().isVisible():
            self.show_history()
            return
        if event.key() == Qt.Key.Key_Escape and self.text() and not self.completer_.popup().isVisible():
            self.clear()
            self.cleared.emit()
            return
        super().keyPressEvent(event)
