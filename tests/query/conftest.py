"""Fixtures for the query tests: planning (a fixed 'now', a planning context, the golden library)
and execution (a catalog with a small synthetic gallery and a hash embedder)."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog import Store
from photosearch.config import Settings
from photosearch.query.golden import GoldenLibrary, load_bundled
from photosearch.query.parser import PlanContext

from .gallery import FakeEmbedder, build_gallery

NOW = date(2024, 5, 15)


@pytest.fixture
def ctx() -> PlanContext:
    return PlanContext(
        people=["Anna", "Tom", "Lisa", "Mark Smith", "me"],
        owner="me",
        birthdays={"me": date(1990, 6, 3)},
        years=(2015, 2024),
    )


@pytest.fixture(scope="session")
def golden_examples():
    return load_bundled()


@pytest.fixture(scope="session")
def ngram_library(golden_examples) -> GoldenLibrary:
    return GoldenLibrary(golden_examples, use_embedder=False)


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
