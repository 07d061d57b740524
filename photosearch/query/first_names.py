"""First names (`resources/first_names.txt`): a request word that may be someone nobody named in
People yet (`claims/someone.py`)."""

from __future__ import annotations

import functools
from pathlib import Path

FIRST_NAMES_FILE = Path(__file__).resolve().parents[2] / "resources" / "first_names.txt"


#: A name at least this common (per cent of people) is a name typed in lower case ("anna", "tom");
#: a rarer one is a word first ("aurora" 0.024, "teddy", "eve", "gala", "santa"), unless WordNet
#: knows it as no word at all ("kate", "bella").
COMMON = 0.025
#: A name this common is a name written with a capital inside a request ("photos of Rose"); a
#: rarer one may be a thing or a famous one ("Santa" 0.006, "Monet", "Valentine").
CAPITALISED = 0.01


@functools.cache
def _shares() -> dict[str, float]:
    out: dict[str, float] = {}
    for line in FIRST_NAMES_FILE.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, share = line.split("\t")
            out[name] = float(share)
    return out


def name_share(word: str) -> float:
    """The share of people a first name names (per cent; 0 for no first name)."""
    return _shares().get(word, 0.0)


@functools.cache
def first_names() -> frozenset[str]:
    """Every first name, lower case."""
    return frozenset(_shares())
