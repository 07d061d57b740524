"""A search typed while the background warm-up still loads the models says so, then shows its results."""

from __future__ import annotations

import threading


def _hold(method, gate: threading.Event, request: str | None = None):
    """`method`, made to wait for `gate` first (for `request` only, when given): a warm-up or a search
    that takes as long as the test says."""

    def held(*args, **kwargs):
        if request is None or kwargs.get("request") == request:
            assert gate.wait(60), "the test never opened the gate"
        return method(*args, **kwargs)

    return held


def test_search_during_warm_up_shows_loading_then_results(qtbot, make_window, indexed, monkeypatch):
    from photosearch.gui.main_window import SEARCHING, SEARCHING_WHILE_LOADING

    core, _ids = indexed
    warm, searched = threading.Event(), threading.Event()
    monkeypatch.setattr(core, "warm_up", _hold(core.warm_up, warm))
    monkeypatch.setattr(core, "search", _hold(core.search, searched, "animal"))  # not the warm-up's requests
    w = make_window(core, warm_up=True)
    assert w.warming_up

    w.run_search("animal")
    assert w.search_info.text() == SEARCHING_WHILE_LOADING  # not a frozen or blank window

    warm.set()  # the models are loaded: the search is still running, without the loading note
    qtbot.waitUntil(lambda: not w.warming_up, timeout=60000)
    qtbot.waitUntil(lambda: w.search_info.text() == SEARCHING, timeout=5000)

    searched.set()
    qtbot.waitUntil(lambda: "photo" in w.search_info.text(), timeout=60000)
    assert w.model.paths and w.model.paths[0].endswith("chelsea.jpg")


def test_search_after_warm_up_says_only_searching(qtbot, make_window, indexed, monkeypatch):
    from photosearch.gui.main_window import SEARCHING

    core, _ids = indexed
    searched = threading.Event()
    monkeypatch.setattr(core, "search", _hold(core.search, searched, "animal"))
    w = make_window(core, warm_up=False)
    assert not w.warming_up
    w.run_search("animal")
    assert w.search_info.text() == SEARCHING
    searched.set()
    qtbot.waitUntil(lambda: "photo" in w.search_info.text(), timeout=60000)
