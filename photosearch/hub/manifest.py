"""Hub model manifests: what a pullable model is and where its files come from.

Hub manifests use the same JSON format as the bundled ones (`photosearch/vision/manifest.py`), with
``"tier": "hub"``; they live in ``models/hub/NAME.json`` (shipped) or ``MODELS_DIR/manifests/`` /
``$PHOTOSEARCH_MODEL_MANIFESTS`` (user-added). Fields:

``name``, ``role`` (``clip`` | ``vlm`` | ``detector`` | ``llm``), ``tier`` (``"hub"``), ``runtime``
(``onnx`` | ``gguf``), ``family`` (``openclip``/``mclip``/``siglip``… for CLIP; ``qwen2.5-vl``,
``smolvlm``, ``moondream``, ``llava-1.5``, ``llava-1.6`` for VLMs; ``owlv2`` for the detector;
``qwen2.5``… for LLMs), ``licence``, ``description``, ``preprocess`` (per role; falls back to the
config files shipped with the model), ``options`` (loader settings: ``n_ctx``, ``gpu_layers``,
``max_image_side``…), ``files``: ``[{key, path, sha256, size, url?, remote?}]``.

``source``: ``{"repo": "owner/name", "revision": "main"}`` (``"type": "hf"``, the default) — fetched
  with ``huggingface_hub.hf_hub_download`` from ``$HF_ENDPOINT`` (default https://huggingface.co), or
  ``{"type": "url", "base_url": "https://…/"}`` — each file from ``file.url`` or ``base_url + path``.
``files[].path``: where the file lands under ``MODELS_DIR/NAME``; ``files[].remote``: its path in the
  repo when different; ``files[].url``: a plain URL for that one file (overrides the repo).
``files[].sha256``: the expected digest, or ``null`` = trust on first use: the digest is recorded at the
  first pull in ``MODELS_DIR/NAME/.install.json`` and every later verify/pull checks against it.
``files[].size``: expected bytes, or ``null``. ``files[].optional``: true when the file may be absent
  upstream (an ONNX external-data file); a 404 then skips it.
``folders``: repo folders pulled whole (hf sources): every file the hub lists under them, checked
  against the sizes and LFS sha256s of the listing (e.g. ``["textual"]`` for a text tower stored as
  many per-tensor external-data files).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$")
SHA_RE = re.compile(r"^[0-9a-f]{64}$")
ROLES = {"clip", "vlm", "detector", "llm"}
RESERVED = {"manifests"}  # MODELS_DIR/manifests holds user manifests


class ManifestError(PhotoSearchError):
    """A manifest is missing or malformed."""


@dataclass
class HubFile:
    path: str
    key: str = ""
    sha256: str | None = None
    size: int | None = None
    url: str | None = None
    remote: str | None = None
    optional: bool = False  # e.g. an ONNX external-data file some exports have: absent upstream is fine

    @property
    def remote_path(self) -> str:
        return self.remote or self.path


@dataclass
class HubManifest:
    name: str
    role: str
    source: dict[str, Any]
    files: list[HubFile]
    tier: str = "hub"
    family: str = ""
    runtime: str = "onnx"
    licence: str = ""
    description: str = ""
    preprocess: dict[str, Any] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    origin: Path | None = None
    # repo folders pulled whole: every file the hub lists under them (e.g. an ONNX text tower stored as
    # many per-tensor external-data files), on top of `files`
    folders: list[str] = field(default_factory=list)

    @property
    def format(self) -> str:
        return self.runtime

    def file_by_key(self, key: str) -> HubFile | None:
        return next((f for f in self.files if f.key == key), None)

    @property
    def source_type(self) -> str:
        return str(self.source.get("type", "hf"))

    def file(self, path: str) -> HubFile | None:
        return next((f for f in self.files if f.path == path), None)

    def first_with_suffix(self, suffix: str, contains: str = "") -> HubFile | None:
        return next((f for f in self.files if f.path.endswith(suffix) and contains in f.path), None)

    @classmethod
    def from_dict(cls, data: dict[str, Any], origin: Path | None = None) -> HubManifest:
        where = str(origin) if origin else "manifest"
        try:
            name = str(data["name"])
            role = str(data["role"])
            raw_files = data["files"]
        except KeyError as exc:
            raise ManifestError(f"{where}: missing field {exc.args[0]!r}") from None
        if not NAME_RE.match(name) or name in RESERVED:
            raise ManifestError(f"{where}: bad model name {name!r} (letters, digits, . _ + - only)")
        if role not in ROLES:
            raise ManifestError(f"{where}: role {role!r} is not one of {sorted(ROLES)}")
        source = data.get("source") or {}
        if isinstance(source, str):  # shorthand "hf:owner/repo@rev" or a base URL
            source = _parse_source_string(source)
        stype = source.get("type", "hf")
        if stype == "hf" and not source.get("repo"):
            raise ManifestError(f"{where}: an hf source needs 'repo'")
        if stype not in {"hf", "url"}:
            raise ManifestError(f"{where}: source type {stype!r} is not 'hf' or 'url'")
        files: list[HubFile] = []
        for raw in raw_files or []:
            path = str(raw.get("path", ""))
            if not path or path.startswith(("/", "\\")) or ".." in Path(path).parts:
                raise ManifestError(f"{where}: bad file path {path!r}")
            sha = raw.get("sha256")
            if sha is not None:
                sha = str(sha).lower()
                if not SHA_RE.match(sha):
                    raise ManifestError(f"{where}: {path}: sha256 must be 64 hex digits or null")
            size = raw.get("size")
            if stype == "url" and not raw.get("url") and not source.get("base_url"):
                raise ManifestError(f"{where}: {path}: a url source needs base_url or a per-file url")
            files.append(
                HubFile(path=path, key=str(raw.get("key") or Path(path).stem), sha256=sha,
                        size=int(size) if size is not None else None, url=raw.get("url"), remote=raw.get("remote"),
                        optional=bool(raw.get("optional", False)))
            )
        if not files:
            raise ManifestError(f"{where}: no files")
        folders = [str(f).strip("/") for f in data.get("folders") or []]
        for folder in folders:
            if not folder or folder.startswith("\\") or ".." in Path(folder).parts:
                raise ManifestError(f"{where}: bad folder {folder!r}")
        if folders and stype != "hf":
            raise ManifestError(f"{where}: 'folders' needs an hf source (a URL source cannot list a folder)")
        return cls(
            name=name,
            role=role,
            source=dict(source),
            files=files,
            tier=str(data.get("tier", "hub")),
            family=str(data.get("family", "")),
            runtime=str(data.get("runtime") or ("gguf" if any(f.path.endswith(".gguf") for f in files) else "onnx")),
            licence=str(data.get("licence", data.get("license", ""))),
            description=str(data.get("description", "")),
            preprocess=dict(data.get("preprocess") or data.get("preprocessing") or {}),
            options=dict(data.get("options") or {}),
            origin=origin,
            folders=folders,
        )

    @classmethod
    def load(cls, path: Path | str) -> HubManifest:
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ManifestError(f"cannot read manifest {p}: {exc}") from exc
        except ValueError as exc:
            raise ManifestError(f"manifest {p} is not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise ManifestError(f"manifest {p} must be a JSON object")
        return cls.from_dict(data, origin=p)


def _parse_source_string(text: str) -> dict[str, Any]:
    from photosearch.vision.manifest import parse_source

    return parse_source(text)


def builtin_manifest_dir() -> Path:
    """``models/hub`` in the source tree (shipped next to the package)."""
    return Path(__file__).resolve().parents[2] / "models" / "hub"


def manifest_dirs(settings: Settings) -> list[Path]:
    """Where hub manifests are looked up; later dirs override earlier ones by name: ``models/hub``, then
    the shared manifest dirs (``models/``, ``MODELS_DIR/manifests``, ``$PHOTOSEARCH_MODEL_MANIFESTS``)."""
    dirs = [builtin_manifest_dir()]
    try:
        from photosearch.vision.manifest import manifest_dirs as shared_dirs

        dirs += [d for d in shared_dirs(settings) if d not in dirs]
    except ImportError:  # pragma: no cover - shared loader not present
        dirs += [settings.models_dir / "manifests"]
    return dirs


def hub_manifests(settings: Settings) -> dict[str, HubManifest]:
    """All hub-tier manifests by name (bundled ones are skipped). A malformed hub manifest raises
    `ManifestError` naming the file."""
    found: dict[str, HubManifest] = {}
    for d in manifest_dirs(settings):
        if not d.is_dir():
            continue
        for p in sorted(d.glob("*.json")):
            try:
                tier = json.loads(p.read_text(encoding="utf-8")).get("tier", "hub")
            except (OSError, ValueError, AttributeError):
                tier = "hub"  # let load() report the problem
            if tier != "hub":
                continue
            m = HubManifest.load(p)
            found[m.name] = m
    return found


def get_manifest(settings: Settings, name: str | HubManifest) -> HubManifest:
    if isinstance(name, HubManifest):
        return name
    manifests = hub_manifests(settings)
    if name not in manifests:
        known = ", ".join(sorted(manifests)) or "none"
        raise ManifestError(f"no hub model called {name!r} (known: {known})")
    return manifests[name]
