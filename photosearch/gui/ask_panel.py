"""Ask about the current photo: the local answer always (photosearch/ask: sentences from what the
catalog found, steps shown as they happen); the web Chain of Search only when the user enabled web
enrichment in Settings. Every outgoing query is shown and must be approved before it is sent; only
text leaves the machine, never the image.

An answer belongs to the photo it was asked about: changing the photo clears it, and a step or answer
that arrives for an earlier question or photo is dropped. Stop works at every step."""

from __future__ import annotations

import dataclasses
import html
import logging
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
    QStyle,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from photosearch.gui.bridge import ErrorInfo, Task, TaskRunner

log = logging.getLogger(__name__)


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


class AskPanel(QWidget):
    """Question box, approval list, live steps, answer with sources."""

    answered = Signal(dict)
    #: The text the answer pane shows while the first step runs (the step line says which).
    WORKING = "Working…"

    def __init__(
        self,
        core,
        runner: TaskRunner,
        on_error: Callable[[ErrorInfo], None],
        parent=None,
        llm_factory: Callable[[], Any] | None = None,
        backend_factory: Callable[[], Any] | None = None,
        local_answerer: Callable[..., dict] | None = None,
    ):
        super().__init__(parent)
        self.local_answerer = local_answerer  # default: photosearch.ask.local.answer_locally
        self.core, self.runner, self.on_error = core, runner, on_error
        self.llm_factory = llm_factory
        self.backend_factory = backend_factory
        self.photo_id: int | None = None
        self.task: Task | None = None
        self.pending: list[Approval] = []
        self.approve_all = False
        self.result: dict | None = None
        self.asked_photo: int | None = None  # the photo the shown answer (or the running one) is about
        self._seq = 0  # bumped by every ask, photo change and stop: older results are dropped
        self.warm_task: Task | None = None
        self._warmed: set[int | None] = set()
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
        self.step_label = QLabel("", self)  # the step running now, as it happens
        self.step_label.setObjectName("AskStep")
        self.step_label.setWordWrap(True)
        lay.addWidget(self.step_label)
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
        split = self.split = QSplitter(Qt.Orientation.Vertical, self)
        self.graph = QTreeWidget(split)
        self.graph.setHeaderLabels(["Steps", "Found"])
        self.graph.setColumnWidth(0, 175)  # a step's name; what it found beside it
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
        """Show this photo's question box; another photo clears the answer and stops its question."""
        if photo_id != self.photo_id:
            self._drop_current()
            self.graph.clear()
            self.answer.clear()
            self.step_label.clear()
            self.result = None
            self.asked_photo = None
        self.photo_id = photo_id
        self.photo_label.setText(f"Ask about {name}" if photo_id is not None else "No photo selected")
        self.btn_ask.setEnabled(photo_id is not None and not self.busy)
        if self.isVisible():
            self.warm()

    @property
    def busy(self) -> bool:
        """A question is under way until its answer (or failure) is shown: the worker may be done
        while its last steps are still on their way to the panel."""
        return self.task is not None

    def _drop_current(self) -> None:
        """Stop the running question and forget it: whatever it still sends is dropped."""
        self._seq += 1
        if self.task is not None:
            self.task.cancel()
        self.task = None
        for a in self.pending:
            a.answer(False)
        self.pending.clear()
        self.btn_stop.setEnabled(False)
        self.btn_ask.setEnabled(self.photo_id is not None)
        self._update_approval()

    # ---- warming ----
    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self.warm()

    def warm(self) -> None:
        """Load what the next answer needs in the background (the place index for this photo, a pulled
        vision model), once per photo, so the first answer comes as fast as later ones. A photo chosen
        while another warms is warmed next."""
        if self.photo_id in self._warmed or (self.warm_task is not None and not self.warm_task.done):
            return
        self._warmed.add(self.photo_id)
        core, pid = self.core, self.photo_id

        def failed(info: ErrorInfo) -> None:
            log.info("ask warm-up failed: %s", info.message)
            self._warmed_one()

        self.warm_task = self.runner.submit(
            lambda _p, _c: core.warm_ask(pid),
            name="Preparing to answer",
            on_result=lambda _s: self._warmed_one(),
            on_error=failed,
        )

    def _warmed_one(self) -> None:
        if self.isVisible() and self.photo_id not in self._warmed:
            self.warm()

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
        if self.photo_id is None or self.busy:
            return
        question = self.question.text().strip() or "what is this?"
        self._seq += 1
        seq, pid = self._seq, self.photo_id
        self.asked_photo = pid
        self.graph.clear()
        self.answer.setHtml(f"<i>{self.WORKING}</i>")
        self.step_label.setText("Starting…")
        self.queries.clear()
        self.pending.clear()
        self.approve_all = False
        self.result = None
        self.btn_ask.setEnabled(False)
        self.btn_stop.setEnabled(True)
        web = self.web_enabled()
        self.graph.setRootIsDecorated(web)  # the web's search graph nests; the local steps do not
        if not web:  # five short steps: the answer gets the room
            self.split.setSizes([135, max(200, self.split.height() - 135)])
        core = self.core
        llm_factory, backend_factory = self.llm_factory, self.backend_factory
        local_answerer = self.local_answerer

        def job(progress, cancel):
            if not web:
                from photosearch.ask.local import answer_locally

                return (local_answerer or answer_locally)(
                    core.store, core.settings, pid, question, progress=progress, cancel=cancel
                )
            from photosearch.ask.local import answer_locally

            # what the photo's analysis says comes first, while the models load and the web is asked
            draft = answer_locally(core.store, core.settings, pid, question, cancel=cancel, use_vlm=False)
            progress(("draft", draft, "Searching the web for more…"))
            llm = llm_factory() if llm_factory else _default_llm(core.settings)
            embedder = _embedder(core.settings)

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

        def mine(handler):  # a callback of this question, dropped once another one (or photo) took over
            return lambda *args: handler(*args) if seq == self._seq else None

        self.task = self.runner.submit(
            job,
            name="Ask about a photo",
            on_progress=mine(self._progress),
            on_result=mine(self._done),
            on_error=mine(self._failed),
            on_cancelled=mine(self._cancelled),
        )

    def stop(self) -> None:
        """Stop now, at any step: the panel says so at once and drops whatever the question still sends."""
        if not self.busy:
            return
        self._drop_current()
        self._cancelled()

    # ---- progress from the worker (GUI thread) ----
    def _progress(self, item) -> None:
        kind = item[0]
        if kind == "approve":
            approval: Approval = item[1]
            self.pending.append(approval)
            self.queries.addItem(f"⏳ {approval.query}")
            self._add_graph("query waiting for approval", approval.query)
            self._update_approval()
        elif kind == "step" and len(item) == 2:  # a local step starts
            self.step_label.setText(item[1])
            self._add_graph(item[1], "")
        elif kind == "found":  # … and ends with what it found
            last = self.graph.topLevelItem(self.graph.topLevelItemCount() - 1)
            if last is not None and last.text(0) == item[1]:
                last.setText(1, item[2])
                last.setToolTip(1, item[2])
                last.setIcon(0, self.style().standardIcon(QStyle.StandardPixmap.SP_DialogApplyButton))
        elif kind == "draft":  # the evidence answer, shown while a vision model or the web looks further
            self._show_answer(
                item[1], more=item[2] if len(item) > 2 else "The vision model is looking closer…"
            )
        elif kind == "step":
            self.step_label.setText(item[1])
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
        self.task = None
        self.step_label.clear()
        self.btn_ask.setEnabled(self.photo_id is not None)
        self.btn_stop.setEnabled(False)
        self.pending.clear()
        self._update_approval()

    def _done(self, data: dict) -> None:
        if data.get("photo_id", self.asked_photo) != self.photo_id:
            return  # an answer about a photo no longer shown
        self._finish()
        self.result = data
        self._show_graph(data.get("graph") or {})
        self._show_answer(data)
        self.answered.emit(data)

    def _show_answer(self, data: dict, more: str = "") -> None:
        e = html.escape
        sentences = data.get("sentences") or [data.get("answer") or "No answer."]
        parts = [f"<p style='font-size:10.5pt'>{e(' '.join(sentences))}</p>"]
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
        if method in ("evidence", "vlm") and "steps" in data:
            how = "and the vision model on this computer" if method == "vlm" else "in this photo"
            parts.append(
                f"<p style='color:gray'>From what PhotoSearch found {e(how)}; nothing left this computer "
                f"({_duration(data.get('seconds', 0))}).{e(' ' + more if more else '')}</p>"
            )
        elif method:
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


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 0.1 else f"{seconds:.1f} s"


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
