"""Home in a request: "photos taken abroad", "in my home country", "my home town", "near home", "far
from home", "kids at home". Home is where most of the library's photos with a place were taken, and
the house where photos were taken on the most days (`query.home`); a note says which it was read as."""

from __future__ import annotations

import re

from photosearch.query.home import HOME_RADIUS_KM, MIN_HOME_DAYS, Home
from photosearch.query.parse_state import ClaimState
from photosearch.query.plan import ANY_PLACE, HOME_PLACE

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
#: At the house: home's spot ("at home", "at our place", "in my flat"), not "the home depot" or "at
#: home plate".
_AT_HOME = re.compile(
    r"\b(?:at\s+(?:(?:my|our)\s+(?:own\s+)?(?:house|home|place|flat|apartment)|home)"
    r"|in\s+(?:my|our)\s+(?:own\s+)?(?:house|home|flat|apartment))\b"
    r"(?![\s-]*(?:depot|office|plate|base|screen|page|button|run|game|town|country|city|made|cooked|team)\b)"
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
    at_home = list(st.unclaimed(_AT_HOME))
    home = st.ctx.find_home() if found or at_home else None
    for m in at_home:
        _claim_at_home(st, m, home)
    for m, kind in sorted(found, key=lambda f: f[0].start()):
        if not st.free(m.start(), m.end()):
            continue
        said = " ".join(st.text[m.start() : m.end()].split())
        if home is None or not home.town:
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


def _claim_at_home(st: ClaimState, m: re.Match, home: Home | None) -> None:
    """ "at home" is home's spot where the photos tell one; else the words stay a home's look (a note
    says why, where photos have places)."""
    said = " ".join(st.text[m.start() : m.end()].split())
    spot = home.spot if home is not None else None
    if spot is None:
        if home is not None:
            st.note(
                f"“{said}” was read as a home's look: no spot has photos from {MIN_HOME_DAYS} days or more",
                0.0,
            )
        return
    town = spot.label.split(",")[0]
    near = f", in {town}" if town else ""
    metres = round(HOME_RADIUS_KM * 1000)
    if spot.chosen:
        st.note(f"“{said}” was read as within {metres} m of the home you set from a photo{near}", 0.0)
    else:
        days = f"{spot.days} days{near}"
        st.note(
            f"“{said}” was read as within {metres} m of where you took photos on the most days ({days})", 0.0
        )
    st.claim(m.start(), m.end(), "atom", {"place": HOME_PLACE}, slot="place")
