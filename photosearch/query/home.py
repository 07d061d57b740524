"""Where home is: the country, and the town in it, where most of the library's photos with a place were
taken, and the spot where photos were taken on the most days (the house). "photos taken abroad", "my
home town", "far from home" and "kids at home" ask about it (`claims/home.py`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from photosearch.query.places import COUNTRIES

#: How near home's spot a photo is taken to be "at home": a house and its garden, with a phone's GPS
#: error indoors.
HOME_RADIUS_KM = 0.2
#: The fewest days with photos at a spot for it to be home: one day's party is no home.
MIN_HOME_DAYS = 3
#: A home set in Settings holds its spot within this distance of its town.
CHOSEN_TOWN_KM = 50.0
#: The grid (in degrees, ~110 m of latitude) whose busiest cells are the candidate spots.
_CELL_DEG = 0.001
_CANDIDATES = 20


@dataclass(frozen=True)
class HomeSpot:
    """Where photos were taken on the most days: the middle of them, and on how many days."""

    lat: float
    lon: float
    days: int
    label: str = ""  # the place the geocoder names there ("Odivelas, Lisbon, PT")
    chosen: bool = False  # set from a photo taken there, not found from the photos


@dataclass(frozen=True)
class Home:
    """Home's town and country, as place atoms name them ("Lisbon", "Portugal"); `chosen`: set in
    Settings, not found from the photos; `spot`: the house, where photos were taken on the most days."""

    town: str
    country: str
    chosen: bool = False
    spot: HomeSpot | None = None


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


def home_in(snap, settings=None) -> Home | None:
    """Home as Settings name it, else where most photos with a place were taken (`home_of`), with
    its spot: the one set from a photo taken there, else found from the photos (`home_spot`)."""
    from photosearch.config import parse_point

    name = getattr(settings, "home", "") if settings is not None else ""
    home = (chosen_home(name) if name else None) or home_of(snap)
    point = parse_point(getattr(settings, "home_spot", None) or "")
    spot = _spot_at(snap, *point) if point is not None else None
    if home is None:
        return Home("", "", spot=spot) if spot is not None else None
    return replace(home, spot=spot or home_spot(snap, home))


def _spot_at(snap, lat: float, lon: float) -> HomeSpot:
    """Home's spot set at (lat, lon): on how many days photos were taken near it, and the place there."""
    from photosearch.query.resolvers.places import near_mask

    near = near_mask(snap, lat, lon, HOME_RADIUS_KM)
    days = np.unique(snap.day[near & (snap.day >= 0)]).size
    codes = snap.place_code[near & (snap.place_code >= 0)]
    label = snap.places[int(codes[0])]["label"] if codes.size else ""
    return HomeSpot(lat, lon, int(days), label, chosen=True)


def home_spot(snap, home: Home | None = None) -> HomeSpot | None:
    """The spot where photos were taken on the most days, if on `MIN_HOME_DAYS` or more; for a home
    chosen in Settings, in its country and near its town. Once per snapshot and home."""
    key = ("home_spot", home.town if home is not None and home.chosen else "")
    if key not in snap.cache:
        rows = np.flatnonzero(~np.isnan(snap.lat) & (snap.day >= 0))
        if home is not None and home.chosen:
            rows = rows[_in_chosen_home(snap, rows, home)]
        snap.cache[key] = _busiest_spot(snap, rows)
    return snap.cache[key]


def _in_chosen_home(snap, rows: np.ndarray, home: Home) -> np.ndarray:
    """Which of `rows` lie in a chosen home's country, and near its town where it names one."""
    from photosearch.query.places import resolve_place
    from photosearch.query.resolvers.places import haversine_km

    codes = snap.place_code[rows]
    ccs = {cc for cc, names in COUNTRIES.items() if home.country in names}
    inside = np.array(
        [code >= 0 and str(snap.places[code].get("cc") or "").upper() in ccs for code in codes.tolist()], bool
    )
    town = next((p for p in resolve_place(home.town) if p.kind == "city" and p.lat is not None), None)
    if town is not None:
        inside &= haversine_km(snap.lat[rows], snap.lon[rows], town.lat, town.lon) <= CHOSEN_TOWN_KM
    return inside


def _busiest_spot(snap, rows: np.ndarray) -> HomeSpot | None:
    """The middle of the grid cell with photos on the most days, counted again within
    `HOME_RADIUS_KM` of it (a house on a cell's edge is not split)."""
    from photosearch.query.resolvers.places import haversine_km

    if not rows.size:
        return None
    lat, lon, day = snap.lat[rows], snap.lon[rows], snap.day[rows]
    cell_i = np.floor(lat / _CELL_DEG).astype(np.int64)
    cell_j = np.floor(lon * np.cos(np.radians(lat)) / _CELL_DEG).astype(np.int64)
    cells, cell_of = np.unique(np.stack([cell_i, cell_j], 1), axis=0, return_inverse=True)
    cell_of = cell_of.ravel()
    cell_days = np.bincount(np.unique(np.stack([cell_of, day], 1), axis=0)[:, 0], minlength=len(cells))
    best: HomeSpot | None = None
    for cell in np.argsort(-cell_days, kind="stable")[:_CANDIDATES].tolist():
        inside = cell_of == cell
        mid_lat, mid_lon = float(np.median(lat[inside])), float(np.median(lon[inside]))
        near = haversine_km(lat, lon, mid_lat, mid_lon) <= HOME_RADIUS_KM
        days = int(np.unique(day[near]).size)
        if days >= MIN_HOME_DAYS and (best is None or days > best.days):
            code = int(snap.place_code[rows[np.flatnonzero(inside)[0]]])
            best = HomeSpot(mid_lat, mid_lon, days, snap.places[code]["label"] if code >= 0 else "")
    return best


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
