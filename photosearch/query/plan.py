"""The query plan IR: a tree of set operations over atoms plus a `compose` block.

A plan is plain JSON (dicts and lists) so that the CLI, GUI, executor and golden library all
share one form::

    {"version": 1,
     "where": NODE,
     "compose": {"limit": int|null, "sort": "relevance"|"date_asc"|"date_desc"|"added_desc"|"size_desc"|...,
                 "diverse": bool, "per": "day"|"week"|"month"|"year"|"place"|"person"|null,
                 "exclude_near_duplicates": bool}}
    NODE := {"and": [NODE, ...]} | {"or": [NODE, ...]} | {"not": NODE} | ATOM

Atoms (each a one-key object):

* ``{"concept": "dog"}`` semantic; ``{"person": "Anna"}`` (``"*"``: anyone named in People, ``"?"``:
  a face nobody named yet); ``{"place": "Italy"}`` (``"*"``: any
  known place, "photos with location"; ``"home"``: at home, near where photos were taken on the most days);
  ``{"text": "EXIT"}`` words in the photo (``{"text": "*"}``: any); ``{"camera": "Pixel 7"}``; ``{"lens": "Sigma"}`` (the
  lens EXIF names it: a maker, a model, "macro", "fisheye"); ``{"folder": "Trips"}``;
  ``{"file": "IMG_2041"}`` part of the file's name;
  ``{"similar": "42"}`` photo id or path (``"*"``: a near-duplicate of any photo, "duplicates"); ``{"knowledge": "e-bike"}``; ``{"tag": "favourite"}`` (``"*"``: any tag of yours or keyword of the file,
  the heart aside: "untagged" is its negation);
  ``{"album": "Holidays"}`` the photos of an album (a manual album's photos, a smart album's search;
  ``"*"``: in any manual album); ``{"editor": "Lightroom"}`` a photo editor worked on it, as the file
  or its sidecar says (``"*"``: any editor, or a copy named "-edited": "edited photos").
* ``{"date": {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}}`` inclusive on both ends; both are
  always present (an open end is written as a far date: from ``1900-01-01`` or to ``now``).
* ``{"added": {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}}``: added to the library between these
  days, inclusive, by this computer's clock ("photos added today", "imported last week"); not when
  they were taken.
* ``{"month": [6, 7, 8]}``: taken in one of these months of any year (1 = January): "every July",
  "in winter", "not in December" — a recurring condition, not fixed past ranges.
* ``{"hour": [5, 6, 7, 8, 9, 10, 11]}``: taken at one of these hours of the day, by the photo's
  clock (0-23; a time of exactly midnight is read as a date without a time): "in the morning".
* ``{"weekday": [6, 7]}``: taken on one of these days of the week (1 = Monday ... 7 = Sunday), in
  any year: "at weekends", "on Sundays", "weekdays".
* ``{"yearly": {"from": "MM-DD", "to": "MM-DD"}}``: taken between these days of any year, inclusive
  (``to`` before ``from`` wraps over New Year): "at Christmas" is ``12-24..12-26`` every year.
* ``{"days_of": {"where": NODE, "from": int, "to": int}}``: taken on a day from ``from`` to ``to``
  days after a day on which a photo matching ``where`` was taken (``0, 0``: the same day; ``1, 1``
  the day after; ``-7, -1`` the week before): "the same day as the wedding", "the day after the
  party". ``where`` is run on its own, strictly (its closest matches give no day). Optional
  ``"pick": "first"|"last"``: only the first (last) day of each run of those days, a gap of more
  than `DAYS_APART` days starting a new run ("the first day of our trip to rome": each visit's).
* ``{"faces": {"min": int, "max": int|null}}``: after :func:`validate_plan` both keys are
  present; ``min`` defaults to 0 and ``max`` null means "no upper bound".
* ``{"kind": "photo"|"screenshot"|"document"}``, ``{"quality": "sharp"|"blurry"}``.
* ``{"orientation": "portrait"|"landscape"|"panorama"|"square"}``: the photo's shape (taller than
  wide; wider than tall; at least twice as wide as tall, either way; about as wide as tall).
* ``{"color": NAME}``: the photo's measured colours (``COLORS``: the quality analyzer's colour names,
  and ``monochrome`` for black-and-white / greyscale photos); a colour word of the request.
* ``{"rating": {"min": int, "max": int|null}}``: the star rating written in the file or its sidecar
  (xmp:Rating; -1 rejected, 0..5); ``{"label": "Red"}``: its colour label (xmp:Label).
* ``{"size": {"of": "megapixels"|"megabytes", "min": number|null, "max": number|null}}``: the photo's
  pixels or its file's size ("high resolution", "4k", "large files", "bigger than 10mb"); min equal
  to max is about that many (`resolvers/sizes.ABOUT`).
* ``{"setting": {"of": NAME, "min": number|null, "max": number|null}}``: a camera setting the photo
  was taken with, as its EXIF says (``SETTINGS``): ``aperture`` (f-number), ``shutter`` (seconds),
  ``iso``, ``focal`` (mm as people name a lens: the 35 mm equivalent for phones and compacts, whose
  lenses are shorter than 12 mm), ``focal35`` (mm in 35 mm terms: "telephoto", "wide angle"); both
  ends inclusive, at least one given. ``{"setting": {"of": "flash"}}``: the flash fired.

``required`` (optional, omitted when empty): concept values that must be present. Concept atoms
of the root ``and`` are otherwise *soft*: photos with only some of them follow the full matches,
marked partial; filters (date, added, place, person, text, camera, folder, kind, faces) are always hard.

``where`` may be ``{"and": []}`` — the empty conjunction, i.e. every photo (e.g. "newest 10").
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator
from datetime import date
from typing import Any

from photosearch.errors import PhotoSearchError
from photosearch.query.camera_settings import setting_said
from photosearch.query.months import months_text, yearly_text
from photosearch.query.photo_sizes import size_text
from photosearch.query.times_of_day import hours_text
from photosearch.query.weekdays import days_text

PLAN_VERSION = 1

#: The text atom's value for any words read in the photo ("photos with text").
ANY_TEXT = "*"
#: The place atom's value for any known place: GPS or a place written in the file ("with location").
ANY_PLACE = "*"
#: The place atom's value for home's spot, where photos were taken on the most days ("kids at home";
#: `query.home`).
HOME_PLACE = "home"
#: The camera atom's values for a kind of camera, not a make or model ("photos from my phone", "drone
#: shots", "dslr photos"; `resolvers/camera_kinds.py`), and how each is said.
ANY_PHONE, ANY_DRONE, ANY_ACTION_CAMERA = "phone", "drone", "action camera"
ANY_DEDICATED_CAMERA = "dedicated camera"
CAMERA_KINDS = {
    ANY_PHONE: "a phone",
    ANY_DRONE: "a drone",
    ANY_ACTION_CAMERA: "an action camera",
    ANY_DEDICATED_CAMERA: "a camera, not a phone",
}
#: The similar atom's value for a near-duplicate of any photo ("duplicates": `resolvers/duplicates.py`).
ANY_SIMILAR = "*"
#: The person atom's value for anyone named in People ("named people"), and for a face nobody has
#: named yet ("unnamed faces", "people I haven't named").
ANY_PERSON = "*"
UNNAMED_PERSON = "?"
#: The tag atom's value for any tag of the user's or keyword of the file, the heart aside ("untagged").
ANY_TAG = "*"
#: The album atom's value for any manual album ("photos not in any album" is its negation).
ANY_ALBUM = "*"
#: The file atom's value for a camera RAW file of any format ("raw files"; `ingest.decode.RAW_EXTENSIONS`).
ANY_RAW = "*.raw-formats"
#: The editor atom's value for a photo any photo editor worked on ("edited photos").
ANY_EDITOR = "*"
#: The file atom's value for WhatsApp's names of the photos it saves ("IMG-20230101-WA0001.jpg").
WHATSAPP_NAMES = "*-wa[0-9][0-9][0-9][0-9]*"

STRING_ATOMS = (
    "concept",
    "person",
    "place",
    "text",
    "camera",
    "lens",
    "folder",
    "file",
    "similar",
    "knowledge",
    "tag",
    "label",
    "album",
    "editor",
)
ATOM_KEYS = (
    *STRING_ATOMS,
    "date",
    "added",
    "month",
    "hour",
    "weekday",
    "yearly",
    "days_of",
    "faces",
    "rating",
    "setting",
    "size",
    "kind",
    "quality",
    "color",
    "orientation",
)
#: Star ratings as XMP writes them: -1 rejected, 0 none, 1..5 stars.
RATING_RANGE = (-1, 5)
OPERATORS = ("and", "or", "not")
KINDS = ("photo", "screenshot", "document")
QUALITIES = ("sharp", "blurry")
#: `vision.quality.COLOR_NAMES` (checked by a test) and the absence of colour.
COLORS = (
    "black",
    "white",
    "gray",
    "red",
    "orange",
    "brown",
    "yellow",
    "green",
    "teal",
    "blue",
    "purple",
    "pink",
)
MONOCHROME = "monochrome"
ORIENTATIONS = ("portrait", "landscape", "panorama", "square")
#: Camera settings the setting atom compares (`query/camera_settings.py` says them in words).
SETTINGS = ("aperture", "shutter", "iso", "focal", "focal35", "flash")
#: What the size atom measures (`query/photo_sizes.py` says it in words).
SIZES = ("megapixels", "megabytes")
#: "added_desc": the photos added to the library last come first ("recently added"); "size_desc":
#: the largest files first ("what takes up space"), "pixels_desc" the most megapixels first.
SORTS = (
    "relevance",
    "date_asc",
    "date_desc",
    "added_desc",
    "size_desc",
    "size_asc",
    "pixels_desc",
    "pixels_asc",
)
#: The sorts that order by a date, not by how well a photo matches.
BY_DATE_SORTS = ("date_asc", "date_desc", "added_desc")
#: The sorts that order by a photo's own value (a date or a size), not by how well it matches.
ORDERED_SORTS = SORTS[1:]
SORT_TEXT = {
    "date_asc": "oldest first",
    "date_desc": "newest first",
    "added_desc": "added last first",
    "size_desc": "largest files first",
    "size_asc": "smallest files first",
    "pixels_desc": "highest resolution first",
    "pixels_asc": "lowest resolution first",
}
PER_VALUES = ("day", "week", "month", "year", "place", "person")
#: How many days before or after another photo's day a days_of atom reaches at most.
MAX_DAYS_AWAY = 366
#: A days_of's `pick`: the first or the last day of each run of days (a trip, a visit).
DAY_PICKS = ("first", "last")
#: Days told that lie more than this many days apart belong to two runs (two trips).
DAYS_APART = 2
MAX_DEPTH = 32
# Input bounds, checked before anything is parsed: a plan file's size, the nesting of its JSON
# (each plan level is an object and a list), and one atom's text.
MAX_PLAN_BYTES = 256 * 1024
MAX_JSON_DEPTH = 2 * MAX_DEPTH + 4
MAX_REQUEST_CHARS = 32 * 1024  # the longest request the app's search bar accepts
MAX_ATOM_CHARS = MAX_REQUEST_CHARS


class PlanError(PhotoSearchError):
    """A plan does not follow the schema; the message says where and why."""


def _atom_schema(key: str, value: dict) -> dict:
    return {"type": "object", "properties": {key: value}, "required": [key], "additionalProperties": False}


_DATE_STR = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
_MONTH_DAY_STR = {"type": "string", "pattern": "^[0-9]{2}-[0-9]{2}$"}


#: JSON schema of a plan (draft 2020-12 subset that llama.cpp's json-schema-to-grammar accepts).
def _measure_schema(names: tuple[str, ...]) -> dict:
    """The schema of a measure (a camera setting, a size): what it measures and its bounds."""
    return {
        "type": "object",
        "properties": {
            "of": {"type": "string", "enum": list(names)},
            "min": {"type": ["number", "null"], "exclusiveMinimum": 0},
            "max": {"type": ["number", "null"], "exclusiveMinimum": 0},
        },
        "required": ["of"],
        "additionalProperties": False,
    }


PLAN_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "PhotoSearch query plan",
    "type": "object",
    "properties": {
        "version": {"type": "integer", "enum": [PLAN_VERSION]},
        "where": {"$ref": "#/$defs/node"},
        "compose": {"$ref": "#/$defs/compose"},
        "required": {"type": "array", "items": {"type": "string", "minLength": 1}},
    },
    "required": ["version", "where", "compose"],
    "additionalProperties": False,
    "$defs": {
        "node": {
            "anyOf": [
                _atom_schema("and", {"type": "array", "items": {"$ref": "#/$defs/node"}}),
                _atom_schema("or", {"type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 1}),
                _atom_schema("not", {"$ref": "#/$defs/node"}),
                {"$ref": "#/$defs/atom"},
            ]
        },
        "atom": {
            "anyOf": [
                *[_atom_schema(k, {"type": "string", "minLength": 1}) for k in STRING_ATOMS],
                *[
                    _atom_schema(
                        key,
                        {
                            "type": "object",
                            "properties": {"from": _DATE_STR, "to": _DATE_STR},
                            "required": ["from", "to"],
                            "additionalProperties": False,
                        },
                    )
                    for key in ("date", "added")
                ],
                _atom_schema(
                    "month",
                    {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 12},
                        "minItems": 1,
                    },
                ),
                _atom_schema(
                    "hour",
                    {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 0, "maximum": 23},
                        "minItems": 1,
                    },
                ),
                _atom_schema(
                    "weekday",
                    {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 7},
                        "minItems": 1,
                    },
                ),
                _atom_schema(
                    "yearly",
                    {
                        "type": "object",
                        "properties": {"from": _MONTH_DAY_STR, "to": _MONTH_DAY_STR},
                        "required": ["from", "to"],
                        "additionalProperties": False,
                    },
                ),
                _atom_schema(
                    "days_of",
                    {
                        "type": "object",
                        "properties": {
                            "where": {"$ref": "#/$defs/node"},
                            "from": {"type": "integer", "minimum": -MAX_DAYS_AWAY, "maximum": MAX_DAYS_AWAY},
                            "to": {"type": "integer", "minimum": -MAX_DAYS_AWAY, "maximum": MAX_DAYS_AWAY},
                            "pick": {"type": "string", "enum": list(DAY_PICKS)},
                        },
                        "required": ["where", "from", "to"],
                        "additionalProperties": False,
                    },
                ),
                _atom_schema(
                    "faces",
                    {
                        "type": "object",
                        "properties": {
                            "min": {"type": "integer", "minimum": 0},
                            "max": {"type": ["integer", "null"], "minimum": 0},
                        },
                        "additionalProperties": False,
                    },
                ),
                _atom_schema(
                    "rating",
                    {
                        "type": "object",
                        "properties": {
                            "min": {
                                "type": "integer",
                                "minimum": RATING_RANGE[0],
                                "maximum": RATING_RANGE[1],
                            },
                            "max": {
                                "type": ["integer", "null"],
                                "minimum": RATING_RANGE[0],
                                "maximum": RATING_RANGE[1],
                            },
                        },
                        "additionalProperties": False,
                    },
                ),
                _atom_schema("setting", _measure_schema(SETTINGS)),
                _atom_schema("size", _measure_schema(SIZES)),
                _atom_schema("kind", {"type": "string", "enum": list(KINDS)}),
                _atom_schema("quality", {"type": "string", "enum": list(QUALITIES)}),
                _atom_schema("color", {"type": "string", "enum": [*COLORS, MONOCHROME]}),
                _atom_schema("orientation", {"type": "string", "enum": list(ORIENTATIONS)}),
            ]
        },
        "compose": {
            "type": "object",
            "properties": {
                "limit": {"type": ["integer", "null"], "minimum": 1},
                "sort": {"type": "string", "enum": list(SORTS)},
                "diverse": {"type": "boolean"},
                "per": {"type": ["string", "null"], "enum": [*PER_VALUES, None]},
                "exclude_near_duplicates": {"type": "boolean"},
            },
            "additionalProperties": False,
        },
    },
}


def default_compose() -> dict[str, Any]:
    """The compose block of a plan that only filters and ranks by relevance."""
    return {
        "limit": None,
        "sort": "relevance",
        "diverse": False,
        "per": None,
        "exclude_near_duplicates": False,
    }


def make_plan(where: dict, compose: dict | None = None) -> dict[str, Any]:
    """A validated plan from a node and (partial) compose block."""
    return validate_plan({"version": PLAN_VERSION, "where": where, "compose": dict(compose or {})})


def everything() -> dict:
    """The node that matches every photo (the empty conjunction)."""
    return {"and": []}


# --------------------------------------------------------------------------- validation


def _err(path: str, msg: str) -> PlanError:
    return PlanError(f"invalid plan at {path}: {msg}")


def _check_date(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _err(path, f"expected a date string YYYY-MM-DD, got {value!r}")
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise _err(path, f"{value!r} is not a valid date YYYY-MM-DD") from None


def _check_int(value: Any, path: str, *, nullable: bool, minimum: int) -> int | None:
    if value is None and nullable:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _err(path, f"expected an integer{' or null' if nullable else ''}, got {value!r}")
    if value < minimum:
        raise _err(path, f"must be >= {minimum}, got {value}")
    return value


def _validate_string(key: str, value: Any, p: str) -> dict:
    if isinstance(value, int) and not isinstance(value, bool) and key == "similar":
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise _err(p, f"expected a non-empty string, got {value!r:.80}")
    if len(value) > MAX_ATOM_CHARS:
        raise _err(p, f"{len(value)} characters; an atom holds at most {MAX_ATOM_CHARS}")
    return {key: " ".join(value.split())}


def _day_range(key: str) -> Callable[[Any, str], dict]:
    """A validator of a range of days, both ends inclusive: the date taken, or the day added."""

    def validate(value: Any, p: str) -> dict:
        if not isinstance(value, dict):
            raise _err(p, 'expected {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}')
        extra = set(value) - {"from", "to"}
        if extra:
            raise _err(p, f"unknown field(s) {sorted(extra)}; a date has only 'from' and 'to'")
        if "from" not in value or "to" not in value:
            raise _err(p, "a date needs both 'from' and 'to'")
        lo, hi = _check_date(value["from"], p + ".from"), _check_date(value["to"], p + ".to")
        if lo > hi:
            raise _err(p, f"'from' {lo} is after 'to' {hi}")
        return {key: {"from": lo, "to": hi}}

    return validate


def _whole_numbers(key: str, what: str, lo: int, hi: int) -> Callable[[Any, str], dict]:
    """A validator of a list of whole numbers in lo..hi (one number alone is a list of one)."""

    def validate(value: Any, p: str) -> dict:
        if isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        if (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi for v in value)
        ):
            raise _err(p, f"expected a list of {what} {lo}..{hi}, got {value!r}")
        return {key: sorted(set(value))}

    return validate


def _validate_yearly(value: Any, p: str) -> dict:
    if not isinstance(value, dict) or set(value) != {"from", "to"}:
        raise _err(p, 'expected {"from": "MM-DD", "to": "MM-DD"} (days of any year)')
    return {
        "yearly": {"from": _month_day(value["from"], p + ".from"), "to": _month_day(value["to"], p + ".to")}
    }


def _month_day(value: Any, p: str) -> str:
    """A day of the year as "MM-DD" (29 February allowed); a clear error for anything else."""
    try:
        month, day = (int(x) for x in str(value).split("-"))
        date(2000, month, day)  # a leap year: every day of the year exists
    except ValueError:
        raise _err(p, f"expected a day of the year as MM-DD, got {value!r}") from None
    return f"{month:02d}-{day:02d}"


def _validate_faces(value: Any, p: str) -> dict:
    if not isinstance(value, dict):
        raise _err(p, 'expected {"min": int, "max": int|null}')
    extra = set(value) - {"min", "max"}
    if extra:
        raise _err(p, f"unknown field(s) {sorted(extra)}; faces has only 'min' and 'max'")
    if not value:
        raise _err(p, "faces needs 'min' and/or 'max'")
    lo = _check_int(value.get("min", 0), p + ".min", nullable=False, minimum=0)
    hi = _check_int(value.get("max"), p + ".max", nullable=True, minimum=0)
    if hi is not None and lo > hi:
        raise _err(p, f"min {lo} is greater than max {hi}")
    return {"faces": {"min": lo, "max": hi}}


def _validate_rating(value: Any, p: str) -> dict:
    if isinstance(value, int) and not isinstance(value, bool):
        value = {"min": value}
    if not isinstance(value, dict) or not value or set(value) - {"min", "max"}:
        raise _err(p, 'expected {"min": int, "max": int|null} (stars -1..5)')
    lo = _check_int(value.get("min", 1), p + ".min", nullable=False, minimum=RATING_RANGE[0])
    hi = _check_int(value.get("max"), p + ".max", nullable=True, minimum=RATING_RANGE[0])
    if lo > RATING_RANGE[1] or (hi is not None and hi > RATING_RANGE[1]):
        raise _err(p, f"a rating is at most {RATING_RANGE[1]} stars")
    if hi is not None and lo > hi:
        raise _err(p, f"min {lo} is greater than max {hi}")
    return {"rating": {"min": lo, "max": hi}}


def _validate_size(value: Any, p: str) -> dict:
    return {"size": _validate_setting(value, p, SIZES)["setting"]}


def _validate_setting(value: Any, p: str, names: tuple[str, ...] = SETTINGS) -> dict:
    """A setting (or, with `names`, a size): what it measures and its bounds, at least one."""
    if not isinstance(value, dict) or set(value) - {"of", "min", "max"} or value.get("of") not in names:
        raise _err(p, f'expected {{"of": one of {list(names)}, "min": number|null, "max": number|null}}')
    of = value["of"]
    bounds = [value.get("min"), value.get("max")]
    for name, bound in zip(("min", "max"), bounds, strict=True):
        if bound is not None and (
            isinstance(bound, bool) or not isinstance(bound, (int, float)) or not 0 < bound < float("inf")
        ):
            raise _err(f"{p}.{name}", f"expected a positive number or null, got {bound!r}")
    if of == "flash":
        if bounds != [None, None]:
            raise _err(p, "the flash has no min or max: it fired or it did not")
        return {"setting": {"of": of}}
    lo, hi = (
        None if x is None else int(x) if float(x).is_integer() else float(x) for x in bounds
    )  # 50.0 is 50
    if lo is None and hi is None:
        raise _err(p, f"{of} needs 'min' and/or 'max'")
    if lo is not None and hi is not None and lo > hi:
        raise _err(p, f"min {lo} is greater than max {hi}")
    return {"setting": {"of": of, "min": lo, "max": hi}}


def _enum_validator(key: str, allowed: tuple[str, ...]) -> Callable[[Any, str], dict]:
    def validate(value: Any, p: str) -> dict:
        if value not in allowed:
            raise _err(p, f"expected one of {list(allowed)}, got {value!r}")
        return {key: value}

    return validate


#: The validator of each non-string atom: (value, path) → the normalised atom.
_ATOM_VALIDATORS: dict[str, Callable[[Any, str], dict]] = {
    "date": _day_range("date"),
    "added": _day_range("added"),
    "month": _whole_numbers("month", "months", 1, 12),
    "hour": _whole_numbers("hour", "hours", 0, 23),
    "weekday": _whole_numbers("weekday", "days of the week (1 = Monday)", 1, 7),
    "yearly": _validate_yearly,
    "faces": _validate_faces,
    "rating": _validate_rating,
    "setting": _validate_setting,
    "size": _validate_size,
    "kind": _enum_validator("kind", KINDS),
    "quality": _enum_validator("quality", QUALITIES),
    "color": _enum_validator("color", (*COLORS, MONOCHROME)),
    "orientation": _enum_validator("orientation", ORIENTATIONS),
}


def _validate_atom(key: str, value: Any, path: str) -> dict:
    p = f"{path}.{key}"
    if key in STRING_ATOMS:
        return _validate_string(key, value, p)
    if key in _ATOM_VALIDATORS:
        return _ATOM_VALIDATORS[key](value, p)
    raise _err(path, f"unknown atom {key!r}")  # pragma: no cover - guarded by caller


def _validate_node(node: Any, path: str, depth: int) -> dict:
    if depth > MAX_DEPTH:
        raise _err(path, f"nested deeper than {MAX_DEPTH} levels")
    if not isinstance(node, dict):
        raise _err(path, f"expected an object, got {type(node).__name__}")
    if len(node) != 1:
        keys = sorted(node) or "none"
        raise _err(path, f"a node has exactly one key (an operator or an atom), got {keys}")
    ((key, value),) = node.items()
    if key in ("and", "or"):
        if not isinstance(value, list):
            raise _err(f"{path}.{key}", "expected a list of nodes")
        if key == "or" and not value:
            raise _err(f"{path}.or", "an 'or' needs at least one node")
        children = [_validate_node(c, f"{path}.{key}[{i}]", depth + 1) for i, c in enumerate(value)]
        if len(children) == 1:
            return children[0]
        return {key: children}
    if key == "not":
        return {"not": _validate_node(value, f"{path}.not", depth + 1)}
    if key == "days_of":
        return _validate_days_of(value, f"{path}.days_of", depth + 1)
    if key in ATOM_KEYS:
        return _validate_atom(key, value, path)
    raise _err(path, f"unknown key {key!r}; expected one of {list(OPERATORS) + list(ATOM_KEYS)}")


def _validate_days_of(value: Any, p: str, depth: int) -> dict:
    """The days around the days a node's photos were taken: the node, and the days away."""
    if not isinstance(value, dict) or not {"where", "from", "to"} <= set(value) <= {
        "where",
        "from",
        "to",
        "pick",
    }:
        raise _err(p, 'expected {"where": NODE, "from": days, "to": days} and maybe "pick"')
    if value.get("pick", DAY_PICKS[0]) not in DAY_PICKS:
        raise _err(f"{p}.pick", f"expected one of {list(DAY_PICKS)}, got {value['pick']!r}")
    lo, hi = (
        _check_int(value[k], f"{p}.{k}", nullable=False, minimum=-MAX_DAYS_AWAY) for k in ("from", "to")
    )
    if max(lo, hi) > MAX_DAYS_AWAY:
        raise _err(p, f"at most {MAX_DAYS_AWAY} days away")
    if lo > hi:
        raise _err(p, f"'from' {lo} is after 'to' {hi}")
    out = {"where": _validate_node(value["where"], f"{p}.where", depth), "from": lo, "to": hi}
    if "pick" in value:
        out["pick"] = value["pick"]
    return {"days_of": out}


