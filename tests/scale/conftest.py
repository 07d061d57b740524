"""Fixtures for the Ray engine tests."""

from __future__ import annotations

import os

import pytest

from tests.required import require


@pytest.fixture(scope="session")
def local_ray():
    """A local Ray (2 CPUs, no dashboard) shared by the Ray tests; skipped where Ray is missing."""
    ray = require("ray")
    os.environ.setdefault("RAY_DISABLE_USAGE_STATS", "1")
    started = False
    if not ray.is_initialized():
        ray.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, object_store_memory=100 * 1024 * 1024
        )
        started = True
    yield ray
    if started:
        ray.shutdown()
