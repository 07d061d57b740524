"""The installed Qt binding keeps Python's reference counts right.

PySide6 6.12.0 on Python 3.11 drops one reference to `None` on every call of a method that returns
nothing; after ~30,000 such calls (a minute of scrolling the grid or dragging the map) the
interpreter aborts with "none_dealloc". This pins the installed binding against that bug.
"""

from __future__ import annotations

import subprocess
import sys

CALLS = 50_000

PROBE = f"""
import sys
from PySide6.QtCore import QPointF
point = QPointF()
before = sys.getrefcount(None)
for _ in range({CALLS}):
    point.setX(1.0)
print(before - sys.getrefcount(None))
"""


def test_void_methods_do_not_leak_references_to_none():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lost = int(done.stdout.strip())
    assert abs(lost) < 100, f"{lost} references to None lost over {CALLS} void Qt calls"