def validate_compose(compose: Any) -> dict[str, Any]:
    """The compose block with defaults filled in; raises PlanError."""
    if compose is None:
        return default_compose()
    if not isinstance(compose, dict):
        raise _err("compose", "expected an object")
    extra = set(compose) - set(default_compose())
    if extra:
        raise _err("compose", f"unknown field(s) {sorted(extra)}")
    out = default_compose()
    out["limit"] = _check_int(compose.get("limit"), "compose.limit", nullable=True, minimum=1)
    sort = compose.get("sort", "relevance")
    if sort not in SORTS:
        raise _err("compose.sort", f"expected one of {list(SORTS)}, got {sort!r}")
    out["sort"] = sort
    per = compose.get("per")
    if per not in (*PER_VALUES, None):
        raise _err("compose.per", f"expected one of {list(PER_VALUES)} or null, got {per!r}")
    out["per"] = per
    for flag in ("diverse", "exclude_near_duplicates"):
        value = compose.get(flag, False)
        if not isinstance(value, bool):
            raise _err(f"compose.{flag}", f"expected true or false, got {value!r}")
        out[flag] = value
    return out


def json_depth(text: str) -> int:
    """How deeply `text`'s JSON arrays and objects nest, by one linear scan (strings skipped);
    checked before json.loads, whose recursion a deep document would exhaust."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_plan_json(data: str | bytes) -> Any:
    """Parse plan JSON within the input bounds: size and nesting first, then json.loads."""
    if len(data) > MAX_PLAN_BYTES:
        raise PlanError(f"plan is {len(data)} bytes; a plan holds at most {MAX_PLAN_BYTES}")
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise PlanError(f"plan JSON nests {depth} levels deep; at most {MAX_JSON_DEPTH} (a plan {MAX_DEPTH})")
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise PlanError(f"plan is not valid JSON: {exc}") from None


def validate_plan(obj: Any) -> dict[str, Any]:
    """Check `obj` against the schema and return a normalised copy.

    Normalisation: compose defaults filled in, whitespace collapsed in strings, dates in ISO form,
    faces with both keys, and/or with a single child replaced by that child. Accepts a JSON string.
    """
    if isinstance(obj, (str, bytes)):
        obj = parse_plan_json(obj)
    if not isinstance(obj, dict):
        raise PlanError(f"a plan is a JSON object, got {type(obj).__name__}")
    extra = set(obj) - {"version", "where", "compose", "required"}
    if extra:
        raise _err("plan", f"unknown field(s) {sorted(extra)}")
    version = obj.get("version", PLAN_VERSION)
    if version != PLAN_VERSION:
        raise _err("version", f"unsupported plan version {version!r} (this build reads {PLAN_VERSION})")
    if "where" not in obj:
        raise _err("plan", "missing 'where'")
    out = {
        "version": PLAN_VERSION,
        "where": _validate_node(obj["where"], "where", 0),
        "compose": validate_compose(obj.get("compose")),
    }
    required = _validate_required(obj.get("required"), out["where"])
    if required:
        out["required"] = required
    return out


def _validate_required(value: Any, where: dict) -> list[str]:
    """The `required` list: concept values of this plan, whitespace collapsed, no repeats."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise _err("required", f"expected a list of concept strings, got {value!r}")
    concepts = {" ".join(str(a["concept"]).lower().split()) for a in atoms(where) if "concept" in a}
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item.strip():
            raise _err(f"required[{i}]", f"expected a non-empty string, got {item!r}")
        norm = " ".join(item.split())
        if norm.lower() not in concepts:
            raise _err(f"required[{i}]", f"{norm!r} is not a concept of this plan")
        if norm not in out:
            out.append(norm)
    return out


