"""Pull, verify and remove hub models under ``settings.models_dir / NAME``.

Layout while pulling: ``models_dir/.partial/NAME/`` holds ``*.part`` files (plain URLs) and
huggingface-hub's ``.cache`` (``*.incomplete``) plus the files verified so far. Only when every file
is verified is ``.install.json`` written and the folder renamed to ``models_dir/NAME`` — so the final
name never holds a half or unverified file. A failed pull keeps the partial folder for resume.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.hub.download import (
    DownloadError,
    RemoteNotFound,
    hf_download,
    hf_endpoint,
    hf_list_folder,
    http_download,
)
from photosearch.models.manifest import (
    INSTALL_RECORD,
    ModelFile,
    ModelManifest,
    get_manifest,
    install_record,
    installed_models,
    is_installed,
    model_dir,
    sha256_file,
)

PARTIAL_DIR = ".partial"

# progress(done_bytes, total_bytes_or_None, message)
Progress = Callable[[int, "int | None", str], None]


class VerifyError(PhotoSearchError):
    """A downloaded or installed file does not match its recorded sha256/size."""


@dataclass
class PullReport:
    name: str
    path: Path
    files: list[dict[str, Any]] = field(default_factory=list)
    downloaded_bytes: int = 0
    already_present: bool = False
    not_verified: list[tuple[str, str]] = field(default_factory=list)  # (path, why no checksum is pinned)


_locks: dict[str, threading.Lock] = {}
_locks_guard = threading.Lock()


def _lock_for(key: str) -> threading.Lock:
    with _locks_guard:
        return _locks.setdefault(key, threading.Lock())


def partial_dir(settings: Settings, name: str) -> Path:
    return settings.models_dir / PARTIAL_DIR / name


def _hub_manifest(settings: Settings, name: str | ModelManifest) -> ModelManifest:
    return get_manifest(name, settings, tier="hub")


def expected_sha(manifest: ModelManifest, f: ModelFile, record: dict[str, Any] | None) -> str | None:
    """The manifest's sha256 (pinned from the hub's listing), else the one recorded at the first pull of a
    file that has none (`ModelFile.unverified` says why): checked from then on."""
    if f.sha256:
        return f.sha256
    if record:
        for rf in record.get("files", []):
            if rf.get("path") == f.path and rf.get("sha256"):
                return str(rf["sha256"])
    return None


def files_to_pull(manifest: ModelManifest) -> list[ModelFile]:
    """The manifest's files plus every file the hub lists under its `folders` (sizes and LFS sha256s
    from the listing; a file both listed and named keeps the manifest's entry)."""
    files = list(manifest.files)
    named = {f.path for f in files}
    for folder in manifest.folders:
        listed = hf_list_folder(
            str(manifest.source["repo"]),
            folder,
            revision=str(manifest.source.get("revision") or "main"),
            endpoint=hf_endpoint(manifest.source),
        )
        if not listed:
            raise DownloadError(f"{manifest.name}: the hub lists no files under {folder}/")
        for path, size, sha in sorted(listed):
            if path not in named:
                files.append(ModelFile(path=path, key=Path(path).name, sha256=sha, size=size))
                named.add(path)
    return files


def _folder_files(manifest: ModelManifest, record: dict[str, Any]) -> list[ModelFile]:
    """Files an install pulled from the manifest's folders, as its record lists them."""
    named = {f.path for f in manifest.files}
    prefixes = tuple(folder.rstrip("/") + "/" for folder in manifest.folders)
    return [
        ModelFile(path=rf["path"], key=Path(rf["path"]).name, size=rf.get("size"))
        for rf in record.get("files", [])
        if rf.get("path") not in named and str(rf.get("path")).startswith(prefixes)
    ]


def verify_model(settings: Settings, name: str | ModelManifest, *, deep: bool = True) -> list[str]:
    """Problems with an installed model (empty list = fine). ``deep`` re-hashes every file."""
    manifest = _hub_manifest(settings, name)
    record = install_record(settings, manifest.name)
    if record is None:
        return [f"{manifest.name} is not installed (run `photosearch models pull {manifest.name}`)"]
    problems = []
    root = model_dir(settings, manifest.name)
    recorded = {rf.get("path") for rf in record.get("files", [])}
    for f in [*manifest.files, *_folder_files(manifest, record)]:
        p = root / f.path
        if f.optional and f.path not in recorded:
            continue
        if not p.is_file():
            problems.append(f"{f.path}: missing")
            continue
        want_size = (
            f.size
            if f.size is not None
            else next((rf.get("size") for rf in record.get("files", []) if rf.get("path") == f.path), None)
        )
        if want_size is not None and p.stat().st_size != want_size:
            problems.append(f"{f.path}: size {p.stat().st_size} != {want_size}")
            continue
        if deep:
            want = expected_sha(manifest, f, record)
            got = sha256_file(p)
            if want and got != want:
                problems.append(f"{f.path}: sha256 {got} != {want}")
    return problems


