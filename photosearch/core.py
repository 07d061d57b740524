"""`Core`: what both front ends ask of the library (no Qt here): search, similar photos, plans,
photo details, status, completions, people, model health.

The GUI calls it from its bridge's worker threads; the CLI's commands call it through
`cli.context.Context.core`.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, date
from pathlib import Path

from sqlalchemy import func, select

from photosearch import browse
from photosearch.catalog import geo
from photosearch.catalog.geo import GeoPoints
from photosearch.catalog.models import Face, Fact, Folder, Person, Photo, Thumbnail
from photosearch.catalog.store import Store
from photosearch.config import Settings
from photosearch.errors import PhotoSearchError
from photosearch.health import check_models, format_report, missing_analyzers
from photosearch.metadata.editing import EDITED_COPY
from photosearch.metadata.exposure import from_facts as exposure_from_facts
from photosearch.metadata.exposure import summary as exposure_summary
from photosearch.organize import Organizer
from photosearch.query.golden import add_user_example, user_file
from photosearch.query.places import FAMOUS_CITIES
from photosearch.query.plan import validate_plan
from photosearch.query.search import SIMILAR_LIMIT, similar
from photosearch.query.search import search as core_search

log = logging.getLogger(__name__)

FACT_SECTIONS = (
    "tag",
    "object",
    "text",
    "caption",
    "knowledge",
    "color",
    "kind",
    "quality",
    "user_tag",
    # what the file or its sidecar says (metadata/analyzer.py)
    "keyword",
    "title",
    "description",
    "credit",
    "rating",
    "color_label",
    "metadata_issue",
)


@dataclass
class PhotoDetails:
    """Everything the photo view shows about one photo."""

    id: int
    path: str
    content_hash: str
    width: int | None
    height: int | None
    exif: dict[str, str]
    facts: dict[str, list[dict]] = field(default_factory=dict)
    faces: list[dict] = field(default_factory=list)
    thumb: str | None = None
    online: bool = True
    place: str | None = None  # where it was taken, in words ("Sintra, Lisbon, Portugal")
    gps: tuple[float, float] | None = None

    @property
    def name(self) -> str:
        return Path(self.path).name


class Core:
    """Thread-safe (one `Store`, one unit of work per call); used from the bridge's workers."""

    def __init__(self, settings: Settings, store: Store | None = None):
        self.settings = settings
        settings.ensure_dirs()
        self.store = store or Store(settings.database_url)
        self._thumbs: OrderedDict[int, str | None] = OrderedDict()
        self._embed_file = None  # path -> image vector, built on the first file outside the catalog
        self.organize = Organizer(self)  # albums, favourites and stars, export

    def _embed_image(self, path: str):
        """The tagger's similarity vector of a file outside the catalog."""
        if self._embed_file is None:
            # the indexing stack (analyzers, OpenCV): only when a file outside the catalog is searched
            from photosearch.app import image_embedder

            self._embed_file = image_embedder(self.settings)
        return self._embed_file(path)

    # ---- health ----------------------------------------------------------------------------
    def health(self) -> tuple[dict[str, dict], dict[str, tuple[str, str]], list[str]]:
        """(analysis failures per analyzer in the catalog, bundled analyzers not installed here,
        cache folders that could not be used)."""
        from photosearch.cache_problems import cache_problems

        return self.status()["analysis_failures"], missing_analyzers(self.settings), cache_problems()

    def status(self) -> dict:
        """Photos, analysed, failed files by reason, analysis failures per analyzer, folders."""
        return self.store.status()

    def model_check_report(self) -> str:
        """Load and run every model on a test photo: the text of `photosearch doctor`."""
        return format_report(check_models(self.settings))

    def warm_up(self) -> float:
        """Load what a first search needs (planner library, place index, text model and its null
        distribution, the catalog snapshot, vector indexes) by running one; returns the seconds it took."""
        t0 = time.perf_counter()
        for request in ("cat", "photos in Paris"):  # a concept (text model, null model), a place (index)
            self.search(request=request)
        from photosearch.vision.text_embedder import get_text_embedder

        embedder = get_text_embedder(self.settings)
        if embedder.available():  # remembered query vectors may have spared it; a new request needs it
            embedder.load()
        return time.perf_counter() - t0

    def warm_ask(self, photo_id: int | None = None) -> float:
        """Load what Ask's next answer about this photo needs (`photosearch.ask.local.warm`); seconds."""
        from photosearch.ask.local import warm

        return warm(self.store, self.settings, photo_id)

    # ---- library ---------------------------------------------------------------------------
    def has_folders(self) -> bool:
        return bool(self.store.folders())

    def folders(self) -> list[dict]:
        return [
            {"path": f.path, "online": bool(f.online) and Path(f.path).is_dir()} for f in self.store.folders()
        ]

    def photo_count(self) -> int:
        with self.store.session() as s:
            return int(s.scalar(select(func.count()).select_from(Photo).where(Photo.state == "active")) or 0)

    def all_photos(self, limit: int | None = None) -> list[dict]:
        """Newest first: what the grid shows before any search."""
        with self.store.session() as s:
            q = (
                select(Photo.id, Photo.path)
                .where(Photo.state == "active")
                .order_by(Photo.taken_at.desc().nullslast(), Photo.id.desc())
            )
            if limit:
                q = q.limit(limit)
            return [{"id": pid, "path": path, "score": 1.0, "why": []} for pid, path in s.execute(q)]

    # ---- map ----------------------------------------------------------------------------------
    def geotagged(self) -> GeoPoints:
        """Every active photo with a usable GPS position, in one query (the map's pins)."""
        return geo.geotagged(self.store)

    def photos_in_area(self, south: float, west: float, north: float, east: float) -> list[int]:
        """Ids of active photos taken inside a latitude/longitude box (west > east crosses 180°)."""
        return geo.photos_in_area(self.store, south, west, north, east)

    def photo_rows(self, ids: list[int]) -> list[dict]:
        """The grid's rows of these photos, newest first (photos no longer active are left out)."""
        return geo.photo_rows(self.store, ids)

    def place_names(self, points: list[tuple[float, float]]) -> list[str]:
        """'City, Country' of each (lat, lon), from the offline gazetteer."""
        from photosearch.query.resolvers.places import reverse_geocode

        return [", ".join(x for x in (p["city"], p["country"]) if x) for p in reverse_geocode(points)]

    # ---- browsing (photosearch/browse.py) ----------------------------------------------------------
    def timeline(self) -> browse.Timeline:
        """Every photo newest first (undated last) with its date, path and place: the timeline."""
        return browse.timeline(self.store)

    def folder_tree(self) -> list[browse.FolderNode]:
        """The watched folders and their subfolders that hold photos, with photo counts."""
        return browse.folder_tree(self.store)

    def folder_photos(self, folder: str) -> list[dict]:
        """A folder's photos (subfolders included), newest first, as search results."""
        return browse.folder_photos(self.store, folder)

    def photo_info(self, ids: list[int]) -> dict[int, dict]:
        """{id: {"taken", "place"}}: what the grid's tooltips say about each photo."""
        return browse.photo_info(self.store, ids)

    # ---- thumbnails ---------------------------------------------------------------------------
    def thumb_path(self, photo_id: int) -> str | None:
        """The WebP thumbnail of a photo (keyed by its content hash), or None."""
        if photo_id in self._thumbs:
            return self._thumbs[photo_id]
        with self.store.session() as s:
            rel = s.scalar(
                select(Thumbnail.rel_path)
                .join(Photo, Photo.content_hash == Thumbnail.content_hash)
                .where(Photo.id == photo_id)
            )
        path = str(self.settings.thumbs_dir / rel) if rel else None
        self._thumbs[photo_id] = path
        while len(self._thumbs) > 50_000:
            self._thumbs.popitem(last=False)
        return path

    # ---- search ------------------------------------------------------------------------------
    def search(
        self,
        request: str | None = None,
        plan: dict | None = None,
        limit: int | None = 5000,
        *,
        explain: bool = True,
        now: date | None = None,
    ) -> dict:
        """{"plan", "results":[{"id","path","score","why"}], "timing_ms"} for a request or a plan.

        A plan's own `compose.limit` wins; `limit` caps plans that have none (and every request).
        No request and no plan: the newest photos."""
        if plan is not None:
            plan = validate_plan(plan)
        if not (request or "").strip() and plan is None:
            t0 = time.perf_counter()
            return {
                "plan": None,
                "results": self.all_photos(limit),
                "timing_ms": {"total": _ms(t0)},
                "composer": "newest",
            }
        cap = None if plan is not None and (plan.get("compose") or {}).get("limit") else limit
        return core_search(
            self.store,
            self.settings,
            request=request,
            plan=plan,
            limit=cap,
            explain=explain,
            now=now,
            image_embedder=self._embed_image,
        )

    def similar(self, photo: int | str, limit: int | None = None) -> dict:
        """Photos that look like a catalogued photo (id or path) or a file outside the catalog: the
        list `photosearch similar` prints and the app's Find similar shows (`SIMILAR_LIMIT` photos)."""
        return similar(
            self.store, self.settings, photo, limit=limit or SIMILAR_LIMIT, image_embedder=self._embed_image
        )

    def save_example(self, request: str, plan: dict) -> str:
        """Add a verified request → plan pair to the user's golden library; returns where it went."""
        add_user_example(self.settings, request, validate_plan(plan))
        return str(user_file(self.settings))

    # ---- who "me" is ---------------------------------------------------------------------------
    @property
    def owner(self) -> str | None:
        """The named person the user is ("me" in requests), or None."""
        return self.settings.owner

    def set_owner(self, name: str | None) -> None:
        """Say which named person the user is (None: nobody); kept in the settings file."""
        name = (name or "").strip() or None
        if name is not None and name not in self.people_names():
            raise PhotoSearchError(f"nobody in the library is called {name!r}; name the person first")
        self.settings.owner = name
        self.settings.save()

    def owner_renamed(self, old: str | None, new: str | None) -> None:
        """Keep "me" on the same person when that person's name changes."""
        if old and self.settings.owner == old:
            self.set_owner(new if new and new in self.people_names() else None)

    # ---- completion --------------------------------------------------------------------------
    def people_names(self) -> list[str]:
        with self.store.session() as s:
            return sorted(
                n
                for n in s.scalars(
                    select(Person.name).where(Person.name.is_not(None), Person.hidden.is_(False))
                )
            )

    def completions(self, limit: int = 3000) -> list[str]:
        """Words worth completing: people names, places, and concepts the catalog knows."""
        words: list[str] = list(self.people_names())
        with self.store.session() as s:
            rows = s.execute(
                select(Fact.label, func.count())
                .where(Fact.kind.in_(("tag", "object", "knowledge", "user_tag", "place")))
                .group_by(Fact.label)
                .order_by(func.count().desc())
                .limit(limit)
            ).all()
            words += [label for label, _n in rows]
            folders = [Path(p).name for p in s.scalars(select(Folder.path))]
        words += folders
        words += list(FAMOUS_CITIES)[:500]
        seen: dict[str, str] = {}
        for w in words:
            if w and w.lower() not in seen:
                seen[w.lower()] = w
        return list(seen.values())

    def write_sidecars(self, photo_ids: list[int] | None = None) -> dict:
        """Bring XMP sidecars in line with names, tags, ratings and captions (opt-in setting)."""
        from photosearch.metadata.sync import sync_sidecars

        return sync_sidecars(self.store, self.settings, photo_ids).as_dict()

    # ---- one photo -----------------------------------------------------------------------------
    def details(self, photo_id: int) -> PhotoDetails:
        with self.store.session() as s:
            p = s.get(Photo, photo_id)
            if p is None:
                raise PhotoSearchError(f"photo #{photo_id} is no longer in the catalog")
            exif = {}
            if p.taken_at:
                exif["Taken"] = browse.date_words(p.taken_at)  # "Wed 1 March 2023, 10:30"
            camera = camera_name(p.camera_make, p.camera_model)
            if camera:
                exif["Camera"] = camera
            if p.lens:
                exif["Lens"] = p.lens
            if p.width and p.height:
                exif["Size"] = f"{p.width} × {p.height}"
            exif["File"] = f"{p.format or ''} {(p.size or 0) / 1e6:.1f} MB".strip()
            if p.added_at:  # written in UTC, said on this computer's clock ("photos added today")
                exif["Added"] = browse.date_words(
                    p.added_at.replace(tzinfo=UTC).astimezone().replace(tzinfo=None)
                )
            facts: dict[str, list[dict]] = {}
            for f in s.scalars(select(Fact).where(Fact.photo_id == photo_id).order_by(Fact.score.desc())):
                facts.setdefault(f.kind, []).append(
                    {
                        "label": f.label,
                        "score": f.score,
                        "box": f.box,
                        "data": f.data or {},
                        "analyzer": f.analyzer,
                    }
                )
            faces = [
                {
                    "id": face.id,
                    "box": face.box,
                    "score": face.score,
                    "person_id": face.person_id,
                    "name": name,
                }
                for face, name in s.execute(
                    select(Face, Person.name)
                    .outerjoin(Person, Person.id == Face.person_id)
                    .where(Face.photo_id == photo_id)
                    .order_by(Face.id)
                )
            ]
            exif = _with_settings(exif, exposure_summary(exposure_from_facts(facts)))
            if facts.get("editor"):  # "Edited: Lightroom, Photoshop"
                exif["Edited"] = ", ".join(
                    "yes, by its file name" if f["label"] == EDITED_COPY else f["label"]
                    for f in facts["editor"]
                )
            rel = s.scalar(select(Thumbnail.rel_path).where(Thumbnail.content_hash == p.content_hash))
            d = PhotoDetails(p.id, p.path, p.content_hash, p.width, p.height, exif, facts, faces)
            if p.gps_lat is not None and p.gps_lon is not None:
                d.gps = (p.gps_lat, p.gps_lon)
        d.place = browse.photo_info(self.store, [photo_id]).get(photo_id, {}).get("place")
        d.thumb = str(self.settings.thumbs_dir / rel) if rel else None
        d.online = Path(d.path).is_file()
        return d

    def same_day_request(self, photo_id: int) -> str | None:
        """The request for the photos taken the day this one was, by its clock, oldest first ("photos
        from 1 March 2023, oldest first"); None for a photo with no date."""
        with self.store.session() as s:
            photo = s.get(Photo, photo_id)
            if photo is None:
                raise PhotoSearchError(f"photo #{photo_id} is no longer in the catalog")
            taken = photo.taken_at
        if taken is None:
            return None
        return f"photos from {taken.day} {browse.MONTH_NAMES[taken.month - 1]} {taken.year}, oldest first"

    def same_place_request(self, photo_id: int) -> str | None:
        """The request for the photos taken where this one was: its town, as its place is named ("photos
        in Sintra"); None for a photo with no known place."""
        place = browse.photo_info(self.store, [photo_id]).get(photo_id, {}).get("place")
        town = (place or "").split(",")[0].strip()
        return f"photos in {town}" if town else None

    # ---- where home is --------------------------------------------------------------------------
    def set_home_from_photo(self, photo_id: int) -> str | None:
        """Make the spot this photo was taken at home ("kids at home" goes by it; kept in the settings
        file); its place ("Odivelas, Lisbon, PT", or its coordinates), or None for a photo with no GPS."""
        with self.store.session() as s:
            photo = s.get(Photo, photo_id)
            if photo is None:
                raise PhotoSearchError(f"photo #{photo_id} is no longer in the catalog")
            lat, lon = photo.gps_lat, photo.gps_lon
        if lat is None or lon is None:
            return None
        self.settings.home_spot = f"{lat:.6f},{lon:.6f}"
        self.settings.save()
        place = browse.photo_info(self.store, [photo_id]).get(photo_id, {}).get("place")
        return place or f"{lat:.4f}, {lon:.4f}"

    def same_people_plan(self, photo_id: int) -> dict | None:
        names = sorted({f["name"] for f in self.details(photo_id).faces if f["name"]})
        if not names:
            return None
        where = {"and": [{"person": n} for n in names]} if len(names) > 1 else {"person": names[0]}
        return {"version": 1, "where": where, "compose": {}}


def camera_name(make: str | None, model: str | None) -> str:
    """Make and model as people say them: "Canon EOS R6", not "Canon Canon EOS R6" (many cameras
    write the maker into the model too; Nikon's make is "NIKON CORPORATION", its model "NIKON D500")."""
    make, model = (make or "").strip(), (model or "").strip()
    if make and model and model.casefold().startswith(make.split()[0].casefold()):
        return model
    return " ".join(x for x in (make, model) if x)


def _with_settings(exif: dict[str, str], settings: str) -> dict[str, str]:
    """The details with "Settings" ("f/1.8 · 1/250 s · ISO 400 · 50 mm") after the camera and lens."""
    if not settings:
        return exif
    out: dict[str, str] = {}
    for key, value in exif.items():
        if key in ("Size", "File") and "Settings" not in out:
            out["Settings"] = settings
        out[key] = value
    out.setdefault("Settings", settings)
    return out


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 1)
