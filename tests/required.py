"""Parts every test machine has (README's first command installs them): a missing one is a failed
install step, so the test fails with the fix instead of being skipped."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

INSTALL = "run README's first command (installer/install.sh)"


def require(module: str) -> ModuleType:
    """Import `module`, or fail the test saying it is missing and how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        pytest.fail(f"{module} is not installed ({exc}); {INSTALL}", pytrace=False)


def require_file(path: str | Path, package: str) -> Path:
    """`path` (a file a system package installs), or fail the test naming the package and the fix."""
    path = Path(path)
    if not path.exists():
        pytest.fail(f"{path} is missing: {package} is not installed; {INSTALL}", pytrace=False)
    return path
