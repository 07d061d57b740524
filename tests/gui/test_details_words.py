"""The details panel says each colour once, and the subject's colours from the best source."""

from __future__ import annotations

from photosearch.core import PhotoDetails
from photosearch.gui.photo_view import details_html, subject_colours


def colour(label: str, analyzer: str, region: str | None = None) -> dict:
    return {"label": label, "score": 0.5, "analyzer": analyzer, "data": {"region": region} if region else {}}


def test_the_detectors_box_speaks_for_the_subject_and_each_colour_is_said_once():
    facts = [
        colour("brown", "quality"),
        colour("orange", "quality"),
        colour("orange", "quality", "subject"),  # the salient centre
        colour("green", "quality", "subject"),
        colour("orange", "detector", "subject"),  # the main object's box, twice over (two shades)
        colour("orange", "detector", "subject"),
        colour("brown", "detector", "subject"),
    ]
    assert subject_colours(facts) == ["orange", "brown"]
    assert subject_colours([f for f in facts if f["analyzer"] == "quality"]) == ["orange", "green"]
    assert subject_colours([colour("red", "quality")]) == []


def test_details_name_colours_in_plain_words(tmp_path):
    d = PhotoDetails(id=1, path=str(tmp_path / "cat.jpg"), content_hash="x", width=40, height=30, exif={})
    d.facts = {
        "color": [
            colour("brown", "quality"),
            colour("brown", "quality"),
            colour("orange", "detector", "subject"),
        ],
        "attribute": [{"label": "bright", "score": 1.0, "analyzer": "quality", "data": {}}],
    }
    html = details_html(d)
    assert "Colour of the subject" in html and html.count("brown") == 1
    assert "Attribute" not in html and "Color<" not in html
