"""GUI tests: pytest-qt on the offscreen platform, real photos, a real catalog per test."""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"

from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from tests.required import require

require("PySide6")
require("pytestqt")


@pytest.fixture(scope="session")
def small_photos() -> dict[str, np.ndarray]:
    from skimage import data

    return {
        "chelsea": data.chelsea(),
        "coffee": data.coffee(),
        "astronaut": data.astronaut(),
        "rocket": data.rocket(),
    }


@pytest.fixture
def gallery(tmp_path: Path, small_photos) -> Path:
    folder = tmp_path / "Pictures"
    folder.mkdir()
    for name, rgb in small_photos.items():
        Image.fromarray(rgb).save(folder / f"{name}.jpg", quality=90)
    return folder


@pytest.fixture
def core(tmp_path: Path):
    from photosearch.config import Settings
    from photosearch.core import Core

    c = Core(Settings(data_dir=tmp_path / "data"))
    yield c
    c.store.close()


@pytest.fixture
def qsettings(tmp_path: Path):
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "gui.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def make_window(qtbot, qsettings):
    from photosearch.gui.main_window import MainWindow

    made = []

    def make(core, size=(1000, 700), **kw):
        kw.setdefault("qsettings", qsettings)
        kw.setdefault("watch", False)
        kw.setdefault("ask_llm_factory", lambda: None)
        kw.setdefault("warm_up", False)  # tests/gui/test_warm_up.py covers it
        w = MainWindow(core, **kw)
        qtbot.addWidget(w)
        if size:
            w.resize(*size)
        w.show()
        made.append(w)
        return w

    yield make
    for w in made:
        w.runner.shutdown(5000)


def add_facts(
    core, facts_by_name: dict[str, list[tuple[str, str]]], faces: dict[str, int] | None = None
) -> dict:
    """Write facts (kind, label) for photos by file stem; returns {stem: photo_id}."""
    from photosearch.catalog.models import Photo
    from photosearch.records import AnalysisResult, FaceRecord, FactRecord

    faces = faces or {}
    ids = {}
    with core.store.session() as s:
        for photo in s.query(Photo).all():
            stem = Path(photo.path).stem
            ids[stem] = photo.id
            facts = [FactRecord(kind, label, 0.9) for kind, label in facts_by_name.get(stem, [])]
            fr = [
                FaceRecord([0.3, 0.1, 0.6, 0.4], 0.99, np.full(128, i, np.float32))
                for i in range(faces.get(stem, 0))
            ]
            core.store.write_analysis(s, photo.id, "test", 1, AnalysisResult(facts=facts, faces=fr))
    return ids


@pytest.fixture
def indexed(core, gallery):
    """A catalog of the gallery, indexed without models, with a few facts written in."""
    from photosearch.app import build_indexer

    core.store.add_folder(gallery)
    build_indexer(core.store, core.settings, analyzers=[], post_steps=[]).run()
    ids = add_facts(
        core,
        {
            "chelsea": [("tag", "cat"), ("tag", "animal")],
            "coffee": [("tag", "coffee"), ("tag", "cup")],
            "astronaut": [("tag", "astronaut"), ("tag", "person")],
            "rocket": [("tag", "rocket"), ("text", "NASA")],
        },
        faces={"astronaut": 1},
    )
    return core, ids
