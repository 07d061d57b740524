"""Hub tier: pulling models on request (sha256-checked, resumable), verifying and removing them.

Only download and install live here. What a hub model is (its manifest) and whether a pull completed
(`is_installed`, `installed_models`) are in `photosearch.models.manifest`; running it is the model layer's
job (`photosearch.models`, `photosearch.vision`). This package imports neither vision nor the runtimes.
"""

from photosearch.hub.download import DownloadError, RemoteNotFound
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

__all__ = [
    "DownloadError",
    "PullReport",
    "RemoteNotFound",
    "VerifyError",
    "install_record",
    "installed_models",
    "is_installed",
    "model_dir",
    "pull_model",
    "remove_model",
    "verify_model",
]
