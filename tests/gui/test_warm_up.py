"""The app loads the search models in the background right after start, so the first search does not."""

from __future__ import annotations


def test_models_are_warm_before_the_first_search(qtbot, make_window, indexed):
    from photosearch.app import build_indexer
    from photosearch.vision.registry import facts_text_analyzer
    from photosearch.vision.text_embedder import get_text_embedder

    core, _ids = indexed  # embed the photos' facts, as indexing with the bundled models does
    build_indexer(
        core.store, core.settings, analyzers=[facts_text_analyzer(core.settings)], post_steps=[]
    ).run()
    embedder = get_text_embedder(core.settings)
    embedder.close()  # as in a fresh process
    assert not embedder.loaded
    w = make_window(core, warm_up=True)
    assert w.warm_up_task is not None
    qtbot.waitUntil(lambda: w.warm_up_task.done, timeout=60000)
    assert embedder.loaded
    w.run_search("cat")
    qtbot.waitUntil(lambda: w.search_info.text() != "Searching…", timeout=20000)
    assert w.model.paths and w.model.paths[0].endswith("chelsea.jpg")


def test_no_warm_up_without_a_library(qtbot, make_window, core):
    w = make_window(core, warm_up=True)
    assert w.warm_up_task is None
