"""The `album` atom: a manual album's photos, or what a smart album's saved search finds now.

Album membership is read from the catalog at each search (it is not part of the search snapshot);
a smart album's plan runs through the same executor, so it follows the library. A smart album whose
search names itself (directly or through another album) is an error, never a loop."""

from __future__ import annotations

import numpy as np

from photosearch.errors import PhotoSearchError
from photosearch.query.plan import ANY_ALBUM
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet


def resolve_album(atom: dict, ctx: ExecContext) -> AtomResult:
    from photosearch.catalog.albums import album_photo_ids, get_album, photos_in_any_album

    name = str(atom["album"])
    if name == ANY_ALBUM:  # in any manual album (a smart album is a search, not a place photos are put)
        rows = ctx.snapshot.rows_of(np.asarray(photos_in_any_album(ctx.store), np.int64))
        explain = lambda row: [{"atom": "album", "album": ANY_ALBUM, "text": "in an album"}]  # noqa: E731
        return AtomResult(atom, ScoredSet.from_rows(np.unique(rows)), explain, {"album": ANY_ALBUM})
    info = get_album(ctx.store, name)
    if info.name.casefold() in ctx.albums_open:
        raise PhotoSearchError(f"the smart album {info.name!r} includes itself through its search")
    if info.smart:
        from photosearch.query.executor import Executor

        plan = info.plan or {}
        ctx.albums_open.add(info.name.casefold())
        names_people = ctx.names_people
        try:
            found = Executor(ctx, required=plan.get("required") or ()).run(plan["where"]).result
        finally:
            ctx.albums_open.discard(info.name.casefold())
            ctx.names_people = names_people
        result = ScoredSet(found.rows, np.ones(found.rows.size, np.float32))
    else:
        result = ScoredSet.from_rows(ctx.snapshot.rows_of(album_photo_ids(ctx.store, info.name)))
    return AtomResult(
        atom,
        result,
        lambda row: [{"atom": "album", "album": info.name}],
        {"album": info.name, "kind": info.kind},
    )


def atoms_with_albums(store, where: dict) -> list[dict]:
    """The atoms of `where` and of the smart albums it names (theirs too, each album once): what a
    search must get ready for (place facts, text encoders) before running it."""
    from photosearch.catalog.albums import get_album
    from photosearch.query.plan import atoms

    out: list[dict] = []
    seen: set[str] = set()
    todo = [where]
    while todo:
        found = atoms(todo.pop())
        out += found
        for atom in found:
            name = str(atom.get("album", "")).casefold()
            if not name or name == ANY_ALBUM or name in seen:
                continue
            seen.add(name)
            try:
                info = get_album(store, name)
            except PhotoSearchError:
                continue  # the resolver says so
            if info.smart and info.plan:
                todo.append(info.plan["where"])
    return out
