"""Mark-and-sweep indexing on a real gallery: add, skip, change, move, delete, offline, bad files."""

from __future__ import annotations

import os
import re
import shutil
import sys
import threading
import time

import pytest
from PIL import Image
from sqlalchemy import func, select

from photosearch.catalog import Store
from photosearch.catalog.models import Analysis, Fact, FileIssue, Photo, Thumbnail
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.ingest.paths import from_db_path, to_db_path
from tests.conftest import save_photo, tmpfs, unmount
from tests.fakes import MeanColourAnalyzer, SizeAnalyzer


@pytest.fixture
def env(tmp_path, gallery):
    settings = Settings(data_dir=tmp_path / "data", batch_size=3)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    return settings, store, gallery


def _photos(store):
    with store.session() as s:
        return {from_db_path(p.path): p for p in s.scalars(select(Photo))}


def test_first_index_adds_everything_with_metadata_and_thumbnails(env):
    settings, store, gallery = env
    analyzer = MeanColourAnalyzer()
    progress = []
    report = Indexer(store, settings, [analyzer]).run(progress=progress.append)
    assert report.added == 7 and report.failed == 0 and report.analysed == 7
    photos = _photos(store)
    cat = photos[str(gallery / "cats" / "chelsea.jpg")]
    assert (cat.width, cat.height, cat.format) == (451, 300, "JPEG")
    assert cat.camera_model == "Pixel 7" and cat.taken_at.year == 2023
    assert cat.gps_lat == pytest.approx(43.7696, abs=1e-3)
    assert len(cat.content_hash) == 64 and cat.phash
    with store.session() as s:
        thumbs = s.scalars(select(Thumbnail)).all()
        assert len(thumbs) == 7
        assert all(
            (settings.thumbs_dir / t.rel_path).is_file() and max(t.width, t.height) <= 256 for t in thumbs
        )
        assert s.scalar(select(func.count()).select_from(Fact)) == 7
    assert progress[-1].stage == "done" and progress[-1].done == 7


def test_rate_is_photos_over_wall_time(env):
    """A photo added and analysed in one run counts once: 7 photos in `elapsed_s` is 7 / elapsed_s
    photos/s (the summary once counted it twice: added + analysed). A re-analysis run counts the
    photos it read again, once each."""
    from photosearch.cli.library import _index_text

    settings, store, _ = env
    report = Indexer(store, settings, [MeanColourAnalyzer()]).run()
    assert report.added == 7 and report.analysed == 7 and report.photos == 7
    assert report.photos_per_s == pytest.approx(7 / report.elapsed_s)
    data = report.as_dict()
    summary = _index_text(data | {"broken_analyzers": []})
    shown = re.search(r"(\d+) photos in [\d.]+s \(([\d.]+) photos/s\)", summary)
    assert shown and int(shown[1]) == 7, summary
    assert float(shown[2]) == pytest.approx(7 / report.elapsed_s, abs=0.06), summary
    again = Indexer(store, settings, [MeanColourAnalyzer(version=2)]).run()
    assert again.added == 0 and again.analysed == 7 and again.photos == 7
    assert again.photos_per_s == pytest.approx(7 / again.elapsed_s)
    idle = Indexer(store, settings, [MeanColourAnalyzer(version=2)]).run()
    assert idle.photos == 0 and idle.photos_per_s == 0.0


def test_rescan_skips_unchanged_and_reanalyses_changed(env, real_photos):
    settings, store, gallery = env
    analyzer = MeanColourAnalyzer()
    Indexer(store, settings, [analyzer]).run()
    analyzer.calls.clear()
    report = Indexer(store, settings, [analyzer]).run()
    assert (report.unchanged, report.added, report.changed) == (7, 0, 0) and analyzer.calls == []
    target = gallery / "kitchen" / "coffee.jpg"
    before = _photos(store)[str(target)]
    save_photo(target, real_photos["rocket"])
    report = Indexer(store, settings, [analyzer]).run()
    assert report.changed == 1 and analyzer.calls == [str(target)]
    after = _photos(store)[str(target)]
    assert after.content_hash != before.content_hash and after.state == "active"
    # another picture under the old name is a new photo; the old one is kept aside, deleted (issue 13)
    assert after.id != before.id and store.photo(before.id).state == "deleted"


