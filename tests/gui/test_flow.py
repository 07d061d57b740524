"""End to end through the window: first run → index → search → open photo; chip edits; people; settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from photosearch.gui.main_window import PAGE_LIBRARY, PAGE_PHOTO, PAGE_WELCOME


def result_names(window) -> set[str]:
    return {Path(p).stem for p in window.model.paths}


def search(qtbot, window, text=None, plan=None, **kw):
    task = window.run_search(text, plan=plan, **kw)
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    qtbot.wait(20)
    return task


@pytest.mark.slow
def test_first_run_index_search_open(qtbot, make_window, core, gallery):
    from photosearch.app import build_indexer
    from photosearch.vision.registry import bundled_analyzers

    analyzers = bundled_analyzers(core.settings, include=["tagger"])
    if not analyzers:
        pytest.fail("the bundled tagger is not installed")
    w = make_window(
        core,
        indexer_factory=lambda: build_indexer(core.store, core.settings, analyzers=analyzers, post_steps=[]),
    )
    assert w.stack.currentIndex() == PAGE_WELCOME
    progress = []
    with qtbot.waitSignal(w.index_status.finished, timeout=120000) as blocker:
        w.add_folders([str(gallery)])
        w.index_status.task.signals.progress.connect(progress.append)
    report = blocker.args[0]
    assert report.added == 4 and report.analysed == 4 and not report.cancelled
    assert {p.stage for p in progress} >= {"analyze"}
    assert "photos/s" in w.index_status.label.text() or "Up to date" in w.index_status.label.text()
    assert w.stack.currentIndex() == PAGE_LIBRARY
    qtbot.waitUntil(lambda: w.model.rowCount() == 4, timeout=20000)

    search(qtbot, w, "cat")
    assert "chelsea" in result_names(w)
    assert w.chips.plan is not None and w.chips.chips, "the plan is shown as chips"
    assert w.search_bar.history[0] == "cat"

    pid = w.model.ids[w.model.paths.index(next(p for p in w.model.paths if "chelsea" in p))]
    task = w.open_photo(pid)
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    qtbot.wait(20)
    assert w.stack.currentIndex() == PAGE_PHOTO
    assert w.photo_view.details.id == pid
    assert "cat" in w.photo_view.info.toPlainText().lower()
    assert w.photo_view.canvas.pixmap is not None and w.photo_view.canvas.pixmap.width() == 451
    qtbot.keyClick(w.photo_view, "Escape") if False else w.escape()
    assert w.stack.currentIndex() == PAGE_LIBRARY


def test_plan_chip_edit_reruns_search(qtbot, make_window, indexed):
    core, _ids = indexed
    w = make_window(core)
    search(qtbot, w, "cat")
    assert result_names(w) == {"chelsea"}
    chip = next(c for c in w.chips.chips if c.inner.get("concept") == "cat" or c.inner.get("tag") == "cat")
    with qtbot.waitSignal(w.chips.plan_edited, timeout=5000) as blocker:
        chip.set_value("coffee")
    assert "coffee" in str(blocker.args[0]["where"])
    qtbot.waitUntil(lambda: result_names(w) == {"coffee"}, timeout=20000)
    assert w.last_request == "cat", "editing the plan keeps the request it corrects"

    # exclude: everything but coffee
    chip = w.chips.chips[0]
    with qtbot.waitSignal(w.chips.plan_edited, timeout=5000) as blocker:
        chip.toggle.setChecked(False)
    assert "not" in str(blocker.args[0]["where"])
    qtbot.waitUntil(lambda: "coffee" not in result_names(w) and len(result_names(w)) == 3, timeout=20000)

    # composition options re-run too
    with qtbot.waitSignal(w.chips.plan_edited, timeout=5000) as blocker:
        w.chips.limit.setValue(1)
        w.chips.limit.editingFinished.emit()
    assert blocker.args[0]["compose"]["limit"] == 1
    qtbot.waitUntil(lambda: w.model.rowCount() == 1, timeout=20000)

    # save as example lands in the user's golden library
    w.save_example()
    qtbot.waitUntil(lambda: "Saved as an example" in w.search_info.text(), timeout=10000)
    from photosearch.query.golden import user_file

    assert str(user_file(core.settings)) in w.search_info.text() and user_file(core.settings).is_file()


def test_people_naming_and_hiding(qtbot, make_window, indexed):
    from photosearch.people import list_people

    core, ids = indexed
    from photosearch.catalog.models import Face, Fact, Person

    with core.store.session() as s:
        person = Person()
        s.add(person)
        s.flush()
        for face in s.query(Face).all():
            face.person_id = person.id
            look = Fact(photo_id=face.photo_id, analyzer="faces", kind="face", label="woman", score=0.9)
            look.box = face.box  # the face model's word for this face
            s.add(look)
        pid = person.id
    w = make_window(core)
    w.show_people()
    view = w.people_view
    qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
    text = view.list.item(0).text()  # no name yet: how the face looks, never an internal id
    assert text.startswith("A woman\n") and "#" not in text, text
    assert "No name yet" in view.list.item(0).toolTip()
    assert not view.list.item(0).icon().isNull(), "a representative face is shown"
    view.list.setCurrentRow(0)
    view.name_selected("Anna")
    qtbot.waitUntil(lambda: view.list.count() == 1 and "Anna" in view.list.item(0).text(), timeout=20000)
    assert [p.name for p in list_people(core.store)] == ["Anna"]
    # the name is now a completion and a search finds the photo
    w.reload_words()
    qtbot.waitUntil(lambda: "Anna" in w.search_bar.words, timeout=10000)
    search(qtbot, w, plan={"where": {"person": "Anna"}}, keep_request=True)
    assert result_names(w) == {"astronaut"}
    # hide
    w.show_people()
    qtbot.waitUntil(lambda: view.list.count() == 1, timeout=20000)
    view.list.setCurrentRow(0)
    view.toggle_hidden()
    qtbot.waitUntil(lambda: view.list.count() == 0, timeout=20000)
    assert list_people(core.store, include_hidden=True)[0].hidden
    assert pid == list_people(core.store, include_hidden=True)[0].id


def test_settings_persist_across_restart(qtbot, make_window, tmp_path, qsettings):
    from photosearch.config import Settings
    from photosearch.core import Core

    core1 = Core(Settings(data_dir=tmp_path / "d"))
    w1 = make_window(core1)
    w1.resize(771, 557)  # fits the test screen (a bigger size is fitted to it: test_window_size.py)
    w1.search_bar.add_history("dogs at the beach")
    w1.search_bar.add_history("cat")
    dlg = w1.open_settings()
    assert core1.settings.web_enabled is False, "web enrichment is off by default"
    dlg.web.setChecked(True)
    dlg.search_url.setText("http://127.0.0.1:8888")
    dlg.threads.setValue(3)
    assert dlg.lanes.value() == 2  # analyses side by side while indexing, by default
    dlg.lanes.setValue(1)
    dlg.save()
    w1.close()
    core1.store.close()

    core2 = Core(Settings.load(tmp_path / "d"))
    assert core2.settings.web_enabled is True
    assert core2.settings.search_url == "http://127.0.0.1:8888"
    assert core2.settings.threads == 3
    assert core2.settings.model_lanes == 1
    w2 = make_window(core2, size=None)  # geometry comes from QSettings
    assert (w2.size().width(), w2.size().height()) == (771, 557)
    assert w2.search_bar.history[:2] == ["cat", "dogs at the beach"]
    core2.store.close()


def test_models_view_lists_and_verifies(qtbot, tmp_path):
    from photosearch.config import Settings
    from photosearch.gui.bridge import TaskRunner
    from photosearch.gui.models_view import ModelsView
    from photosearch.model_guide import runs_on_words

    runner = TaskRunner()
    errors = []
    view = ModelsView(Settings(data_dir=tmp_path / "m"), runner, errors.append)
    qtbot.addWidget(view)
    names = {r.name: r for r in view.rows}
    assert names, "manifests are listed"
    assert any(r.tier == "hub" and not r.present for r in view.rows), "hub models show as not downloaded"
    bundled = [r for r in view.rows if r.tier == "bundled" and r.present]
    assert bundled, "the bundled tier is installed"
    # the GUI shows each model's figures as `photosearch models list` has them, in words for people
    from photosearch.model_status import model_rows

    cli = {r["name"]: r for r in model_rows(view.settings)}
    for i, r in enumerate(view.rows):
        cells = [view.table.item(i, j).text() for j in range(view.table.columnCount())]
        assert cells[view.NAME] == r.name
        if r.tier == "hub":
            listed = cli[r.name]["download_size"]
            assert cells[view.DOWNLOAD] == (listed if listed != "unknown" else "size not listed")
        assert cells[view.RUNS_ON] == runs_on_words(cli[r.name]["provider"])
        assert not any("ExecutionProvider" in c for c in cells)  # runtime names only under Advanced
    if bundled:
        small = min(bundled, key=lambda r: r.size)
        view.select_name(small.name)
        assert view.btn_verify.isEnabled() and not view.btn_remove.isEnabled()
        view.verify_selected()
        qtbot.waitUntil(lambda: view.task is None, timeout=60000)
        assert small.name in view.status.text() and "intact" in view.status.text(), view.status.text()
    assert not errors
    runner.shutdown()
