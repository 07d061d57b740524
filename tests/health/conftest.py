"""The hub tests' fixtures (a fake hub on loopback, a fresh data dir) for the doctor's pulled-model checks."""

from tests.hub.conftest import fake_hub, settings  # noqa: F401 - fixtures, found by name

__all__ = ["fake_hub", "settings"]
