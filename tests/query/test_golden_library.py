"""Golden library: user pairs round-trip, nearest examples (n-grams and MiniLM), pattern steering."""

from __future__ import annotations

import pytest

from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.query.golden import GoldenLibrary, add_user_example, get_library, load_user, user_file
from photosearch.query.plan import make_plan, plans_equal
from photosearch.query.planner import Planner

from .conftest import NOW


def test_user_library_round_trip(tmp_path, golden_examples):
    settings = Settings(data_dir=tmp_path)
    plan = make_plan({"or": [{"person": "Anna"}, {"concept": "cake"}]}, {"limit": 5})
    add_user_example(settings, "Anna stuff", plan, now=NOW, people=["Anna"])
    add_user_example(
        settings, "anna  stuff!", make_plan({"person": "Anna"}), now=NOW
    )  # same request: replaces
    loaded = load_user(settings)
    assert len(loaded) == 1 and loaded[0].plan["where"] == {"person": "Anna"} and loaded[0].source == "user"
    assert user_file(settings).is_file()
    lib = get_library(settings, use_embedder=False)
    assert len(lib) == len(golden_examples) + 1
    r = Planner(settings, library=lib, use_llm=False).plan("Anna stuff", now=NOW)
    assert r.source == "golden" and r.plan["where"] == {"person": "Anna"}
    with pytest.raises(PhotoSearchError):
        add_user_example(settings, "x", {"where": {"bogus": 1}})
    assert len(load_user(settings)) == 1  # a bad pair loses nothing


def test_ngram_nearest(ngram_library):
    hits = ngram_library.nearest("photos of Lisa or Tom", k=3)
    assert ngram_library.backend == "ngram"
    assert any("or" in e.request and ("Tom" in e.request or "Lisa" in e.request) for e, _ in hits)
    assert hits[0][1] >= hits[-1][1]


@pytest.mark.slow
def test_minilm_nearest(golden_examples, tmp_path):
    from photosearch.models.manifest import ModelUnavailable
    from photosearch.vision.text_embedder import get_text_embedder

    try:
        get_text_embedder(Settings(data_dir=tmp_path)).embed_one("probe")
    except ModelUnavailable as exc:
        pytest.fail(f"MiniLM not installed: {exc}")
    lib = GoldenLibrary(golden_examples, settings=Settings(data_dir=tmp_path))
    hits = lib.nearest("pictures of puppies on the sand", k=5)
    assert lib.backend == "minilm"
    assert any("dog" in e.request or "beach" in e.request for e, _ in hits)


def test_pattern_steering_reuses_verified_structure(ngram_library):
    """'X and Y or Z' is ambiguous for the parser; the verified pair's structure is reused."""
    people = ["Anna", "Tom", "Lisa", "Mark Smith"]
    r = Planner(library=ngram_library, use_llm=False).plan(
        "Lisa and Mark Smith or Tom", now=NOW, people=people
    )
    assert r.source == "pattern" and r.examples == ["Anna and Tom or Lisa"]
    expected = make_plan({"or": [{"and": [{"person": "Lisa"}, {"person": "Mark Smith"}]}, {"person": "Tom"}]})
    assert plans_equal(r.plan, expected)
    # a confident parse is not overridden
    r = Planner(library=ngram_library, use_llm=False).plan("Lisa and Tom", now=NOW, people=people)
    assert r.source == "parser"