def test_move_and_rename_keep_every_fact(env):
    settings, store, gallery = env
    analyzer = MeanColourAnalyzer()
    Indexer(store, settings, [analyzer]).run()
    old = gallery / "cats" / "chelsea.jpg"
    photo = _photos(store)[str(old)]
    with store.session() as s:
        s.add(Fact(photo_id=photo.id, analyzer="user", kind="user_tag", label="favourite"))
    new = gallery / "trips" / "renamed cat.jpg"
    shutil.move(old, new)
    analyzer.calls.clear()
    report = Indexer(store, settings, [analyzer]).run()
    assert report.moved == 1 and report.added == 0 and report.deleted == 0
    assert analyzer.calls == []  # no model re-ran
    moved = _photos(store)[str(new)]
    assert moved.id == photo.id and str(old) not in _photos(store)
    with store.session() as s:
        labels = {f.label for f in s.scalars(select(Fact).where(Fact.photo_id == photo.id))}
    assert {"favourite"} <= labels and len(labels) == 2


def test_delete_is_soft_and_return_resurrects(env, tmp_path):
    settings, store, gallery = env
    Indexer(store, settings, [MeanColourAnalyzer()]).run()
    victim = gallery / "space" / "rocket.tif"
    keep = tmp_path / "rocket_backup.tif"
    shutil.move(victim, keep)
    report = Indexer(store, settings, []).run()
    assert report.deleted == 1
    row = _photos(store)[str(victim)]
    assert row.state == "deleted" and row.deleted_at is not None
    assert store.status()["photos"] == 6
    shutil.move(keep, gallery / "rocket-again.tif")
    analyzer = MeanColourAnalyzer()
    report = Indexer(store, settings, [analyzer]).run()
    assert report.moved == 1 and analyzer.calls == []
    assert _photos(store)[str(gallery / "rocket-again.tif")].id == row.id


def test_offline_folder_keeps_its_photos(env, tmp_path):
    settings, store, gallery = env
    Indexer(store, settings, []).run()
    unmounted = tmp_path / "unmounted"
    gallery.rename(unmounted)
    report = Indexer(store, settings, []).run()
    assert report.offline_folders == [str(gallery)] and report.deleted == 0
    status = store.status()
    assert status["photos"] == 7 and status["offline_folders"] == [str(gallery)]
    unmounted.rename(gallery)
    report = Indexer(store, settings, []).run()
    assert report.unchanged == 7 and store.status()["offline_folders"] == []


def test_byte_identical_copy_inherits_analysis(env):
    settings, store, gallery = env
    analyzer = MeanColourAnalyzer()
    Indexer(store, settings, [analyzer]).run()
    shutil.copy2(gallery / "cats" / "chelsea.jpg", gallery / "copy.jpg")
    analyzer.calls.clear()
    report = Indexer(store, settings, [analyzer]).run()
    assert report.added == 1 and report.copied_facts == 1 and analyzer.calls == []
    copy = _photos(store)[str(gallery / "copy.jpg")]
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Fact).where(Fact.photo_id == copy.id)) == 1


def test_version_bump_reruns_only_that_analyzer(env):
    settings, store, gallery = env
    colour, size = MeanColourAnalyzer(), SizeAnalyzer()
    Indexer(store, settings, [colour, size]).run()
    assert size.calls == 7
    colour2, size_same = MeanColourAnalyzer(version=2), SizeAnalyzer()
    report = Indexer(store, settings, [colour2, size_same]).run()
    assert len(colour2.calls) == 7 and size_same.calls == 0 and report.analysed == 7
    with store.session() as s:
        assert set(s.scalars(select(Analysis.version).where(Analysis.analyzer == "meancolour"))) == {2}


def test_one_failing_photo_fails_alone(env):
    settings, store, gallery = env
    report = Indexer(store, settings, [MeanColourAnalyzer(fail_on="coffee")]).run()
    assert report.analysis_failed == 1 and report.analysed == 7
    with store.session() as s:
        failed = s.scalars(select(Analysis).where(Analysis.status == "failed")).all()
    assert len(failed) == 1 and "cannot analyse" in failed[0].error


