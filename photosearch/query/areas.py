"""Areas larger than a country, a country's part named by its regions or counties, or a part neither
names, by boxes on the map (`resources/areas.yaml`): "photos in europe", "our trip to south america",
"new england in the fall", "the algarve", "the bay area", "santorini", "the lake district". A request
names one as a place; a photo is in it when the country (or the region, or the county) of its place
is, or when it was taken in a box."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from photosearch.query.places import county_names, fold, names_pattern

AREAS_FILE = Path(__file__).resolve().parents[2] / "resources" / "areas.yaml"


@dataclass(frozen=True)
class Area:
    """An area: its name, its countries (ISO codes), its regions and counties ((code, folded name)) and
    its boxes ((code, south, west, north, east) in degrees: a photo of that country taken inside)."""

    name: str
    countries: frozenset[str]
    regions: frozenset[tuple[str, str]]
    looks: str = ""  # what the models see of it, where a photo shows it: "antarctica" (ice and snow)
    boxes: tuple[tuple[str, float, float, float, float], ...] = ()
    counties: frozenset[tuple[str, str, str]] = frozenset()  # (code, folded county, folded region or "")
    things: tuple[str, ...] = ()  # words after its name that make a thing named after it: "cake"

    def holds(self, cc: str, admin1: str, admin2: str = "") -> bool:
        """Whether a place of that country, region and county lies in the area."""
        if cc in self.countries or (cc, fold(admin1)) in self.regions:
            return True
        return bool(self.counties) and any(
            (cc, fold(name), within) in self.counties
            for name in county_names(admin2)
            for within in ("", fold(admin1))
        )

    @property
    def country_codes(self) -> frozenset[str]:
        """The countries the area lies in, whole or in part."""
        parts = {cc for cc, _ in self.regions} | {county[0] for county in self.counties}
        return self.countries | parts | {box[0] for box in self.boxes}


def _county(cc: str, written: str) -> tuple[str, str, str]:
    """(code, folded county, folded region or "") of a county as the areas file writes it: "Kent",
    or "Orange County, California" where counties of other regions share its name."""
    county, _, region = written.partition(",")
    return cc, fold(county), fold(region)


@functools.cache
def _table() -> dict[str, Area]:
    """Folded name or other name, without "the" -> the area."""
    out: dict[str, Area] = {}
    for entry in yaml.safe_load(AREAS_FILE.read_text(encoding="utf-8")):
        regions = {(cc, fold(r)) for cc, names in (entry.get("regions") or {}).items() for r in names}
        counties = {
            _county(cc, name) for cc, names in (entry.get("counties") or {}).items() for name in names
        }
        boxes = tuple(
            (str(cc), *map(float, box)) for cc, found in (entry.get("boxes") or {}).items() for box in found
        )
        area = Area(
            str(entry["name"]),
            frozenset(map(str, entry.get("countries", ()))),
            frozenset(regions),
            str(entry.get("looks", "")),
            boxes,
            frozenset(counties),
            tuple(fold(str(t)) for t in entry.get("things", ())),
        )
        for name in (area.name, *entry.get("also", ())):
            out[fold(str(name)).removeprefix("the ")] = area
    return out


@functools.cache
def _pattern() -> re.Pattern:
    return names_pattern(_table())


def area(name: str) -> Area | None:
    """The area of that name ("Europe", "the Balkans"), or None."""
    return _table().get(fold(name.strip()).removeprefix("the "))


def find_areas(folded: str) -> list[tuple[int, int, Area]]:
    """(start, end, area) of each area named in a folded, lower-case request, left to right."""
    return [(m.start(), m.end(), _table()[m.group("name")]) for m in _pattern().finditer(folded)]
