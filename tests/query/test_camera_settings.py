"""Camera settings in words: which words of a request are a setting (and which are not: "flash
drive", "35mm film", "a 10 second video", "1/12" as a date), the setting atom's validation, its
words back ("ISO 1600 or more") read again as the same atom, and EXIF values read safely."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.metadata.exposure import from_facts, label_of, read_exposure, summary
from photosearch.metadata.model import Block
from photosearch.query.camera_settings import read_setting, setting_text
from photosearch.query.parser import parse_request
from photosearch.query.plan import PlanError, plan_to_text, validate_plan
from photosearch.query.unmet import describe

NOW = date(2026, 6, 15)


def _settings(request: str) -> list[dict]:
    """The setting atoms of a request's plan, with their polarity ("not" around a negated one)."""
    plan, _, _ = parse_request(request, now=NOW)
    where = plan["where"]
    parts = where.get("and", [where])
    return [p for p in parts if "setting" in p or "setting" in p.get("not", {})]


def _s(of: str, lo=None, hi=None) -> dict:
    return {"setting": {"of": "flash"}} if of == "flash" else {"setting": {"of": of, "min": lo, "max": hi}}


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("photos taken with flash", [_s("flash")]),
        ("flash photos", [_s("flash")]),
        ("selfies with flash", [_s("flash")]),
        ("photos without flash", [{"not": _s("flash")}]),
        ("birthday with no flash", [{"not": _s("flash")}]),
        ("sunset with the flash off", [{"not": _s("flash")}]),
        ("f/1.8", [_s("aperture", 1.8, 1.8)]),
        ("f1.8 portraits", [_s("aperture", 1.8, 1.8)]),
        ("landscapes at f8", [_s("aperture", 8, 8)]),
        ("aperture 5.6", [_s("aperture", 5.6, 5.6)]),
        ("f/2.8 or wider", [_s("aperture", None, 2.8)]),
        ("f/8 or narrower", [_s("aperture", 8, None)]),
        ("iso 3200", [_s("iso", 3200, 3200)]),
        ("iso over 1600", [_s("iso", 1600, None)]),
        ("above iso 1600", [_s("iso", 1600, None)]),
        ("iso 1600 or higher", [_s("iso", 1600, None)]),
        ("iso 1600+", [_s("iso", 1600, None)]),
        ("iso 100-400", [_s("iso", 100, 400)]),
        ("high iso night shots", [_s("iso", 1600, None)]),
        ("low iso", [_s("iso", None, 200)]),
        ("1/250s", [_s("shutter", 0.004, 0.004)]),
        ("shutter speed 1/60", [_s("shutter", 1 / 60, 1 / 60)]),
        ("shutter faster than 1/500", [_s("shutter", None, 1 / 500)]),
        ("2 second exposure", [_s("shutter", 2, 2)]),
        ("30s exposure of the stars", [_s("shutter", 30, 30)]),
        ("long exposure waterfall", [_s("shutter", 1, None)]),
        ("slow shutter", [_s("shutter", 1 / 30, None)]),
        ("fast shutter speed", [_s("shutter", None, 1 / 1000)]),
        ("high shutter speed", [_s("shutter", None, 1 / 1000)]),
        ("50mm", [_s("focal", 50, 50)]),
        ("85mm portraits", [_s("focal", 85, 85)]),
        ("24-70mm", [_s("focal", 24, 70)]),
        ("over 200mm", [_s("focal", 200, None)]),
        ("26mm equivalent", [_s("focal35", 26, 26)]),
        ("telephoto shots of birds", [_s("focal35", 70, None)]),
        ("super telephoto", [_s("focal35", 300, None)]),
        ("wide angle shot of the beach", [_s("focal35", None, 35)]),
        ("ultra wide photos", [_s("focal35", None, 24)]),
        ("portraits at 85mm f/1.4", [_s("focal", 85, 85), _s("aperture", 1.4, 1.4)]),
        # not settings
        ("flash drive on the desk", []),
        ("a flash of lightning", []),
        ("flash flood", []),
        ("flash mob in the square", []),
        ("the flash", []),
        ("35mm film photos", []),
        ("8mm film", []),
        ("a 10 second video", []),
        ("photos from 1/12", []),
        ("f1 race", []),
        ("1/2 marathon", []),
        ("a 50 mm lens on the table", []),
        ("high exposure", []),
        ("usb flash drives", []),
    ],
)
def test_which_words_are_a_camera_setting(request_text, expected):
    got = _settings(request_text)
    assert len(got) == len(expected), got
    for g, e in zip(got, expected, strict=True):
        gv, ev = g.get("not", g)["setting"], e.get("not", e)["setting"]
        assert ("not" in g) == ("not" in e) and gv["of"] == ev["of"]
        for bound in ("min", "max"):
            assert gv.get(bound) == pytest.approx(ev.get(bound)), (bound, gv)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ({"of": "aperture", "min": 1.8, "max": 1.8}, "f/1.8"),
        ({"of": "aperture", "min": None, "max": 2.8}, "f/2.8 or wider"),
        ({"of": "aperture", "min": 2.8, "max": 4}, "f/2.8 to f/4"),
        ({"of": "iso", "min": 1600, "max": None}, "ISO 1600 or more"),
        ({"of": "iso", "min": 100, "max": 400}, "ISO 100 to 400"),
        ({"of": "shutter", "min": 0.004, "max": 0.004}, "1/250 s"),
        ({"of": "shutter", "min": None, "max": 0.001}, "1/1000 s or faster"),
        ({"of": "shutter", "min": 1, "max": None}, "1 s or slower"),
        ({"of": "focal", "min": 24, "max": 70}, "24 to 70 mm"),
        ({"of": "focal35", "min": 70, "max": None}, "70 mm or longer in 35 mm terms"),
        ({"of": "flash"}, "flash fired"),
    ],
)
def test_a_settings_words_read_back_as_the_same_setting(value, words):
    assert setting_text(value) == words
    read = read_setting(words)["setting"]
    assert read["of"] == value["of"]
    for bound in ("min", "max"):
        assert read.get(bound) == pytest.approx(value.get(bound))


