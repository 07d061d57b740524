"""Ask about the current photo: the local pipeline always; the web Chain of Search only when the user
enabled web enrichment in Settings. Every outgoing query is shown and must be approved before it is
sent; only text leaves the machine, never the image."""

from __future__ import annotations

import dataclasses
import html
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, Task, TaskRunner


class ApprovingBackend:
    """Wraps a search backend: each query waits for `approve(query)`; refused ones are not sent."""

    def __init__(self, inner, approve: Callable[[str], bool]):
        self.inner, self.approve = inner, approve
        self.sent: list[str] = []
        self.refused: list[str] = []

    def __getattr__(self, name: str) -> Any:  # fetch_page, name, …
        return getattr(self.inner, name)

    def search(self, query: str, limit: int = 8):
        if not self.approve(query):
            self.refused.append(query)
            return []
        self.sent.append(query)
        return self.inner.search(query, limit)


class Approval:
    """A question from a worker to the user (``ask`` blocks the worker until ``answer``)."""

    def __init__(self, query: str):
        self.query = query
        self.event = threading.Event()
        self.ok = False

    def answer(self, ok: bool) -> None:
        self.ok = ok
        self.event.set()


def local_answer(core, photo_id: int, question: str, llm=None, embedder=None) -> dict:
    """The local pipeline: regions and formulations from the photo's own facts; no search."""
    from photosearch.enrich.assistant import Assistant, default_describer, local_knowledge
    from photosearch.enrich.chain import SourceBook
    from photosearch.enrich.detect import open_detector
    from photosearch.enrich.generation import generate

    assistant = Assistant(
        core.store,
        backend=None,
        llm=llm,
        embedder=embedder,
        detector=open_detector(core.settings),
        describer=default_describer(core.settings, llm),
    )
    regions, rgb = assistant.regions_for(photo_id, question)
    answer = generate(
        question,
        regions,
        [],
        SourceBook(),
        llm=llm,
        describer=assistant.describer,
        image=rgb,
        embedder=embedder,
        local=local_knowledge(core.store, photo_id, regions),
    )
    return {
        "answer": answer.text,
        "answer_method": answer.method,
        "sources": [],
        "regions": [r.to_json() for r in regions],
        "graph": {"nodes": [], "queries": [], "stop_reason": "local"},
    }


