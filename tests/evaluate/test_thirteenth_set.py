"""The thirteenth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import hashlib
import io
import re
import tarfile
from pathlib import Path

from PIL import Image

from photosearch.evaluate import thirteenth_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import golden_queries, judged

#: (source, words) of every photo the set takes.
PHOTOS = (
    ("texlive-latex-extra-doc", "pumpkin pie soup"), ("texlive-latex-extra-doc", "hawaiian burgers"),
    ("texlive-latex-extra-doc", "italian calzones"),
    ("texlive-latex-extra-doc", "curried butternut squash soup"),
    ("texlive-latex-extra-doc", "french dip"), ("texlive-latex-extra-doc", "curried chicken and rice"),
    ("texlive-latex-extra-doc", "grilled chicken with capers"), ("texlive-latex-extra-doc", "frog"),
    ("texlive-latex-extra-doc", "montblanc"), ("texlive-latex-extra-doc", "ireland"),
    ("texlive-latex-extra-doc", "coin"), ("texlive-latex-extra-doc", "library"),
    ("texlive-latex-extra-doc", "socrates"), ("texlive-latex-extra-doc", "pythagoras"),
    ("texlive-latex-extra-doc", "stele todi small"), ("texlive-publishers-doc", "chrysanthemum"),
    ("texlive-publishers-doc", "penguins"), ("texlive-publishers-doc", "tulips"),
    ("texlive-publishers-doc", "pi orchid"), ("texlive-publishers-doc", "cola public domain photo p"),
    ("texlive-publishers-doc", "ibm 360 color"), ("texlive-publishers-doc", "team meeting 2019"),
    ("texlive-publishers-doc", "building"), ("texlive-pictures-doc", "sonne meer"),
    ("texlive-pictures-doc", "pleiades"), ("pillow_heif", "pug"), ("pillow_heif", "bird burst"),
)  # fmt: skip


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, sha256) in thirteenth_set.SDISTS.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version) and re.fullmatch(r"[0-9a-f]{64}", sha256), name
    for name, version in thirteenth_set.DEBS.items():
        assert re.fullmatch(r"[\w.~+:-]+-\d+", version), name
    assert {s for s, _ in thirteenth_set.SDIST_PHOTOS} <= set(thirteenth_set.SDISTS)
    assert {s for s, _ in thirteenth_set.DEB_PHOTOS} <= set(thirteenth_set.DEBS)
    titles = [
        thirteenth_set.photo_title(m) for _, m in thirteenth_set.DEB_PHOTOS + thirteenth_set.SDIST_PHOTOS
    ]
    assert sorted(titles) == sorted(t for _, t in PHOTOS)


def test_descriptions_come_from_the_packages_own_words():
    assert (
        thirteenth_set.photo_title("latex/recipebook/images/Curried_chicken_and_rice.jpg")
        == "curried chicken and rice"
    )
    assert thirteenth_set.photo_title("latex/jacow/TeamMeeting2019.jpg") == "team meeting 2019"
    assert thirteenth_set.photo_title("latex/hvfloat/sonne-meer.jpg") == "sonne meer"
    assert thirteenth_set.photo_title("tests/images/heif_other/nokia/bird_burst.heic") == "bird burst"
    assert thirteenth_set.photo_title("x/ibm-360-color.jpg") == "ibm 360 color"
    assert thirteenth_set.is_big_enough((300, 250)) and not thirteenth_set.is_big_enough((400, 240))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(text), source, "test")


def _judge(request: str, text: str, source: str = "texlive-latex-extra-doc") -> bool:
    return judged(thirteenth_set.QUERIES, request, words_of(text), source)


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("food", "french dip") and _judge("food", "italian calzones")
    assert not _judge("food", "cola public domain photo p")
    assert _judge("hamburger", "hawaiian burgers") and _judge("curry", "curried butternut squash soup")
    assert _judge("food but not soup", "grilled chicken with capers")
    assert not _judge("food but not soup", "pumpkin pie soup")
    assert _judge("bird", "penguins") and _judge("birds but not penguins", "bird burst")
    assert _judge("animals but not birds", "pug") and not _judge("animals but not birds", "penguins")
    assert _judge("dog", "pug") and _judge("animal", "frog") and not _judge("animal", "socrates")
    assert _judge("flowers", "pi orchid") and not _judge("flowers but not tulips", "tulips")
    assert _judge("mountain", "montblanc") and _judge("sea", "sonne meer") and _judge("sun", "sonne meer")
    assert _judge("greek philosopher", "pythagoras") and _judge("group of people", "team meeting 2019")
    assert _judge("computer", "ibm 360 color") and not _judge("computer", "library")
    requests = [q for q, _, _ in thirteenth_set.QUERIES]
    assert len(requests) == len(set(requests)) and len(requests) >= 25
    photos = [_photo(s, t) for s, t in PHOTOS]
    for request, rule, _ in thirteenth_set.QUERIES:
        assert any(rule(p) for p in photos), request  # every request has a relevant photo


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(thirteenth_set.ABSENT) == 20
    asked = {q for q, _, _ in thirteenth_set.QUERIES}
    for request, rule in thirteenth_set.ABSENT:
        assert request not in asked
        assert not any(rule(p) for p in photos), request
    assert "pizza" not in {q for q, _ in thirteenth_set.ABSENT}  # a calzone is a folded pizza


def _image(size: tuple[int, int], fmt: str = "JPEG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (120, 80, 40)).save(out, fmt)
    return out.getvalue()


def test_the_set_is_built_from_a_fake_package_cache(tmp_path: Path, monkeypatch):
    """Offline: the pinned packages' files laid out as `fetch` leaves them, the sdist's hash pinned."""
    cache = tmp_path / "cache"
    for i, (_name, path) in enumerate(thirteenth_set.DEB_PHOTOS):
        out = cache / "root" / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(_image((200, 180) if i == 0 else (320, 260)))  # the first is too small
    (cache / "sdists").mkdir(parents=True)
    version = thirteenth_set.SDISTS["pillow_heif"][0]
    sdist = cache / "sdists" / f"pillow_heif-{version}.tar.gz"
    with tarfile.open(sdist, "w:gz") as tar:
        for _name, member in thirteenth_set.SDIST_PHOTOS:
            data = _image((400, 300), "PNG")  # any format Pillow opens, whatever the name says
            info = tarfile.TarInfo(f"pillow_heif-{version}/{member}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    sha = hashlib.sha256(sdist.read_bytes()).hexdigest()
    monkeypatch.setitem(thirteenth_set.SDISTS, "pillow_heif", (version, sha))

    counts = thirteenth_set.write(tmp_path / "out", cache)

    assert counts["photos"] == len(PHOTOS) - 1  # the pumpkin pie soup was under 250 px here
    assert counts["absent"] == 20 and counts["queries"] >= 25
    by_id = golden_queries(tmp_path / "out" / "test")
    assert len(by_id["food"]["relevant"]) == 6
    assert [Path(r).stem for r in by_id["dog"]["relevant"]] == ["pug"]
    assert len(by_id["penguins or frogs"]["relevant"]) == 2
    for rel in by_id["animals"]["relevant"]:
        assert (tmp_path / "out" / "test" / rel).is_file()


def test_a_changed_source_archive_is_refused(tmp_path: Path):
    (tmp_path / "sdists").mkdir()
    version = thirteenth_set.SDISTS["pillow_heif"][0]
    (tmp_path / "sdists" / f"pillow_heif-{version}.tar.gz").write_bytes(b"not the pinned archive")
    try:
        thirteenth_set.sdist_path(tmp_path / "sdists", "pillow_heif")
    except ValueError as e:
        assert "pillow_heif" in str(e)
    else:
        raise AssertionError("an archive that does not match its sha256 was taken")
