"""One `photosearch index` run in a process of its own, for `benchmarks.index_compare`.

    PYTHONPATH=TREE python benchmarks/index_run.py PHOTOS DATA OUT.json ['{"threads": 1}']

Run as a script (not `-m`), so `photosearch` is imported from TREE (this checkout, or an older one
unpacked by index_compare): the same code that ran before a change. Uses only what every version of
the app has (Settings, Store, app.build_indexer, the report's stage_ms). Writes elapsed wall time, the
process's CPU seconds and peak RSS, per-stage ms and what was found per photo (faces, text lines,
tags, objects) as JSON. The optional last argument sets settings (JSON), as settings.json would.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path


def _cpu_s() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def findings(store) -> dict[str, dict]:
    """Per photo (file name): faces, text lines, tags (the model's own labels, not hypernyms), objects."""
    from sqlalchemy import text

    out: dict[str, dict] = {}
    with store.connect() as conn:
        names = {pid: Path(path).name for pid, path in conn.execute(text("SELECT id, path FROM photos"))}
        for name in names.values():
            out[name] = {"faces": 0, "text": [], "tags": [], "objects": []}
        for pid, n in conn.execute(text("SELECT photo_id, count(*) FROM faces GROUP BY photo_id")):
            out[names[pid]]["faces"] = int(n)
        rows = conn.execute(
            text("SELECT photo_id, kind, label, data FROM facts WHERE kind IN ('text', 'tag', 'object')")
        )
        for pid, kind, label, data in rows:
            if kind == "tag" and json.loads(data or "{}").get("hypernym"):
                continue
            key = {"text": "text", "tag": "tags", "object": "objects"}[kind]
            out[names[pid]][key].append(label)
    for row in out.values():
        for key in ("text", "tags", "objects"):
            row[key].sort()
    return out


def main(argv: list[str]) -> int:
    photos, data, out = (Path(a) for a in argv[:3])
    load_before = os.getloadavg()[0]
    from photosearch.app import build_indexer
    from photosearch.catalog import Store
    from photosearch.config import Settings

    settings = Settings(data_dir=data)
    for name, value in (json.loads(argv[3]) if len(argv) > 3 else {}).items():
        setattr(settings, name, value)
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(photos)
    cpu0, t0 = _cpu_s(), time.perf_counter()
    report = build_indexer(store, settings).run()
    wall, cpu = time.perf_counter() - t0, _cpu_s() - cpu0
    found = findings(store)
    store.close()
    n = report.added + report.changed
    doc = {
        "tree": str(Path(sys.modules["photosearch"].__file__).parents[1]),
        "settings": json.loads(argv[3]) if len(argv) > 3 else {},
        "photos": n,
        "failed": report.failed,
        "elapsed_s": round(report.elapsed_s, 3),
        "wall_s": round(wall, 3),
        "photos_per_s": round(n / report.elapsed_s, 3) if report.elapsed_s else 0.0,
        "cpu_s": round(cpu, 2),
        "cpu_s_per_photo": round(cpu / max(1, n), 3),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "stage_ms_per_photo": {k: round(v / max(1, n), 2) for k, v in report.stage_ms.items()},
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "found": found,
    }
    Path(out).write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