def _make_bad_files(gallery, real_photos):
    bad = gallery / "bad"
    bad.mkdir()
    (bad / "zero.jpg").write_bytes(b"")
    full = (gallery / "kitchen" / "coffee.jpg").read_bytes()
    (bad / "truncated.jpg").write_bytes(full[: len(full) // 3])
    (bad / "notes.jpg").write_text("shopping list: milk, eggs")
    Image.new("L", (5000, 5000)).save(bad / "bomb.png")
    Image.new("RGB", (1, 1)).save(bad / "tiny.png")
    os.symlink(bad, bad / "loop")  # directory loop
    os.symlink(bad / "self.jpg", bad / "self.jpg")  # file loop
    save_photo(gallery / "üñíçødé" / "Café Ø 日本.jpg", real_photos["coffee"])
    if sys.platform.startswith("linux"):
        raw = os.fsencode(str(gallery)) + b"/latin1-caf\xe9.jpg"
        with open(raw, "wb") as fh:
            fh.write((gallery / "kitchen" / "coffee.jpg").read_bytes())


def test_bad_files_are_recorded_and_skipped(env, real_photos):
    settings, store, gallery = env
    settings.max_image_pixels = 10_000_000
    _make_bad_files(gallery, real_photos)
    report = Indexer(store, settings, [MeanColourAnalyzer()]).run()
    assert report.failed_by_reason == {
        "empty_file": 1,
        "truncated": 1,
        "not_an_image": 1,
        "too_many_pixels": 1,
    }
    with store.session() as s:
        issues = {from_db_path(i.path): i.reason for i in s.scalars(select(FileIssue))}
    assert issues[str(gallery / "bad" / "self.jpg")] == "symlink_loop"
    assert issues[str(gallery / "bad" / "loop")] == "symlink_loop"
    photos = _photos(store)
    assert str(gallery / "bad" / "tiny.png") in photos
    assert str(gallery / "üñíçødé" / "Café Ø 日本.jpg") in photos
    latin1 = os.fsdecode(os.fsencode(str(gallery)) + b"/latin1-caf\xe9.jpg")
    assert latin1 in photos and to_db_path(latin1) != latin1
    assert photos[latin1].state == "active" and os.path.exists(from_db_path(photos[latin1].path))
    status = store.status()
    assert status["failed"] == 6 and status["photos"] == 10
    # A second run does not re-read known-bad files, and loses nothing. A file over the pixel cap
    # (a setting) is checked again from its header alone, so a raised cap takes effect (issue 26).
    report = Indexer(store, settings, []).run()
    assert report.failed_by_reason == {"too_many_pixels": 1}
    assert report.added == 0 and store.status()["photos"] == 10


def test_file_vanishing_between_listing_and_reading(env, monkeypatch):
    settings, store, gallery = env
    import photosearch.ingest.loader as loader

    real = loader.read_and_hash
    victim = str(gallery / "trips" / "china.jpg")

    def vanish_then_read(path):
        if str(path) == victim:
            os.remove(path)
        return real(path)

    monkeypatch.setattr(loader, "read_and_hash", vanish_then_read)
    report = Indexer(store, settings, []).run()
    assert report.added == 6 and report.failed == 0
    assert victim not in _photos(store)


def test_permission_denied_is_recorded(env, monkeypatch):
    settings, store, gallery = env
    import photosearch.ingest.loader as loader

    real = loader.read_and_hash

    def deny(path):
        if str(path).endswith("astronaut.webp"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(loader, "read_and_hash", deny)
    report = Indexer(store, settings, []).run()
    assert report.failed_by_reason == {"permission_denied": 1} and report.added == 6


def test_cancel_stops_after_a_batch_and_rerun_completes(env):
    settings, store, gallery = env
    analyzer = MeanColourAnalyzer()
    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return calls["n"] > 2

    report = Indexer(store, settings, [analyzer]).run(cancel=cancel)
    assert report.cancelled and 0 < store.status()["photos"] < 7
    with store.session() as s:  # models that had not started were skipped: none half-written
        analysed = s.scalar(select(func.count()).select_from(Analysis))
        assert analysed <= store.status()["photos"]
        assert s.scalar(select(func.count()).select_from(Fact)) == analysed
    report = Indexer(store, settings, [analyzer]).run()
    assert not report.cancelled and store.status()["photos"] == 7
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Analysis)) == 7


def test_pause_stops_the_models_after_the_chain_running_now(env):
    """Pause (the cancel check blocks, as the app's Task does) holds the model lanes too: while
    paused, only the batch whose models were running when the user paused is finished, not every
    batch already queued behind it; after Resume the run completes."""
    settings, store, _ = env
    settings.model_lanes = 2
    running = threading.Event()
    running.set()
    at_resume: list[int] = []

    class PausedMidway(MeanColourAnalyzer):
        def analyze(self, image):
            if len(self.calls) == 1:  # the user pauses while the first batch is analysed
                running.clear()
                threading.Thread(target=resume_later, daemon=True).start()
            return super().analyze(image)

    analyzer = PausedMidway(sleep_s=0.2)  # slow: every batch is queued by then

    def resume_later() -> None:
        deadline = time.monotonic() + 30
        while len(analyzer.calls) < settings.batch_size and time.monotonic() < deadline:
            time.sleep(0.05)  # the chain running when the user paused ends...
        time.sleep(1.0)  # ...and no queued batch starts after it
        at_resume.append(len(analyzer.calls))
        running.set()

    def cancel() -> bool:
        while not running.wait(0.01):
            pass
        return False

    report = Indexer(store, settings, [analyzer]).run(cancel=cancel)
    assert at_resume == [settings.batch_size]  # the first batch ended; the queued ones waited
    assert not report.cancelled and report.analysed == 7 and len(analyzer.calls) == 7


def test_the_first_batch_is_small_so_the_models_start_early(env):
    """The models load and run on the first few photos while the rest is decoded: the first batch
    lands after FIRST_BATCH photos, the next ones after `batch_size`."""
    from photosearch.ingest.indexer import FIRST_BATCH

    settings, store, gallery = env
    settings.batch_size = 16
    progress = []
    report = Indexer(store, settings, [MeanColourAnalyzer()]).run(progress=progress.append)
    assert report.analysed == 7
    assert [p.done for p in progress if p.stage == "analyze"] == [FIRST_BATCH, 7]


def test_facts_analyzer_runs_last_and_again_when_facts_change(env):
    from photosearch.catalog.models import Embedding
    from tests.fakes import FactCountAnalyzer

    settings, store, gallery = env
    facts = FactCountAnalyzer()
    Indexer(store, settings, [facts, MeanColourAnalyzer(), SizeAnalyzer()]).run()
    assert len(facts.seen) == 7 and all(len(labels) == 2 for labels in facts.seen)
    with store.session() as s:
        assert (
            s.scalar(select(func.count()).select_from(Embedding).where(Embedding.space == "facts_text")) == 7
        )
    facts.seen.clear()
    Indexer(store, settings, [MeanColourAnalyzer(), SizeAnalyzer(), facts]).run()
    assert facts.seen == []  # nothing changed: nothing re-embedded
    Indexer(store, settings, [MeanColourAnalyzer(version=2), SizeAnalyzer(), facts]).run()
    assert len(facts.seen) == 7  # a pixel analyzer re-ran: its new facts are re-embedded


def _tag(store, path, label):
    with store.session() as s:
        photo = s.scalar(select(Photo).where(Photo.path == str(path)))
        s.add(Fact(photo_id=photo.id, analyzer="user", kind="user_tag", label=label))
        return photo.id


def _user_tags(store, photo_id):
    with store.session() as s:
        return {
            f.label for f in s.scalars(select(Fact).where(Fact.photo_id == photo_id, Fact.kind == "user_tag"))
        }


def test_swapping_two_names_swaps_the_photos_not_their_facts(env):
    settings, store, gallery = env
    Indexer(store, settings, [MeanColourAnalyzer()]).run()
    a, b = gallery / "cats" / "chelsea.jpg", gallery / "kitchen" / "coffee.jpg"
    id_a, id_b = _tag(store, a, "the cat"), _tag(store, b, "the coffee")
    tmp = gallery / "swap.tmp"
    a.rename(tmp)
    b.rename(a)
    tmp.rename(b)
    analyzer = MeanColourAnalyzer()
    report = Indexer(store, settings, [analyzer]).run()
    assert report.moved == 2 and report.changed == 0 and report.deleted == 0
    assert analyzer.calls == []  # nothing re-analysed: the facts moved with the content
    photos = _photos(store)
    assert photos[str(b)].id == id_a and photos[str(a)].id == id_b
    assert _user_tags(store, id_a) == {"the cat"} and _user_tags(store, id_b) == {"the coffee"}
    assert store.status()["photos"] == 7


def test_a_name_reused_after_a_delete_takes_the_moved_photo(env):
    settings, store, gallery = env
    Indexer(store, settings, []).run()
    x, y = gallery / "trips" / "china.jpg", gallery / "space" / "rocket.tif"
    id_x = _tag(store, x, "great wall")
    y.unlink()
    Indexer(store, settings, []).run()
    x.rename(gallery / "space" / "china.jpg")
    (gallery / "space" / "china.jpg").rename(y)  # same name as the deleted photo
    report = Indexer(store, settings, []).run()
    assert report.moved == 1 and report.deleted == 0 and report.changed == 0
    moved = _photos(store)[str(y)]
    assert moved.id == id_x and moved.state == "active" and _user_tags(store, id_x) == {"great wall"}


def test_photos_on_an_offline_drive_are_not_marked_failed(env, tmp_path):
    settings, store, gallery = env
    Indexer(store, settings, []).run()
    gallery.rename(tmp_path / "unplugged")
    report = Indexer(store, settings, [MeanColourAnalyzer()]).run()
    assert report.analysis_failed == 0 and report.analysed == 0
    (tmp_path / "unplugged").rename(gallery)
    report = Indexer(store, settings, [MeanColourAnalyzer()]).run()
    assert report.analysed == 7


def test_identical_copies_decoded_together_all_succeed(env):
    settings, store, gallery = env
    for i in range(6):
        shutil.copy2(gallery / "cats" / "chelsea.jpg", gallery / f"copy{i}.jpg")
    report = Indexer(store, settings, []).run()
    assert report.failed == 0 and report.added == 13


def test_removing_a_parent_folder_keeps_photos_of_a_registered_subfolder(env):
    settings, store, gallery = env
    Indexer(store, settings, [MeanColourAnalyzer()]).run()
    inner = _photos(store)[str(gallery / "cats" / "chelsea.jpg")]
    _tag(store, gallery / "cats" / "chelsea.jpg", "keep me")
    store.add_folder(gallery / "cats")
    store.remove_folder(gallery)
    photos = _photos(store)
    assert set(photos) == {str(gallery / "cats" / "chelsea.jpg"), str(gallery / "cats" / "chelsea_small.png")}
    assert photos[str(gallery / "cats" / "chelsea.jpg")].id == inner.id and _user_tags(store, inner.id) == {
        "keep me"
    }


def test_empty_mount_point_is_offline_not_a_mass_delete(env, tmp_path):
    """A real drive (tmpfs) mounted as the folder, then unplugged: the mount point stays behind,
    empty, on the parent's filesystem."""
    settings, store, _ = env
    drive = tmp_path / "drive"
    with tmpfs(drive, "16m"):
        shutil.copytree(env[2], drive, dirs_exist_ok=True)
        store.add_folder(drive)
        Indexer(store, settings, []).run()
        before = store.status()["photos"]
        unmount(drive)
        report = Indexer(store, settings, []).run()
    assert report.deleted == 0 and report.offline_folders == [str(drive)]
    assert store.status()["photos"] == before == 14


def test_failures_clear_when_the_file_goes_and_transient_ones_are_retried(env, monkeypatch):
    settings, store, gallery = env
    (gallery / "junk.jpg").write_text("not a photo")
    import photosearch.ingest.loader as loader

    real = loader.read_and_hash

    def deny(path):
        if str(path).endswith("astronaut.webp"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(loader, "read_and_hash", deny)
    Indexer(store, settings, []).run()
    assert store.status()["failed_by_reason"] == {"not_an_image": 1, "permission_denied": 1}
    monkeypatch.setattr(loader, "read_and_hash", real)
    (gallery / "junk.jpg").unlink()
    report = Indexer(store, settings, []).run()
    assert report.added == 1  # the permission problem was retried and is gone
    assert store.status()["failed"] == 0


def test_links_into_the_library_are_not_duplicates_but_links_out_are_followed(env, tmp_path, real_photos):
    settings, store, gallery = env
    os.symlink(gallery / "cats" / "chelsea.jpg", gallery / "alias.jpg")  # file link inside
    os.symlink(gallery / "kitchen", gallery / "a_kitchen_link")  # dir link inside, sorts first
    outside = tmp_path / "elsewhere"
    save_photo(outside / "flower.jpg", real_photos["flower"])
    os.symlink(outside, gallery / "linked_out")  # dir link to photos outside the library
    report = Indexer(store, settings, []).run()
    photos = _photos(store)
    assert report.added == 8 and report.failed == 0
    assert str(gallery / "alias.jpg") not in photos and str(gallery / "kitchen" / "coffee.jpg") in photos
    assert not any("a_kitchen_link" in p for p in photos)
    assert str(gallery / "linked_out" / "flower.jpg") in photos


class _BlasThreadsSeen(MeanColourAnalyzer):
    """Records how many threads numpy's BLAS has while it analyses."""

    def __init__(self):
        super().__init__()
        self.blas_threads: set[int] = set()

    def analyze(self, image):
        from threadpoolctl import threadpool_info

        self.blas_threads |= {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
        return super().analyze(image)


def test_numpy_blas_runs_on_one_thread_while_indexing_and_as_before_after(env):
    from threadpoolctl import threadpool_info, threadpool_limits

    settings, store, _ = env
    analyzer = _BlasThreadsSeen()
    with threadpool_limits(limits=2, user_api="blas"):  # what a 2-core machine starts with
        Indexer(store, settings, [analyzer]).run()
        after = {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}
    assert analyzer.calls and analyzer.blas_threads == {1}
    assert after == {2}
