"""What every model is and where it stands here: one row per bundled or hub model, shown the same way by
`photosearch models list` and the GUI's model manager."""

from __future__ import annotations

from typing import Any

from photosearch.config import Settings


def human_size(n: int | None) -> str:
    """Bytes in SI units, as `models list` and the GUI show them ("9.6 MB")."""
    if not n:
        return "-"
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1000 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1000
    return f"{size:.1f} GB"


def integrity(manifest) -> str:
    """How a model's files are checked, in plain words: every file against a checksum published for it
    ("verified"), some of them ("partly verified"), or none ("not verified": the checksums seen at the first
    download are recorded and checked from then on)."""
    pinned = [bool(f.sha256) for f in manifest.files if not f.optional]
    if pinned and all(pinned):
        return "verified"
    return "partly verified" if any(pinned) else "not verified"


def download_size(manifest) -> str:
    """What a pull fetches, for showing before it: "1.1 GB", "about 605 MB" (the hub lists only rounded
    sizes for some files) or "unknown"."""
    total, exact = manifest.download_size()
    if not total:
        return "unknown"
    return human_size(total) if exact else f"about {human_size(total)}"


def unverified_files(manifest) -> list[dict[str, str]]:
    """The files without a published checksum and why, for the details pane."""
    return [
        {"path": f.path, "reason": f.unverified or "no checksum is published for this file"}
        for f in manifest.files
        if not f.sha256 and not f.optional
    ]


def model_rows(settings: Settings) -> list[dict[str, Any]]:
    """Every model: role, tier, runtime, present, size, the provider it would run on, how it is checked."""
    from photosearch.models.manifest import load_manifests
    from photosearch.models.runtimes import provider_for

    rows = []
    for m in load_manifests(settings).values():
        present = m.present(settings)
        size = m.size(settings)
        rows.append(
            {
                "name": m.name,
                "role": m.role,
                "tier": m.tier,
                "runtime": m.runtime,
                "present": present,
                "size_bytes": size,
                "size": human_size(size),
                "provider": provider_for(m, settings),
                "licence": m.licence,
                "integrity": integrity(m),
                "download_size": download_size(m) if m.tier == "hub" else human_size(size),
                "download_bytes": m.download_size()[0] if m.tier == "hub" else size,
                "not_verified": unverified_files(m) if m.tier == "hub" else [],
                "description": m.description,
                "source": m.source,
                "files": [
                    {
                        "key": s.key,
                        "path": str(s.path) if s.path else None,
                        "present": s.present,
                        "size": s.size,
                    }
                    for s in m.file_status(settings)
                ],
                "missing": None if present else m.missing_message(),
            }
        )
    return rows
