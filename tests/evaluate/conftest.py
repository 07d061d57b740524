"""Fixtures for the evaluation area: the example gallery (root conftest) indexed once."""

from __future__ import annotations

import pytest

from photosearch.catalog import Store
from photosearch.config import Settings


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
