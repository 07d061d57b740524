"""The soak: 10 kill -9 during indexing, with moves, renames, edits and new photos between them,
then one clean run. The catalog must be consistent and nothing the user added may be lost.

Run `pytest -s tests/reliability/test_soak.py` to see the figures."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select

from photosearch.catalog.models import Analysis, Fact, FileIssue, Photo
from tests.conftest import save_photo
from tests.reliability.helpers import make_env, photos

ROOT = Path(__file__).resolve().parents[2]
KILLS = 10
FOLDERS = ("A", "B", "C")


def _blake(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=32).hexdigest()


def _files(root: Path) -> dict[str, str]:
    return {str(p): _blake(p) for p in root.rglob("*.jpg")}


def _count(store, model, *where) -> int:
    with store.session() as s:
        return s.scalar(select(func.count()).select_from(model).where(*where)) or 0


class Gallery:
    """Photos in three registered folders, changed between runs the way people change them."""

    def __init__(self, root: Path, rng: random.Random):
        self.root, self.rng, self.n = root, rng, 0
        self.pixels = np.random.default_rng(7)
        self.moves = self.renames = self.edits = self.added = 0

    def new_photo(self) -> None:
        folder = self.root / self.rng.choice(FOLDERS)
        rgb = self.pixels.integers(0, 255, (48, 64, 3), dtype=np.uint8)
        save_photo(folder / f"img{self.n:04d}.jpg", rgb)
        self.n += 1
        self.added += 1

    def shuffle(self) -> None:
        files = sorted(self.root.rglob("*.jpg"))
        for src in self.rng.sample(files, 4):  # across registered folders
            dest = self.root / self.rng.choice(FOLDERS) / f"moved{self.n}_{src.name}"
            self.n += 1
            shutil.move(src, dest)
            self.moves += 1
        src = self.rng.choice(sorted(self.root.rglob("*.jpg")))  # a rename in place
        src.rename(src.with_name(f"renamed{self.n}.jpg"))
        self.n += 1
        self.renames += 1
        for _ in range(2):
            self.new_photo()


def _tag_some(store, rng: random.Random, tags: dict[str, str]) -> None:
    """The user tags a few catalogued photos (remembered by content, which is what must survive)."""
    with store.session() as s:
        active = list(s.scalars(select(Photo).where(Photo.state == "active")))
        for photo in rng.sample(active, min(3, len(active))):
            if photo.content_hash in tags or not os.path.exists(photo.path):
                continue
            label = f"tag{len(tags)}"
            s.add(Fact(photo_id=photo.id, analyzer="user", kind="user_tag", label=label))
            tags[photo.content_hash] = label


@pytest.mark.slow
def test_soak_kill9_during_indexing_then_a_clean_run(tmp_path):
    rng = random.Random(13)
    root = tmp_path / "library"
    gallery = Gallery(root, rng)
    for _ in range(60):
        gallery.new_photo()
    settings, store = make_env(tmp_path)
    for name in FOLDERS:
        store.add_folder(root / name)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    worker = [sys.executable, "-m", "tests.reliability.soak_worker", str(settings.data_dir)]
    tags: dict[str, str] = {}
    faults = finished_early = 0
    started = time.monotonic()
    for round_no in range(KILLS):
        before = _count(store, Analysis) + _count(store, Photo)
        proc = subprocess.Popen(
            worker + ["0.03"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert proc.stdout.readline().strip() == "started", proc.stderr.read()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:  # wait until it has committed work
            if _count(store, Analysis) + _count(store, Photo) > before:
                break
            time.sleep(0.02)
        time.sleep(rng.uniform(0.0, 0.4))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)
            assert proc.returncode == -signal.SIGKILL
            faults += 1
        else:
            finished_early += 1
            assert proc.returncode == 0, proc.stderr.read()
        _tag_some(store, rng, tags)
        gallery.shuffle()
        print(
            f"round {round_no + 1}: killed={proc.returncode == -signal.SIGKILL} "
            f"photos={_count(store, Photo, Photo.state == 'active')} tags={len(tags)}"
        )

    facts_before = _count(store, Fact)
    user_before = _count(store, Fact, Fact.analyzer == "user")
    done = subprocess.run(worker + ["0"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    elapsed = time.monotonic() - started

    on_disk = _files(root)
    active = photos(store)
    # consistent: one active photo per file, at its path, with the file's content, fully analysed
    assert set(active) == set(on_disk)
    assert all(active[p].content_hash == h for p, h in on_disk.items())
    with store.session() as s:
        assert s.scalar(select(func.count(func.distinct(Photo.path))).where(Photo.state == "active")) == len(
            on_disk
        )
        analysed = set(s.scalars(select(Analysis.photo_id).where(Analysis.status == "ok")))
        model_facts = dict(
            s.execute(
                select(Fact.photo_id, func.count())
                .where(Fact.analyzer == "meancolour")
                .group_by(Fact.photo_id)
            ).all()
        )
        user = {
            (h, label)
            for h, label in s.execute(
                select(Photo.content_hash, Fact.label)
                .join(Fact, Fact.photo_id == Photo.id)
                .where(Fact.analyzer == "user", Photo.state == "active")
            )
        }
    ids = {p.id for p in active.values()}
    assert ids <= analysed and all(model_facts.get(i) == 1 for i in ids)
    assert _count(store, FileIssue) == 0
    # nothing lost: every tag is on the photo that has its content, wherever that photo went
    assert {(h, label) for h, label in tags.items() if h in set(on_disk.values())} <= user
    con = sqlite3.connect(settings.data_dir / "catalog.db")
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    facts_after = _count(store, Fact)
    print(
        f"\nSOAK: faults injected (kill -9 mid-index) {faults} of {KILLS} runs ({finished_early} finished first); "
        f"changes between runs: {gallery.moves} moves across folders, {gallery.renames} renames, "
        f"{gallery.added} photos added; files on disk {len(on_disk)}, active photos {len(active)}; "
        f"facts before the clean run {facts_before} (user tags {user_before}), after {facts_after} "
        f"(user tags {_count(store, Fact, Fact.analyzer == 'user')}, {len(tags)} applied, all found); "
        f"integrity_check ok; {elapsed:.0f}s"
    )
    assert faults >= KILLS - 1, "the kills must land mid-run"