# --------------------------------------------------------------------------- walking, text, JSON


def is_atom(node: dict) -> bool:
    return len(node) == 1 and next(iter(node)) in ATOM_KEYS


def walk(node: dict) -> Iterator[dict]:
    """Yield every node (operators and atoms), depth first, parents before children; a days_of
    atom's own `where` follows it."""
    yield node
    ((key, value),) = node.items()
    if key in ("and", "or"):
        for child in value:
            yield from walk(child)
    elif key == "not":
        yield from walk(value)
    elif key == "days_of":
        yield from walk(value["where"])


def atoms(plan: dict) -> list[dict]:
    """All atoms of a plan (or of a node) in reading order, with those of a days_of's `where` after
    it: what a search must load or encode."""
    return [n for n in walk(_root(plan)) if is_atom(n)]


def _root(plan: dict) -> dict:
    """The `where` node of a plan (or of a plan-like {"where": ...}), else the node itself."""
    return plan.get("where", plan)


def signed_atoms(plan: dict) -> Iterator[tuple[dict, bool]]:
    """Each atom of a plan (or node) in reading order with its polarity: True under an odd number of
    `not`s (an excluded condition), False otherwise."""

    def visit(node: dict, negated: bool) -> Iterator[tuple[dict, bool]]:
        ((key, value),) = node.items()
        if key in ("and", "or"):
            for child in value:
                yield from visit(child, negated)
        elif key == "not":
            yield from visit(value, not negated)
        else:
            yield node, negated

    return visit(_root(plan), False)


