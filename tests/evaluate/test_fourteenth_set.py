"""The fourteenth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import io
import re
import tarfile
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate import fetched, fourteenth_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import golden_queries, judged, relevant_stems

#: The Pexels pages Plasma's `.license` files credit (their addresses' titles).
PEXELS = {
    "Air Balloon": "yellow-blue-and-green-hot-air-balloon-flying-near-white-clouds-68806",
    "Astronaut": "space-research-science-astronaut-41162",
    "Books": "bench-blur-books-color-459791",
    "Brushes": "abstract-art-artist-artistic-262034",
    "Bulb": "brown-framed-light-bulb-745708",
    "Car": "action-asphalt-auto-racing-automobile-274974",
    "Cat": "brown-tabby-cat-on-floor-1457595",
    "Chameleon": "animal-green-reptile-female-62289",
    "Cocktail": "sea-sky-beach-holiday-68672",
    "Dog": "animal-dog-pet-tongue-6877",
    "Fish": "orange-and-white-fish-886210",
    "Gamepad": "accessory-buttons-console-control-275033",
    "Owl": "bird-animal-owl-3890",
    "Pancakes": "selective-focus-of-pile-of-pan-cakes-730922",
    "Parrot": "red-blue-and-green-bird-on-tree-1331819",
    "Pencils": "colored-pencil-on-top-of-white-surface-42226",
    "Shuttle": "flight-sky-earth-space-2159",
    "Soccer": "soccer-ball-on-grass-field-during-daytime-46798",
    "Sunflower": "nature-garden-spring-flower-6695",
    "Sushi": "tilt-shift-photography-of-maki-681586",
}
#: (source, words) of every photo the set takes.
PHOTOS = (
    *(
        ("plasma-workspace-data", f"{name} {re.sub(r'-[0-9]+$', '', slug).replace('-', ' ')}".lower())
        for name, slug in PEXELS.items()
    ),
    ("texlive-lang-arabic", "gull"), ("texlive-lang-english", "m 33 figure"),
    ("texlive-lang-english", "campus 3"), ("texlive-lang-other", "leslie lamport"),
    ("texlive-science-doc", "vieux livres"),
    ("texlive-xetex", "cqu campus d"), ("context", "mill"), ("context", "nodes sun pia 03149"),
    ("afterstep-data", "rose 512"), ("libmlv3-dev", "flower"), ("librust-rust-embed-dev", "flower"),
    ("exif-parser", "starfish"),
)  # fmt: skip


def _license(slug: str) -> str:
    return (
        "# SPDX-FileCopyrightText: 2018 Skitterphoto <info@skitterphoto.com>\n#\n"
        f"# SPDX-License-Identifier: CC0-1.0\n#\n# https://www.pexels.com/photo/{slug}/\n"
    )


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, integrity) in fourteenth_set.NPM.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), name
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), name
    for name, version in fourteenth_set.DEBS.items():
        assert re.fullmatch(r"(\d+:)?[\w.~+]+-[\w.~+]+", version), name
    assert {s for s, _ in fourteenth_set.DEB_PHOTOS} | {"plasma-workspace-data"} == set(fourteenth_set.DEBS)
    assert {s for s, _ in fourteenth_set.NPM_PHOTOS} == set(fourteenth_set.NPM)
    assert set(fourteenth_set.PLASMA_PHOTOS) == set(PEXELS)
    titles = [fourteenth_set.photo_title(m) for _, m in fourteenth_set.DEB_PHOTOS + fourteenth_set.NPM_PHOTOS]
    assert sorted(titles) == sorted(t for s, t in PHOTOS if s != "plasma-workspace-data")


def test_descriptions_come_from_the_packages_own_words():
    assert fourteenth_set.photo_title("img/vieuxlivres.jpg") == "vieux livres"
    assert fourteenth_set.photo_title("nodes/nodes-sun-pia-03149.jpg") == "nodes sun pia 03149"
    assert fourteenth_set.photo_title("figure/CQU_Campus_D.jpg") == "cqu campus d"
    assert fourteenth_set.photo_title("images/M33_figure.jpeg") == "m 33 figure"
    assert fourteenth_set.pexels_title(_license(PEXELS["Cat"])) == "brown tabby cat on floor"
    assert fourteenth_set.pexels_title(_license(PEXELS["Air Balloon"])) == (
        "yellow blue and green hot air balloon flying near white clouds"
    )
    with pytest.raises(ValueError, match="Pexels"):
        fourteenth_set.pexels_title("# SPDX-License-Identifier: CC0-1.0\n")
    assert fourteenth_set.is_big_enough((300, 250)) and not fourteenth_set.is_big_enough((248, 206))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(text), source, "test")


def _judge(request: str, text: str, source: str = "plasma-workspace-data") -> bool:
    return judged(fourteenth_set.QUERIES, request, words_of(text), source)


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("bird", "parrot red blue and green bird on tree") and _judge("birds", "gull")
    assert _judge("birds but not owls", "gull") and not _judge("birds but not owls", "owl bird animal owl")
    assert _judge("animals", "starfish") and not _judge("fish", "starfish")
    assert _judge("animals but not birds", "chameleon animal green reptile female")
    assert not _judge("animals but not cats", "cat brown tabby cat on floor")
    assert _judge("lizard", "chameleon animal green reptile female")
    assert _judge("flowers", "rose 512") and not _judge("flowers but not sunflowers", "sunflower")
    assert _judge("food", "sushi tilt shift photography of maki") and not _judge("food", "cocktail sea")
    assert _judge("food but not sushi", "pancakes selective focus of pile of pan cakes")
    assert _judge("books", "vieux livres") and _judge("books or pencils", "pencils colored pencil")
    assert _judge("galaxy", "m 33 figure") and _judge("sun", "nodes sun pia 03149")
    assert not _judge("sun", "sunflower nature garden spring flower")
    assert _judge("person", "leslie lamport") and _judge("person", "astronaut space research")
    assert not _judge("person", "owl bird animal owl")
    assert _judge("campus", "cqu campus d") and _judge("paintbrushes", "brushes abstract art")
    requests = [q for q, _, _ in fourteenth_set.QUERIES]
    assert len(requests) == len(set(requests)) and len(requests) >= 50
    photos = [_photo(s, t) for s, t in PHOTOS]
    for request, rule, _ in fourteenth_set.QUERIES:
        assert any(rule(p) for p in photos), request  # every request has a relevant photo


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(fourteenth_set.ABSENT) == 20
    asked = {q for q, _, _ in fourteenth_set.QUERIES}
    for request, rule in fourteenth_set.ABSENT:
        assert request not in asked
        assert not any(rule(p) for p in photos), request


def _image(path: Path, size: tuple[int, int] = (320, 260), mode: str = "RGB") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, "grey").save(path)


def _fake_cache(cache: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    debian = cache / "root" / "debian"
    for name, slug in PEXELS.items():
        _image(debian / fourteenth_set.PLASMA / f"{name}.png", (512, 512), "RGBA")
        (debian / fourteenth_set.PLASMA / f"{name}.png.license").write_text(_license(slug), encoding="utf-8")
    for i, (_name, path) in enumerate(fourteenth_set.DEB_PHOTOS):
        _image(debian / path, (200, 180) if i == 0 else (400, 300))  # the gull is too small here
    for name, member in fourteenth_set.NPM_PHOTOS:
        _image(cache / "root" / name / member, (1278, 720))
    return cache


def test_the_set_is_built_from_a_fake_package_cache(tmp_path: Path):
    """Offline: the pinned packages' files laid out as `fetch` leaves them."""
    counts = fourteenth_set.write(tmp_path / "out", _fake_cache(tmp_path / "cache"))

    assert counts["photos"] == len(PHOTOS) - 1  # the gull was under 250 px here
    assert counts["absent"] == 20 and counts["queries"] >= 50
    assert counts["sources"] == sorted({s for s, _ in PHOTOS} - {"texlive-lang-arabic"})  # its gull
    by_id = golden_queries(tmp_path / "out" / "test")
    stems = relevant_stems({qid: q["relevant"] for qid, q in by_id.items()})

    assert stems["birds"] == ["owl", "parrot"]
    assert stems["flowers"] == ["flower", "flower_2", "rose_512", "sunflower"]
    assert stems["books"] == ["books", "vieux_livres"]
    assert stems["hot air balloon"] == ["air_balloon"]
    assert stems["animals but not birds"] == ["cat", "chameleon", "dog", "fish", "starfish"]
    for rel in by_id["animals"]["relevant"]:
        assert (tmp_path / "out" / "test" / rel).is_file()


def test_a_changed_npm_tarball_is_refused(tmp_path: Path):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        info = tarfile.TarInfo("package/test/starfish.jpg")
        info.size = 4
        tar.addfile(info, io.BytesIO(b"jpeg"))
    version = fourteenth_set.NPM["exif-parser"][0]
    (tmp_path / "npm").mkdir()
    (tmp_path / "npm" / f"exif-parser-{version}.tgz").write_bytes(data.getvalue())
    with pytest.raises(ValueError, match="integrity"):
        fetched.download_npm(fourteenth_set.NPM, tmp_path / "npm", tmp_path / "root")
