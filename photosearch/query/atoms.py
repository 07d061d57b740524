"""Atom resolvers by atom key: `resolve_atom(atom, ctx) -> AtomResult`."""

from __future__ import annotations

from collections.abc import Callable

from photosearch.query.plan import ANY_SIMILAR
from photosearch.query.resolvers.added import resolve_added
from photosearch.query.resolvers.albums import resolve_album
from photosearch.query.resolvers.base import AtomResult, ExecContext
from photosearch.query.resolvers.concept import resolve_concept
from photosearch.query.resolvers.duplicates import resolve_any_duplicate
from photosearch.query.resolvers.filters import (
    resolve_camera,
    resolve_color,
    resolve_date,
    resolve_editor,
    resolve_faces,
    resolve_file,
    resolve_folder,
    resolve_hour,
    resolve_kind,
    resolve_knowledge,
    resolve_label,
    resolve_lens,
    resolve_month,
    resolve_orientation,
    resolve_person,
    resolve_quality,
    resolve_rating,
    resolve_tag,
    resolve_text,
    resolve_weekday,
    resolve_yearly,
)
from photosearch.query.resolvers.places import resolve_place
from photosearch.query.resolvers.settings import resolve_setting
from photosearch.query.resolvers.similar import resolve_similar
from photosearch.query.resolvers.sizes import resolve_size

RESOLVERS: dict[str, Callable[[dict, ExecContext], AtomResult]] = {
    "concept": resolve_concept,
    "person": resolve_person,
    "date": resolve_date,
    "added": resolve_added,
    "month": resolve_month,
    "hour": resolve_hour,
    "weekday": resolve_weekday,
    "yearly": resolve_yearly,
    "place": resolve_place,
    "text": resolve_text,
    "camera": resolve_camera,
    "lens": resolve_lens,
    "folder": resolve_folder,
    "file": resolve_file,
    "similar": lambda atom, ctx: (
        resolve_any_duplicate(atom, ctx) if atom["similar"] == ANY_SIMILAR else resolve_similar(atom, ctx)
    ),
    "knowledge": resolve_knowledge,
    "tag": resolve_tag,
    "faces": resolve_faces,
    "rating": resolve_rating,
    "setting": resolve_setting,
    "size": resolve_size,
    "label": resolve_label,
    "kind": resolve_kind,
    "quality": resolve_quality,
    "color": resolve_color,
    "orientation": resolve_orientation,
    "album": resolve_album,
    "editor": resolve_editor,
}

#: Atoms whose scores carry relevance (the others are filters that score 1).
GRADED = {"concept", "similar", "text", "knowledge"}


def resolve_atom(atom: dict, ctx: ExecContext) -> AtomResult:
    (key,) = atom.keys()
    try:
        resolver = RESOLVERS[key]
    except KeyError:
        from photosearch.errors import PhotoSearchError

        raise PhotoSearchError(f"unknown atom {key!r}; known: {', '.join(RESOLVERS)}") from None
    result = resolver(atom, ctx)
    result.set.graded = key in GRADED
    return result