def map_nodes(node: dict, replace: Callable[[dict], dict | None]) -> dict:
    """The tree rebuilt top-down: where `replace(n)` returns a node it stands for all of `n`;
    where it returns None, an operator is rebuilt from its children and an atom kept as is."""
    new = replace(node)
    if new is not None:
        return new
    ((key, value),) = node.items()
    if key in ("and", "or"):
        return {key: [map_nodes(child, replace) for child in value]}
    if key == "not":
        return {"not": map_nodes(value, replace)}
    return node


def filter_atoms(node: dict, keep: Callable[[dict], bool]) -> dict | None:
    """The tree with only the atoms `keep` accepts; an operator left without children goes too and
    an and/or left with one child becomes that child. None when nothing is left."""
    ((key, value),) = node.items()
    if key in ("and", "or"):
        kids = [c for c in (filter_atoms(x, keep) for x in value) if c is not None]
        if not kids:
            return None
        return kids[0] if len(kids) == 1 else {key: kids}
    if key == "not":
        inner = filter_atoms(value, keep)
        return None if inner is None else {"not": inner}
    return node if keep(node) else None


def _atom_text(atom: dict) -> str:
    key, value = next(iter(atom.items()))
    if key in ("date", "added"):
        lo, hi = value["from"], value["to"]
        return f"{key} {lo}" if lo == hi else f"{key} {lo}..{hi}"
    if key == "days_of":
        lo, hi = value["from"], value["to"]
        picked = f"{value['pick']} day of " if value.get("pick") else ""
        said = f"{lo:+d}" if lo == hi else f"{lo:+d}..{hi:+d}"
        return f"days_of({picked}{node_to_text(value['where'])}) {said}"
    if key == "faces":
        lo, hi = value.get("min", 0), value.get("max")
        if hi is None:
            return f"faces>={lo}"
        return f"faces={lo}" if lo == hi else f"faces {lo}..{hi}"
    if key == "rating":
        lo, hi = value.get("min", 1), value.get("max")
        if hi is None:
            return f"rating>={lo}"
        return f"rating={lo}" if lo == hi else f"rating {lo}..{hi}"
    if key == "setting":
        return setting_said(value)
    if key == "size":
        return "size " + size_text(value)
    if key == "month":
        return "taken " + months_text(value)
    if key == "hour":
        return "taken " + hours_text(value)
    if key == "weekday":
        return "taken " + days_text(value)
    if key == "yearly":
        return "taken " + yearly_text(value)
    if key in ("kind", "quality", "color", "orientation"):
        return f"{key}:{value}"
    if key in ("concept",):
        return json.dumps(value, ensure_ascii=False)
    return f"{key}:{json.dumps(value, ensure_ascii=False)}"