def pull_model(
    settings: Settings,
    name: str | ModelManifest,
    progress: Progress | None = None,
    cancel: Callable[[], bool] | None = None,
    *,
    force: bool = False,
) -> PullReport:
    """Download every file of a hub model, verify sha256 (and size), then install atomically.

    Already installed and verified → nothing is fetched (``force`` re-downloads). Raises
    `DownloadError` (unreachable hub, HTTP error), `VerifyError` (digest mismatch: the bad file is
    deleted), `Cancelled`; none of them leaves a file under the final ``models_dir/NAME``.
    """
    manifest = _hub_manifest(settings, name)
    settings.models_dir.mkdir(parents=True, exist_ok=True)
    final = model_dir(settings, manifest.name)
    with _lock_for(str(final)):
        record = install_record(settings, manifest.name)
        if record is not None and not force and not verify_model(settings, manifest, deep=False):
            return PullReport(manifest.name, final, files=record.get("files", []), already_present=True)
        staging = partial_dir(settings, manifest.name)
        staging.mkdir(parents=True, exist_ok=True)
        wanted = files_to_pull(manifest)
        total = sum(f.size for f in wanted) if all(f.size is not None for f in wanted) else None
        state = {"done": 0}

        def on_bytes(n: int, label: str) -> None:
            state["done"] += n
            if progress:
                progress(state["done"], total, label)

        report = PullReport(manifest.name, final)
        files_out: list[dict[str, Any]] = []
        for f in wanted:
            dest = staging / f.path
            want = expected_sha(manifest, f, record)
            if force and dest.exists():
                dest.unlink()
            if dest.is_file() and want and sha256_file(dest) == want:
                got_sha = want  # verified in an earlier, interrupted pull
                on_bytes(dest.stat().st_size, f.path)
            else:
                before = state["done"]
                dest.unlink(missing_ok=True)
                try:
                    _fetch(manifest, f, staging, dest, lambda n, p=f.path: on_bytes(n, p), cancel)
                except RemoteNotFound:
                    if not f.optional:
                        raise
                    continue
                report.downloaded_bytes += state["done"] - before
                got_sha = _verify_download(manifest, f, dest, want)
                if want is None:
                    reason = f.unverified or "no checksum is published for this file"
                    report.not_verified.append((f.path, reason))
            files_out.append({"path": f.path, "sha256": got_sha, "size": dest.stat().st_size})
        _install(settings, manifest, staging, final, files_out)
        report.files = files_out
        if progress:
            progress(state["done"], total, "installed")
        return report


def _fetch(manifest: ModelManifest, f: ModelFile, staging: Path, dest: Path, on_bytes, cancel) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    if f.url or manifest.source_type == "url":
        url = f.url or (str(manifest.source["base_url"]).rstrip("/") + "/" + f.remote_path)
        part = dest.with_name(dest.name + ".part")
        http_download(url, part, expected_size=f.size, on_bytes=on_bytes, cancel=cancel)
        os.replace(part, dest)
        return
    src = manifest.source
    got = hf_download(
        str(src["repo"]),
        f.remote_path,
        staging,
        revision=str(src.get("revision") or "main"),
        endpoint=hf_endpoint(src),
        on_bytes=on_bytes,
        cancel=cancel,
    )
    if got.resolve() != dest.resolve():
        os.replace(got, dest)


def _verify_download(manifest: ModelManifest, f: ModelFile, dest: Path, want: str | None) -> str:
    size = dest.stat().st_size
    if f.size is not None and size != f.size:
        dest.unlink(missing_ok=True)
        raise VerifyError(
            f"{manifest.name}: {f.path} is {size} bytes, the manifest says {f.size}; the download was discarded"
        )
    got = sha256_file(dest)
    if want and got != want:
        dest.unlink(missing_ok=True)
        raise VerifyError(
            f"{manifest.name}: {f.path} has sha256 {got}, expected {want}; the download was discarded "
            "(corrupt transfer or the file changed upstream — nothing was installed)"
        )
    return got


def _install(
    settings: Settings, manifest: ModelManifest, staging: Path, final: Path, files: list[dict]
) -> None:
    shutil.rmtree(staging / ".cache", ignore_errors=True)  # huggingface-hub's bookkeeping
    for leftover in staging.rglob("*.part"):
        leftover.unlink()
    record = {
        "name": manifest.name,
        "role": manifest.role,
        "family": manifest.family,
        "source": manifest.source,
        "endpoint": hf_endpoint(manifest.source) if manifest.source_type == "hf" else None,
        "files": files,
        "installed_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "manifest": str(manifest.manifest_path) if manifest.manifest_path else None,
    }
    (staging / INSTALL_RECORD).write_text(json.dumps(record, indent=2), encoding="utf-8")
    old = None
    if final.exists():
        old = final.with_name(f".{final.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(final, old)
    os.replace(staging, final)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    parent = staging.parent
    if parent.name == PARTIAL_DIR and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()


def remove_model(settings: Settings, name: str, *, keep_partial: bool = False) -> bool:
    """Delete an installed model (and its partial download unless ``keep_partial``). True if anything went."""
    if not name or "/" in name or "\\" in name or name.startswith(".") or name == "manifests":
        raise PhotoSearchError(f"bad model name {name!r}")
    removed = False
    final = model_dir(settings, name)
    with _lock_for(str(final)):
        if final.is_dir():
            trash = final.with_name(f".{final.name}.removing")
            os.replace(final, trash)  # disappears atomically from the installed list
            shutil.rmtree(trash, ignore_errors=True)
            removed = True
        part = partial_dir(settings, name)
        if not keep_partial and part.is_dir():
            shutil.rmtree(part, ignore_errors=True)
            removed = True
    return removed


__all__ = [
    "DownloadError",
    "PullReport",
    "VerifyError",
    "install_record",
    "installed_models",
    "is_installed",
    "model_dir",
    "pull_model",
    "remove_model",
    "verify_model",
]
