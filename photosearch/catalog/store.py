"""The catalog store: engine, sessions, migrations, and the writes every writer shares."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from sqlalchemy import create_engine, delete, event, func, select
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from photosearch.catalog.migrations import (
    LATEST,
    NewerCatalogError,
    check_not_newer,
    lock_for_migration,
    migrate,
)
from photosearch.catalog.models import (
    Analysis,
    Embedding,
    Face,
    Fact,
    FileIssue,
    Folder,
    Person,
    Photo,
    is_row_id,
    utcnow,
)
from photosearch.catalog.regions import REGION_ANALYZER, attach_regions, person_named
from photosearch.errors import CatalogError
from photosearch.records import AnalysisResult, FaceRecord, FactRecord

#: A bulk DELETE in a session learns the rows it removed from the statement (RETURNING) instead of
#: testing every object the session holds ("evaluate", the default): an index batch's session holds
#: thousands, and each photo deletes before it writes.
FETCH = {"synchronize_session": "fetch"}

__all__ = ["AnalysisResult", "FaceRecord", "FactRecord", "Store", "explain_catalog_error"]


def _disk_full_under(url: str) -> bool:
    """Is the file system holding a SQLite catalog (out of) space? SQLite says only "disk I/O
    error" when it cannot grow its journal or shared-memory file on a full disk."""
    import shutil

    try:
        parsed = make_url(url)
        db = parsed.database if parsed.get_backend_name() == "sqlite" else None
        if not db or db == ":memory:" or db.startswith("file:"):
            return False
        return shutil.disk_usage(Path(db).expanduser().parent).free < (1 << 20)
    except (OSError, ValueError):
        return False


def explain_catalog_error(exc: Exception, url: str) -> CatalogError:
    """A database error as a `CatalogError` that says what happened and what to do."""
    text = str(getattr(exc, "orig", exc) or exc)
    where = make_url(url).render_as_string(hide_password=True)
    if "locked" in text.lower():
        return CatalogError(
            f"the catalog {where} is locked by another process ({text}); close the other PhotoSearch "
            "window or command and try again"
        )
    full = "database or disk is full" in text.lower() or "no space left" in text.lower()
    if full or ("disk i/o error" in text.lower() and _disk_full_under(url)):
        return CatalogError(
            f"the disk holding the catalog {where} is full ({text}); free some space and try again "
            "(nothing was lost: the last batch was rolled back)"
        )
    if "not a database" in text.lower() or "malformed" in text.lower() or "corrupt" in text.lower():
        return CatalogError(
            f"the catalog {where} is damaged ({text}); move the file aside and run `photosearch index` "
            "to rebuild it from your folders"
        )
    return CatalogError(f"cannot use the catalog {where}: {text}")


def _no_catalog(parsed) -> CatalogError:
    where = parsed.render_as_string(hide_password=True)
    return CatalogError(
        f"there is no catalog at {where} (nothing was created); check --db-url / --data-dir, or "
        "start one with `photosearch add FOLDER` and `photosearch index`"
    )


