"""Gates in the analysis pipeline: a costly analyzer runs only where a cheaper one saw something
for it to find; a gated-off analyzer is recorded as skipped, not retried, re-run on a version bump."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Analysis, Face, Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.ingest.paths import from_db_path
from photosearch.models.labels import COCO_CLASS_IDS, score_vector
from photosearch.records import AnalysisResult, FaceRecord, PhotoImage

PERSON = COCO_CLASS_IDS.index(1)


class FakeDetector:
    """Sees a person (score 0.9) in photos whose name says so; fails on `fail_on`."""

    name = "detector"
    version = 1

    def __init__(self, people=("grace", "astronaut"), fail_on: str | None = None):
        self.people, self.fail_on = people, fail_on

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        if self.fail_on and self.fail_on in image.path:
            raise RuntimeError("detector broke")
        score = 0.9 if any(p in image.path for p in self.people) else 0.0
        rows = np.array([[1, score, 0, 0, 1, 1]], np.float32)
        return AnalysisResult(embeddings={"coco": score_vector(rows)})


class FakeFaces:
    """Finds one face in every photo it is given; counts calls."""

    name = "faces"

    def __init__(self, version: int = 1):
        self.version = version
        self.calls: list[str] = []

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        self.calls.append(image.path.rsplit("/", 1)[-1])
        return AnalysisResult(faces=[FaceRecord([0.1, 0.1, 0.4, 0.4], 0.9, np.zeros(128, np.float32))])


@pytest.fixture
def env(tmp_path, gallery):
    settings = Settings(data_dir=tmp_path / "data", batch_size=3)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    return settings, store


def faces_status(store: Store) -> dict[str, tuple[str, int, int]]:
    """file name -> (status of the faces analysis, its version, faces in the photo)."""
    with store.session() as s:
        names = {
            pid: from_db_path(p).rsplit("/", 1)[-1] for pid, p in s.execute(select(Photo.id, Photo.path))
        }
        counts = {pid: 0 for pid in names}
        for (pid,) in s.execute(select(Face.photo_id)):
            counts[pid] += 1
        return {
            names[pid]: (status, version, counts[pid])
            for pid, status, version in s.execute(
                select(Analysis.photo_id, Analysis.status, Analysis.version).where(
                    Analysis.analyzer == "faces"
                )
            )
        }


def test_faces_run_only_where_the_detector_sees_a_person_and_skips_are_recorded(env):
    settings, store = env
    faces = FakeFaces()
    report = Indexer(store, settings, [FakeDetector(fail_on="rocket"), faces]).run()
    # the detector failed on the rocket: the gate is unsure there, so faces ran
    assert sorted(faces.calls) == ["astronaut.webp", "grace.gif", "rocket.tif"]
    assert report.gated == {"faces": 4} and report.analyzers["faces"] == {
        "ok": 3,
        "failed": 0,
        "first_error": None,
    }
    status = faces_status(store)
    assert {n for n, (st, _, _) in status.items() if st == "skipped"} == {
        "chelsea.jpg",
        "chelsea_small.png",
        "coffee.jpg",
        "china.jpg",
    }
    with store.session() as s:
        reason = s.scalar(select(Analysis.error).where(Analysis.status == "skipped").limit(1))
    assert "no person" in reason
    # a re-run (even retrying failures) does not try the skipped photos again
    faces.calls.clear()
    again = Indexer(store, settings, [FakeDetector(fail_on="rocket"), faces]).run(retry_failed=True)
    assert faces.calls == [] and again.gated == {}


def test_a_version_bump_gates_again_and_keeps_faces_found_before(env):
    settings, store = env
    Indexer(store, settings, [FakeDetector(), FakeFaces()], gates=()).run()  # every photo: 7 faces
    assert all(st == "ok" and n == 1 for st, _, n in faces_status(store).values())
    with store.session() as s:
        detected = s.execute(
            select(Analysis.id, Analysis.version).where(Analysis.analyzer == "detector")
        ).all()
    faces = FakeFaces(version=2)
    report = Indexer(store, settings, [FakeDetector(), faces]).run()
    # only the faces analyzer is new: the detector runs again for its gate, and nothing it found is
    # written again; a photo with no person keeps the face found before (a car grille's, maybe)
    assert sorted(faces.calls) == ["astronaut.webp", "grace.gif"] and report.gated == {"faces": 5}
    with store.session() as s:
        assert s.execute(
            select(Analysis.id, Analysis.version).where(Analysis.analyzer == "detector")
        ).all() == (detected)
    assert faces_status(store)["china.jpg"] == ("skipped", 2, 1)

    # a new detector version runs both: now the gate decides, and what faces found before stays
    class NewDetector(FakeDetector):
        version = 2

    faces3 = FakeFaces(version=3)
    report = Indexer(store, settings, [NewDetector(), faces3]).run()
    assert sorted(faces3.calls) == ["astronaut.webp", "grace.gif"] and report.gated == {"faces": 5}
    status = faces_status(store)
    assert status["china.jpg"] == ("skipped", 3, 1) and status["grace.gif"] == ("ok", 3, 1)


def test_without_gates_every_analyzer_runs_on_every_photo(env):
    settings, store = env
    faces = FakeFaces()
    report = Indexer(store, settings, [FakeDetector(), faces], gates=()).run()
    assert len(faces.calls) == 7 and report.gated == {}
