"""Where home is: the country, and the town in it, where most of the library's photos with a place were
taken. "photos taken abroad", "my home town", "far from home" ask about it (`claims/home.py`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from photosearch.query.places import COUNTRIES


@dataclass(frozen=True)
class Home:
    """Home's town and country, as place atoms name them ("Lisbon", "Portugal")."""

    town: str
    country: str


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
