"""The codes people write a town's region as ("austin tx", "victoria, bc", "byron bay nsw"), from the
`holidays` package's names of each country's subdivisions."""

from __future__ import annotations

from functools import lru_cache

import holidays

#: Countries whose people write a town's region as its code.
COUNTRIES = ("US", "CA", "AU")
#: Codes that are also little words of a sentence: a region only in capitals ("Portland OR"), after a
#: comma ("portland, or") or last in the request ("portland or"); "portland or seattle" is either city.
LITTLE_WORDS = frozenset({"or", "in", "on", "me", "hi", "oh", "ok"})
#: Codes that are other words ("ma", "pa", "co") are a region in lower case too: the caller takes a
#: code only right after a town that lies in its region ("boston ma", "denver co").


@lru_cache(maxsize=1)
def _names() -> dict[str, tuple[tuple[str, str], ...]]:
    """Code (lower case) → (country code, each name of the region) pairs."""
    found: dict[str, list[tuple[str, str]]] = {}
    for cc in COUNTRIES:
        for name, code in getattr(holidays, cc).subdivisions_aliases.items():
            found.setdefault(code.lower(), []).append((cc, name))
    return {code: tuple(names) for code, names in found.items()}


def region_names(
    code: str, *, written: str, after_comma: bool, last: bool = False
) -> tuple[tuple[str, str], ...]:
    """The (country code, region name) pairs `code` may stand for as it was `written`; none for a
    little word written in lower case, neither after a comma nor `last` in the request."""
    key = code.lower()
    if key in LITTLE_WORDS and not (written.isupper() or after_comma or last):
        return ()
    return _names().get(key, ())
