"""The concept resolver's null model saved beside the catalog, so a new process need not compute it.

Each indexed photo's null mean and spread (its similarity to `calibration.REFERENCE_TEXTS`) and the
sampled `NullModel` of a space depend only on the vectors searched, the reference texts' vectors and
the calibration settings. `<cache_dir>/null/<space>.npz` (`photosearch.array_files`: numpy arrays and
JSON, nothing that can run code) holds them with the key they were made from: the identity of the
saved index file (its sidecar: ids checksum, size, CRC32), a checksum of the photo ids used (the
index's, less photos the snapshot no longer has), of the reference vectors (another text model
gives others) and the calibration settings. A catalog write that leaves the index alone (a rename,
a new tag) keeps it; anything else, or a damaged file, means it is computed again and saved.
An index without a file identity (exact search, or one changed in memory) is never saved.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import asdict
from pathlib import Path

import numpy as np

from photosearch import array_files
from photosearch.query.calibration import CalibrationConfig, NullModel
from photosearch.vectors.index import space_filename

log = logging.getLogger(__name__)

#: Bump when what is saved changes.
FORMAT = 1


def null_dir(settings) -> Path | None:
    """Where a data dir's null models live (None without settings: nothing is saved)."""
    directory = getattr(settings, "cache_dir", None)
    return None if directory is None else Path(directory) / "null"


def null_key(space: str, index, keys: np.ndarray, refs: np.ndarray, cfg: CalibrationConfig) -> dict | None:
    """What a null model of `space` over `keys` of `index` is made from; None when the index has no
    saved file that names its vectors."""
    side = getattr(index, "sidecar", None)
    if side is None:
        return None
    return {
        "format": FORMAT,
        "space": space,
        "index": [side.ids_sha1, side.file_size, side.file_crc32, side.count, side.dim, side.dtype],
        "keys": hashlib.sha1(np.ascontiguousarray(keys, np.int64).tobytes()).hexdigest(),
        "refs": hashlib.sha1(np.ascontiguousarray(refs, np.float32).tobytes()).hexdigest(),
        "calibration": asdict(cfg),
    }


def _path(directory: Path, space: str) -> Path:
    return Path(directory) / (space_filename(space) + ".npz")


def write_null(
    directory: Path, key: dict, null: NullModel, keys: np.ndarray, mu: np.ndarray, sd: np.ndarray
) -> bool:
    """Save a space's null model and the per-key null mean/spread (in `keys` order)."""
    arrays = {
        "keys": np.ascontiguousarray(keys, np.int64),
        "mu": np.ascontiguousarray(mu, np.float32),
        "sd": np.ascontiguousarray(sd, np.float32),
        "refs": np.ascontiguousarray(null.refs, np.float32),
        "sample": np.ascontiguousarray(null.sample, np.float32),
        "sample_mu": np.ascontiguousarray(null.sample_mu, np.float32),
        "sample_sd": np.ascontiguousarray(null.sample_sd, np.float32),
    }
    return array_files.save(_path(directory, key["space"]), arrays, key | {"z0": float(null.z0)})


def read_null(
    directory: Path, key: dict, keys: np.ndarray
) -> tuple[NullModel, np.ndarray, np.ndarray] | None:
    """(null model, mean, spread per key in `keys` order) saved under `key`, or None."""
    path = _path(directory, key["space"])
    got = array_files.load(path, key)
    if got is None:
        return None
    meta, a = got
    try:
        z0 = float(meta["z0"])
        names = ("keys", "mu", "sd", "refs", "sample", "sample_mu", "sample_sd")
        if any(name not in a for name in names) or not np.array_equal(a["keys"], keys):
            raise ValueError("its keys are not this index's")
        if a["mu"].shape != keys.shape or a["sd"].shape != keys.shape:
            raise ValueError("mean or spread differ from the keys in length")
        refs, sample = a["refs"], a["sample"]
        if refs.ndim != 2 or sample.ndim != 2 or (sample.size and sample.shape[1] != refs.shape[1]):
            raise ValueError("reference or sample vectors are not matrices of one width")
        if a["sample_mu"].shape != (sample.shape[0],) or a["sample_sd"].shape != (sample.shape[0],):
            raise ValueError("the sample's mean or spread differ from it in length")
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("ignoring %s: %s", path, exc)
        return None
    null = NullModel(refs, sample, a["sample_mu"], a["sample_sd"], z0)
    return null, a["mu"], a["sd"]
