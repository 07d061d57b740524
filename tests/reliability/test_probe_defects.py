"""Issue 26: the defects an adversarial probe found, each reproduced through the CLI (or the indexer
where the CLI cannot reach the state), each now a clean result or a one-line error."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from photosearch.catalog.lock import WriterLock
from photosearch.catalog.models import Face, Person, Photo
from photosearch.ingest.indexer import Indexer
from photosearch.ingest.paths import to_db_path
from photosearch.ingest.scanner import STICKY_REASONS
from tests.conftest import fill_disk, run_cli, save_photo, tmpfs
from tests.reliability.helpers import issues, make_env, photos, tag


def _one_line_error(done: subprocess.CompletedProcess) -> str:
    """The command failed with exit 1 and said why in one `photosearch: error:` line, no traceback."""
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "failed unexpectedly" not in done.stderr, done.stderr
    lines = [ln for ln in done.stderr.splitlines() if ln.startswith("photosearch: error:")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def _clean(done: subprocess.CompletedProcess) -> subprocess.CompletedProcess:
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    return done


@pytest.fixture
def catalogued(tmp_path, gallery):
    """The real gallery catalogued (files only: no models), and its settings and store."""
    settings, store = make_env(tmp_path)
    store.add_folder(gallery)
    Indexer(store, settings, []).run()
    assert len(photos(store)) == 7
    return settings, store, gallery


# ---- 1. a setting can never make good photos vanish ----------------------------------------------


@pytest.mark.parametrize(
    "values,key",
    [
        ({"thumbnail_size": 0}, "thumbnail_size"),
        ({"analysis_max_side": -5}, "analysis_max_side"),
        ({"batch_size": 0}, "batch_size"),
        ({"max_image_pixels": 10**13}, "max_image_pixels"),
    ],
)
def test_an_absurd_setting_is_refused_and_the_photos_stay(catalogued, values, key):
    settings, store, gallery = catalogued
    (settings.data_dir / "settings.json").write_text(json.dumps(values), encoding="utf-8")
    os.utime(gallery / "cats" / "chelsea.jpg")  # touched: the next index would re-read it
    line = _one_line_error(run_cli(settings.data_dir, "index", "--no-analyze", "--no-progress", check=False))
    assert repr(key) in line and "between" in line
    assert len(photos(store)) == 7 and issues(store) == {}


def test_a_decode_failure_never_removes_a_photo_the_user_worked_on(catalogued, real_photos):
    settings, store, gallery = catalogued
    tagged, named = gallery / "kitchen" / "coffee.jpg", gallery / "trips" / "china.jpg"
    plain = gallery / "space" / "rocket.tif"
    tag(store, tagged, "breakfast")
    with store.session() as s:
        photo = s.scalar(select(Photo).where(Photo.path == to_db_path(str(named))))
        person = Person(name="Anna")
        s.add(person)
        s.flush()
        s.add(Face(photo_id=photo.id, analyzer="faces", box=[0, 0, 10, 10], person_id=person.id))
    for path in (tagged, named, plain):
        path.write_bytes(b"\xff\xd8\xff\xe0 not a photo any more" * 10)  # damaged in place
    report = Indexer(store, settings, []).run()
    assert report.failed == 3
    kept = photos(store)
    assert str(tagged) in kept and str(named) in kept  # marked unreadable by their issue, kept
    assert str(plain) not in kept  # nothing of the user's on it: it stops being a photo, as before
    assert {issues(store)[str(p)][0] for p in (tagged, named, plain)} <= STICKY_REASONS


def test_a_pixel_cap_refusal_is_retried_when_the_cap_rises(catalogued):
    settings, store, gallery = catalogued
    data = settings.data_dir
    (data / "settings.json").write_text(json.dumps({"max_image_pixels": 1_000_000}), encoding="utf-8")
    big = gallery / "big.png"
    save_photo(big, __import__("numpy").zeros((1200, 1000, 3), "uint8"))  # 1.2 MP
    _clean(run_cli(data, "index", "--no-analyze", "--no-progress"))
    assert issues(store)[str(big)][0] == "too_many_pixels"
    (data / "settings.json").write_text("{}", encoding="utf-8")
    _clean(run_cli(data, "index", "--no-analyze", "--no-progress"))
    assert str(big) in photos(store) and str(big) not in issues(store)


# ---- 2. only regular files are opened ---------------------------------------------------------------


def test_a_fifo_named_like_a_photo_or_a_plan_is_recorded_never_waited_on(catalogued, tmp_path):
    settings, store, gallery = catalogued
    fifo = gallery / "pipe.jpg"
    os.mkfifo(fifo)
    _clean(run_cli(settings.data_dir, "index", "--no-analyze", "--no-progress", timeout=120))
    assert issues(store)[str(fifo)][0] == "not_a_file"
    for args in (("similar", str(fifo)), ("ask", str(fifo), "what is it", "--dry-run")):
        _one_line_error(run_cli(settings.data_dir, *args, check=False, timeout=60))
    plan = tmp_path / "plan.json"
    os.mkfifo(plan)
    line = _one_line_error(run_cli(settings.data_dir, "search", "--plan", str(plan), check=False, timeout=60))
    assert "named pipe" in line
    # watch sees the FIFO too, finishes on time and leaves the lock free for `index`
    os.mkfifo(gallery / "cats" / "another.jpg")
    _clean(run_cli(settings.data_dir, "watch", "--no-analyze", "--duration", "3", timeout=120))
    _clean(run_cli(settings.data_dir, "index", "--no-analyze", "--no-progress", timeout=120))


# ---- 3. a cache that cannot be used changes nothing but speed, and is said once ---------------------


def _break_caches(cache: Path) -> None:
    """Every cache file and folder replaced by something that cannot be read or written, even by
    root (a folder where a file belongs and the other way round)."""
    for entry in list(cache.iterdir()):
        if entry.is_dir():
            for sub in entry.iterdir():
                sub.unlink()
            entry.rmdir()
            entry.write_bytes(b"")  # a file where the folder belongs
        else:
            entry.unlink()
            entry.mkdir()  # a folder where the file belongs


def test_an_unusable_cache_gives_the_same_results_and_one_warning(example_gallery, tmp_path):
    data = tmp_path / "data"
    _clean(run_cli(data, "add", str(example_gallery)))
    _clean(run_cli(data, "index", "--no-progress"))
    before = json.loads(_clean(run_cli(data, "--json", "search", "dog")).stdout)
    assert (data / "cache" / "text-embeddings.sqlite").is_file()
    _break_caches(data / "cache")
    done = _clean(run_cli(data, "--json", "search", "dog"))
    after = json.loads(done.stdout)
    key = [(r["path"], r["score"], r["below_cutoff"]) for r in before["results"]]
    assert [(r["path"], r["score"], r["below_cutoff"]) for r in after["results"]] == key
    warnings = [ln for ln in done.stderr.splitlines() if ln.startswith("photosearch: warning:")]
    assert len(warnings) == 1 and "cache folder" in warnings[0], done.stderr
    assert after["warnings"] and "results are the same" in after["warnings"][0]


# ---- 4. no input produces a traceback ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("search", "   "),
        ("--json", "search", "   "),
        ("similar", "99999999999999999999999"),
        ("people", "split", "99999999999999999999999"),
        ("people", "show", "99999999999999999999999"),
        ("ask", "99999999999999999999999", "what", "--dry-run"),
        ("enrich", "--photo", "99999999999999999999999", "--dry-run"),
    ],
)
def test_bad_requests_and_ids_are_one_line_errors(catalogued, args):
    settings, _, _ = catalogued
    _one_line_error(run_cli(settings.data_dir, *args, check=False))


@pytest.mark.parametrize(
    "args",
    [
        ("search", "dog in the last 5000 years"),
        ("search", "dog in the last 100000000000 years"),
        ("plan", "dog in the last 100000000000 years"),
        ("search", "--now", "0001-01-01", "dog last summer"),
        ("search", "--now", "9999-12-31", "dog next year"),
        ("plan", "--now", "9999-12-31", "photos from next week"),
    ],
)
def test_dates_at_the_ends_of_the_calendar_are_clean_results(catalogued, args):
    settings, _, _ = catalogued
    _clean(run_cli(settings.data_dir, *args))


def test_a_span_back_past_year_one_starts_at_year_one(catalogued):
    settings, _, _ = catalogued
    plan = json.loads(
        _clean(run_cli(settings.data_dir, "--json", "plan", "dog in the last 5000 years")).stdout
    )
    assert '"from": "0001-01-01"' in json.dumps(plan)


def test_a_file_name_that_is_not_utf8_works_in_similar_and_ask(catalogued, real_photos):
    settings, store, gallery = catalogued
    name = os.fsdecode(bytes(gallery / "cats") + b"/caf\xe9.jpg")
    save_photo(Path(name), real_photos["chelsea"])
    _clean(run_cli(settings.data_dir, "index", "--no-analyze", "--no-progress"))
    assert name in photos(store)
    for args in (("similar", name), ("ask", name, "what is it", "--dry-run")):
        done = run_cli(settings.data_dir, *args, check=False)
        assert "Traceback" not in done.stderr and "UnicodeEncodeError" not in done.stderr, done.stderr
        assert done.returncode in (0, 1)


def test_an_unusable_data_dir_is_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    line = _one_line_error(run_cli(blocker / "data", "index", "--no-progress", check=False))
    assert "data folder" in line  # a command that would create it says which folder and why
    assert "no catalog" in _one_line_error(run_cli(blocker / "data", "status", check=False))
    if os.geteuid() != 0:  # root reads a chmod 000 folder anyway
        locked = tmp_path / "locked"
        locked.mkdir(mode=0)
        assert "data folder" in _one_line_error(run_cli(locked, "status", check=False))


def test_example_gallery_without_its_extra_names_the_extra(tmp_path):
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from photosearch.cli import main\n"
        f"sys.exit(main(['--data-dir', {str(tmp_path / 'data')!r}, 'example-gallery', {str(tmp_path / 'g')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    line = _one_line_error(done)
    assert "examples extra" in line


# ---- 5. side effects --------------------------------------------------------------------------------


def test_remove_waits_for_the_writer_lock(catalogued):
    settings, store, gallery = catalogued
    lock = WriterLock(store.writer_lock_path(settings.data_dir))
    lock.acquire()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "photosearch",
            "--data-dir",
            str(settings.data_dir),
            "remove",
            "--yes",
            str(gallery),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(3)
        assert proc.poll() is None, "remove went ahead while another writer held the catalog"
        assert len(photos(store)) == 7
    finally:
        threading.Timer(0.1, lock.release).start()
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "waiting for" in err, err
    assert photos(store) == {}


def test_a_read_only_command_never_creates_a_catalog(tmp_path):
    target = tmp_path / "nonexistent" / "dir" / "x.db"
    for args in (("status",), ("search", "dog"), ("folders",), ("people", "list")):
        done = run_cli(tmp_path / "data", "--db-url", f"sqlite:///{target}", *args, check=False)
        assert "no catalog" in _one_line_error(done)
    assert not (tmp_path / "nonexistent").exists()
    assert not (tmp_path / "data").exists()


def test_status_on_a_full_disk_says_the_disk_is_full(tmp_path, gallery):
    data = tmp_path / "data"
    with tmpfs(data, "1m"):
        _clean(run_cli(data, "add", str(gallery)))
        fill_disk(data)
        for name in ("catalog.db-wal", "catalog.db-shm"):  # what SQLite must write to read
            (data / name).unlink(missing_ok=True)
        line = _one_line_error(run_cli(data, "status", check=False))  # SQLite must write its -shm
        assert "is full" in line and "free some space" in line, line


def test_report_plots_without_matplotlib_name_the_extra():
    code = (
        "import sys; sys.modules['matplotlib'] = None\n"
        "from photosearch.errors import PhotoSearchError\n"
        "from photosearch.evaluate import plots\n"
        "try:\n    plots.latency_histogram([1.0, 2.0], 1.0, 2.0)\n"
        "except PhotoSearchError as exc:\n    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "examples extra" in done.stdout, done.stderr


def test_a_reader_that_stops_early_is_no_error(tmp_path):
    """`photosearch … | head`: the closed pipe ends the command quietly (141, like any Unix tool)."""
    done = subprocess.run(
        [
            "bash",
            "-c",
            f"{sys.executable} -m photosearch --json golden list | head -c 10 >/dev/null; "
            "echo ${PIPESTATUS[0]} >&2",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PHOTOSEARCH_DATA_DIR": str(tmp_path / "data")},
    )
    assert "Traceback" not in done.stderr and "failed unexpectedly" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "141"