class Store:
    """Owns the engine. Use `with store.session() as s:` for a unit of work (commits on success)."""

    def __init__(
        self, url: str, *, create: bool = True, busy_timeout_s: float = 30.0, must_exist: bool = False
    ):
        """`must_exist`: refuse (CatalogError) rather than create a catalog that is not there yet, as
        every read-only command does: a mistyped --db-url must not leave an empty catalog behind."""
        self.url = url
        try:
            parsed = make_url(url)
        except Exception as exc:
            raise CatalogError(
                f"{url!r} is not a database URL (e.g. sqlite:///path/catalog.db): {exc}"
            ) from None
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict = {"future": True}
        if self.is_sqlite:
            db = parsed.database
            if must_exist and (not db or db == ":memory:" or not Path(db).is_file()):
                raise _no_catalog(parsed)
            if db and db != ":memory:":
                Path(db).parent.mkdir(parents=True, exist_ok=True)
            kwargs["connect_args"] = {"timeout": busy_timeout_s, "check_same_thread": False}
        else:
            kwargs["pool_pre_ping"] = True
        try:
            self.engine: Engine = create_engine(url, **kwargs)
        except Exception as exc:  # bad URL, missing driver
            shown = parsed.render_as_string(hide_password=True)
            raise CatalogError(f"cannot open the catalog {shown}: {exc}") from exc
        if self.is_sqlite:
            event.listen(self.engine, "connect", lambda c, r: _sqlite_pragmas(c, busy_timeout_s))
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        if must_exist and not self.is_sqlite and not self._has_catalog():
            self.engine.dispose()
            raise _no_catalog(parsed)
        if create:
            self.migrate()

    def _has_catalog(self) -> bool:
        """Does the database hold a PhotoSearch catalog (its schema_version table)?"""
        from sqlalchemy import inspect

        try:
            with self.engine.connect() as conn:
                return inspect(conn).has_table("schema_version")
        except DBAPIError as exc:
            raise explain_catalog_error(exc, self.url) from exc

    def migrate(self) -> list[int]:
        """Bring the schema up to date, one process at a time; refuse a catalog from a newer app."""
        try:
            with self.engine.connect() as conn:
                up_to_date = check_not_newer(conn) == LATEST  # refuses a newer catalog, writes nothing
                conn.rollback()
                if self.is_sqlite:  # only now: switching the journal writes to the file
                    _use_wal(conn)
                if up_to_date:  # the usual case: no write lock taken (read-only media work too)
                    return []
                lock_for_migration(conn)
                try:
                    applied = migrate(conn)
                except NewerCatalogError:
                    conn.rollback()
                    raise
                conn.commit()
                return applied
        except DBAPIError as exc:
            raise explain_catalog_error(exc, self.url) from exc

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        s = self._sessions()
        try:
            yield s
            s.commit()
        except DBAPIError as exc:
            s.rollback()
            raise explain_catalog_error(exc, self.url) from exc
        except BaseException:
            s.rollback()
            raise
        finally:
            s.close()

    @contextlib.contextmanager
    def connect(self) -> Iterator[Connection]:
        """A Core connection (read-mostly work: snapshots, bulk SQL); errors mapped like `session()`."""
        try:
            with self.engine.connect() as conn:
                yield conn
        except DBAPIError as exc:
            raise explain_catalog_error(exc, self.url) from exc

    @contextlib.contextmanager
    def begin(self) -> Iterator[Connection]:
        """A Core connection in a transaction (commits on success); errors mapped like `session()`."""
        try:
            with self.engine.begin() as conn:
                yield conn
        except DBAPIError as exc:
            raise explain_catalog_error(exc, self.url) from exc

    def close(self) -> None:
        self.engine.dispose()

    def writer_lock_path(self, data_dir: Path | str) -> Path:
        """Where the inter-process writer lock lives: beside a SQLite file, else in the data dir."""
        db = make_url(self.url).database if self.is_sqlite else None
        if db and db != ":memory:" and not db.startswith("file:"):
            path = Path(db).expanduser()
            return path.with_name(path.name + ".lock")
        return Path(data_dir) / "catalog.lock"

    # ---- folders -------------------------------------------------------------------------
    def add_folder(self, path: Path | str) -> Folder:
        resolved = str(Path(path).expanduser().resolve())
        try:
            resolved.encode("utf-8")
        except UnicodeEncodeError:
            shown = resolved.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            raise CatalogError(
                f"the folder name {shown!r} is not valid UTF-8; rename the folder (files inside it may have any name)"
            ) from None
        with self.session() as s:
            folder = s.scalar(select(Folder).where(Folder.path == resolved))
            if folder is None:
                is_dir = Path(resolved).is_dir()
                folder = Folder(
                    path=resolved, online=is_dir, device=os.stat(resolved).st_dev if is_dir else None
                )
                s.add(folder)
                s.flush()
            return folder

    def folder_removal_impact(self, path: Path | str) -> dict[str, int]:
        """What removing a folder forgets: its active photos (not kept by another registered folder;
        rows already deleted are not photos the user has), the tags the user added to them, their
        faces with a name, and learned knowledge."""
        resolved = str(Path(path).expanduser().resolve())
        with self.session() as s:
            folder = s.scalar(select(Folder).where(Folder.path == resolved))
            if folder is None:
                return {"photos": 0, "user_tags": 0, "named_faces": 0, "knowledge": 0}
            others = [f for f in s.scalars(select(Folder)) if f.id != folder.id]
            ids = [
                pid
                for pid, p in s.execute(
                    select(Photo.id, Photo.path).where(Photo.folder_id == folder.id, Photo.state == "active")
                )
                if owning_folder(p, others) is None
            ]
            impact = {"photos": len(ids), "user_tags": 0, "named_faces": 0, "knowledge": 0}
            for i in range(0, len(ids), 500):  # bounded IN lists on any backend
                chunk = ids[i : i + 500]
                impact["user_tags"] += (
                    s.scalar(
                        select(func.count())
                        .select_from(Fact)
                        .where(Fact.photo_id.in_(chunk), Fact.analyzer == "user")
                    )
                    or 0
                )
                impact["named_faces"] += (
                    s.scalar(
                        select(func.count())
                        .select_from(Face)
                        .where(Face.photo_id.in_(chunk), Face.person_id.is_not(None))
                    )
                    or 0
                )
                impact["knowledge"] += (
                    s.scalar(
                        select(func.count())
                        .select_from(Fact)
                        .where(Fact.photo_id.in_(chunk), Fact.kind == "knowledge")
                    )
                    or 0
                )
            return impact

    def remove_folder(self, path: Path | str) -> bool:
        """Forget a folder and its photos (the files on disk are not touched)."""
        resolved = str(Path(path).expanduser().resolve())
        with self.session() as s:
            folder = s.scalar(select(Folder).where(Folder.path == resolved))
            if folder is None:
                return False
            others = [f for f in s.scalars(select(Folder)) if f.id != folder.id]
            for photo in s.scalars(select(Photo).where(Photo.folder_id == folder.id)):
                owner = owning_folder(photo.path, others)
                if owner is None:
                    s.delete(photo)
                else:  # still inside another registered folder: keep it and everything known about it
                    photo.folder_id = owner.id
            s.delete(folder)
            return True

    def folders(self) -> list[Folder]:
        with self.session() as s:
            return list(s.scalars(select(Folder).order_by(Folder.path)))

    # ---- photos --------------------------------------------------------------------------
    def photo(self, photo_id: int) -> Photo | None:
        if not is_row_id(int(photo_id)):
            return None
        with self.session() as s:
            return s.get(Photo, photo_id)

    def photo_by_path(self, path: Path | str) -> Photo | None:
        """The photo at a file path as the OS gives it (a non-UTF-8 name included)."""
        from photosearch.ingest.paths import to_db_path

        db_path = to_db_path(str(Path(path).expanduser().resolve()))
        with self.session() as s:
            return s.scalar(select(Photo).where(Photo.path == db_path))

    def active_photo_ids(self) -> list[int]:
        with self.session() as s:
            return list(s.scalars(select(Photo.id).where(Photo.state == "active").order_by(Photo.id)))

    # ---- analysis results ----------------------------------------------------------------
    def write_analysis(
        self,
        s: Session,
        photo_id: int,
        analyzer: str,
        version: int,
        result: AnalysisResult | None,
        *,
        error: str | None = None,
        duration_ms: float | None = None,
    ) -> None:
        """Replace one analyzer's facts, faces and embeddings for one photo, and record the run."""
        s.execute(
            delete(Fact).where(Fact.photo_id == photo_id, Fact.analyzer == analyzer), execution_options=FETCH
        )
        s.execute(
            delete(Embedding).where(Embedding.photo_id == photo_id, Embedding.analyzer == analyzer),
            execution_options=FETCH,
        )
        old_faces = list(s.scalars(select(Face).where(Face.photo_id == photo_id, Face.analyzer == analyzer)))
        # Re-analysis must not lose who people are: new faces inherit the person (and the user's pin)
        # of the old face they overlap most.
        carried = [
            (list(f.box), f.person_id, f.pinned, f.descriptor) for f in old_faces if f.person_id is not None
        ]
        for face in old_faces:
            s.delete(face)
        if result is not None:
            for f in result.facts:
                s.add(
                    Fact(
                        photo_id=photo_id,
                        analyzer=analyzer,
                        kind=f.kind,
                        label=f.label[:512],
                        score=float(f.score),
                        box=[float(v) for v in f.box] if f.box is not None else None,
                        data=f.data,
                    )
                )
            for face in result.faces:
                desc = face.descriptor
                box = [float(v) for v in face.box]
                person_id, pinned = _carry_person(box, carried, desc)
                if face.name:  # a region named in the file: that person, as the user named them
                    person_id, pinned = person_named(s, face.name), True
                s.add(
                    Face(
                        photo_id=photo_id,
                        analyzer=analyzer,
                        box=box,
                        score=float(face.score),
                        descriptor=np.asarray(desc, dtype=np.float32).tobytes() if desc is not None else None,
                        person_id=person_id,
                        pinned=pinned,
                    )
                )
            if result.faces or analyzer == REGION_ANALYZER:
                attach_regions(s, photo_id)
            for space, vec in result.embeddings.items():
                arr = np.asarray(vec, dtype=np.float32).ravel()
                s.add(
                    Embedding(
                        photo_id=photo_id, space=space, analyzer=analyzer, dim=arr.size, vector=arr.tobytes()
                    )
                )
        row = s.scalar(select(Analysis).where(Analysis.photo_id == photo_id, Analysis.analyzer == analyzer))
        if row is None:
            row = Analysis(photo_id=photo_id, analyzer=analyzer)
            s.add(row)
        row.version = version
        row.status = "failed" if error else "ok"
        row.error = error.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if error else None
        row.duration_ms = duration_ms
        row.ran_at = utcnow()

    def record_skipped(self, s: Session, photo_id: int, analyzer: str, version: int, reason: str) -> None:
        """Record that a gate kept an analyzer off a photo (nothing for it to find): a re-run does not
        retry it; what the analyzer found in an earlier run stays."""
        row = s.scalar(select(Analysis).where(Analysis.photo_id == photo_id, Analysis.analyzer == analyzer))
        if row is None:
            row = Analysis(photo_id=photo_id, analyzer=analyzer)
            s.add(row)
        row.version, row.status, row.error, row.duration_ms, row.ran_at = (
            version,
            "skipped",
            reason,
            0.0,
            utcnow(),
        )

    # ---- status --------------------------------------------------------------------------
    def status(self) -> dict:
        with self.session() as s:
            photos = s.scalar(select(func.count()).select_from(Photo).where(Photo.state == "active")) or 0
            deleted = s.scalar(select(func.count()).select_from(Photo).where(Photo.state == "deleted")) or 0
            analysed = (
                s.scalar(
                    select(func.count(func.distinct(Analysis.photo_id)))
                    .join(Photo, Photo.id == Analysis.photo_id)
                    .where(Photo.state == "active", Analysis.status == "ok")
                )
                or 0
            )
            failed_rows = s.execute(select(FileIssue.reason, func.count()).group_by(FileIssue.reason)).all()
            analysis_failed = _analysis_failures(s)
            people = s.scalar(select(func.count()).select_from(Person).where(Person.name.is_not(None))) or 0
            folders = list(s.scalars(select(Folder).order_by(Folder.path)))
            metadata = _metadata_issues(s)
        failed = {reason: n for reason, n in failed_rows}
        return {
            "photos": photos,
            "deleted": deleted,
            "analysed": analysed,
            "failed": sum(failed.values()),
            "failed_by_reason": failed,
            "analysis_failed_by_analyzer": {a: n for a, n, _ in analysis_failed},
            # analyzer -> {"count": photos it failed on, "first_error": the reason of its earliest failure}
            "analysis_failures": {a: {"count": n, "first_error": e} for a, n, e in analysis_failed},
            "named_people": people,
            # photos whose embedded metadata was partly skipped (malformed XMP, a sidecar not XML, ...)
            "metadata_issues": metadata,
            "folders": [{"path": f.path, "online": f.online} for f in folders],
            "offline_folders": [f.path for f in folders if not f.online],
        }