def node_to_text(node: dict) -> str:
    ((key, value),) = node.items()
    if key in ("and", "or"):
        if not value:
            return "everything" if key == "and" else "nothing"
        inner = f" {key.upper()} ".join(
            f"({node_to_text(c)})" if next(iter(c)) in ("and", "or") else node_to_text(c) for c in value
        )
        return inner
    if key == "not":
        child = node_to_text(value)
        return f"NOT ({child})" if next(iter(value)) in ("and", "or") else f"NOT {child}"
    return _atom_text(node)


def compose_to_text(compose: dict) -> str:
    parts = []
    if compose.get("limit"):
        parts.append(f"top {compose['limit']}")
    if compose.get("sort", "relevance") != "relevance":
        parts.append(SORT_TEXT[compose["sort"]])
    if compose.get("per"):
        parts.append(f"one per {compose['per']}")
    if compose.get("diverse"):
        parts.append("diverse")
    if compose.get("exclude_near_duplicates"):
        parts.append("no near-duplicates")
    return ", ".join(parts)


def plan_to_text(plan: dict) -> str:
    """A one-line human reading, e.g. `person:"Anna" AND "dog" AND NOT quality:blurry | top 20`."""
    text = node_to_text(plan["where"])
    if plan.get("required"):
        text += " [required: " + ", ".join(json.dumps(r, ensure_ascii=False) for r in plan["required"]) + "]"
    extra = compose_to_text(plan.get("compose") or {})
    return f"{text} | {extra}" if extra else text


