"""Ask panel: the Chain of Search's progress steps reach the panel while it works, before the answer,
with the photo's own evidence answer shown meanwhile."""

from __future__ import annotations

from tests.gui.test_ask import RecordingSearch


def test_progress_steps_arrive_before_the_answer(qtbot, indexed):
    from photosearch.gui.ask_panel import AskPanel
    from photosearch.gui.bridge import TaskRunner

    core, ids = indexed
    core.settings.web_enabled = True
    runner = TaskRunner()
    errors: list = []
    panel = AskPanel(
        core, runner, errors.append, llm_factory=lambda: None, backend_factory=lambda: RecordingSearch()
    )
    qtbot.addWidget(panel)
    panel.show()
    panel.set_photo(ids["rocket"], "rocket.jpg")
    panel.refresh_mode()
    events: list[tuple[str, str]] = []  # (what happened, the answer pane's text at that moment)

    def inserted(parent, first, last):
        for row in range(first, last + 1):
            events.append((panel.graph.topLevelItem(row).text(0), panel.answer.toPlainText()))

    panel.graph.model().rowsInserted.connect(inserted)
    panel.answered.connect(lambda data: events.append(("answered", data["answer"])))
    panel.question.setText("what is this?")
    panel.ask()
    qtbot.waitUntil(lambda: bool(panel.pending), timeout=60000)
    with qtbot.waitSignal(panel.answered, timeout=60000):
        while panel.task and not panel.task.done:
            panel._send_all()
            qtbot.wait(20)
    names = [e[0] for e in events]
    assert "answered" in names and "answering" in names, events
    # before the web's answer the pane holds the photo's own evidence, saying the web is being searched
    live = [e for e in events[: names.index("answered")] if "Searching the web for more" in e[1]]
    assert any(n.startswith("formulating") for n, _ in live), events
    assert any(n.startswith("searching: ") for n, _ in live), events
    assert any(n == "answering" for n, _ in live), events  # the last step, shown while the answer is made
    assert all("The text in the photo reads “NASA”." in pane for _n, pane in live), events
    assert not errors, errors
    runner.shutdown()
