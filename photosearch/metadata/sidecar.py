"""XMP sidecar naming: digiKam/darktable's `photo.jpg.xmp` and Lightroom's `photo.xmp`.

Import-light (only `os`): the scanner and the watcher use it on every listing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

#: The two conventions a user can pick for write-back (Settings.sidecar_naming).
FULL_NAME = "photo.jpg.xmp"  # digiKam, darktable
STEM_NAME = "photo.xmp"  # Lightroom, Capture One
CONVENTIONS = (FULL_NAME, STEM_NAME)


def is_sidecar_name(name: str) -> bool:
    return name.lower().endswith(".xmp") and not name.startswith(".")


def candidate_names(photo_name: str) -> tuple[str, str]:
    """(full-name sidecar, stem sidecar) of a photo file name."""
    stem = os.path.splitext(photo_name)[0]
    return photo_name + ".xmp", stem + ".xmp"


def sidecar_index(names: Iterable[str]) -> dict[str, str]:
    """The sidecars among a folder's file names, by lower-case name (camera cards and Windows tools
    write `.XMP`): made once per folder listing, then asked once per photo."""
    by_lower: dict[str, str] = {}
    for n in names:
        if is_sidecar_name(n):
            by_lower.setdefault(n.lower(), n)
    return by_lower


def sidecar_paths(photo_path: str, index: dict[str, str] | None = None) -> list[str]:
    """The sidecars of a photo that exist, full-name convention first. `index`: `sidecar_index` of
    the photo's folder when the caller already listed it."""
    folder, name = os.path.split(photo_path)
    if index is None:
        try:
            index = sidecar_index(os.listdir(folder or "."))
        except OSError:
            return []
    by_lower = index
    if not by_lower:
        return []
    out = []
    for want in candidate_names(name):
        found = by_lower.get(want.lower())
        if found is not None:
            path = os.path.join(folder, found)
            if path not in out and os.path.isfile(path):
                out.append(path)
    return out


def signature(paths: Iterable[str]) -> str | None:
    """What the catalog remembers of a photo's sidecars (names, sizes, mtimes): a change of any of
    them, a new one or a removed one makes the photo's embedded metadata be read again."""
    parts = []
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue
        parts.append(f"{os.path.basename(path)}:{st.st_size}:{st.st_mtime_ns}")
    return ";".join(parts) or None


def photos_of_sidecar(sidecar_path: str, names: Iterable[str] | None = None) -> list[str]:
    """The photo files a sidecar belongs to: `a.jpg.xmp` -> `a.jpg`; `a.xmp` -> every `a.*` photo
    beside it (a RAW+JPEG pair shares Lightroom's sidecar). Paths whether or not they exist."""
    from photosearch.ingest.decode import is_image_name

    folder, name = os.path.split(sidecar_path)
    base = name[: -len(".xmp")]
    if is_image_name(base):
        return [os.path.join(folder, base)]
    if names is None:
        try:
            names = os.listdir(folder or ".")
        except OSError:
            return []
    return sorted(
        os.path.join(folder, n)
        for n in names
        if is_image_name(n) and os.path.splitext(n)[0].lower() == base.lower()
    )