class AskPanel(QWidget):
    """Question box, approval list, live search graph, answer with sources."""

    answered = Signal(dict)

    def __init__(
        self,
        core,
        runner: TaskRunner,
        on_error: Callable[[ErrorInfo], None],
        parent=None,
        llm_factory: Callable[[], Any] | None = None,
        backend_factory: Callable[[], Any] | None = None,
    ):
        super().__init__(parent)
        self.core, self.runner, self.on_error = core, runner, on_error
        self.llm_factory = llm_factory
        self.backend_factory = backend_factory
        self.photo_id: int | None = None
        self.task: Task | None = None
        self.pending: list[Approval] = []
        self.approve_all = False
        self.result: dict | None = None
        lay = QVBoxLayout(self)
        self.photo_label = QLabel("No photo selected", self)
        self.photo_label.setObjectName("SectionTitle")
        lay.addWidget(self.photo_label)
        row = QHBoxLayout()
        self.question = QLineEdit(self)
        self.question.setPlaceholderText("Ask about this photo — e.g. “what is this building?”")
        self.question.returnPressed.connect(self.ask)
        self.btn_ask = QPushButton("Ask", self)
        self.btn_ask.clicked.connect(self.ask)
        self.btn_stop = QPushButton("Stop", self)
        self.btn_stop.setEnabled(False)
        self.btn_stop.clicked.connect(self.stop)
        lay.addWidget(self.question)  # a line of its own: a narrow panel never squeezes the question
        row.addStretch(1)
        row.addWidget(self.btn_ask)
        row.addWidget(self.btn_stop)
        lay.addLayout(row)
        self.mode = QLabel(self)
        self.mode.setWordWrap(True)
        lay.addWidget(self.mode)
        # outgoing queries awaiting approval
        self.approval_box = QWidget(self)
        ab = QVBoxLayout(self.approval_box)
        ab.setContentsMargins(0, 0, 0, 0)
        ab.addWidget(
            QLabel(
                "<b>Outgoing web queries</b> — nothing is sent until you approve it (text only, never the photo):",
                self.approval_box,
                wordWrap=True,
            )
        )
        self.queries = QListWidget(self.approval_box)
        self.queries.setMaximumHeight(110)
        ab.addWidget(self.queries)
        brow = QHBoxLayout()
        self.btn_send = QPushButton("Send", self.approval_box)
        self.btn_send_all = QPushButton("Send all for this question", self.approval_box)
        self.btn_skip = QPushButton("Don't send", self.approval_box)
        self.btn_send.clicked.connect(lambda: self._answer_next(True))
        self.btn_send_all.clicked.connect(self._send_all)
        self.btn_skip.clicked.connect(lambda: self._answer_next(False))
        for b in (self.btn_send, self.btn_send_all, self.btn_skip):
            brow.addWidget(b)
        brow.addStretch(1)
        ab.addLayout(brow)
        lay.addWidget(self.approval_box)
        split = QSplitter(Qt.Orientation.Vertical, self)
        self.graph = QTreeWidget(split)
        self.graph.setHeaderLabels(["Search graph", "detail"])
        self.graph.setColumnWidth(0, 260)
        self.answer = QTextBrowser(split)
        self.answer.setOpenExternalLinks(True)
        split.addWidget(self.graph)
        split.addWidget(self.answer)
        split.setSizes([220, 200])
        lay.addWidget(split, 1)
        self.refresh_mode()
        self._update_approval()

    # ---- state ----
    def set_photo(self, photo_id: int | None, name: str = "") -> None:
        self.photo_id = photo_id
        self.photo_label.setText(f"Ask about {name}" if photo_id is not None else "No photo selected")
        self.btn_ask.setEnabled(photo_id is not None)

    def web_enabled(self) -> bool:
        return bool(getattr(self.core.settings, "web_enabled", False))

    def refresh_mode(self) -> None:
        if self.web_enabled():
            self.mode.setText(
                "Web enrichment is <b>on</b>: after the local analysis, the Chain of Search may "
                "query the web. You approve each query first."
            )
        else:
            self.mode.setText(
                "Local only: the answer uses what PhotoSearch found in the photo. Turn on web "
                "enrichment in Settings → Privacy to search the web."
            )

    # ---- asking ----
    def ask(self) -> None:
        if self.photo_id is None or (self.task and not self.task.done):
            return
        question = self.question.text().strip() or "what is this?"
        self.graph.clear()
        self.answer.setHtml("<i>Working…</i>")
        self.queries.clear()
        self.pending.clear()
        self.approve_all = False
        self.result = None
        self.btn_ask.setEnabled(False)
        self.btn_stop.setEnabled(True)
        web = self.web_enabled()
        core, pid = self.core, self.photo_id
        llm_factory, backend_factory = self.llm_factory, self.backend_factory

        def job(progress, cancel):
            llm = llm_factory() if llm_factory else _default_llm(core.settings)
            embedder = _embedder(core.settings)
            if not web:
                progress(("step", "local analysis", "regions from the photo's tags, objects, text and faces"))
                return local_answer(core, pid, question, llm=llm, embedder=embedder)

            def approve(query: str) -> bool:
                if self.approve_all:
                    return True
                item = Approval(query)
                progress(("approve", item))
                while not item.event.wait(0.1):
                    if cancel():
                        return False
                return item.ok

            from photosearch.enrich.assistant import Assistant, default_describer
            from photosearch.enrich.fetch import Fetcher

            settings = dataclasses.replace(core.settings)
            fetcher = Fetcher.from_settings(settings)
            if backend_factory:
                inner = backend_factory()
            else:
                from photosearch.enrich.backends import make_backend

                inner = make_backend(settings, embedder=embedder, fetcher=fetcher)
            backend = ApprovingBackend(inner, approve)
            from photosearch.enrich.detect import open_detector

            assistant = Assistant(
                core.store,
                backend,
                llm=llm,
                embedder=embedder,
                fetcher=fetcher,
                detector=open_detector(settings),
                describer=default_describer(settings, llm),
            )
            result = assistant.ask(
                pid, question, progress=lambda msg: progress(("step", str(msg), "")), cancel=cancel
            )
            data = result.to_json()
            data["refused_queries"] = backend.refused
            return data

        self.task = self.runner.submit(
            job,
            name="Ask about a photo",
            on_progress=self._progress,
            on_result=self._done,
            on_error=self._failed,
            on_cancelled=self._cancelled,
        )

    def stop(self) -> None:
        if self.task:
            self.task.cancel()
        for a in self.pending:
            a.answer(False)
        self.pending.clear()
        self._update_approval()

    # ---- progress from the worker (GUI thread) ----
    def _progress(self, item) -> None:
        kind = item[0]
        if kind == "approve":
            approval: Approval = item[1]
            self.pending.append(approval)
            self.queries.addItem(f"⏳ {approval.query}")
            self._add_graph("query waiting for approval", approval.query)
            self._update_approval()
        elif kind == "step":
            self._add_graph(item[1], item[2])

    def _add_graph(self, text: str, detail: str) -> None:
        QTreeWidgetItem(self.graph, [text, detail])
        self.graph.scrollToBottom()

    def _answer_next(self, ok: bool) -> None:
        if not self.pending:
            return
        approval = self.pending.pop(0)
        for i in range(self.queries.count()):
            it = self.queries.item(i)
            if it.text() == f"⏳ {approval.query}":
                it.setText(("✓ sent: " if ok else "✗ not sent: ") + approval.query)
                break
        approval.answer(ok)
        self._update_approval()

    def _send_all(self) -> None:
        self.approve_all = True
        while self.pending:
            self._answer_next(True)

    def _update_approval(self) -> None:
        has = bool(self.pending)
        for b in (self.btn_send, self.btn_send_all, self.btn_skip):
            b.setEnabled(has)
        self.approval_box.setVisible(self.web_enabled())

    def _finish(self) -> None:
        self.btn_ask.setEnabled(self.photo_id is not None)
        self.btn_stop.setEnabled(False)
        self.pending.clear()
        self._update_approval()

    def _done(self, data: dict) -> None:
        self._finish()
        self.result = data
        self._show_graph(data.get("graph") or {})
        e = html.escape
        parts = [f"<p style='font-size:11pt'>{e(data.get('answer') or 'No answer.')}</p>"]
        sources = data.get("sources") or []
        if sources:
            parts.append("<h4>Sources</h4><ol>")
            for s in sources:
                mark = "" if s.get("cited", True) else " <span style='color:gray'>(not cited)</span>"
                if s.get("kind") == "snippet":
                    mark += " <span style='color:gray'>(search-result snippet)</span>"
                parts.append(
                    f"<li><a href='{e(s.get('url', ''))}'>{e(s.get('title') or s.get('url', ''))}</a>{mark}</li>"
                )
            parts.append("</ol>")
        method = data.get("answer_method")
        if method:
            st = data.get("stats") or {}
            figures = (
                (
                    f"; fetches {st.get('fetches', 0)}, snippets {st.get('snippets', 0)}, "
                    f"filtered {st.get('filtered', 0)}, LLM calls {st.get('llm_calls', 0)} "
                    f"({st.get('llm_accepted', 0)} accepted); {data.get('seconds', 0):.1f} s"
                )
                if st
                else ""
            )
            parts.append(
                f"<p style='color:gray'>answer: {e(str(method))}; "
                f"queries sent: {len((data.get('graph') or {}).get('queries') or [])}{e(figures)}</p>"
            )
        self.answer.setHtml("".join(parts))
        self.answered.emit(data)

    def _show_graph(self, graph: dict) -> None:
        regions = (self.result or {}).get("regions") or []
        if regions:
            top = QTreeWidgetItem(self.graph, ["regions", f"{len(regions)} looked at"])
            for r in regions:
                what = ", ".join(
                    (r.get("labels") or [])[:4] + (r.get("people") or []) + (r.get("words") or [])[:4]
                )
                QTreeWidgetItem(top, [r.get("label") or "region", what or (r.get("formulation") or "")[:120]])
            top.setExpanded(True)
        nodes = graph.get("nodes") or []
        if not nodes:
            return
        root = QTreeWidgetItem(self.graph, ["result graph", f"stop: {graph.get('stop_reason', '')}"])
        items: dict[tuple, QTreeWidgetItem] = {}
        for n in nodes:
            key = (n.get("region"), n.get("id"))
            parent = items.get((n.get("region"), n.get("parent")), root)
            label = n.get("question") or n.get("query") or f"node {n.get('id')}"
            it = QTreeWidgetItem(parent, [label, n.get("query") or ""])
            for page in n.get("selected") or []:
                QTreeWidgetItem(it, ["page", page.get("title") or page.get("url", "")])
            if n.get("response"):
                QTreeWidgetItem(it, ["summary", n["response"][:300]])
            if n.get("error"):
                QTreeWidgetItem(it, ["error", n["error"]])
            items[key] = it
        root.setExpanded(True)
        self.graph.expandAll()

    def _failed(self, info: ErrorInfo) -> None:
        self._finish()
        self.answer.setHtml(f"<p style='color:#c0392b'>{html.escape(info.message)}</p>")
        self.on_error(info)

    def _cancelled(self) -> None:
        self._finish()
        self.answer.setHtml("<i>Stopped.</i>")


def _default_llm(settings):
    try:
        from photosearch.models.llm import get_llm

        return get_llm(settings)
    except Exception:
        return None


def _embedder(settings):
    try:
        from photosearch.enrich.textutil import get_embedder

        return get_embedder(settings)
    except Exception:
        return None
