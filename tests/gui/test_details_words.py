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


def test_a_face_without_a_name_says_how_it_looks(tmp_path):
    """The People line names each face's person, else the face model's likeliest word for it from
    the score search claims it at: "a woman (no name yet)"; a face it is unsure of has no name yet."""
    d = PhotoDetails(id=1, path=str(tmp_path / "three.jpg"), content_hash="x", width=40, height=30, exif={})
    left, middle, right = [0.1, 0.2, 0.2, 0.4], [0.4, 0.2, 0.5, 0.4], [0.7, 0.2, 0.8, 0.4]
    d.faces = [
        {"id": 1, "box": left, "score": 0.99, "person_id": 4, "name": "Anna"},
        {"id": 2, "box": middle, "score": 0.99, "person_id": None, "name": None},
        {"id": 3, "box": right, "score": 0.99, "person_id": None, "name": None},
    ]
    d.facts = {
        "face": [
            {"label": "woman", "score": 0.9, "box": left, "data": {}, "analyzer": "faces"},
            {"label": "man", "score": 0.7, "box": middle, "data": {}, "analyzer": "faces"},
            {"label": "old man", "score": 0.8, "box": middle, "data": {}, "analyzer": "faces"},
            {"label": "girl", "score": 0.3, "box": right, "data": {}, "analyzer": "faces"},
        ]
    }
    html = details_html(d)
    assert "Anna, an old man <span style='color:gray'>(no name yet)</span>, " in html
    assert html.count("no name yet") == 2 and "girl" not in html
