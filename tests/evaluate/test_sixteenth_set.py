"""The sixteenth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate import fetched, sixteenth_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import golden_queries, judged, relevant_stems

#: (source, words) of every photo the set takes.
PHOTOS = (
    ("insightface", "mask white"),
    ("insightface", "mask blue"),
    ("python_docx", "court"),
    ("python_docx", "mountain"),
    ("simplelightbox", "lego heads"),
    ("material-dashboard", "meeting"),
    ("material-dashboard", "office dark"),
)
#: The files that name the photos, as the packages hold them (the words around them elided).
RENDERER = "        self.mask_image_names = ['mask_white', 'mask_blue', 'mask_black', 'mask_green']\n"
FEATURE = (
    "     | court-exif.jpg   | image/jpeg |  500 |  375 |   256    |   256    |\n"
    "     | mountain.bmp     | image/bmp  |  640 |  480 |   300    |   300    |\n"
)
DEMO = (
    '<a href="img/full/01.jpg"><img src="img/thumb/01.jpg" title="Drone Photography" alt="" /></a>\n'
    '<a rel="rel2" href="img/full/02.jpg"><img src="img/thumb/02.jpg" alt="" /></a>\n'
    '<a rel="rel2" href="img/full/05.jpg"><img src="img/thumb/05.jpg" alt="" title="Lego Heads" /></a>\n'
    '&lt;a href="images/image2.jpg"&gt;&lt;img src="images/thumbs/thumb2.jpg" title="Beautiful Image"/&gt;\n'
)


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, sha256) in sixteenth_set.SDISTS.items():
        assert re.fullmatch(r"\d+(\.\d+)+", version), name
        assert re.fullmatch(r"[0-9a-f]{64}", sha256), name
    for name, (version, integrity) in sixteenth_set.NPM.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), name
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), name
    assert {s for s, _ in PHOTOS} == set(sixteenth_set.SDISTS) | set(sixteenth_set.NPM)


def test_descriptions_come_from_the_packages_own_words():
    assert sixteenth_set.photo_title("test_files/court-exif.jpg") == "court"
    assert sixteenth_set.photo_title("test_files/mountain.bmp") == "mountain"
    assert sixteenth_set.photo_title("images/mask_white.jpg") == "mask white"
    assert sixteenth_set.photo_title("img/office-dark.jpg") == "office dark"
    assert sixteenth_set.named_in(RENDERER, "'mask_blue'") == "'mask_blue'"
    assert sixteenth_set.named_in(FEATURE, "mountain.bmp") == "mountain.bmp"
    with pytest.raises(ValueError, match="does not name"):
        sixteenth_set.named_in(FEATURE, "mountain.jpg")
    with pytest.raises(ValueError, match="does not name"):
        sixteenth_set.named_in(RENDERER, "'mask_whit'")
    titles = sixteenth_set.thumbnail_titles(DEMO)
    assert titles == {"01": "Drone Photography", "05": "Lego Heads"}  # escaped code is no tag
    assert sixteenth_set.is_big_enough((680, 366)) and not sixteenth_set.is_big_enough((440, 231))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(text), source, "test")


def _judge(request: str, text: str) -> bool:
    return judged(sixteenth_set.QUERIES, request, words_of(text))


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("white mask", "mask white") and not _judge("blue mask", "mask white")
    assert _judge("masks but not blue", "mask white") and not _judge("masks but not blue", "mask blue")
    assert _judge("masks", "mask blue") and _judge("white mask or blue mask", "mask blue")
    assert (
        _judge("toys", "lego heads")
        and _judge("lego head", "lego heads")
        and not _judge("toys", "mask white")
    )
    assert _judge("office or meeting", "meeting") and _judge("office or meeting", "office dark")
    assert not _judge("office or meeting", "court") and not _judge("mountain", "court")
    assert _judge("court or mountain", "mountain") and _judge("mountains", "mountain")
    requests = [q for q, _, _ in sixteenth_set.QUERIES]
    assert len(requests) == len(set(requests))
    asked = set(requests)
    assert not {"office", "meeting", "people", "person", "drone photography"} & asked
    photos = [_photo(s, t) for s, t in PHOTOS]
    for request, rule, _ in sixteenth_set.QUERIES:
        assert any(rule(p) for p in photos), request  # every request has a relevant photo


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(sixteenth_set.ABSENT) == 20
    asked = {q for q, _, _ in sixteenth_set.QUERIES}
    for request, rule in sixteenth_set.ABSENT:
        assert request not in asked
        assert not any(rule(p) for p in photos), request


def _image(path: Path, size: tuple[int, int] = (400, 300)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "grey").save(path, format="BMP" if path.suffix == ".bmp" else "JPEG")


def _text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _fake_cache(cache: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    root = cache / "root"
    for i, member in enumerate(sixteenth_set.MASKS):
        _image(root / "insightface" / member, (440, 231) if i == 1 else (680, 366))
    _text(root / "insightface" / sixteenth_set.MASK_RENDERER, RENDERER)
    for member in sixteenth_set.DOCX_PHOTOS:
        _image(root / "python_docx" / member)
    _text(root / "python_docx" / sixteenth_set.DOCX_FEATURE, FEATURE)
    for stem in ("01", "05"):
        _image(root / "simplelightbox/demo/img/full" / f"{stem}.jpg", (2000, 1500))
    _text(root / sixteenth_set.LIGHTBOX_DEMO, DEMO)
    for f in sixteenth_set.DASHBOARD_PHOTOS:
        _image(root / sixteenth_set.DASHBOARD_IMG / f, (1567, 1175))
    return cache


def test_the_set_is_built_from_a_fake_package_cache(tmp_path: Path):
    """Offline: the pinned packages' files laid out as `fetch` leaves them."""
    counts = sixteenth_set.write(tmp_path / "out", _fake_cache(tmp_path / "cache"))

    assert counts["photos"] == len(PHOTOS) - 1  # the blue mask was under 250 px here
    kept = [_photo(s, t) for s, t in PHOTOS if t != "mask blue"]
    answered = [q for q, rule, _ in sixteenth_set.QUERIES if any(rule(p) for p in kept)]
    assert counts["absent"] == 20 and counts["queries"] == len(answered)
    assert counts["sources"] == sorted({s for s, _ in PHOTOS})
    by_id = golden_queries(tmp_path / "out" / "test")
    stems = relevant_stems({qid: q["relevant"] for qid, q in by_id.items()})

    assert stems["mask"] == ["mask_white"]
    assert stems["office or meeting"] == ["meeting", "office_dark"]
    assert stems["court or mountain"] == ["court", "mountain"]
    assert stems["toys"] == ["lego_heads"]
    assert "blue mask" not in by_id  # its only photo was too small here
    for rel in by_id["office or meeting"]["relevant"]:
        assert (tmp_path / "out" / "test" / rel).is_file()


def test_a_photo_its_package_no_longer_names_is_refused(tmp_path: Path):
    cache = _fake_cache(tmp_path / "cache")
    (cache / "root" / "python_docx" / sixteenth_set.DOCX_FEATURE).write_text(
        "| court-exif.jpg |", encoding="utf-8"
    )
    with pytest.raises(ValueError, match="mountain.bmp"):
        sixteenth_set.all_photos(cache)
    _fake_cache(cache)
    (cache / "root" / sixteenth_set.LIGHTBOX_DEMO).write_text(
        '<img src="img/thumb/05.jpg">', encoding="utf-8"
    )
    with pytest.raises(ValueError, match="05.jpg"):
        sixteenth_set.all_photos(cache)


def test_a_changed_source_archive_is_refused(tmp_path: Path):
    version = sixteenth_set.SDISTS["insightface"][0]
    (tmp_path / f"insightface-{version}.tar.gz").write_bytes(b"not the archive")
    with pytest.raises(ValueError, match="sha256"):
        fetched.pinned_sdist(tmp_path, sixteenth_set.SDISTS, "insightface")
