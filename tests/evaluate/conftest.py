"""Fixtures for the evaluation area: the example gallery (written once) and an indexed catalog."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from photosearch.catalog import Store
from photosearch.config import Settings
from tests.required import require


@pytest.fixture(scope="session")
def example_gallery(tmp_path_factory) -> Path:
    from photosearch.evaluate.example import write_example_gallery

    root = tmp_path_factory.mktemp("example") / "gallery"
    write_example_gallery(root)
    return root


@pytest.fixture(scope="session")
def indexed_example(tmp_path_factory, example_gallery):
    """The example gallery indexed once with the bundled models: (store, settings, golden set)."""
    from photosearch.app import build_indexer
    from photosearch.evaluate.golden import load_golden

    settings = Settings(data_dir=tmp_path_factory.mktemp("example-data"))
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(example_gallery)
    report = build_indexer(store, settings).run()
    assert report.added == 21
    golden = load_golden(example_gallery / "golden.yaml")
    yield store, settings, golden
    store.close()


@pytest.fixture(scope="session")
def local_ray():
    """A local Ray (2 CPUs, no dashboard) shared by the Ray tests; skipped where Ray is missing."""
    ray = require("ray")
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    started = False
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024)
        started = True
    yield ray
    if started:
        ray.shutdown()
