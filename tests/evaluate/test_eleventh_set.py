"""The eleventh test set: descriptions read from the packages' own words, judgements from them."""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import eleventh_set
from photosearch.evaluate.heldout import Photo, words_of

from .rules import judged

CARS = """<ul>
            <li><a href="#" class="cars" id="bmw"><img src="../_assets/img/bmw-thumb.jpg" alt="BMW"><h2>BMW</h2><p>5 series</p></a></li>
            <li><a href="#" class="cars" id="tesla"><img src="../_assets/img/tesla-thumb.jpg" alt="Tesla"><h2>Tesla</h2><p>Model S</p></a></li>
</ul>"""
PORTFOLIO = """<a class="portfolio-item" href="#!">
    <div class="caption">
        <div class="caption-content">
            <div class="h2">Strawberries</div>
            <p class="mb-0">Strawberries are such a tasty snack, especially with a little sugar on top!</p>
        </div>
    </div>
    <img class="img-fluid" src="assets/img/portfolio-3.jpg" alt="..." />
</a>"""
TEXTS = (
    "paris paris france city", "new york new york usa city", "cape town city", "seoul city",
    "bmw 5 series car", "land rover discovery 4 car", "tesla model s car", "fixed gear bike", "bike",
    "cacti", "lake geneva", "riding a bike", "city", "fat cat", "lion", "cave", "washington",
    "white house", "stationary a yellow pencil with envelopes on a clean blue backdrop",
    "ice cream a dark blue background with a colored pencil a clip and a tiny ice cream cone",
    "strawberries strawberries are such a tasty snack especially with a little sugar on top",
    "workspace a yellow workspace with some scissors pencils and other objects",
)  # fmt: skip


def test_every_source_is_pinned_to_an_exact_version_and_its_hash():
    for name, (version, integrity) in eleventh_set.NPM.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version), name
        assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", integrity), name
    for name, (version, sha256) in eleventh_set.WHEELS.items():
        assert re.fullmatch(r"\d+\.\d+\.\d+", version) and re.fullmatch(r"[0-9a-f]{64}", sha256), name


def test_descriptions_come_from_the_packages_own_words():
    assert eleventh_set.jqm_cars(CARS) == {"bmw": "BMW 5 series", "tesla": "Tesla Model S"}
    assert eleventh_set.portfolio_captions(PORTFOLIO) == {
        "portfolio-3.jpg": (
            "Strawberries",
            "Strawberries are such a tasty snack, especially with a little sugar on top!",
        )
    }
    assert eleventh_set.page_title("<head><title>Cape Town</title></head>") == "Cape Town"
    assert eleventh_set.is_big_enough((307, 250)) and not eleventh_set.is_big_enough((307, 173))


def _judge(request: str, text: str) -> bool:
    return judged(eleventh_set.QUERIES, request, words_of(text))


def test_rules_judge_by_the_words_read_plainly():
    assert _judge("cars", "tesla model s car") and _judge("suv", "land rover discovery 4 car")
    assert _judge("bicycle", "fixed gear bike") and _judge("vehicles but not cars", "riding a bike")
    assert not _judge("vehicles but not cars", "bmw 5 series car")
    assert _judge("france", "paris paris france city") and not _judge("france", "cape town city")
    assert _judge("cities but not paris", "seoul city") and not _judge("cities but not paris", "paris city")
    assert _judge("cat", "fat cat") and not _judge("cat", "cacti") and _judge("big cat", "lion")
    assert _judge("stationery", TEXTS[-4]) and _judge("blue background", TEXTS[-3])
    assert not _judge("food", TEXTS[-3])  # the tiny ice cream cone is asked by its name only
    assert _judge("pencils but no scissors", TEXTS[-3]) and not _judge("pencils but no scissors", TEXTS[-1])
    requests = [q for q, _, _ in eleventh_set.QUERIES]
    assert len(requests) == len(set(requests)) and len(requests) >= 80


def test_no_absent_request_is_in_any_photos_words():
    photos = [Photo("pictures/x.jpg", words_of(t), "test", "test") for t in TEXTS]
    assert len(eleventh_set.ABSENT) == 20
    for request, rule in eleventh_set.ABSENT:
        assert not any(rule(p) for p in photos), request
    for _, member in eleventh_set.NAMED:
        assert "sushi" not in Path(member).stem.lower()  # a cat's name, left out
