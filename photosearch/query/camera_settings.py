"""Camera settings in words: what a request says ("f/1.8", "iso 3200 or higher", "1/250s", "50mm",
"a 2 second exposure", "telephoto", "with flash") as the setting atom's value, and back
("ISO 3200 or more"), so that a chip's text can be edited and read again.

The atom is ``{"setting": {"of": NAME, "min": number|null, "max": number|null}}`` (`plan.SETTINGS`;
aperture as an f-number, shutter in seconds, focal lengths in mm) or ``{"setting": {"of": "flash"}}``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from photosearch.metadata.exposure import shutter_words, words

#: "high iso", "telephoto", "long exposure"...: the ranges photographers mean by them.
HIGH_ISO, LOW_ISO = 1600, 200
TELEPHOTO_MM, SUPER_TELEPHOTO_MM = 70, 300
WIDE_MM, ULTRA_WIDE_MM = 35, 24
LONG_EXPOSURE_S = 1.0
SLOW_SHUTTER_S, FAST_SHUTTER_S = 1 / 30, 1 / 1000

_NUM = r"\d+(?:\.\d+)?"
#: Said before a value: "above iso 1600", "iso over 1600", "faster than 1/500".
_ABOVE = r"(?:above|over|more\s+than|higher\s+than|greater\s+than|at\s+least|>=?)"
_BELOW = r"(?:below|under|less\s+than|lower\s+than|at\s+most|<=?)"
#: Said after a value: "iso 1600 or higher", "1600+", "f/2.8 or wider".
_OR_MORE = r"(?:(?:or|and)\s+(?:more|higher|above|up|over|greater|bigger)|\+)"
_OR_LESS = r"(?:(?:or|and)\s+(?:less|lower|below|under|smaller))"
_TO = r"\s*(?:-|–|to)\s*"
#: Units of time after a shutter value.
_SECONDS = r"(?:s|sec|secs|second|seconds)\b"
#: "35mm film", "an 8mm camera", "16 mm footage": a film format, not a focal length.
_FILM = r"(?!\s*(?:film|films|camera|cameras|movie|movies|footage|negatives?|slides?|cine|format)\b)"
#: "flash drive", "flash flood": another thing called flash.
_NOT_FLASH = r"(?![\s-]*(?:drives?|sticks?|cards?|floods?|mobs?|memory|sales?|fiction|games?|point)\b)"


def one_side(value: float, more: bool, less: bool) -> tuple[float | None, float | None]:
    """(min, max) of one value said with "or more" (the top open), "or less" (the bottom open), or
    alone (that value; `photo_sizes` reads it as about that value)."""
    if more:
        return value, None
    if less:
        return None, value
    return value, value


def longest(found: Iterator[tuple[int, int, dict]]) -> dict | None:
    """The node of the longest span found (a chip's text is one condition), or None."""
    spans = sorted(found, key=lambda f: f[0] - f[1])
    return spans[0][2] if spans else None


def _side(m: re.Match, value: float) -> tuple[float | None, float | None]:
    """(min, max) of one value and the words around it: "above"/"or more" open the top, "below"/
    "or less" the bottom."""
    return one_side(
        value, bool(m.group("above") or m.group("more")), bool(m.group("below") or m.group("less"))
    )


def _ordered(lo: float, hi: float) -> tuple[float, float]:
    return (lo, hi) if lo <= hi else (hi, lo)


def _range_or_side(m: re.Match, value: float) -> tuple[float | None, float | None]:
    if m.group("to"):
        return _ordered(value, float(m.group("to")))
    return _side(m, value)


_ISO = re.compile(
    rf"(?:\b(?P<above>{_ABOVE})\s+|\b(?P<below>{_BELOW})\s+)?\biso\s*(?::|of|at)?\s*"
    rf"(?:(?P<above2>{_ABOVE})\s+|(?P<below2>{_BELOW})\s+)?(?P<n>\d{{2,7}})\b(?:{_TO}(?P<to>\d{{2,7}})\b)?"
    rf"(?:\s*(?P<more>{_OR_MORE})|\s+(?P<less>{_OR_LESS}))?"
)
_ISO_WORD = re.compile(
    r"\b(?P<how>high|higher|low|lower)[\s-]+iso\b(?:\s+(?:photos?|shots?|pictures?|images?))?"
)
#: "f/1.8", "f1.8", "at f8", "aperture 2.8", "f/2.8 or wider", "f/2.8-f/4".
_APERTURE = re.compile(
    rf"(?:\b(?P<above>{_ABOVE})\s+|\b(?P<below>{_BELOW})\s+)?"
    rf"(?:\bf\s*/\s*(?P<n>{_NUM})|\bf(?P<n2>\d+\.\d+)|(?:\bat|\baperture(?:\s+of)?)\s+f\s*(?P<n3>{_NUM})"
    rf"|\baperture(?:\s+of)?\s+(?P<n4>{_NUM}))\b"
    rf"(?:{_TO}f?\s*/?\s*(?P<to>{_NUM})\b)?"
    rf"(?:\s*(?P<more>{_OR_MORE}|(?:or|and)\s+narrower)|\s+(?P<less>{_OR_LESS}|(?:or|and)\s+(?:wider|brighter|faster)))?"
)
#: "50mm", "at 35 mm", "24-70mm", "over 200mm", "200mm or longer", "26mm equivalent".
_FOCAL = re.compile(
    rf"(?:\b(?P<above>{_ABOVE}|longer\s+than)\s+|\b(?P<below>{_BELOW}|shorter\s+than|wider\s+than)\s+)?"
    rf"\b(?P<n>{_NUM})(?:\s*mm)?(?:{_TO}(?P<to>{_NUM}))?\s*mm\b{_FILM}"
    rf"(?P<equiv>\s+(?:equivalent|equiv|in\s+35\s*mm\s+terms|full[\s-]frame\s+equivalent))?"
    rf"(?:\s*(?P<more>{_OR_MORE}|(?:or|and)\s+longer)|\s+(?P<less>{_OR_LESS}|(?:or|and)\s+(?:shorter|wider)))?"
    rf"(?P<equiv2>\s+(?:equivalent|equiv|in\s+35\s*mm\s+terms))?"
    r"(?:\s+(?:prime\s+|zoom\s+)?lens(?:es)?\b)?"  # "taken with my 50mm lens": the lens is the setting's
)
_LENS_WORD = re.compile(
    r"\b(?P<how>super[\s-]?telephoto|telephoto|ultra[\s-]?wide(?:[\s-]?angle)?|wide[\s-]?angle)"
    r"(?:\s+(?:lens|lenses|shots?|photos?|pictures?|images?))?\b"
)
#: A shutter time: "1/250", "1/250s", "2 s", "0.5 sec", "30 seconds".
_TIME = rf"(?:1\s*/\s*(?P<den>\d{{1,5}})(?:\s*(?P<unit>{_SECONDS}))?|(?P<sec>{_NUM})\s*(?P<unit2>{_SECONDS}))"
_FASTER = r"(?:faster\s+than|shorter\s+than|quicker\s+than)"
_SLOWER = r"(?:slower\s+than|longer\s+than)"
_SHUTTER = re.compile(
    rf"(?P<cue>\b(?:shutter(?:\s+speed)?|exposure(?:\s+time)?|at|shot\s+at|taken\s+at)(?:\s+of)?\s+)?"
    rf"(?:(?P<below>{_FASTER}|{_BELOW})\s+|(?P<above>{_SLOWER}|{_ABOVE})\s+)?"
    rf"(?<![\d/.]){_TIME}(?![\d/])"
    rf"(?P<after>[\s-]+(?:long[\s-]+)?(?:exposures?|shutter(?:\s+speed)?))?"
    rf"(?:\s+(?P<more>(?:or|and)\s+(?:slower|longer|more))|\s+(?P<less>(?:or|and)\s+(?:faster|shorter|less)))?"
)
_SHUTTER_WORD = re.compile(
    r"\b(?:(?P<how>long|slow)[\s-]+(?:exposures?|shutter(?:[\s-]+speeds?)?)"
    r"|(?:fast|high)[\s-]+shutter(?:[\s-]+speeds?)?)\b"
    r"(?:\s+(?:photos?|shots?|pictures?|images?|photography))?"
)
#: "with flash", "using the flash", "flash photos", "flash on"/"flash fired"; "flash off".
_FLASH = re.compile(
    r"\b(?P<with>(?:taken\s+|shot\s+)?(?:with|using|used|use)\s+(?:a\s+|the\s+|my\s+)?)?flash"
    r"(?:\s+(?P<on>on|fired)\b|\s+(?P<off>off)\b"
    r"|(?P<photos>(?=\s+(?:photos?|pictures?|pics?|shots?|photography|images?|portraits?)\b)))?\b"
    + _NOT_FLASH
)
#: "without flash", "no flash", "without the flash": the negation is the request's own word.
_NO_FLASH = re.compile(
    r"(?<=\bwithout\s)(?:a\s+|the\s+|any\s+)?flash\b" + _NOT_FLASH + r"|(?<=\bno\s)flash\b" + _NOT_FLASH
)


def setting(of: str, lo: float | None = None, hi: float | None = None) -> dict:
    """The atom of one setting."""
    return {"setting": {"of": "flash"}} if of == "flash" else {"setting": {"of": of, "min": lo, "max": hi}}


def find_settings(low: str) -> Iterator[tuple[int, int, dict]]:
    """(start, end, node) of each camera setting said in a lower-case request, in order of how sure
    the words are (later matches may overlap earlier ones: the caller keeps the first)."""
    for finder in (_flash, _iso, _aperture, _shutter, _focal):
        yield from finder(low)


def _flash(low: str) -> Iterator[tuple[int, int, dict]]:
    for m in _NO_FLASH.finditer(low):
        yield m.start(), m.end(), setting("flash")
    for m in _FLASH.finditer(low):
        if not (m.group("with") or m.group("on") or m.group("off") or m.group("photos") is not None):
            continue  # "flash" alone: a camera flash, a superhero, a flash of light
        node = setting("flash")
        yield m.start(), m.end(), {"not": node} if m.group("off") else node


def _iso(low: str) -> Iterator[tuple[int, int, dict]]:
    for m in _ISO.finditer(low):
        n = float(m.group("n"))
        more = bool(m.group("above") or m.group("above2") or m.group("more"))
        less = bool(m.group("below") or m.group("below2") or m.group("less"))
        bounds = _ordered(n, float(m.group("to"))) if m.group("to") else one_side(n, more, less)
        yield m.start(), m.end(), setting("iso", *bounds)
    for m in _ISO_WORD.finditer(low):
        high = m.group("how").startswith("high")
        yield m.start(), m.end(), setting("iso", HIGH_ISO, None) if high else setting("iso", None, LOW_ISO)


def _aperture(low: str) -> Iterator[tuple[int, int, dict]]:
    for m in _APERTURE.finditer(low):
        n = float(next(g for g in (m.group("n"), m.group("n2"), m.group("n3"), m.group("n4")) if g))
        yield m.start(), m.end(), setting("aperture", *_range_or_side(m, n))


def _shutter(low: str) -> Iterator[tuple[int, int, dict]]:
    for m in _SHUTTER.finditer(low):
        cue = (m.group("cue") or "").strip()
        if m.group("den") and not (cue or m.group("after") or m.group("unit")):
            continue  # "1/2" alone is a fraction or a date; "1/250s", "shutter 1/250" are times
        if m.group("sec") and not (m.group("after") or cue not in ("", "at")):
            continue  # "a 2 second video", "at 5 s": whole seconds only as "a 2 s exposure", "shutter 2 s"
        seconds = 1 / max(float(m.group("den")), 1) if m.group("den") else float(m.group("sec"))
        yield m.start(), m.end(), setting("shutter", *_side(m, seconds))
    for m in _SHUTTER_WORD.finditer(low):
        lo, hi = {"long": (LONG_EXPOSURE_S, None), "slow": (SLOW_SHUTTER_S, None)}.get(
            m.group("how") or "", (None, FAST_SHUTTER_S)
        )
        yield m.start(), m.end(), setting("shutter", lo, hi)


#: "shot on a 24-70mm lens", "using an 85mm": the lens took the photo.
_SHOT_ON_A = re.compile(
    r"\b(?:(?:shot|taken|captured|photographed)\s+(?:on|with|using|through)|using)\s+(?:a|an)\s+$"
)


def _focal(low: str) -> Iterator[tuple[int, int, dict]]:
    for m in _FOCAL.finditer(low):
        n = float(m.group("n"))
        cue = _SHOT_ON_A.search(low[: m.start()])
        if not 1 <= n <= 2000 or (re.search(r"\b(?:a|an)\s+$", low[: m.start()]) and cue is None):
            continue  # "a 50 mm lens on the table", "an 8mm bolt": a thing of that size
        of = "focal35" if m.group("equiv") or m.group("equiv2") else "focal"
        yield (cue.start() if cue else m.start()), m.end(), setting(of, *_range_or_side(m, n))
    for m in _LENS_WORD.finditer(low):
        how = re.sub(r"[\s-]", "", m.group("how"))
        lo, hi = {
            "supertelephoto": (SUPER_TELEPHOTO_MM, None),
            "telephoto": (TELEPHOTO_MM, None),
            "wideangle": (None, WIDE_MM),
        }.get(how, (None, ULTRA_WIDE_MM))
        yield m.start(), m.end(), setting("focal35", lo, hi)


def read_setting(text: str) -> dict | None:
    """The setting atom a chip's text says ("ISO 1600 or more", "f/1.8"), or None when the words
    say none."""
    low = " ".join(text.lower().split())
    # "1 s or slower": a time is a shutter time here
    node = longest(find_settings(low)) or longest(find_settings(f"shutter {low}"))
    return None if node is None else node.get("not", node)


def setting_text(value: dict) -> str:
    """A setting condition in words: "f/1.8", "ISO 1600 or more", "1/1000 s or faster",
    "70 mm or longer in 35 mm terms", "flash fired"."""
    of = value["of"]
    if of == "flash":
        return words("flash", True)
    lo, hi = value.get("min"), value.get("max")
    if of == "focal35":
        return _focal_text(lo, hi) + " in 35 mm terms"
    if of == "focal":
        return _focal_text(lo, hi)
    if of == "shutter":
        if lo is not None and hi is not None:
            return shutter_words(lo) if lo == hi else f"{shutter_words(lo)} to {shutter_words(hi)}"
        return f"{shutter_words(lo)} or slower" if hi is None else f"{shutter_words(hi)} or faster"
    if lo is not None and hi is not None:
        return words(of, lo) if lo == hi else f"{words(of, lo)} to {_bare(of, hi)}"
    if of == "aperture":
        return f"{words(of, lo)} or narrower" if hi is None else f"{words(of, hi)} or wider"
    return f"{words(of, lo)} or more" if hi is None else f"{words(of, hi)} or less"


def setting_said(value: dict) -> str:
    """The condition as the photos it asks for: "taken with flash", "taken at ISO 1600 or more"."""
    return "taken with flash" if value["of"] == "flash" else "taken at " + setting_text(value)


def _bare(of: str, value: float) -> str:
    """The second number of a range: "ISO 100 to 400", "f/2.8 to f/4"."""
    return words(of, value).removeprefix("ISO ")


def _focal_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return words("focal", lo) if lo == hi else f"{lo:g} to {words('focal', hi)}"
    return f"{words('focal', lo)} or longer" if hi is None else f"{words('focal', hi)} or wider"
