"""A catalog with no dated photo (a new library, scans, screenshots) plans with its context."""

from __future__ import annotations

from photosearch.query.planner import planning_context
from photosearch.query.resolvers.snapshot import get_snapshot


def test_year_range_of_a_catalog_without_dates_is_none(store, settings):
    assert get_snapshot(store).year_range() is None
    context = planning_context(store, settings)  # raised "argmin of an empty sequence" before
    assert context is not None