def test_words_that_say_no_setting_read_as_none():
    assert read_setting("a dog") is None
    assert read_setting("") is None


def test_the_setting_atom_validates():
    plan = validate_plan({"where": {"setting": {"of": "iso", "min": 800}}})
    assert plan["where"] == {"setting": {"of": "iso", "min": 800, "max": None}}
    assert plan_to_text(plan).startswith("taken at ISO 800 or more")
    flash = validate_plan({"where": {"not": {"setting": {"of": "flash"}}}})
    assert "NOT taken with flash" in plan_to_text(flash)
    assert describe({"setting": {"of": "shutter", "min": 1, "max": None}}) == "taken at 1 s or slower"
    for bad in (
        {"of": "zoom", "min": 1},
        {"of": "iso"},
        {"of": "iso", "min": 0},
        {"of": "iso", "min": -100},
        {"of": "iso", "min": True},
        {"of": "iso", "min": "800"},
        {"of": "iso", "min": float("inf")},
        {"of": "iso", "min": 800, "max": 400},
        {"of": "flash", "min": 1},
        {"of": "iso", "min": 800, "unit": "iso"},
        "iso 800",
    ):
        with pytest.raises(PlanError):
            validate_plan({"where": {"setting": bad}})


def _block(exif: dict | None = None, xmp: dict | None = None) -> Block:
    return Block("the file", exif=exif or {}, xmp=xmp or {})


def test_exif_values_are_read_and_odd_ones_are_dropped():
    got = read_exposure(
        _block(
            {
                "Exif.Photo.FNumber": "0/0",  # broken: the APEX value stands in
                "Exif.Photo.ApertureValue": "2/1",  # APEX 2: f/2
                "Exif.Photo.ExposureTime": "abc",
                "Exif.Photo.ShutterSpeedValue": "-1/1",  # APEX -1: 2 s
                "Exif.Photo.ISOSpeedRatings": "65535",  # a SHORT's ceiling: the real ISO is elsewhere
                "Exif.Photo.RecommendedExposureIndex": "102400",
                "Exif.Photo.FocalLength": "1e400",
                "Exif.Photo.FocalLengthIn35mmFilm": "0",  # "unknown"
                "Exif.Photo.Flash": "32",  # no flash function: did not fire
            }
        )
    )
    assert got.aperture == pytest.approx(2.0) and got.shutter == pytest.approx(2.0)
    assert got.iso == 102400 and got.focal is None and got.focal35 is None and got.flash is False
    hostile = read_exposure(
        _block({"Exif.Photo.FNumber": "1/0", "Exif.Photo.ISOSpeedRatings": "-5", "Exif.Photo.Flash": "9999"})
    )
    assert hostile.aperture is None and hostile.iso is None and hostile.flash is None
    listed = read_exposure(
        _block(xmp={"Xmp.exif.ISOSpeedRatings": ["400", "400"], "Xmp.exif.Flash/exif:Fired": "True"})
    )
    assert listed.iso == 400 and listed.flash is True


def test_labels_and_summary_say_values_as_photographers_do():
    assert label_of("aperture", 1.7999) == "1.8" and label_of("shutter", 1 / 60) == "0.01667"
    facts = {
        "aperture": [{"label": "1.8"}],
        "shutter": [{"label": "0.01667"}],
        "flash": [{"label": "not fired"}],
    }
    assert summary(from_facts(facts)) == "f/1.8 · 1/60 s · no flash"