def dumps_plan(plan: dict, *, indent: int | None = None) -> str:
    """Stable JSON: key order fixed (version, where, compose), so dumps(loads(x)) == x."""
    ordered = {
        "version": plan.get("version", PLAN_VERSION),
        "where": plan["where"],
        "compose": validate_compose(plan.get("compose")),
    }
    if plan.get("required"):
        ordered["required"] = list(plan["required"])
    sep = (",", ": ") if indent else (",", ":")
    return json.dumps(ordered, ensure_ascii=False, indent=indent, separators=sep)


# --------------------------------------------------------------------------- comparison


def flat_node(node: dict) -> dict:
    """The node with an AND inside an AND (an OR inside an OR) spliced into it, repeats dropped,
    order kept."""
    ((key, value),) = node.items()
    if key == "not":
        return {"not": flat_node(value)}
    if key not in ("and", "or"):
        return node
    return {key: list(_spliced(key, map(flat_node, value)).values())}


def _spliced(key: str, children: Iterable[dict]) -> dict[str, dict]:
    """The children of an AND (OR), a child of the same operator spliced in, by their JSON, repeats
    dropped, in order."""
    kids: dict[str, dict] = {}
    for child in children:
        for kid in child[key] if next(iter(child)) == key else [child]:
            kids.setdefault(json.dumps(kid, sort_keys=True), kid)
    return kids


def canonical_node(node: dict) -> dict:
    """Order-insensitive form for comparing plans: nested same operators flattened, children sorted."""
    ((key, value),) = node.items()
    if key in ("and", "or"):
        uniq = _spliced(key, map(canonical_node, value))
        kids = [uniq[k] for k in sorted(uniq)]
        if len(kids) == 1:
            return kids[0]
        return {key: kids}
    if key == "not":
        return {"not": canonical_node(value)}
    if key == "days_of":
        return {"days_of": {**value, "where": canonical_node(value["where"])}}
    return copy.deepcopy(node)


def canonical_plan(plan: dict) -> dict:
    plan = validate_plan(plan)
    out = {"version": plan["version"], "where": canonical_node(plan["where"]), "compose": plan["compose"]}
    if plan.get("required"):
        out["required"] = sorted(x.lower() for x in plan["required"])
    return out


def plans_equal(a: dict, b: dict) -> bool:
    """True when two plans mean the same (children order and nesting of equal operators ignored)."""
    return json.dumps(canonical_plan(a), sort_keys=True) == json.dumps(canonical_plan(b), sort_keys=True)