def _metadata_issues(s: Session) -> dict:
    """{"count": active photos with a metadata issue, "first": "PATH: what was skipped" or None}."""
    cond = (Fact.kind == "metadata_issue", Photo.state == "active")
    count = (
        s.scalar(
            select(func.count(func.distinct(Fact.photo_id)))
            .join(Photo, Photo.id == Fact.photo_id)
            .where(*cond)
        )
        or 0
    )
    first = (
        s.execute(
            select(Photo.path, Fact.label)
            .join(Photo, Photo.id == Fact.photo_id)
            .where(*cond)
            .order_by(Fact.id)
            .limit(1)
        ).first()
        if count
        else None
    )
    return {"count": count, "first": f"{first[0]}: {first[1]}" if first else None}


def _analysis_failures(s: Session) -> list[tuple[str, int, str | None]]:
    """(analyzer, photos it failed on, the error of its earliest failed run by ran_at, then id), for
    active photos: the "first" reason `status` and the GUI banner show."""
    runs = (
        select(
            Analysis.analyzer,
            Analysis.error,
            func.count().over(partition_by=Analysis.analyzer).label("failed"),
            func.row_number()
            .over(partition_by=Analysis.analyzer, order_by=(Analysis.ran_at, Analysis.id))
            .label("rank"),
        )
        .join(Photo, Photo.id == Analysis.photo_id)
        .where(Analysis.status == "failed", Photo.state == "active")
        .subquery()
    )
    rows = s.execute(
        select(runs.c.analyzer, runs.c.failed, runs.c.error).where(runs.c.rank == 1).order_by(runs.c.analyzer)
    ).all()
    return [(a, n, e) for a, n, e in rows]


