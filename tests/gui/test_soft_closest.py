"""The GUI shows soft concepts as chips that can be made required, partial matches, and the closest
matches under a "no confident match — closest:" separator."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from photosearch.gui.grid import SEPARATOR_AFTER_TEXT, SEPARATOR_ID, StateRole


def _search(qtbot, window, text=None, plan=None, **kw):
    task = window.run_search(text, plan=plan, **kw)
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    qtbot.wait(20)


def _weak_tag(core, photo_id: int, label: str, score: float) -> None:
    from photosearch.records import AnalysisResult, FactRecord

    with core.store.session() as s:
        core.store.write_analysis(
            s,
            photo_id,
            "weak",
            1,
            AnalysisResult(facts=[FactRecord("tag", label, score, data={"names": [label]})]),
        )


def test_closest_matches_follow_a_separator(qtbot, make_window, indexed):
    core, ids = indexed
    _weak_tag(core, ids["coffee"], "teapot", 0.1)
    w = make_window(core)
    _search(qtbot, w, plan={"where": {"or": [{"concept": "teapot"}, {"concept": "cat"}]}}, keep_request=True)
    names = [Path(p).stem for p in w.model.paths]
    assert names == ["chelsea", "", "coffee"]
    sep = w.model.index(1)
    assert w.model.ids[1] == SEPARATOR_ID and sep.data() == SEPARATOR_AFTER_TEXT  # chelsea is confident
    assert not (w.model.flags(sep) & Qt.ItemFlag.ItemIsSelectable)
    assert w.model.index(2).data(StateRole) == "closest"
    assert "below the cut-off" in w.model.index(2).data(Qt.ItemDataRole.ToolTipRole)
    assert "1 photo + 1 closest" in w.search_info.text()
    assert w.grid.current_id() == ids["chelsea"]
    # nothing confident at all: the page starts with the separator, the first photo is current
    _search(qtbot, w, plan={"where": {"concept": "teapot"}}, keep_request=True)
    assert w.model.ids == [SEPARATOR_ID, ids["coffee"]] and w.grid.current_id() == ids["coffee"]
    assert "no confident match" in w.search_info.text()


def test_soft_chips_can_be_made_required(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    _search(qtbot, w, plan={"where": {"and": [{"concept": "cat"}, {"concept": "zebra"}]}}, keep_request=True)
    assert w.model.ids == [ids["chelsea"]] and w.model.index(0).data(StateRole) == "partial"
    assert "no zebra" in w.model.index(0).data(Qt.ItemDataRole.ToolTipRole)
    assert "partial" in w.search_info.text()
    chips = {c.inner["concept"]: c for c in w.chips.chips}
    assert chips["zebra"].need.text() == "soft" and chips["zebra"].property("soft")
    with qtbot.waitSignal(w.chips.plan_edited, timeout=5000) as blocker:
        chips["zebra"].need.setChecked(True)
    assert blocker.args[0]["required"] == ["zebra"]
    # a required zebra nobody has: nothing confident, what is missing said, the closest still shown
    qtbot.waitUntil(lambda: "No photo that looks like “zebra”" in w.search_info.text(), timeout=20000)
    assert w.model.ids[0] == SEPARATOR_ID
    chips = {c.inner["concept"]: c for c in w.chips.chips}
    assert chips["zebra"].need.text() == "required" and chips["cat"].need.text() == "soft"
    # removing the required concept drops it from `required`
    with qtbot.waitSignal(w.chips.plan_edited, timeout=5000) as blocker:
        chips["zebra"].changed.emit(chips["zebra"].index, None)
    assert "required" not in blocker.args[0]


def test_what_no_photo_meets_is_said_above_the_closest(qtbot, make_window, indexed):
    core, ids = indexed
    w = make_window(core)
    _search(qtbot, w, plan={"where": {"and": [{"concept": "cat"}, {"person": "Nobody"}]}}, keep_request=True)
    assert w.search_info.text().startswith("No photo of Nobody · ")
    assert w.model.ids[0] == SEPARATOR_ID and ids["chelsea"] in w.model.ids  # never a blank page
