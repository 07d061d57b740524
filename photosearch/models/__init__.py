"""The model layer: manifests, the `Model` base, sessions per runtime, the local LLM.

    manifest.py   one manifest type and loader for both tiers (bundled in `models/`, hub in `models/hub/`),
                  and what a pull left on disk (`is_installed`, `installed_models`)
    base.py       `Model`: lazy, locked load; `predict`; `close` (every model subclasses it)
    runtimes/     sessions per runtime: onnx.py (ONNX Runtime), litert.py (LiteRT), opencv_dnn.py
                  (OpenCV DNN), llama.py (llama.cpp); `provider_for` (what `models list` shows)
    llm.py        `LocalLLM`, its resolver (hub name | GGUF path | bundled) and the shared instance

The models themselves live with what uses them (`photosearch.vision`: tagger, detector, OCR, faces, MiniLM,
CLIP, OWLv2, the VLM); `photosearch.hub` only downloads. This package imports neither.
"""

from photosearch.models.base import Model, TextEmbedder
from photosearch.models.manifest import (
    ManifestError,
    ModelFile,
    ModelManifest,
    ModelUnavailable,
    get_manifest,
    hub_manifests,
    load_manifests,
)

__all__ = [
    "ManifestError",
    "Model",
    "ModelFile",
    "ModelManifest",
    "ModelUnavailable",
    "TextEmbedder",
    "get_manifest",
    "hub_manifests",
    "load_manifests",
]
