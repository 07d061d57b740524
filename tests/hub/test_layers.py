"""Layering: the model layer (`photosearch.models`) imports neither `hub` nor `vision`; `hub` (download and
pull) imports no analyzer and no runtime; `vision` never imports `hub`. Checked both ways: every import
statement in the source (lazy ones inside functions too), and what importing the packages really loads."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PKG = REPO / "photosearch"


def imported_modules(folder: Path) -> dict[str, set[str]]:
    """file -> every photosearch module it imports, at any depth."""
    out: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        out[str(path.relative_to(REPO))] = {n for n in names if n.startswith("photosearch")}
    return out


def _offenders(folder: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    found = {}
    for path, names in imported_modules(PKG / folder).items():
        bad = sorted(n for n in names if n.startswith(forbidden))
        if bad:
            found[path] = bad
    return found


def test_the_model_layer_imports_neither_hub_nor_vision():
    assert (
        _offenders(
            "models", ("photosearch.hub", "photosearch.vision", "photosearch.query", "photosearch.enrich")
        )
        == {}
    )


def test_hub_imports_only_the_manifests():
    assert (
        _offenders(
            "hub",
            (
                "photosearch.vision",
                "photosearch.models.runtimes",
                "photosearch.models.llm",
                "photosearch.models.base",
            ),
        )
        == {}
    )


def test_vision_never_imports_hub():
    assert _offenders("vision", ("photosearch.hub",)) == {}


def _loaded_after(statement: str) -> set[str]:
    code = (
        f"import sys, json\n{statement}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('photosearch'))))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.slow
def test_importing_hub_loads_no_analyzer_and_importing_vision_loads_no_hub():
    hub = _loaded_after("import photosearch.hub, photosearch.hub.pull, photosearch.hub.download")
    assert not {m for m in hub if m.startswith("photosearch.vision")}, hub
    vision = [p.stem for p in (PKG / "vision").glob("*.py") if p.stem != "__init__"]
    loaded = _loaded_after("\n".join(f"import photosearch.vision.{m}" for m in sorted(vision)))
    assert not {m for m in loaded if m.startswith("photosearch.hub")}, loaded
