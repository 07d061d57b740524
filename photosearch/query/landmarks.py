"""Famous sights by name ("the eiffel tower", "big ben", "the grand canyon") and where they are
(`resources/landmarks.yaml`): a request names one as a place, found by the photos' GPS within the
sight's reach, and as a concept, for the photos that look like it; a sight that looks like many
places (a lake, a fjord) is found by its place alone, and what it looks like gives its closest
matches."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from photosearch.query.places import fold, names_pattern

LANDMARKS_FILE = Path(__file__).resolve().parents[2] / "resources" / "landmarks.yaml"


@dataclass(frozen=True)
class Landmark:
    """A sight: its name, where it is (WGS84 degrees) and how far from it a photo of it is taken."""

    name: str
    lat: float
    lon: float
    km: float
    the: bool = True  # said with "the": "the Eiffel Tower", but "Big Ben"
    looks: str = ""  # what the models see of it, where WordNet does not know its name: "opera house"
    alike: str = ""  # what many places look like, so never the sight itself: its closest matches ("lake")

    @property
    def said(self) -> str:
        return f"the {self.name}" if self.the else self.name


@functools.cache
def _table() -> dict[str, Landmark]:
    """Folded name or other name -> the sight."""
    out: dict[str, Landmark] = {}
    for entry in yaml.safe_load(LANDMARKS_FILE.read_text(encoding="utf-8")):
        sight = Landmark(
            str(entry["name"]),
            float(entry["lat"]),
            float(entry["lon"]),
            float(entry["km"]),
            bool(entry.get("the", True)),
            str(entry.get("looks", "")),
            str(entry.get("alike", "")),
        )
        for name in (sight.name, *entry.get("also", ())):
            out[fold(str(name))] = sight
    return out


@functools.cache
def _pattern() -> re.Pattern:
    return names_pattern(_table())


def landmark(name: str) -> Landmark | None:
    """The sight of that name ("Eiffel Tower", "the colosseum"), or None."""
    key = fold(name.strip())
    return _table().get(key) or _table().get(key.removeprefix("the "))


def find_landmarks(folded: str) -> list[tuple[int, int, Landmark]]:
    """(start, end, sight) of each sight named in a folded, lower-case request, left to right."""
    return [(m.start(), m.end(), _table()[m.group("name")]) for m in _pattern().finditer(folded)]
