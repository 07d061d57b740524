"""The lens a photo was taken with, as its EXIF names it: "taken with my tamron" was a concept
"tampon" (a spelling fix), "macro lens" and "fisheye lens" concepts no model labels. Now they are the
`lens` atom: a maker, a model, or a kind of lens in its makers' own words (Canon's "Macro", Nikon's
"Micro-Nikkor")."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.parser import parse_request
from photosearch.query.plan import validate_plan
from photosearch.query.search import search

from .gallery import catalog_of, sure_names

NOW = date(2024, 5, 15)

LENSES = {
    "bee.jpg": "EF100mm f/2.8L Macro IS USM",
    "ant.jpg": "AF-S VR Micro-Nikkor 105mm f/2.8G IF-ED",
    "street.jpg": "Sigma 35mm F1.4 DG HSM | A",
    "portrait.jpg": "TAMRON SP 24-70mm F2.8 Di VC USD G2",
    "room.jpg": "AF DX Fisheye-Nikkor 10.5mm f/2.8G ED",
    "phone.jpg": "iPhone 13 back camera 5.1mm f/1.6",
    "scan.jpg": None,
}


@pytest.mark.parametrize(
    ("request_text", "where"),
    [
        ("taken with my tamron", {"lens": "Tamron"}),
        ("shot with the sigma", {"lens": "Sigma"}),
        ("macro lens", {"lens": "macro"}),
        ("insects with the macro lens", {"and": [{"concept": "insect"}, {"lens": "macro"}]}),
        ("fisheye lens shots", {"lens": "fisheye"}),
        ("sigma 35mm", {"and": [{"lens": "Sigma"}, {"setting": {"of": "focal", "min": 35, "max": 35}}]}),
        ("lens: zeiss", {"lens": "zeiss"}),
        (
            "macro shots of insects",
            {"concept": "insect"},
        ),  # how it was shot: a phone's macro has no lens name
    ],
)
def test_a_lens_is_read_from_its_maker_or_kind(request_text, where):
    plan, _conf, _notes = parse_request(request_text, now=NOW)
    assert plan["where"] == where
    validate_plan(plan)


def test_a_lens_finds_the_photos_its_exif_names(store, settings):
    catalog_of(store, {name: {"lens": lens} for name, lens in LENSES.items()})
    assert sure_names(search(store, settings, "photos taken with a macro lens", now=NOW, signals=[])) == [
        "ant.jpg",
        "bee.jpg",
    ]
    assert sure_names(search(store, settings, "taken with my tamron", now=NOW, signals=[])) == [
        "portrait.jpg"
    ]
    assert sure_names(search(store, settings, "fisheye lens", now=NOW, signals=[])) == ["room.jpg"]
    res = search(store, settings, "shot with the sigma", now=NOW, signals=[])
    assert sure_names(res) == ["street.jpg"]
    assert res["results"][0]["why"][0]["text"] == "taken with the lens Sigma 35mm F1.4 DG HSM | A"
    res = search(store, settings, "lens: zeiss", now=NOW, signals=[])
    assert sure_names(res) == [] and "taken with a zeiss lens" in " ".join(res["explain"]["unmet"])
