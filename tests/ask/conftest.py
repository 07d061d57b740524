from __future__ import annotations

import pytest


@pytest.fixture
def evidence(tmp_path, real_photos):
    """(core, {stem: photo id}) of tests/ask/evidence_catalog.py."""
    from photosearch.config import Settings
    from photosearch.core import Core
    from tests.ask.evidence_catalog import build

    core = Core(Settings(data_dir=tmp_path / "data"))
    ids = build(core, tmp_path / "Pictures", real_photos)
    yield core, ids
    core.store.close()
