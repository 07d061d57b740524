"""Start-up stays light: the command line is parsed before anything heavy is imported.

Each check runs in a fresh interpreter (as a person starting `photosearch` does) and reads `sys.modules`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Never needed to parse a command: models, GUI, geocoding, cluster engines.
HEAVY = ("onnxruntime", "cv2", "scipy", "reverse_geocoder", "torch", "ray", "PySide6", "transformers")
#: Only needed once a command runs (catalog, arrays, golden YAML, image decoding).
RUN_TIME = ("sqlalchemy", "numpy", "yaml", "PIL", "usearch", "highspy", "tokenizers", "tqdm")


def _imported_after(code: str, tmp_path: Path) -> list[str]:
    probe = f"""
import json, sys
{code}
print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))
"""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PHOTOSEARCH_DATA_DIR": str(tmp_path / "data"),
        "PHOTOSEARCH_CACHE_DIR": str(tmp_path / "cache"),
    }
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120, cwd=ROOT
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "tabby cat"],
        ["status"],
        ["plan", "photos in Paris"],
        ["people", "list"],
        ["index"],
        ["doctor"],
        ["models", "list"],
        ["album", "list"],
        ["export", "--to", "out", "dogs"],
    ],
)
def test_parsing_a_command_imports_nothing_heavy(argv, tmp_path):
    loaded = _imported_after(
        f"import photosearch.cli as cli\ncli.build_parser().parse_args({argv!r})", tmp_path
    )
    assert "photosearch" in loaded  # the probe did import the package
    assert not [m for m in HEAVY + RUN_TIME if m in loaded]


def test_help_imports_nothing_heavy(tmp_path):
    loaded = _imported_after(
        "import contextlib, io\nimport photosearch.cli as cli\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    cli.main(['--help'])",
        tmp_path,
    )
    assert not [m for m in HEAVY + RUN_TIME if m in loaded]


def _empty_catalog(tmp_path: Path) -> None:
    """A catalog with nothing in it (read-only commands need one to be there)."""
    from photosearch.catalog import Store

    (tmp_path / "data").mkdir()
    Store(f"sqlite:///{tmp_path / 'data' / 'catalog.db'}").close()


def test_a_search_imports_no_gui_no_geocoder_no_cluster_engine(tmp_path):
    """A whole search of an (empty) catalog: the catalog and arrays load, never the GUI or geocoding."""
    _empty_catalog(tmp_path)
    loaded = _imported_after(
        "import contextlib, io\nimport photosearch.cli as cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert cli.main(['search', 'tabby cat']) == 0",
        tmp_path,
    )
    assert "sqlalchemy" in loaded and "numpy" in loaded  # it did search
    assert not [
        m for m in ("scipy", "reverse_geocoder", "torch", "ray", "PySide6", "transformers") if m in loaded
    ]
    assert "cv2" not in loaded  # label spaces are data (models.labels): no detector, no OpenCV


def test_status_reads_the_catalog_without_any_model_runtime(tmp_path):
    """`status` counts rows: no query engine, no model runtime, no vector index library."""
    _empty_catalog(tmp_path)
    loaded = _imported_after(
        "import contextlib, io\nimport photosearch.cli as cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert cli.main(['status']) == 0",
        tmp_path,
    )
    assert "sqlalchemy" in loaded  # it did read the catalog
    assert not [
        m for m in ("onnxruntime", "cv2", "usearch", "highspy", "tokenizers", "transformers") if m in loaded
    ]
