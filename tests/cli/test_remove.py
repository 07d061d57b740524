"""`photosearch remove` says what the catalog forgets (active photos, the user's tags, named faces)
and removes only when told: `--yes`, or `y` typed at a terminal; piped input is not a yes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Face, Fact, Person, Photo
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from tests.conftest import run_cli_json, save_photo

FORGETS = "7 photo(s), 1 tag(s) you added, 1 named face(s)"


def _library(tmp_path: Path, gallery: Path, real_photos) -> tuple[Path, Store]:
    """The gallery indexed (7 photos + 1 deleted row), one user tag and one named face."""
    settings = Settings(data_dir=tmp_path / "data")
    store = Store(settings.database_url)
    store.add_folder(gallery)
    gone = save_photo(gallery / "trips" / "gone.jpg", real_photos["flower"][::4, ::4])
    Indexer(store, settings, []).run()
    gone.unlink()
    assert Indexer(store, settings, []).run().deleted == 1
    with store.session() as s:
        ids = list(s.scalars(select(Photo.id).where(Photo.state == "active").order_by(Photo.id)))
        s.add(Fact(photo_id=ids[0], analyzer="user", kind="user_tag", label="favourite"))
        anna = Person(name="Anna")
        s.add(anna)
        s.flush()
        s.add(Face(photo_id=ids[1], analyzer="faces", box=[0, 0, 1, 1], score=1.0, person_id=anna.id))
    return settings.data_dir, store


def _cli(data: Path, *args: str, **kw) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PHOTOSEARCH_DB_URL", "PHOTOSEARCH_DATA_DIR")}
    return subprocess.run(
        [sys.executable, "-m", "photosearch", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        **kw,
    )


def test_remove_without_yes_at_no_terminal_says_what_is_lost_and_keeps_everything(
    tmp_path, gallery, real_photos
):
    data, store = _library(tmp_path, gallery, real_photos)
    folder = str(gallery.resolve())
    assert store.folder_removal_impact(folder) == {
        "photos": 7,
        "user_tags": 1,
        "named_faces": 1,
        "knowledge": 0,
    }
    done = _cli(data, "remove", str(gallery), input="y\n")  # piped: not a terminal, so not a yes
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"{folder}: forgets {FORGETS}" in done.stderr and "--yes" in done.stderr
    assert [f.path for f in store.folders()] == [folder] and len(store.active_photo_ids()) == 7

    unknown = _cli(data, "remove", "--yes", str(gallery), str(tmp_path / "elsewhere"))
    assert unknown.returncode == 1 and "not a registered folder" in unknown.stderr
    assert [f.path for f in store.folders()] == [folder]  # one bad name removes nothing

    removed = run_cli_json(data, "remove", "--yes", str(gallery))
    assert removed == {
        "removed": [folder],
        "forgotten": {folder: {"photos": 7, "user_tags": 1, "named_faces": 1, "knowledge": 0}},
    }
    assert store.folders() == [] and store.active_photo_ids() == []


def _at_a_terminal(data: Path, folder: Path, answer: str) -> tuple[int, str]:
    """Run `remove` with stdin a real pseudo-terminal and type `answer`."""
    master, slave = os.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("PHOTOSEARCH_DB_URL", "PHOTOSEARCH_DATA_DIR")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "photosearch", "--data-dir", str(data), "remove", str(folder)],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    os.close(slave)
    os.write(master, answer.encode() + b"\n")
    out, _ = proc.communicate(timeout=120)
    os.close(master)
    return proc.returncode, out


def test_remove_at_a_terminal_asks_and_obeys_the_answer(tmp_path, gallery, real_photos):
    data, store = _library(tmp_path, gallery, real_photos)
    folder = str(gallery.resolve())
    code, out = _at_a_terminal(data, gallery, "n")
    assert code == 1 and f"{folder}: forgets {FORGETS}" in out and "[y/N]" in out and "nothing removed" in out
    assert [f.path for f in store.folders()] == [folder] and len(store.active_photo_ids()) == 7
    code, out = _at_a_terminal(data, gallery, "y")
    assert code == 0 and f"removed {folder}: forgot {FORGETS}" in out, out
    assert store.folders() == [] and store.active_photo_ids() == []
