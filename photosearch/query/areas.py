"""Areas larger than a country, a country's part named by its regions, or a part no region names, by
boxes on the map (`resources/areas.yaml`): "photos in europe", "our trip to south america", "new
england in the fall", "the algarve", "santorini", "the lake district". A request names one as a place;
a photo is in it when the country (or the region) of its place is, or when it was taken in a box."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from photosearch.query.places import fold, names_pattern

AREAS_FILE = Path(__file__).resolve().parents[2] / "resources" / "areas.yaml"


@dataclass(frozen=True)
class Area:
    """An area: its name, its countries (ISO codes), its regions ((code, folded region name)) and its
    boxes ((code, south, west, north, east) in degrees: a photo of that country taken inside)."""

    name: str
    countries: frozenset[str]
    regions: frozenset[tuple[str, str]]
    looks: str = ""  # what the models see of it, where a photo shows it: "antarctica" (ice and snow)
    boxes: tuple[tuple[str, float, float, float, float], ...] = ()

    def holds(self, cc: str, admin1: str) -> bool:
        """Whether a place of that country and region lies in the area."""
        return cc in self.countries or (cc, fold(admin1)) in self.regions

    @property
    def country_codes(self) -> frozenset[str]:
        """The countries the area lies in, whole or in part."""
        return self.countries | {cc for cc, _ in self.regions} | {box[0] for box in self.boxes}


@functools.cache
def _table() -> dict[str, Area]:
    """Folded name or other name, without "the" -> the area."""
    out: dict[str, Area] = {}
    for entry in yaml.safe_load(AREAS_FILE.read_text(encoding="utf-8")):
        regions = {(cc, fold(r)) for cc, names in (entry.get("regions") or {}).items() for r in names}
        boxes = tuple(
            (str(cc), *map(float, box)) for cc, found in (entry.get("boxes") or {}).items() for box in found
        )
        area = Area(
            str(entry["name"]),
            frozenset(map(str, entry.get("countries", ()))),
            frozenset(regions),
            str(entry.get("looks", "")),
            boxes,
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
