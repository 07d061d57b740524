"""What an indexing run tells its caller: progress events and the final report."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field


@dataclass
class IndexProgress:
    """A progress event. `stage` is listing | ingest | analyze | post | done."""

    stage: str
    done: int
    total: int
    path: str | None = None
    rate: float = 0.0  # photos per second so far
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class IndexReport:
    seen: int = 0
    unchanged: int = 0
    added: int = 0
    changed: int = 0
    moved: int = 0
    copied_facts: int = 0
    deleted: int = 0
    failed: int = 0
    analysed: int = 0
    analysis_failed: int = 0
    photos: int = 0  # files this run read (new, changed, moved, re-analysed or failed): each once
    offline_folders: list[str] = field(default_factory=list)
    failed_by_reason: dict[str, int] = field(default_factory=dict)
    # Problems the user must act on (the disk is full), each once: `index` prints them at the end.
    warnings: list[str] = field(default_factory=list)
    cancelled: bool = False
    elapsed_s: float = 0.0
    stage_ms: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    post: dict[str, object] = field(default_factory=dict)
    # analyzer name -> {"ok": n, "failed": n, "first_error": str | None}: what each model did this run
    analyzers: dict[str, dict] = field(default_factory=dict)
    # analyzer name -> photos its gate kept it off (nothing for it to find; recorded as skipped)
    gated: dict[str, int] = field(default_factory=dict)

    def count_analysis(self, analyzer: str, error: str | None) -> None:
        """Count one analyzer's outcome on one photo (the summary `index` ends with)."""
        row = self.analyzers.setdefault(analyzer, {"ok": 0, "failed": 0, "first_error": None})
        if error:
            self.analysis_failed += 1
            row["failed"] += 1
            row["first_error"] = row["first_error"] or error
        else:
            row["ok"] += 1

    def broken_analyzers(self) -> list[str]:
        """Analyzers that failed on every photo they were given: a broken model, not a bad photo."""
        return [name for name, row in self.analyzers.items() if row["failed"] and not row["ok"]]

    @property
    def photos_per_s(self) -> float:
        """Photos over wall time: a photo added and analysed counts once, not twice."""
        return self.photos / self.elapsed_s if self.elapsed_s else 0.0

    def as_dict(self) -> dict:
        data = {k: v for k, v in self.__dict__.items() if k != "stage_ms"}
        data["stage_ms"] = {k: round(v, 1) for k, v in self.stage_ms.items()}
        data["photos_per_s"] = round(self.photos_per_s, 2)
        data["elapsed_s"] = round(self.elapsed_s, 3)
        return data