def owning_folder(path: str, folders):
    """The deepest registered folder that contains `path` (paths as the catalog stores them)."""
    best = None
    for folder in folders:
        prefix = folder.path.rstrip(os.sep) + os.sep
        if (path == folder.path or path.startswith(prefix)) and (
            best is None or len(folder.path) > len(best.path)
        ):
            best = folder
    return best


def box_iou(a: list[float], b: list[float]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


# dlib descriptors of one person are closer than this (Euclidean); see vision/faces.py.
SAME_FACE_DISTANCE = 0.6


def _same_face(old: bytes | None, new) -> bool:
    """Both descriptors exist and match: without one, nothing shows it is the same person."""
    if old is None or new is None:
        return False
    a = np.frombuffer(old, dtype=np.float32)
    b = np.asarray(new, dtype=np.float32).ravel()
    return a.shape == b.shape and float(np.linalg.norm(a - b)) <= SAME_FACE_DISTANCE


def _carry_person(box: list[float], carried: list[tuple], descriptor=None, min_iou: float = 0.5):
    """(person_id, pinned) of the old face that overlaps `box` best, if it overlaps enough and
    its descriptor matches: a name never moves to someone else's face."""
    best, best_iou = (None, False), min_iou
    for old_box, person_id, pinned, old_descriptor in carried:
        iou = box_iou(box, old_box)
        if iou >= best_iou and _same_face(old_descriptor, descriptor):
            best, best_iou = (person_id, pinned), iou
    return best


def _sqlite_pragmas(dbapi_conn, busy_timeout_s: float) -> None:
    """Per-connection settings only: nothing here writes to the file (a newer catalog is refused
    untouched); the journal mode, which is stored in the file, is set by `_use_wal` after the check."""
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA busy_timeout={int(busy_timeout_s * 1000)}")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def _use_wal(conn: Connection) -> None:
    """Put a SQLite catalog in WAL mode (kept in the file, so once is enough; a no-op when it is)."""
    try:
        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        conn.commit()
    except DBAPIError:  # read-only media: readers still work in the journal mode the file has
        conn.rollback()
