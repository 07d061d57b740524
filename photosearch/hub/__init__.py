"""Hub tier: models pulled on request (sha256-checked, resumable) and the runtime choices they need."""

from photosearch.hub.download import DownloadError, sha256_file
from photosearch.hub.manifest import HubFile, HubManifest, ManifestError, get_manifest, hub_manifests
from photosearch.hub.pull import (
    PullReport,
    VerifyError,
    install_record,
    installed_models,
    is_installed,
    model_dir,
    pull_model,
    remove_model,
    verify_model,
)
from photosearch.hub.runtime import (
    llama_gpu_layers,
    llama_gpu_offload,
    onnx_providers,
    onnx_session_for,
    provider_for,
)

__all__ = [
    "DownloadError",
    "HubFile",
    "HubManifest",
    "ManifestError",
    "PullReport",
    "VerifyError",
    "get_manifest",
    "hub_manifests",
    "install_record",
    "installed_models",
    "is_installed",
    "llama_gpu_layers",
    "model_dir",
    "onnx_providers",
    "onnx_session_for",
    "llama_gpu_offload",
    "provider_for",
    "pull_model",
    "remove_model",
    "sha256_file",
    "verify_model",
]
