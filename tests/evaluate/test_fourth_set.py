"""The fourth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import bz2
import io
import tarfile
import zipfile
from pathlib import Path

from PIL import Image

from photosearch.evaluate import fourth_set
from photosearch.evaluate.golden import load_golden

FACE_DOC = '''
def ascent():
    """Get an 8-bit grayscale bit-depth, 512 x 512 derived image for easy use in demos."""


def face(gray=False):
    """
    Get a 1024 x 768, color image of a raccoon face.

    raccoon-procyon-lotor.jpg at http://www.public-domain-image.com
    """
'''


def _png(colour: str, size: tuple[int, int] = (320, 240)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "PNG")
    return out.getvalue()


def test_file_names_and_folders_say_what_a_photo_shows():
    assert fourth_set.name_words("2zinnias") == "2 zinnias"
    assert fourth_set.name_words("flower2") == "flower 2"
    assert fourth_set.name_words("apple-orchard-truck-from-camera") == "apple orchard truck from camera"
    assert fourth_set.background_words("Outdoors", "train-tracks1") == "outdoors train tracks"
    assert fourth_set.background_words("Sports", "basketball-court1-a") == "sports basketball court a"


def test_only_background_jpegs_not_named_drawings_are_photos():
    assert fourth_set.is_background_photo(Path("Nature/beach-malibu.jpg"))
    assert not fourth_set.is_background_photo(Path("Indoors/room1.jpg"))  # drawn
    assert not fourth_set.is_background_photo(Path("Nature/desert.gif"))


def test_the_docstring_says_what_scipy_s_face_shows():
    assert fourth_set.docstring_subject(FACE_DOC, "face") == "raccoon face"


def _fake_cache(root: Path) -> Path:
    """The fetched packages' layout, with a photo or two each (what `fetch` leaves in the cache)."""
    deb = root / "root"
    for rel, colour in {
        "Nature/beach-malibu.jpg": "yellow",
        "Nature/desert.gif": "orange",  # drawn
        "Indoors/kitchen.jpg": "white",
        "Indoors/room1.jpg": "pink",  # drawn
        "Sports/basketball-court1-a.jpg": "red",
        "Sports/football-field.jpg": "green",
    }.items():
        path = deb / fourth_set.BACKGROUNDS / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (480, 360), colour).save(path)
    for path in (p for paths in fourth_set.DEB_PHOTOS.values() for p in paths):
        (deb / path).parent.mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (300, 300), "purple").save(deb / path)
    (root / "sdists").mkdir(parents=True)
    for name, members in fourth_set.SDIST_PHOTOS.items():
        version = fourth_set.SDISTS[name]
        with tarfile.open(root / "sdists" / f"{name}-{version}.tar.gz", "w:gz") as tar:
            for member in members:
                data = _png("blue")
                info = tarfile.TarInfo(f"{name}-{version}/{member}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    (root / "wheels").mkdir(parents=True)
    for name, version in fourth_set.WHEELS.items():
        with zipfile.ZipFile(root / "wheels" / f"{name}-{version}-py3-none-any.whl", "w") as whl:
            for member in fourth_set.WHEEL_PHOTOS.get(name, ()):
                whl.writestr(member, _png("grey"))
            if name == "scipy":
                whl.writestr(fourth_set.FACE_DOC, FACE_DOC)
                whl.writestr(fourth_set.FACE_DATA, bz2.compress(bytes([90, 60, 30]) * (1024 * 768)))
    return root


def test_builds_the_gallery_and_golden_file_from_the_fetched_packages(tmp_path):
    counts = fourth_set.write(tmp_path / "set", _fake_cache(tmp_path / "cache"))
    others = sum(map(len, fourth_set.DEB_PHOTOS.values())) + sum(map(len, fourth_set.SDIST_PHOTOS.values()))
    assert counts["photos"] == 4 + others + len(fourth_set.WHEEL_PHOTOS["imgaug"]) + 1  # not the drawings
    gallery = tmp_path / "set" / fourth_set.PART
    raccoon = next((gallery / "downloads").glob("raccoon_face.*"))
    with Image.open(raccoon) as im:
        assert im.size == (1024, 768)
    gold = load_golden(gallery / "golden.yaml")  # every judged photo is there
    by_id = {q.id: q for q in gold.queries}

    def stems(qid: str) -> list[str]:
        return [Path(r).stem for r in by_id[qid].relevant]

    assert stems("seaside") == ["beach_malibu"]
    assert stems("indoors") == ["kitchen"]
    assert stems("sports fields except basketball") == ["football_field"]
    assert stems("animals") == ["parrot", "quokka", "raccoon_face"]
    assert stems("two flowers") == ["2zinnias"]
    assert stems("flowers, not zinnias") == ["flower", "flower2"]
    assert "forest" not in by_id and "absent: zebra" in by_id
