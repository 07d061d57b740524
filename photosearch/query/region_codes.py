"""The codes people write a town's region as ("austin tx", "victoria, bc", "byron bay nsw"), from the
`holidays` package's names of each country's subdivisions."""

from __future__ import annotations

from functools import lru_cache

import holidays

#: Countries whose people write a town's region as its code.
COUNTRIES = ("US", "CA", "AU")
#: Codes that are also words: a region only in capitals ("Portland OR") or after a comma ("portland,
#: or"); "portland or seattle" is either city.
WORDS = frozenset({"or", "in", "me", "hi", "ok", "oh", "de", "la", "pa", "ma", "al", "co", "id", "on"})
WORDS |= frozenset({"act", "sa", "tas", "mo", "ga"})


@lru_cache(maxsize=1)
def _names() -> dict[str, tuple[tuple[str, str], ...]]:
    """Code (lower case) → (country code, each name of the region) pairs."""
    found: dict[str, list[tuple[str, str]]] = {}
    for cc in COUNTRIES:
        for name, code in getattr(holidays, cc).subdivisions_aliases.items():
            found.setdefault(code.lower(), []).append((cc, name))
    return {code: tuple(names) for code, names in found.items()}


def region_names(code: str, *, written: str, after_comma: bool) -> tuple[tuple[str, str], ...]:
    """The (country code, region name) pairs `code` may stand for as it was `written`; none for a
    code that is also a word, written in lower case without a comma before it."""
    key = code.lower()
    if key in WORDS and not (written.isupper() or after_comma):
        return ()
    return _names().get(key, ())
