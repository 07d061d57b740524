"""What a request could not meet, in the user's words: "no photo with exactly two people".

`search` lists these under `explain.unmet` (CLI, --json, the app) whenever the page holds fewer
confident results than the request asked for: each part of the request that no photo meets names
itself, and a request whose parts each match some photos but never together says so.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from photosearch.query.camera_settings import setting_said
from photosearch.query.landmarks import landmark
from photosearch.query.months import months_text, yearly_text
from photosearch.query.photo_sizes import size_text
from photosearch.query.plan import (
    ANY_ALBUM,
    ANY_EDITOR,
    ANY_PERSON,
    ANY_PLACE,
    ANY_RAW,
    ANY_SIMILAR,
    ANY_TAG,
    ANY_TEXT,
    CAMERA_KINDS,
    HOME_PLACE,
    UNNAMED_PERSON,
    WHATSAPP_NAMES,
)
from photosearch.query.quantities import count_of, say
from photosearch.query.same_days import days_away_text
from photosearch.query.times_of_day import hours_text
from photosearch.query.weekdays import days_text

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _people(lo: int, hi: int | None) -> str:
    if hi is None:
        return "with at least one person" if lo <= 1 else f"with {_count(lo)} or more people"
    if lo == hi:
        if lo == 0:
            return "without people"
        return "of exactly one person" if lo == 1 else f"with exactly {_count(lo)} people"
    if lo == 0:
        return f"with at most {_count(hi)} {'person' if hi == 1 else 'people'}"
    return f"with {_count(lo)} to {_count(hi)} people"


def _stars(n: int) -> str:
    return f"{_count(n)} star" if n == 1 else f"{_count(n)} stars"


def rating_text(lo: int, hi: int | None) -> str:
    """A star-rating condition in words: "five stars", "four stars or more", "rejected"."""
    if lo < 0:
        return "rejected"
    if hi is None:
        return f"{_stars(lo)} or more"
    if lo == hi:
        return _stars(lo)
    if lo <= 1:
        return f"at most {_stars(hi)}"
    return f"{_count(lo)} to {_stars(hi)}"


#: The star ratings a condition picks by name (the app's rating chip).
RATING_CHOICES = {
    rating_text(lo, hi): {"min": lo, "max": hi}
    for lo, hi in ((5, 5), (4, None), (3, None), (2, None), (1, None), (-1, -1))
}


def _rating(lo: int, hi: int | None) -> str:
    return "marked rejected" if lo < 0 else "rated " + rating_text(lo, hi)


#: Concepts answered by a measure, not by a look: what no photo is, in words.
MEASURED_WORDS = {
    "colourful": "that is colourful",
    "dark": "that is dark",
    "bright": "that is bright",
    "night": "taken at night",
    "sepia": "in sepia",
    "selfie": "that is a selfie",
    "sunny": "that is sunny",
    "indoor": "taken indoors",
    "indoors": "taken indoors",
    "outdoor": "taken outdoors",
    "outdoors": "taken outdoors",
    "underwater": "taken underwater",
    "overexposed": "that is overexposed",
    "underexposed": "that is underexposed",
}


#: The person atom's "anyone named" and "a face not named yet", in words (the app's person chip too).
PERSON_WORDS = {ANY_PERSON: "someone you named", UNNAMED_PERSON: "someone not named yet"}


_DESCRIBE = {
    "faces": lambda v: _people(int(v.get("min") or 0), v.get("max")),
    "concept": lambda v: (
        MEASURED_WORDS.get(v) or (f"with {say(v)}" if count_of(v) else f"that looks like “{v}”")
    ),
    "color": lambda v: "in black and white" if v == "monochrome" else f"that is mostly {v}",
    "person": lambda v: f"of {PERSON_WORDS.get(v, v)}",
    "place": lambda v: (
        "with a known place"
        if v.strip() == ANY_PLACE
        else "taken at home"
        if v.strip().lower() == HOME_PLACE
        else f"taken at {sight.said}"
        if (sight := landmark(v))
        else f"taken in {v}"
    ),
    "date": lambda v: (
        f"taken on {v['from']}"
        if v["from"] == v["to"]
        else f"dated {v['from']} or later"
        if v["to"] == date.max.isoformat()
        else f"taken between {v['from']} and {v['to']}"
    ),
    "added": lambda v: (
        f"added on {v['from']}" if v["from"] == v["to"] else f"added between {v['from']} and {v['to']}"
    ),
    "month": lambda v: "taken " + months_text(v),
    "hour": lambda v: "taken " + hours_text(v),
    "weekday": lambda v: "taken " + days_text(v),
    "yearly": lambda v: "taken " + yearly_text(v),
    "text": lambda v: "with words in it" if v.strip() == ANY_TEXT else f"with the words “{v}”",
    "camera": lambda v: f"taken with {CAMERA_KINDS.get(v, v)}",
    "lens": lambda v: f"taken with a {v} lens",
    "folder": lambda v: f"in a folder named {v}",
    "file": lambda v: (
        "in a camera RAW format"
        if v == ANY_RAW
        else "named as WhatsApp names photos"
        if v == WHATSAPP_NAMES
        else f"whose file name has “{v}”"
    ),
    "album": lambda v: "in an album" if v == ANY_ALBUM else f"in the album {v}",
    "editor": lambda v: "edited in a photo editor" if v == ANY_EDITOR else f"edited in {v}",
    "similar": lambda v: "with a near-duplicate" if v == ANY_SIMILAR else f"similar to {v}",
    "knowledge": lambda v: f"known as {v}",
    "tag": lambda v: "with a tag" if v == ANY_TAG else f"tagged {v}",
    "kind": lambda v: f"that is a {v}",
    "quality": lambda v: f"that is {v}",
    "orientation": lambda v: "that is a panorama" if v == "panorama" else f"in {v} orientation",
    "rating": lambda v: _rating(int(v.get("min") or 0), v.get("max")),
    "label": lambda v: f"with the {v} label",
    "setting": setting_said,
    "size": lambda v: f"of {size_text(v)}",
    "days_of": lambda v: _days_of_words(v),
}


def describe(atom: dict) -> str:
    """What photos an atom asks for, after "no photo ..." ("with exactly two people")."""
    key, value = next(iter(atom.items()))
    how = _DESCRIBE.get(key)
    return how(value) if how else f"matching {key}: {value}"


def node_words(node: dict) -> str:
    """A condition of several parts in words, as a chip shows it: "tagged favourite or rated four
    stars or more", "“dog” and not “puppy”"."""
    key, value = next(iter(node.items()))
    if key == "or" and value:
        return " or ".join(_choice_words(value, node_words))
    if key in ("and", "or"):
        return f" {key} ".join(node_words(child) for child in value) if value else "anything"
    if key == "not":
        return "not " + node_words(value)
    return f"“{say(value)}”" if key == "concept" else describe(node)


