"""The core never imports Qt: every module outside photosearch/gui imports with PySide6 unimportable."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import importlib, importlib.abc, json, pkgutil, sys

class NoQt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "PySide6" or name.startswith("PySide6."):
            raise ImportError(f"{name} is blocked: the core must not import Qt")
        return None

sys.meta_path.insert(0, NoQt())
import photosearch

names, failed = [], {}
for info in pkgutil.walk_packages(photosearch.__path__, "photosearch."):
    if info.name.startswith("photosearch.gui") or info.name.endswith(".__main__"):
        continue
    names.append(info.name)
    try:
        importlib.import_module(info.name)
    except Exception as exc:
        failed[info.name] = f"{type(exc).__name__}: {exc}"
print(json.dumps({"imported": names, "failed": failed, "qt": [m for m in sys.modules if m.startswith("PySide6")]}))
"""


def test_every_core_module_imports_without_qt():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["failed"] == {} and found["qt"] == []
    # the walk really covered the package: the core, both front ends' shared Core, the CLI
    assert {
        "photosearch.core",
        "photosearch.app",
        "photosearch.cli",
        "photosearch.ingest.pipeline",
        "photosearch.scale.ray_index",
        "photosearch.query.search",
    } <= set(found["imported"])
    assert len(found["imported"]) > 80
