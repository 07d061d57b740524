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
    """How a model's files are checked: every file against a pinned sha256 ("sha256"), some of them
    ("partly pinned"), or none: the digests seen at the first pull are trusted ("trust on first pull")."""
    pinned = [bool(f.sha256) for f in manifest.files if not f.optional]
    if pinned and all(pinned):
        return "sha256"
    return "partly pinned" if any(pinned) else "trust on first pull"


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
