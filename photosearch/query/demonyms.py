"""Nationality words before a kind of scenery (`resources/demonyms.yaml`): "spanish beaches" are beaches
in Spain, "the swiss alps" the Alps in Switzerland. Before anything else a nationality is a style that
travels ("italian food", "an irish pub") and stays part of one concept."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

DEMONYMS_FILE = Path(__file__).resolve().parents[2] / "resources" / "demonyms.yaml"


@functools.cache
def _table() -> dict:
    return yaml.safe_load(DEMONYMS_FILE.read_text(encoding="utf-8"))


@functools.cache
def demonym_places() -> dict[str, str]:
    """Nationality word -> the place atom's value ("spanish" -> "Spain")."""
    return {str(k): str(v) for k, v in _table()["places"].items()}


def scenery_words() -> tuple[str, ...]:
    """The kinds of scenery (singular) a nationality before them makes a place's."""
    return tuple(_table()["scenery"])


@functools.cache
def nationality_scenery() -> re.Pattern:
    """A nationality word (group "who") before a kind of scenery, singular or plural (group "what")."""
    names = "|".join(re.escape(n) for n in sorted(demonym_places(), key=len, reverse=True))
    scenery = "|".join(re.escape(n) for n in sorted(scenery_words(), key=len, reverse=True))
    return re.compile(rf"\b(?P<who>{names})\s+(?P<what>(?:{scenery})(?:e?s)?)\b")
