"""Fixtures for the planning tests: a fixed 'now', a planning context, the golden library."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.golden import GoldenLibrary, load_bundled
from photosearch.query.parser import PlanContext

NOW = date(2024, 5, 15)


@pytest.fixture
def ctx() -> PlanContext:
    return PlanContext(people=["Anna", "Tom", "Lisa", "Mark Smith", "me"], owner="me",
                       birthdays={"me": date(1990, 6, 3)}, years=(2015, 2024))


@pytest.fixture(scope="session")
def golden_examples():
    return load_bundled()


@pytest.fixture(scope="session")
def ngram_library(golden_examples) -> GoldenLibrary:
    return GoldenLibrary(golden_examples, use_embedder=False)
