"""Home in a request: "photos taken abroad", "in my home country", "my home town", "near home", "far
from home". Home is where most of the library's photos with a place were taken (`query.home`), and a
note says which it was read as."""

from __future__ import annotations

import re

from photosearch.query.parse_state import ClaimState
from photosearch.query.plan import ANY_PLACE

#: Outside home's country: a place is known, and it is not there.
_ABROAD = re.compile(
    r"\b(?:(?:taken\s+|while\s+)?(?:abroad|overseas)|out\s+of\s+the\s+country"
    r"|outside\s+(?:of\s+)?(?:my|our|the)\s+(?:home\s+|own\s+)?country"
    r"|in\s+(?:other|foreign)\s+countries|foreign\s+(?:countries|trips?|travels?))\b"
)
#: In home's country.
_HOME_COUNTRY = re.compile(
    r"\b(?:in\s+|around\s+)?(?:my|our)\s+(?:home\s+|own\s+)?country\b(?!\s+(?:music|songs?|singer|style|side|road|club|house))"
)
#: In home's town.
_HOME_TOWN = re.compile(
    r"\b(?:in\s+|around\s+)?(?:my|our)\s+(?:home\s*town|home\s+city|city|town)\b"
    r"|\b(?:near|around|close\s+to)\s+home\b|\bwhere\s+(?:i|we)\s+live\b"
)
#: Away from home's town: a place is known, and it is not there.
_AWAY = re.compile(r"\b(?:away|far)\s+from\s+home\b")


def claim_home(st: ClaimState) -> None:
    """The home words, read as home's country or town; with no home known (no photo has a place),
    they stay words, and a note says why."""
    found = [
        (m, kind)
        for pattern, kind in (
            (_ABROAD, "abroad"),
            (_AWAY, "away"),
            (_HOME_COUNTRY, "country"),
            (_HOME_TOWN, "town"),
        )
        for m in st.unclaimed(pattern)
    ]
    home = st.ctx.find_home() if found else None
    for m, kind in sorted(found, key=lambda f: f[0].start()):
        if not st.free(m.start(), m.end()):
            continue
        said = " ".join(st.text[m.start() : m.end()].split())
        if home is None:
            st.note(f"“{said}” was not read as a place: no photo has a known place yet", 0.0)
            continue
        where = home.country if kind in ("abroad", "country") else home.town
        node = {"place": where}
        if kind in ("abroad", "away"):  # somewhere known, and not there
            node = {"and": [{"place": ANY_PLACE}, {"not": {"place": where}}]}
        outside = "outside " if kind in ("abroad", "away") else ""
        why = "your home in Settings" if home.chosen else "where most of your photos with a place were taken"
        st.note(f"“{said}” was read as {outside}{where}, {why}", 0.0)
        st.claim(m.start(), m.end(), "atom", node, slot="place")
