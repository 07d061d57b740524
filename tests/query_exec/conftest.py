from __future__ import annotations

import pytest

from photosearch.catalog import Store
from photosearch.config import Settings

from .gallery import FakeEmbedder, build_gallery


@pytest.fixture
def settings(tmp_path):
    s = Settings(data_dir=tmp_path / "data")
    s.ensure_dirs()
    return s


@pytest.fixture
def store(settings):
    st = Store(settings.database_url)
    yield st
    st.close()


@pytest.fixture
def fake_embedder():
    return FakeEmbedder()


@pytest.fixture
def gallery(store, fake_embedder):
    return build_gallery(store, fake_embedder)
