"""Crash safety for real: SIGKILL a running index, run again, nothing duplicated or lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select

from photosearch.catalog import Store
from photosearch.catalog.models import Analysis, Fact, Photo
from photosearch.config import Settings
from tests.conftest import save_photo

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sigkill_mid_index_then_rerun_completes(tmp_path, real_photos):
    gallery = tmp_path / "g"
    rng = np.random.default_rng(0)
    base = real_photos["coffee"]
    for i in range(40):
        noise = rng.integers(0, 20, base.shape, dtype=np.uint8)
        save_photo(gallery / f"d{i % 4}" / f"p{i:03d}.jpg", base // 2 + noise)
    data = tmp_path / "data"
    settings = Settings(data_dir=data)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tests.ingest.crash_worker", str(data), "0.08"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    committed = 0
    while time.monotonic() < deadline:
        with store.session() as s:
            committed = s.scalar(select(func.count()).select_from(Photo))
        if committed >= 8:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    with store.session() as s:
        partial = s.scalar(select(func.count()).select_from(Photo))
    assert 8 <= partial < 40, "the kill must land mid-run"

    done = subprocess.run(cmd[:-1] + ["0"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Photo)) == 40
        assert s.scalar(select(func.count(func.distinct(Photo.path)))) == 40
        assert s.scalar(select(func.count()).select_from(Analysis)) == 40
        assert s.scalar(select(func.count()).select_from(Fact)) == 40  # one tag each, none doubled
        per_photo = s.execute(select(Fact.photo_id, func.count()).group_by(Fact.photo_id)).all()
    assert all(n == 1 for _, n in per_photo)
