"""PhotoSearch: private, offline-first photo search."""

import os as _os

# A private app never phones home: onnxruntime reads this before it is imported.
_os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
_os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")

# onnxruntime must load before usearch (the reverse order segfaults): photosearch/vectors/index.py
# imports it first, so `import photosearch` stays light for the CLI's start-up.

__version__ = "0.1.0"
