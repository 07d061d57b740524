"""The Ask panel's local answer: steps shown as they happen, Stop at any step, an answer belongs to
its photo, and the sentences say what the photo's evidence supports."""

from __future__ import annotations

import pytest

from photosearch.ask.local import STEPS


@pytest.fixture
def ask(qtbot, core, tmp_path, real_photos):
    """(panel, {stem: photo id}, answers emitted) over tests/ask/evidence_catalog.py."""
    from photosearch.gui.ask_panel import AskPanel
    from photosearch.gui.bridge import TaskRunner
    from tests.ask.evidence_catalog import build

    ids = build(core, tmp_path / "Pictures", real_photos)
    runner = TaskRunner()
    errors: list = []
    panel = AskPanel(core, runner, errors.append, llm_factory=lambda: None)
    qtbot.addWidget(panel)
    panel.resize(420, 560)
    panel.show()
    answers: list[dict] = []
    panel.answered.connect(answers.append)
    yield panel, ids, answers
    runner.shutdown(5000)
    assert not errors, errors


def steps_shown(panel) -> list[tuple[str, str]]:
    g = panel.graph
    return [(g.topLevelItem(i).text(0), g.topLevelItem(i).text(1)) for i in range(g.topLevelItemCount())]


def test_steps_stream_then_the_answer_in_sentences(qtbot, ask):
    panel, ids, answers = ask
    seen: list[tuple[str, str, str]] = []  # (step, the step line, the answer pane) as each step appears
    panel.graph.model().rowsInserted.connect(
        lambda _p, first, _l: seen.append(
            (panel.graph.topLevelItem(first).text(0), panel.step_label.text(), panel.answer.toPlainText())
        )
    )
    panel.set_photo(ids["chelsea"], "chelsea.jpg")
    panel.question.setText("what is this?")
    with qtbot.waitSignal(panel.answered, timeout=30000):
        panel.ask()
    assert [s[0] for s in seen] == list(STEPS)
    assert all(step == line and pane == panel.WORKING for step, line, pane in seen), seen
    g = panel.graph
    assert all(not g.topLevelItem(i).icon(0).isNull() for i in range(g.topLevelItemCount())), (
        "each step ticked"
    )
    found = dict(steps_shown(panel))
    assert found["Finding when and where…"] == "05 Jun 2021; Lisbon, Portugal"
    assert found["Looking at the regions…"].startswith("cat; tags: tabby")
    text = panel.answer.toPlainText().replace("\u00a0", " ")  # the pane's plain text turns no-break spaces
    assert "A cat — most likely a tabby (36 %), or a tiger cat (22 %)." in text
    assert "In the photo: a cat on the left." in text
    assert "Taken on Saturday 5 June 2021 at 16:40 in Lisbon, Portugal." in text
    assert "nothing left this computer" in text and "Working" not in text
    assert answers[0]["photo_id"] == ids["chelsea"] and panel.step_label.text() == ""
    assert panel.btn_ask.isEnabled() and not panel.btn_stop.isEnabled()


@pytest.mark.parametrize("at", [0, 2, 4])
def test_stop_works_at_any_step(qtbot, ask, at):
    panel, ids, answers = ask
    panel.set_photo(ids["astronaut"], "astronaut.jpg")

    def maybe_stop(_parent, first, _last):
        if first == at:
            panel.stop()

    panel.graph.model().rowsInserted.connect(maybe_stop)
    panel.ask()
    task = panel.task
    qtbot.waitUntil(task.wait and (lambda: task.done), timeout=30000)
    qtbot.wait(100)  # whatever the worker still sent has been delivered
    assert [s[0] for s in steps_shown(panel)] == list(STEPS[: at + 1]), "nothing after the stop is shown"
    assert panel.answer.toPlainText() == "Stopped." and not answers
    assert panel.btn_ask.isEnabled() and not panel.btn_stop.isEnabled() and panel.step_label.text() == ""


def test_an_answer_belongs_to_its_photo(qtbot, ask):
    import threading

    from photosearch.ask.local import answer_locally

    panel, ids, answers = ask
    held = threading.Event()

    def answer_after_the_switch(store, settings, pid, question, *, progress, cancel):
        """The real answer, held after its second step until the user has moved on."""

        def report(item):
            progress(item)
            if item[:2] == ("found", STEPS[1]):
                held.wait(20)

        return answer_locally(store, settings, pid, question, progress=report, cancel=cancel)

    panel.local_answerer = answer_after_the_switch
    panel.set_photo(ids["chelsea"], "chelsea.jpg")
    panel.ask()
    old = panel.task
    qtbot.waitUntil(
        lambda: panel.graph.topLevelItemCount() == 2 and bool(panel.graph.topLevelItem(1).text(1)),
        timeout=30000,
    )
    panel.set_photo(ids["rocket"], "rocket.jpg")  # mid-answer, the user moves on to the next photo
    held.set()
    qtbot.waitUntil(lambda: old.done, timeout=30000)
    qtbot.wait(100)
    assert not answers, "the cat's answer never shows under the rocket"
    assert panel.answer.toPlainText() == "" and steps_shown(panel) == []
    assert panel.photo_label.text() == "Ask about rocket.jpg" and panel.btn_ask.isEnabled()

    panel.local_answerer = None
    panel.question.setText("what does it say?")
    with qtbot.waitSignal(panel.answered, timeout=30000):
        panel.ask()
    assert answers[-1]["photo_id"] == ids["rocket"]
    assert panel.answer.toPlainText().startswith("The text in the photo reads “NASA”.")
    panel.set_photo(ids["astronaut"], "astronaut.jpg")  # another photo: the rocket's answer goes
    assert panel.answer.toPlainText() == "" and panel.result is None
    panel.question.setText("who is this?")
    with qtbot.waitSignal(panel.answered, timeout=30000):
        panel.ask()
    assert panel.answer.toPlainText().startswith("Eileen Collins is in the photo.")
    panel.set_photo(ids["astronaut"], "astronaut.jpg")  # the same photo again keeps its answer
    assert panel.answer.toPlainText().startswith("Eileen Collins is in the photo.")


def test_opening_the_panel_warms_what_the_photo_needs(qtbot, ask):
    panel, ids, _answers = ask
    panel.hide()
    panel.set_photo(ids["chelsea"], "chelsea.jpg")
    assert ids["chelsea"] not in panel._warmed, "a hidden panel loads nothing"
    panel.show()
    qtbot.waitUntil(lambda: ids["chelsea"] in panel._warmed and panel.warm_task.done, timeout=30000)
    assert panel.warm_task.state == "done" and isinstance(panel.warm_task.result, float)
    from photosearch.query.resolvers import places

    assert places._geocoder is not None, "the photo has GPS: the offline place index is loaded"
