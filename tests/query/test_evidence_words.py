"""A result's evidence in words, the same in the app and the CLI: no model's or signal's internal
name, and on the CLI how each word of the request reached its label."""

from __future__ import annotations

from photosearch.cli.search import _result_line
from photosearch.query.evidence_words import why_words

WHY = [
    {"atom": "concept", "query": "wave", "fact": "tag", "label": "seashore", "score": 0.5, "route": "scene",
     "text": "wave ≈ seashore (scene)"},
    {"atom": "concept", "query": "wave", "fact": "tag", "label": "seashore", "score": 0.5},  # said once
    {"atom": "concept", "query": "wave", "fact": "imagenet", "label": "seashore"},
    {"atom": "concept", "query": "wave", "fact": "coco", "label": "surfboard"},
    {"atom": "concept", "query": "wave", "fact": "facts_text", "similarity": 0.208},
    {"atom": "concept", "query": "two dog", "fact": "count", "count": 2, "text": "2 dogs"},
]  # fmt: skip


def test_the_cli_says_the_evidence_in_words_with_the_route_each_word_took():
    line = _result_line({"score": 0.724, "path": "/p/waves.avif", "why": WHY})
    assert line == (
        "0.724  /p/waves.avif  [seashore (tag, 50 %; wave ≈ seashore (scene)), seashore (looks like), "
        "surfboard (looks like), similar description (21 %), 2 dogs]"
    )
    for internal in ("imagenet", "coco", "facts_text", "~", "tag:"):
        assert internal not in line


def test_the_app_says_at_most_five_pieces_without_routes():
    assert why_words(WHY, most=2) == "seashore (tag, 50 %), seashore (looks like)"
    measured = {"atom": "concept", "fact": "attribute", "label": "dark", "score": 1.0}
    assert why_words([measured]) == "dark (measured, 100 %)"  # from the pixels, not a model's label
