"""PhotoSearch: private, offline-first photo search."""

import os as _os

# A private app never phones home: onnxruntime reads this before it is imported.
_os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
_os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

# Importing onnxruntime after usearch.index segfaults the process (their bundled runtimes clash;
# the reverse order is fine). Every entry point imports this package first, so load it here.
import onnxruntime as _onnxruntime  # noqa: E402, F401 - a core dependency (pyproject.toml)

__version__ = "0.1.0"