def _days_of_words(v: dict) -> str:
    """A days_of in words: "taken the day after a photo that looks like “party”", "taken on the first
    day with a photo taken in Rome"."""
    target = told_by(v["where"])
    if v.get("pick"):
        target = f"the {v['pick']} day with {target}"
        if v["from"] == v["to"] == 0:
            return f"taken on {target}"
    return f"taken {days_away_text(v['from'], v['to'])} {target}"


def told_by(where: dict) -> str:
    """The photos whose days a days_of atom goes by, in words: "a photo that looks like “wedding”",
    "a photo of Anna and that looks like “party”"."""
    key, value = next(iter(where.items()))
    if key == "and" and value and all(next(iter(c)) not in ("and", "or", "not") for c in value):
        return "a photo " + " and ".join(describe(c) for c in value)
    return (
        f"a photo {describe(where)}" if key not in ("and", "or", "not") else f"a photo of {node_words(where)}"
    )


def sentences(
    atom_hits: list[tuple[dict, int, bool]], matched: int, total: int, either: list[str] | None = None
) -> list[str]:
    """The unmet parts of a request: (atom, photos it found, negated) per atom, how many photos met
    the whole request, and how many the library holds. A filter that leaves nothing names itself.

    `either` names, per atom, the "or" it is one choice of ("" for none): a choice no photo meets is
    no unmet part when another of its "or" is met ("chinese new year": one year's days are enough),
    and an "or" none of whose choices is met is said once ("no photo from WhatsApp ...")."""
    either = either or [""] * len(atom_hits)
    met = {
        group
        for group, (_a, hits, negated) in zip(either, atom_hits, strict=True)
        if group and hits and not negated
    }
    said_groups: set[str] = set()
    out = []
    for group, (atom, hits, negated) in zip(either, atom_hits, strict=True):
        line = ""
        if group and not negated:
            if group in met or group in said_groups:
                continue
            said_groups.add(group)
            choices = [a for g, (a, _h, n) in zip(either, atom_hits, strict=True) if g == group and not n]
            line = f"no photo {_alternatives(choices)}"
        elif hits == 0 and not negated:
            line = f"no photo {describe(atom)}"
        elif negated and total and hits >= total:
            line = f"every photo is one {describe(atom)}"
        if line and line not in out:
            out.append(line)
    if matched == 0 and not out and atom_hits:
        out.append(_together([atom for atom, _hits, negated in atom_hits if not negated], atom_hits))
    return out


#: The most parts a sentence names together ("no photo that looks like “dog” taken in June").
TOGETHER_MAX = 3


def _alternatives(choices: list[dict]) -> str:
    """Choices of an "or" in words: "named as WhatsApp names photos or in a folder named WhatsApp";
    beyond `TOGETHER_MAX`, the first and how many more ("taken between … or on 9 other days asked")."""
    parts = _choice_words(choices, describe)
    if len(parts) <= TOGETHER_MAX:
        return " or ".join(parts)
    return (
        f"{parts[0]} or on {len(parts) - 1} other days asked"
        if all("date" in a for a in choices)
        else (f"{parts[0]} or {len(parts) - 1} other things asked")
    )


def _choice_words(choices: list[dict], words: Callable[[dict], str]) -> list[str]:
    """Each choice of an "or" in words, once; folders together: "in a folder named WhatsApp,
    Telegram or Download" (where photos others sent are saved)."""
    parts = [words(c) for c in choices]
    folders = [i for i, c in enumerate(choices) if "folder" in c]
    if len(folders) > 1:
        names = [str(choices[i]["folder"]) for i in folders]
        parts[folders[0]] = "in a folder named " + ", ".join(names[:-1]) + f" or {names[-1]}"
        for i in folders[1:]:
            parts[i] = ""
    return list(dict.fromkeys(p for p in parts if p))


def _together(positive: list[dict], atom_hits: list) -> str:
    """Parts that each match some photos but never all at once, said together: "no photo that looks
    like “dog” taken in September, October, November"; a request with parts left out, or too many
    parts, says only that no photo meets all of it."""
    parts = list(dict.fromkeys(describe(atom) for atom in positive))
    if len(positive) != len(atom_hits) or not 2 <= len(parts) <= TOGETHER_MAX:
        return "no photo meets the whole request"
    said = parts[0]
    for part in parts[1:]:
        said += " and " + part.removeprefix("that ") if part.startswith("that ") else " " + part
    return f"no photo {said}"
