"""Find similar in the app shows what `photosearch similar` prints: the same photos in the same
order (near-duplicates first), labelled with the photo's file name, never an internal id."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

from tests.conftest import run_cli_json

PHOTOS = 30


def _catalogue(core, tmp_path: Path) -> dict[str, int]:
    """30 photos with image vectors: a near-duplicate of the first (cosine 0.99), then neighbours."""
    from photosearch.app import build_indexer
    from photosearch.catalog.models import Photo
    from photosearch.records import AnalysisResult

    folder = tmp_path / "Trip"
    folder.mkdir()
    rng = np.random.default_rng(11)
    for i in range(PHOTOS):
        colour = rng.integers(0, 255, 3).astype(np.uint8)
        Image.fromarray(np.tile(colour, (48, 64, 1))).save(folder / f"IMG_{i:04d}.jpg", quality=90)
    core.store.add_folder(folder)
    build_indexer(core.store, core.settings, analyzers=[], post_steps=[]).run()
    base = rng.standard_normal(64)
    vectors = {0: base, 1: base + 0.1 * rng.standard_normal(64)}  # IMG_0001 is a near-duplicate
    for i in range(2, PHOTOS):
        vectors[i] = base * (1.2 - i / PHOTOS) + rng.standard_normal(64)  # less and less alike
    ids = {}
    with core.store.session() as s:
        for photo in s.query(Photo).all():
            i = int(Path(photo.path).stem.split("_")[1])
            ids[Path(photo.path).name] = photo.id
            vec = (vectors[i] / np.linalg.norm(vectors[i])).astype(np.float32)
            core.store.write_analysis(s, photo.id, "image", 1, AnalysisResult(embeddings={"image": vec}))
    return ids


def test_find_similar_in_the_app_is_the_cli_list(qtbot, make_window, core, tmp_path):
    ids = _catalogue(core, tmp_path)
    first = ids["IMG_0000.jpg"]
    w = make_window(core)
    task = w.find_similar(first)  # the photo view's and the grid's "Find similar" action
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    qtbot.wait(20)
    cli = run_cli_json(core.settings.data_dir, "similar", str(first))
    assert len(cli["results"]) == 20
    assert w.model.ids == [r["id"] for r in cli["results"]]  # the same photos, the same order
    assert cli["results"][0]["id"] == ids["IMG_0001.jpg"] and cli["results"][0]["near_duplicate"]
    assert w.search_bar.text() == "similar to IMG_0000.jpg"
    assert str(first) not in w.search_bar.text() and "photo" not in w.search_bar.text()
    assert w.search_info.text().startswith("20 photos")


def test_find_similar_from_the_photo_view_toolbar(qtbot, make_window, core, tmp_path):
    ids = _catalogue(core, tmp_path)
    w = make_window(core)
    task = w.run_search(plan={"where": {"and": []}})
    qtbot.waitUntil(lambda: task.done, timeout=20000)
    w.open_photo(ids["IMG_0000.jpg"])
    qtbot.waitUntil(lambda: w.photo_view.details is not None, timeout=20000)
    w.photo_view.act_similar.trigger()
    qtbot.waitUntil(lambda: w.search_bar.text() == "similar to IMG_0000.jpg", timeout=20000)
    expected = core.similar(ids["IMG_0000.jpg"])
    assert w.model.ids == [r["id"] for r in expected["results"]]
