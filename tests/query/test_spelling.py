"""Typos are read as the noun one edit away and the request says so; words WordNet or the English
word list knows, names, abbreviations and words with no common noun close by stay as typed, and a
file type ("heic files", "jpegs") is the files of that type, never a typo ("heir", "pegs")."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.parse_state import PlanContext
from photosearch.query.parser import parse_request
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo, sure_names

NOW = date(2024, 5, 15)


@pytest.mark.parametrize(
    "typed,where,said",
    [
        ("flowrs", {"concept": "flower"}, "flowrs"),
        ("mountians", {"concept": "mountain"}, "mountians"),  # two letters swapped
        ("dgos on the beach", {"and": [{"concept": "dog"}, {"concept": "beach"}]}, "dgos"),
        ("resturant", {"concept": "restaurant"}, "resturant"),
        ("chrismas tree", {"concept": "christmas tree"}, "chrismas"),
        ("accomodation", {"concept": "accommodation"}, "accomodation"),  # a letter left out
        ("picutres of my cat", {"concept": "cat"}, "picutres"),  # a word that says nothing, misspelt
        # two typos apart are two typos, not a name (was a concept "pictres dgos")
        ("pictres of my dgos", {"concept": "dog"}, "dgos"),
        ("hte beach", {"concept": "beach"}, "hte"),  # a short word that says nothing, two letters swapped
        # read again as meant: a place, a holiday (were concepts "barcelona", "italy", "christmas")
        ("beach in barcelonna", {"and": [{"concept": "beach"}, {"place": "Barcelona"}]}, "barcelonna"),
        ("wedding in itlay", {"and": [{"concept": "wedding"}, {"place": "Italy"}]}, "itlay"),
        ("photos from londn", {"place": "London"}, "londn"),
        ("chirstmas", {"yearly": {"from": "12-24", "to": "12-26"}}, "chirstmas"),
    ],
)
def test_a_typo_is_read_as_the_word_meant(typed, where, said):
    plan, _conf, notes = parse_request(typed, now=NOW)
    assert plan["where"] == where
    assert any(n.startswith(f"“{said}” was read as “") for n in notes), notes
    assert not any("not a person or place" in n for n in notes)
    assert _conf < 1.0  # a typo lowers the reading's confidence a little


@pytest.mark.parametrize(
    "typed",
    [
        "selfie",  # English, though not in WordNet
        "lego",
        "capybara",
        "beech",  # a tree, not "beach"
        "narwal",  # WordNet's own variant of narwhal
        "tiktok",  # nothing common one edit away
        "airpods",
        "giraf",  # "graf" is one edit away, but rare: no guess ("giraffe" is two)
        "bycicle",  # two edits from "bicycle": two would guess wrong too often ("airpods", "airport")
        "cst",  # too short to guess
        "usb",  # an abbreviation, not a "sub"
        "cpu",
        "suv",
        "bbqs",  # an abbreviation: no vowel
        # foods, breeds and brands one edit from another word (resources/everyday_words.txt)
        "macarons",  # was "macaroni"
        "boba",  # was "bob"
        "chai",  # was "chair"
        "matcha",  # was "match"
        "poutine",  # was "routine"
        "xbox",  # was "box"
    ],
)
def test_words_and_unguessable_words_stay_as_typed(typed):
    plan, _conf, notes = parse_request(typed, now=NOW)
    assert not any("was read as" in n for n in notes), notes
    assert typed.rstrip("s") in str(plan["where"]) or typed in str(plan["where"])


def test_a_name_or_a_word_the_library_knows_is_never_corrected():
    ctx = PlanContext(albums=["Flowrs"], folders=["kitchn"], words=frozenset({"sintra", "piza"}))
    for typed in ("flowrs", "kitchn", "piza", "Sintra", "Resturant"):  # a capital: a name
        _plan, _conf, notes = parse_request(typed, now=NOW, context=ctx)
        assert not any("was read as" in n for n in notes), notes


def test_search_finds_what_the_typo_meant_and_says_how_it_read_it(store, settings):
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, tag in (("tulips.jpg", "flower"), ("teapot.jpg", "teapot")):
            photo = add_photo(s, folder, name)
            store.write_analysis(
                s, photo.id, "tagger", 1, AnalysisResult(facts=[FactRecord("tag", tag, 0.9)])
            )
    res = search(store, settings, "flowrs", signals=[])
    assert sure_names(res) == ["tulips.jpg"]
    assert "“flowrs” was read as “flowers”" in res["explain"]["remarks"]


def test_a_file_type_finds_its_files(store, settings):
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name in ("IMG_1.HEIC", "IMG_2.jpg", "scan.jpeg", "logo.png"):
            add_photo(s, folder, name)
    assert sure_names(search(store, settings, "heic files", signals=[])) == ["IMG_1.HEIC"]
    assert sure_names(search(store, settings, "jpegs", signals=[])) == ["IMG_2.jpg", "scan.jpeg"]


def test_a_request_looks_up_a_few_unknown_words_at_most():
    """A long request of made-up words (or a hostile one) looks up `MAX_TRIES` words, no more."""
    from photosearch.query import spelling

    typos = ["flowrs", "kitchn", "piza", "waterfal", "skatebord", "helicopeter", "resturant", "mountians"]
    _plan, _conf, notes = parse_request(" and ".join(typos), now=NOW)
    assert len([n for n in notes if "was read as" in n]) == spelling.MAX_TRIES < len(typos)


def test_a_word_read_in_a_photo_is_no_typo(store, settings):
    """The sign says "Piza": the library knows the word, so the request is not read as "pizza"."""
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        photo = add_photo(s, folder, "sign.jpg")
        store.write_analysis(
            s, photo.id, "ocr", 1, AnalysisResult(facts=[FactRecord("text", "PIZA NAPOLI", 0.9)])
        )
    res = search(store, settings, "piza", signals=[])
    assert not any("was read as" in r for r in res["explain"]["remarks"])
    assert res["plan"]["where"] == {"concept": "piza"}
