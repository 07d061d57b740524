"""Copy the originals of chosen photos, and their XMP sidecars, into a folder.

Nothing is ever overwritten: a name already taken becomes "name (2).jpg" (its sidecars follow the
new name), and the destination file is created exclusively, so a file appearing meanwhile is not
replaced either. A photo that cannot be read, or that the disk has no room for, is recorded with
the reason and skipped (a partly written copy is removed); the rest go on. Once the disk is full the
remaining photos are recorded as not copied instead of being tried one by one.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from photosearch.errors import PhotoSearchError
from photosearch.files import open_regular
from photosearch.ingest.paths import from_db_path
from photosearch.metadata.sidecar import sidecar_paths

CHUNK = 1 << 20
#: The most "name (n).ext" numbers tried before a photo is skipped as "no free name".
MAX_SUFFIX = 10_000


@dataclass
class ExportProgress:
    done: int
    total: int
    path: str = ""


@dataclass
class ExportReport:
    folder: str
    total: int = 0
    copied: list[tuple[str, str]] = field(default_factory=list)  # (original, copy)
    renamed: int = 0  # copies that got a new name because the folder had one already
    sidecars: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (original, why)
    bytes: int = 0
    cancelled: bool = False

    def as_dict(self) -> dict:
        return {
            "folder": self.folder,
            "total": self.total,
            "copied": len(self.copied),
            "renamed": self.renamed,
            "sidecars": self.sidecars,
            "bytes": self.bytes,
            "cancelled": self.cancelled,
            "skipped": [{"path": p, "reason": r} for p, r in self.skipped],
            "files": [{"original": s, "copy": d} for s, d in self.copied],
        }

    def summary(self) -> str:
        """One sentence for people: what was copied where, what was not and why."""
        n = len(self.copied)
        text = f"Copied {n:,} of {self.total:,} photo{'s' if self.total != 1 else ''} to {self.folder}"
        extras = []
        if self.sidecars:
            extras.append(f"{self.sidecars:,} sidecar{'s' if self.sidecars != 1 else ''}")
        if self.renamed:
            extras.append(f"{self.renamed:,} renamed to keep existing files")
        if extras:
            text += " (" + ", ".join(extras) + ")"
        if self.cancelled:
            text += "; stopped before the end"
        if self.skipped:
            text += f"; {len(self.skipped):,} skipped: " + "; ".join(
                f"{Path(p).name}: {r}" for p, r in self.skipped[:5]
            )
            if len(self.skipped) > 5:
                text += " …"
        return text + "."


def free_name(folder: Path, name: str, taken: set[str]) -> str:
    """`name`, or "stem (2).ext", "stem (3).ext", … : the first that is neither in `folder` nor
    already given in this export (`taken`, lower case: case-insensitive file systems)."""
    stem, ext = os.path.splitext(name)
    for n in range(1, MAX_SUFFIX + 1):
        candidate = name if n == 1 else f"{stem} ({n}){ext}"
        if candidate.lower() not in taken and not os.path.lexists(folder / candidate):
            return candidate
    raise PhotoSearchError(f"no free name for {name} in {folder}")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "the disk is full"
    if isinstance(exc, FileNotFoundError):
        return "the file is missing (offline or moved?)"
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def copy_file(src: str, dest: Path) -> int:
    """Copy a regular file to a new file `dest` (never replacing one), keeping its times; the bytes
    copied. A failed copy leaves nothing behind."""
    with open_regular(src) as fin:
        fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            with os.fdopen(fd, "wb") as fout:
                shutil.copyfileobj(fin, fout, CHUNK)
        except BaseException:
            dest.unlink(missing_ok=True)
            raise
    try:
        shutil.copystat(src, dest)
    except OSError:
        pass  # times and mode are a courtesy; the bytes are what was asked for
    return dest.stat().st_size


def export_photos(
    paths: list[str],
    folder: str | Path,
    *,
    sidecars: bool = True,
    progress: Callable[[ExportProgress], None] | None = None,
    cancel: Callable[[], bool] | None = None,
) -> ExportReport:
    """Copy each photo (catalog paths) into `folder` (made when missing), sidecars along."""
    dest = Path(folder).expanduser()
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PhotoSearchError(f"cannot make the folder {dest}: {_reason(exc)}") from None
    if not dest.is_dir():
        raise PhotoSearchError(f"{dest} is not a folder")
    report = ExportReport(str(dest), total=len(paths))
    taken: set[str] = set()
    disk_full = False
    for i, stored in enumerate(paths):
        if cancel is not None and cancel():
            report.cancelled = True
            break
        src = from_db_path(stored)
        if progress is not None:
            progress(ExportProgress(i, len(paths), src))
        if disk_full:
            report.skipped.append((src, "not copied: the disk is full"))
            continue
        try:
            name = free_name(dest, os.path.basename(src), taken)
            report.bytes += copy_file(src, dest / name)
        except (OSError, PhotoSearchError) as exc:
            report.skipped.append((src, _reason(exc)))
            disk_full = isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT)
            continue
        taken.add(name.lower())
        report.copied.append((src, str(dest / name)))
        report.renamed += name != os.path.basename(src)
        if sidecars:
            disk_full = _copy_sidecars(src, dest, name, taken, report)
    else:
        if progress is not None:
            progress(ExportProgress(len(paths), len(paths)))
    return report


def _copy_sidecars(src: str, dest: Path, name: str, taken: set[str], report: ExportReport) -> bool:
    """Copy a photo's sidecars under its copy's name ("a (2).jpg.xmp" / "a (2).xmp"); True when
    the disk filled up."""
    stem = os.path.splitext(name)[0]
    for side in sidecar_paths(src):
        full = os.path.basename(side).lower() == os.path.basename(src).lower() + ".xmp"
        want = name + ".xmp" if full else stem + ".xmp"
        try:
            side_name = free_name(dest, want, taken)
            report.bytes += copy_file(side, dest / side_name)
        except (OSError, PhotoSearchError) as exc:
            report.skipped.append((side, _reason(exc)))
            if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
                return True
            continue
        taken.add(side_name.lower())
        report.sidecars += 1
    return False
