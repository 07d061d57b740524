"""The subject's colours: the detector's main object where there is one, else the salient centre."""

from __future__ import annotations

from photosearch.query.search import search
from photosearch.records import FactRecord

from .gallery import add_photos_with_facts


def centre(name: str, share: float) -> FactRecord:
    return FactRecord("color", name, share, data={"region": "subject"})


def boxed(name: str, share: float, of: str) -> FactRecord:
    return FactRecord("color", name, share, data={"region": "subject", "of": of})


def colour(store, settings, name: str) -> list[str]:
    plan = {"version": 1, "where": {"color": name}, "compose": {}}
    res = search(store, settings, plan=plan, signals=[], explain=True)
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])


def test_the_main_object_box_stands_for_the_subject(store, settings):
    facts = {
        # a grey street, the centre purple: no object found, the centre is the subject
        "street.jpg": [FactRecord("color", "gray", 0.9), centre("purple", 0.5)],
        # the same frame and centre, but the detector's car is yellow: the car is the subject
        "car.jpg": [FactRecord("color", "gray", 0.9), centre("purple", 0.5), boxed("yellow", 0.6, "car")],
        # a red car off-centre on a green field: red is a twentieth of the frame, most of the car
        "field.jpg": [FactRecord("color", "green", 0.8), centre("green", 0.9), boxed("red", 0.55, "car")],
    }
    add_photos_with_facts(store, facts, "quality")
    assert colour(store, settings, "purple") == ["street.jpg"]
    assert colour(store, settings, "yellow") == ["car.jpg"]
    assert colour(store, settings, "red") == ["field.jpg"]
    assert colour(store, settings, "green") == ["field.jpg"]  # the frame's own colour still counts
