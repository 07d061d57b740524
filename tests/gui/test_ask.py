"""Ask panel: local only by default; with web enabled, every outgoing query waits for approval."""

from __future__ import annotations


class RecordingSearch:
    """A search backend that records what reached it (nothing leaves the test)."""

    name = "recording"

    def __init__(self):
        self.received: list[str] = []

    def search(self, query: str, limit: int = 8):
        self.received.append(query)
        return []


def test_local_answer_then_web_queries_need_approval(qtbot, indexed):
    from photosearch.gui.ask_panel import AskPanel
    from photosearch.gui.bridge import TaskRunner

    core, ids = indexed
    runner = TaskRunner()
    backend = RecordingSearch()
    errors = []
    panel = AskPanel(core, runner, errors.append, llm_factory=lambda: None, backend_factory=lambda: backend)
    qtbot.addWidget(panel)
    panel.show()
    panel.set_photo(ids["rocket"], "rocket.jpg")
    assert not panel.web_enabled() and "Local only" in panel.mode.text()
    panel.question.setText("what is this?")
    with qtbot.waitSignal(panel.answered, timeout=60000) as blocker:
        panel.ask()
    local = blocker.args[0]
    assert local["answer"] and local["graph"]["queries"] == []
    assert backend.received == [], "web off: nothing is searched"

    core.settings.web_enabled = True
    panel.refresh_mode()
    panel.ask()
    qtbot.waitUntil(lambda: bool(panel.pending), timeout=60000)
    first = panel.pending[0].query
    assert backend.received == [], "a query waits for approval before it is sent"
    assert panel.btn_send.isEnabled() and panel.queries.count() >= 1
    panel._answer_next(False)  # refuse the first
    qtbot.wait(50)
    assert first not in backend.received
    panel._send_all()
    with qtbot.waitSignal(panel.answered, timeout=60000) as blocker:
        while panel.task and not panel.task.done:
            panel._send_all()
            qtbot.wait(20)
    data = blocker.args[0]
    assert first in data["refused_queries"]
    assert all(q not in data["refused_queries"] for q in backend.received)
    steps = [panel.graph.topLevelItem(i).text(0) for i in range(panel.graph.topLevelItemCount())]
    assert any(s.startswith("formulating") for s in steps), steps  # progress streamed while it ran
    assert any(s.startswith("searching: ") for s in steps) and "answering" in steps, steps
    assert "LLM calls 0" in panel.answer.toPlainText() and "fetches" in panel.answer.toPlainText()
    assert not errors, errors
    runner.shutdown()
