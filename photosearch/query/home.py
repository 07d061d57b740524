"""Where home is: the country, and the town in it, where most of the library's photos with a place were
taken. "photos taken abroad", "my home town", "far from home" ask about it (`claims/home.py`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from photosearch.query.places import COUNTRIES


@dataclass(frozen=True)
class Home:
    """Home's town and country, as place atoms name them ("Lisbon", "Portugal"); `chosen`: set in
    Settings, not found from the photos."""

    town: str
    country: str
    chosen: bool = False


def chosen_home(name: str) -> Home | None:
    """The home a place name set in Settings means (its town, or a region's or country's name, and its
    country; "Springfield, Illinois" narrowed as a plan's place is); None for a name the gazetteer
    does not know."""
    from photosearch.query.places import resolve_place

    places = resolve_place(name)
    if not places:
        return None
    place = places[0]
    country = COUNTRIES.get(place.cc.upper(), (place.cc,))[0] if place.cc else place.name
    _head, comma, qualifier = name.partition(",")
    town = country if place.kind == "country" else place.name + (f", {qualifier.strip()}" if comma else "")
    return Home(town, country, chosen=True)  # "Springfield, Illinois" stays narrowed in the place atom


def home_of(snap) -> Home | None:
    """The country most photos with a place were taken in, and its town with the most of them; None
    where no photo has a place. Once per snapshot."""
    if "home" not in snap.cache:
        snap.cache["home"] = _most_photographed(snap.place_code, snap.places)
    return snap.cache["home"]


def _most_photographed(place_code: np.ndarray, places: list[dict]) -> Home | None:
    codes = place_code[place_code >= 0]
    if not codes.size:
        return None
    counts = np.bincount(codes, minlength=len(places))
    by_country: dict[str, int] = {}
    for place, count in zip(places, counts.tolist(), strict=True):
        cc = str(place.get("cc") or "").upper()
        if cc and count:
            by_country[cc] = by_country.get(cc, 0) + count
    if not by_country:
        return None
    cc = max(sorted(by_country), key=by_country.__getitem__)
    towns: dict[str, int] = {}
    for place, count in zip(places, counts.tolist(), strict=True):
        if str(place.get("cc") or "").upper() == cc and place.get("city") and count:
            towns[place["city"]] = towns.get(place["city"], 0) + count
    country = COUNTRIES.get(cc, (cc,))[0]
    town = max(sorted(towns), key=towns.__getitem__) if towns else country
    return Home(town, country)
