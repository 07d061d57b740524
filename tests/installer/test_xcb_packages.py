"""install.sh installs every Debian package Qt's xcb platform needs on a fresh machine.

CI keeps apt packages between runs, so a package dropped from install.sh would not show there: the
GUI would still start. This test reads the truth from the files instead: `ldd` on PySide6's xcb
platform plugin (libqxcb.so) and the Qt libraries the app loads lists every shared library they need;
`dpkg -S` names the package of each; each must be in install.sh's `apt_base` list, a dependency
(recursively) of one in it, or part of the base system (Priority required or important)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.required import require

pytestmark = pytest.mark.slow
INSTALL_SH = Path(__file__).resolve().parents[2] / "installer" / "install.sh"
QT_LIBS = ("libQt6Widgets.so.6", "libQt6Gui.so.6", "libQt6XcbQpa.so.6", "libQt6DBus.so.6", "libQt6Core.so.6")
APT_DEPENDS = ["--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces"]


def apt_base(script: str) -> list[str]:
    """The packages install.sh always installs: its `apt_base=( … )` array."""
    m = re.search(r"^apt_base=\(([^)]*)\)", script, re.M)
    assert m, "install.sh has no apt_base=( … ) list"
    return m[1].split()


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: this test reads Debian's package database", pytrace=False)
    return path


def _run(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=True, timeout=120).stdout


def _xcb_binaries() -> list[Path]:
    qt = Path(require("PySide6").__file__).parent / "Qt"
    plugin = qt / "plugins" / "platforms" / "libqxcb.so"
    assert plugin.is_file(), f"PySide6 has no xcb platform plugin at {plugin}"
    return [plugin, *(qt / "lib" / name for name in QT_LIBS)]


def system_libraries(binaries: list[Path]) -> dict[str, str]:
    """soname -> path, for every library `ldd` finds outside PySide6 (a missing one fails)."""
    ldd = _tool("ldd")
    found: dict[str, str] = {}
    for binary in binaries:
        for line in _run(ldd, str(binary)).splitlines():
            name, _, target = (part.strip() for part in line.partition("=>"))
            if "not found" in target:
                pytest.fail(f"{binary.name} needs {name}, which is not installed", pytrace=False)
            path = target.split(" (")[0]
            if path.startswith("/") and "PySide6" not in path and "shiboken6" not in path:
                found[name] = path
    return found


def _spellings(path: str) -> list[str]:
    """The names dpkg may know a library by: /lib and /usr/lib (merged /usr), the link or its target."""
    out = []
    for p in (path, os.path.realpath(path)):
        out += [p, p.removeprefix("/usr")] if p.startswith("/usr/lib/") else [p, "/usr" + p]
    return list(dict.fromkeys(out))


def owning_packages(paths: list[str]) -> dict[str, str]:
    """path -> Debian package (`dpkg -S`, architecture dropped)."""
    spellings = {path: _spellings(path) for path in paths}
    found = subprocess.run(
        [_tool("dpkg"), "-S", *{s for names in spellings.values() for s in names}],
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout  # exit status 1 when some spelling is unknown, which is expected
    by_name: dict[str, str] = {}
    for line in found.splitlines():
        packages, _, name = line.partition(": ")
        by_name[name.strip()] = packages.split(",")[0].split(":")[0].strip()
    owners = {p: next((by_name[s] for s in names if s in by_name), "") for p, names in spellings.items()}
    missing = sorted(p for p, owner in owners.items() if not owner)
    assert not missing, f"no Debian package owns {missing}"
    return owners


def with_dependencies(packages: list[str]) -> set[str]:
    """`packages` and everything they depend on, recursively (the local apt lists)."""
    out = _run(_tool("apt-cache"), "depends", "--recurse", *APT_DEPENDS, "--no-enhances", *packages)
    names = set(packages)
    for line in out.splitlines():
        name = line.split(":", 1)[1] if line.startswith(" ") and ":" in line else line
        names.add(name.strip().strip("<>").split(":")[0])
    return names


def base_system(packages: set[str]) -> set[str]:
    """Those of `packages` every Debian system has (Priority required or important)."""
    query = _tool("dpkg-query")
    out = _run(query, "-W", "-f=${Package} ${Priority}\n", *sorted(packages))
    return {n for n, _, p in (ln.partition(" ") for ln in out.splitlines()) if p in ("required", "important")}


def uncovered(listed: list[str], needed: set[str]) -> set[str]:
    """The packages of `needed` that installing `listed` would not bring."""
    rest = needed - with_dependencies(listed)
    return rest - base_system(rest) if rest else set()


def test_install_sh_brings_every_package_qts_xcb_platform_needs():
    libraries = system_libraries(_xcb_binaries())
    assert "libxcb-cursor.so.0" in libraries  # what Qt >= 6.5's xcb plugin added (issue 11)
    owners = owning_packages(sorted(set(libraries.values())))
    needed = set(owners.values())
    listed = apt_base(INSTALL_SH.read_text())
    missing = uncovered(listed, needed)
    assert not missing, (
        f"install.sh's apt_base does not bring {sorted(missing)}, which Qt's xcb platform needs "
        f"(libraries: {sorted(n for n, p in libraries.items() if owners[p] in missing)})"
    )


def test_the_check_notices_a_package_dropped_from_install_sh():
    """Without libxcb-cursor0 in the list (as before issue 11), the check above fails."""
    libraries = system_libraries(_xcb_binaries())
    needed = set(owning_packages(sorted(set(libraries.values()))).values())
    listed = [p for p in apt_base(INSTALL_SH.read_text()) if p != "libxcb-cursor0"]
    assert uncovered(listed, needed) == {"libxcb-cursor0"}
