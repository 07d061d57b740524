"""A model that fails on every photo is never silent: `index` summarises failures per analyzer and exits
non-zero, `status` shows them beside file failures (text and JSON)."""

from __future__ import annotations

import json

import pytest

from photosearch.cli import main as cli_main

pytestmark = pytest.mark.slow


def _run(capsys, data_dir, *args: str) -> tuple[int, str]:
    code = cli_main(["--data-dir", str(data_dir), *args])
    return code, capsys.readouterr().out


def test_a_detector_that_cannot_load_fails_index_and_shows_in_status(tmp_path, gallery, capsys, monkeypatch):
    import cv2

    data = tmp_path / "data"
    _run(capsys, data, "add", str(gallery))
    monkeypatch.delattr(cv2.dnn, "readNetFromTensorflow")  # what OpenCV 5 did to the detector
    code, out = _run(capsys, data, "index", "--analyzers", "detector,quality", "--no-progress")
    photos = 7
    assert code == 1
    assert f"analysis failed: detector on {photos}/{photos} photo(s) (first: AttributeError" in out
    assert "detector failed on every photo: run `photosearch doctor`" in out
    assert "analysis failed: quality" not in out

    code, out = _run(capsys, data, "--json", "status")
    status = json.loads(out)
    assert status["analysis_failures"]["detector"]["count"] == photos
    assert "readNetFromTensorflow" in status["analysis_failures"]["detector"]["first_error"]
    assert "quality" not in status["analysis_failures"]
    code, out = _run(capsys, data, "status")
    assert f"analysis failed: detector on {photos} photo(s)" in out

    monkeypatch.undo()  # the fix is in: a retry analyses them and the summary is clean again
    code, out = _run(
        capsys, data, "--json", "index", "--analyzers", "detector", "--retry-failed", "--no-progress"
    )
    report = json.loads(out)
    assert code == 0 and report["broken_analyzers"] == []
    assert report["analyzers"]["detector"] == {"ok": photos, "failed": 0, "first_error": None}
    assert json.loads(_run(capsys, data, "--json", "status")[1])["analysis_failures"] == {}


def test_one_bad_photo_is_not_a_broken_model():
    """Failing on some photos is reported, but only failing on all of them fails the run."""
    from photosearch.ingest.indexer import IndexReport

    report = IndexReport()
    for error in (None, "ValueError: odd photo", None):
        report.count_analysis("faces", error)
    report.count_analysis("ocr", "RuntimeError: no model")
    assert report.broken_analyzers() == ["ocr"]
    assert report.analyzers["faces"] == {"ok": 2, "failed": 1, "first_error": "ValueError: odd photo"}
    assert report.analysis_failed == 2


def test_status_names_the_error_of_the_earliest_failure_not_the_smallest():
    """`status` says "(first: …)": the reason of the failed run that came first (by ran_at, then id), even
    when a later one sorts before it."""
    from datetime import datetime, timedelta

    from photosearch.catalog import Store
    from photosearch.catalog.models import Analysis, Photo

    store = Store("sqlite:///:memory:")
    t0 = datetime(2026, 12, 2, 10, 0, 0)
    runs = [  # (photo, analyzer, error, ran_at)
        ("/p/a.jpg", "detector", "ZeroDivisionError: came first", t0),
        ("/p/b.jpg", "detector", "AttributeError: came later", t0 + timedelta(seconds=5)),
        ("/p/c.jpg", "ocr", "ValueError: same time, lower id", t0),
        ("/p/d.jpg", "ocr", "KeyError: same time, higher id", t0),
        ("/p/e.jpg", "faces", None, t0 - timedelta(seconds=9)),  # an ok run is no failure
    ]
    with store.session() as s:
        for path, analyzer, error, ran_at in runs:
            photo = Photo(path=path, content_hash=path.ljust(64, "h"), size=1, mtime=1.0)
            s.add(photo)
            s.flush()
            store.write_analysis(s, photo.id, analyzer, 1, None, error=error)
            s.flush()
            s.query(Analysis).filter_by(photo_id=photo.id).update({"ran_at": ran_at})
    failures = store.status()["analysis_failures"]
    assert failures == {
        "detector": {"count": 2, "first_error": "ZeroDivisionError: came first"},
        "ocr": {"count": 2, "first_error": "ValueError: same time, lower id"},
    }
