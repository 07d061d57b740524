"""What the app and the CLI do to organise photos (no Qt here): albums (manual and smart), the
user's favourites and star ratings, and copying a selection out. `Core.organize` is one of these."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from sqlalchemy import select

from photosearch.catalog import albums as catalog_albums
from photosearch.catalog.batches import slices
from photosearch.catalog.models import Fact, Photo
from photosearch.catalog.user_marks import USER, mark_many
from photosearch.errors import PhotoSearchError

if TYPE_CHECKING:
    from photosearch.core import Core
    from photosearch.export import ExportProgress, ExportReport

#: The user tag the heart sets (the `tag` atom's "favourite"), and the tags that mean the same.
FAVOURITE = "favourite"
FAVOURITE_SPELLINGS = ("favourite", "favorite", "favourites", "favorites")


class Organizer:
    def __init__(self, core: Core):
        self.core = core

    @property
    def store(self):
        return self.core.store

    # ---- albums --------------------------------------------------------------------------------
    def album_names(self, kind: str | None = None) -> list[str]:
        return [a.name for a in catalog_albums.list_albums(self.store) if kind is None or a.kind == kind]

    def albums(self) -> list[dict]:
        """Every album with its photo count and cover photo (the first photo it shows); a smart
        album's search runs now, so both follow the library."""
        out = []
        for info in catalog_albums.list_albums(self.store):
            entry = info.as_dict()
            try:
                ids = self.photo_ids(info.name)
                entry["count"], entry["cover"] = len(ids), (ids[0] if ids else None)
            except PhotoSearchError as exc:  # a smart album whose search cannot run now says why
                entry["count"], entry["cover"], entry["problem"] = None, None, str(exc)
            entry["cover_thumb"] = self.core.thumb_path(entry["cover"]) if entry["cover"] else None
            out.append(entry)
        return out

    def photo_ids(self, name: str) -> list[int]:
        return [int(r["id"]) for r in self.album_results(name, explain=False)["results"]]

    def album_results(self, name: str, *, explain: bool = True) -> dict:
        """The album's photos as a search result for the grid: a manual album oldest first, a
        smart album what its plan finds now (its closest matches are not the album's)."""
        info = catalog_albums.get_album(self.store, name)
        t0 = time.perf_counter()
        if info.smart:
            result = self.core.search(plan=info.plan, limit=None, explain=explain)
            result["results"] = [r for r in result["results"] if not r.get("below_cutoff")]
        else:
            ids = catalog_albums.album_photo_ids(self.store, info.name)
            paths = self._paths(ids)
            result = {
                "plan": None,
                "results": [{"id": i, "path": paths[i], "score": 1.0, "why": []} for i in ids if i in paths],
                "timing_ms": {"total": round((time.perf_counter() - t0) * 1000, 1)},
                "composer": "album",
            }
        result["album"] = info.as_dict()
        return result

    def create_album(self, name: str, photo_ids: Iterable[int] = ()) -> dict:
        info = catalog_albums.create_album(self.store, name)
        ids = list(photo_ids)
        if ids:
            catalog_albums.add_photos(self.store, info.name, ids)
        return catalog_albums.get_album(self.store, info.name).as_dict()

    def save_search(
        self, name: str, plan: dict, request: str | None = None, *, replace: bool = False
    ) -> dict:
        """A smart album of this plan; `replace`: the album exists and takes the edited plan."""
        if replace:
            return catalog_albums.set_plan(self.store, name, plan, request).as_dict()
        return catalog_albums.create_album(self.store, name, plan=plan, request=request).as_dict()

    def rename_album(self, name: str, new_name: str) -> dict:
        return catalog_albums.rename_album(self.store, name, new_name).as_dict()

    def delete_album(self, name: str) -> dict:
        return catalog_albums.delete_album(self.store, name).as_dict()

    def add_to_album(self, name: str, photo_ids: Iterable[int]) -> int:
        return catalog_albums.add_photos(self.store, name, photo_ids)

    def remove_from_album(self, name: str, photo_ids: Iterable[int]) -> int:
        return catalog_albums.remove_photos(self.store, name, photo_ids)

    # ---- favourites and stars --------------------------------------------------------------------
    def marks(self) -> dict[int, dict]:
        """{photo id: {"favourite": bool, "rating": int | None}} of every photo with a heart or
        stars: the user's rating, else the one written in the file."""
        out: dict[int, dict] = {}
        with self.store.session() as s:
            rows = s.execute(
                select(Fact.photo_id, Fact.analyzer, Fact.kind, Fact.label).where(
                    (Fact.kind == "rating") | ((Fact.kind == "user_tag") & (Fact.analyzer == USER))
                )
            ).all()
        for pid, analyzer, kind, label in rows:
            m = out.setdefault(int(pid), {"favourite": False, "rating": None, "user_rating": False})
            if kind == "user_tag":
                m["favourite"] |= label.casefold() in FAVOURITE_SPELLINGS
                continue
            try:
                stars = int(float(label))
            except ValueError:
                continue
            if analyzer == USER or not m["user_rating"]:
                m["rating"], m["user_rating"] = stars, analyzer == USER
        return {
            pid: {"favourite": m["favourite"], "rating": m["rating"]}
            for pid, m in out.items()
            if m["favourite"] or m["rating"] is not None
        }

    def set_marks(
        self,
        photo_ids: Iterable[int],
        *,
        favourite: bool | None = None,
        rating: int | None = None,
        clear_rating: bool = False,
    ) -> dict[int, dict]:
        """Give every photo the heart (or take it away) and/or these stars; 0 stars clears the
        rating. Returns the marks of those photos as they are now."""
        ids = list(dict.fromkeys(int(p) for p in photo_ids))
        if rating == 0:
            rating, clear_rating = None, True
        mark_many(
            self.store,
            ids,
            tag=FAVOURITE,
            tagged=favourite,
            same_as=FAVOURITE_SPELLINGS,
            rating=rating,
            clear_rating=clear_rating,
        )
        if self.core.settings.sidecar_writeback:
            self.core.write_sidecars(ids)
        now = self.marks()
        return {pid: now.get(pid, {"favourite": False, "rating": None}) for pid in ids}

    def _paths(self, ids: list[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        with self.store.session() as s:
            for part in slices(ids):
                out.update(s.execute(select(Photo.id, Photo.path).where(Photo.id.in_(part))).all())
        return out

    # ---- export --------------------------------------------------------------------------------
    def export(
        self,
        photo_ids: Iterable[int],
        folder: str,
        progress: Callable[[ExportProgress], None] | None = None,
        cancel: Callable[[], bool] | None = None,
    ) -> ExportReport:
        """Copy the originals (and sidecars) of these photos into `folder` (`export.export_photos`)."""
        from photosearch.export import export_photos

        ids = list(dict.fromkeys(int(p) for p in photo_ids))
        paths = self._paths(ids)
        missing = [i for i in ids if i not in paths]
        if missing:
            raise PhotoSearchError(f"no photo has the id #{missing[0]} (nothing was copied)")
        return export_photos([paths[i] for i in ids], folder, progress=progress, cancel=cancel)
