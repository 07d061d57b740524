"""Copying photos out (`photosearch/export.py`): originals byte for byte, sidecars along, nothing
overwritten, unreadable files and a full disk recorded and skipped, cancel honoured."""

from __future__ import annotations

import os

from photosearch.export import export_photos
from tests.conftest import tmpfs


def _photo(folder, name, data: bytes):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    return str(folder / name)


def test_copies_originals_and_sidecars_without_overwriting(tmp_path):
    a = _photo(tmp_path / "one", "beach.jpg", b"A" * 5000)
    b = _photo(tmp_path / "two", "beach.jpg", b"B" * 7000)  # same name, other folder
    (tmp_path / "one" / "beach.jpg.xmp").write_text("<x:xmpmeta one/>")
    (tmp_path / "two" / "beach.xmp").write_text("<x:xmpmeta two/>")
    out = tmp_path / "out"
    out.mkdir()
    (out / "beach.jpg").write_bytes(b"already here")
    seen = []
    report = export_photos([a, b], out, progress=seen.append)
    assert (out / "beach.jpg").read_bytes() == b"already here"  # never overwritten
    assert (out / "beach (2).jpg").read_bytes() == b"A" * 5000
    assert (out / "beach (2).jpg.xmp").read_text() == "<x:xmpmeta one/>"  # the sidecar follows the name
    assert (out / "beach (3).jpg").read_bytes() == b"B" * 7000
    assert (out / "beach (3).xmp").read_text() == "<x:xmpmeta two/>"
    assert (len(report.copied), report.renamed, report.sidecars, report.skipped) == (2, 2, 2, [])
    assert os.stat(out / "beach (2).jpg").st_mtime == os.stat(a).st_mtime  # times kept
    assert [p.done for p in seen] == [0, 1, 2] and seen[-1].total == 2
    assert "Copied 2 of 2 photos" in report.summary() and "2 renamed" in report.summary()


def test_unreadable_and_missing_files_are_recorded_and_skipped(tmp_path):
    good = _photo(tmp_path / "in", "good.jpg", b"G" * 100)
    locked = _photo(tmp_path / "in", "locked.jpg", b"L" * 100)
    os.chmod(locked, 0)
    fifo = tmp_path / "in" / "pipe.jpg"
    os.mkfifo(fifo)
    report = export_photos([str(tmp_path / "in" / "gone.jpg"), locked, str(fifo), good], tmp_path / "out")
    reasons = dict(report.skipped)
    assert "missing" in reasons[str(tmp_path / "in" / "gone.jpg")]
    assert "not a file" in reasons[str(fifo)]
    if os.geteuid() != 0:  # root reads a mode-0 file anyway
        assert "permission" in reasons[locked]
    assert (tmp_path / "out" / "good.jpg").read_bytes() == b"G" * 100
    assert not (tmp_path / "out" / "gone.jpg").exists() and not (tmp_path / "out" / "pipe.jpg").exists()
    assert "skipped" in report.summary() and "gone.jpg" in report.summary()


def test_a_full_disk_is_recorded_and_leaves_no_partial_file(tmp_path):
    small = _photo(tmp_path / "in", "small.jpg", b"s" * 100_000)
    big = _photo(tmp_path / "in", "big.jpg", os.urandom(3_000_000))
    after = _photo(tmp_path / "in", "after.jpg", b"a" * 100)
    with tmpfs(tmp_path / "disk", "2m") as disk:
        report = export_photos([small, big, after], disk)
        assert (disk / "small.jpg").stat().st_size == 100_000
        assert not (disk / "big.jpg").exists()  # the partial copy is removed
        assert dict(report.skipped)[big] == "the disk is full"
        assert dict(report.skipped)[after] == "not copied: the disk is full"
        assert len(report.copied) == 1


def test_cancel_stops_between_photos(tmp_path):
    paths = [_photo(tmp_path / "in", f"{i}.jpg", b"x") for i in range(5)]
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 2

    report = export_photos(paths, tmp_path / "out", cancel=cancel)
    assert report.cancelled and len(report.copied) == 2
    assert sorted(os.listdir(tmp_path / "out")) == ["0.jpg", "1.jpg"]
