"""SQLAlchemy 2.x models: the catalog is the source of truth.

Facts from analyzers live in one table (`facts`) keyed by kind, so tags, objects,
words read in the photo, captions, colours and learned knowledge share one query
path. Faces and embeddings have their own tables because they carry vectors.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

#: Row ids are 64-bit signed integers in every database we support: a larger number names no row
#: (and SQLite raises OverflowError on it rather than finding nothing).
MAX_ROW_ID = 2**63 - 1


def is_row_id(value: int) -> bool:
    """Can `value` be a catalog row id (1 .. MAX_ROW_ID)?"""
    return 0 < value <= MAX_ROW_ID


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    pass


class SchemaVersion(Base):
    __tablename__ = "schema_version"
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    applied_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    app_version: Mapped[str | None] = mapped_column(String(32))  # the PhotoSearch that applied it


class CatalogState(Base):
    """One row: who this catalog is and which state of it readers see (catalog/generation.py).

    `uid` is made once, when the catalog is created; triggers give `generation` a new value on every
    write to the tables a search reads, so a cache of them (the search snapshot, a vector index) is
    keyed by (uid, generation)."""

    __tablename__ = "catalog_state"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    uid: Mapped[str] = mapped_column(String(32))
    generation: Mapped[int] = mapped_column(BigInteger)


class Folder(Base):
    __tablename__ = "folders"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(String(4096), unique=True)
    added_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_scan_at: Mapped[datetime | None] = mapped_column(DateTime)
    online: Mapped[bool] = mapped_column(Boolean, default=True)
    # st_dev of the folder when it last held photos: an emptied folder on another device is an
    # unplugged drive's mount point (offline), on the same device it was really emptied.
    device: Mapped[int | None] = mapped_column(BigInteger)


class Photo(Base):
    __tablename__ = "photos"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    folder_id: Mapped[int | None] = mapped_column(ForeignKey("folders.id", ondelete="SET NULL"), index=True)
    path: Mapped[str] = mapped_column(String(4096), unique=True)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    size: Mapped[int] = mapped_column(BigInteger)
    mtime: Mapped[float] = mapped_column(Float)
    format: Mapped[str | None] = mapped_column(String(16))
    width: Mapped[int | None] = mapped_column(Integer)
    height: Mapped[int | None] = mapped_column(Integer)
    taken_at: Mapped[datetime | None] = mapped_column(DateTime, index=True)
    camera_make: Mapped[str | None] = mapped_column(String(128))
    camera_model: Mapped[str | None] = mapped_column(String(128))
    lens: Mapped[str | None] = mapped_column(String(256))
    gps_lat: Mapped[float | None] = mapped_column(Float)
    gps_lon: Mapped[float | None] = mapped_column(Float)
    gps_alt: Mapped[float | None] = mapped_column(Float)
    orientation: Mapped[int | None] = mapped_column(Integer)
    phash: Mapped[str | None] = mapped_column(String(32))
    # active | deleted
    state: Mapped[str] = mapped_column(String(16), default="active", index=True)
    added_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime)

    folder: Mapped[Folder | None] = relationship()


class FileIssue(Base):
    """A file that could not be ingested, with a machine-readable reason."""

    __tablename__ = "file_issues"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    folder_id: Mapped[int | None] = mapped_column(ForeignKey("folders.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(String(4096), unique=True)
    reason: Mapped[str] = mapped_column(String(64), index=True)
    message: Mapped[str] = mapped_column(Text, default="")
    size: Mapped[int | None] = mapped_column(BigInteger)
    mtime: Mapped[float | None] = mapped_column(Float)
    seen_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Analysis(Base):
    """One analyzer's run on one photo: which version, whether it worked, why not."""

    __tablename__ = "analyses"
    __table_args__ = (UniqueConstraint("photo_id", "analyzer"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    photo_id: Mapped[int] = mapped_column(ForeignKey("photos.id", ondelete="CASCADE"), index=True)
    analyzer: Mapped[str] = mapped_column(String(64), index=True)
    version: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))  # ok | failed | skipped (a gate: nothing to find)
    error: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[float | None] = mapped_column(Float)
    ran_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Fact(Base):
    """Something known about a photo: tag, object, text, caption, colour, kind, knowledge, user tag.

    `box` is (x0, y0, x1, y1) normalised to 0..1 of the oriented image, or null.
    `analyzer` is the writer; facts of analyzer "user" are never replaced by analysis.
    """

    __tablename__ = "facts"
    __table_args__ = (
        Index("ix_facts_kind_label", "kind", "label"),
        Index("ix_facts_photo_analyzer", "photo_id", "analyzer"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    photo_id: Mapped[int] = mapped_column(ForeignKey("photos.id", ondelete="CASCADE"))
    analyzer: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(32))
    label: Mapped[str] = mapped_column(String(512))
    score: Mapped[float] = mapped_column(Float, default=1.0)
    box: Mapped[list | None] = mapped_column(JSON)
    data: Mapped[dict | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Person(Base):
    __tablename__ = "people"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(256), index=True)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    birthday: Mapped[datetime | None] = mapped_column(DateTime)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Face(Base):
    __tablename__ = "faces"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    photo_id: Mapped[int] = mapped_column(ForeignKey("photos.id", ondelete="CASCADE"), index=True)
    analyzer: Mapped[str] = mapped_column(String(64))
    box: Mapped[list] = mapped_column(JSON)
    score: Mapped[float] = mapped_column(Float, default=1.0)
    descriptor: Mapped[bytes | None] = mapped_column(LargeBinary)
    person_id: Mapped[int | None] = mapped_column(ForeignKey("people.id", ondelete="SET NULL"), index=True)
    # Set when a user moved the face by hand; clustering never moves it again.
    pinned: Mapped[bool] = mapped_column(Boolean, default=False)


class Embedding(Base):
    """A photo's vector in one embedding space (float32 bytes); usearch indexes are caches of this."""

    __tablename__ = "embeddings"
    photo_id: Mapped[int] = mapped_column(ForeignKey("photos.id", ondelete="CASCADE"), primary_key=True)
    space: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    analyzer: Mapped[str] = mapped_column(String(64))
    dim: Mapped[int] = mapped_column(Integer)
    vector: Mapped[bytes] = mapped_column(LargeBinary)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class Thumbnail(Base):
    __tablename__ = "thumbnails"
    content_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    rel_path: Mapped[str] = mapped_column(String(512))
    width: Mapped[int] = mapped_column(Integer)
    height: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class Album(Base):
    """A named album: `manual` (the photos the user put in, `AlbumPhoto`) or `smart` (a saved search
    plan, run again whenever the album is opened, so it follows the library)."""

    __tablename__ = "albums"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(256))
    # the name folded for comparison: "Holidays" and "holidays" are one album
    name_key: Mapped[str] = mapped_column(String(256), unique=True)
    kind: Mapped[str] = mapped_column(String(16), default="manual")  # manual | smart
    plan: Mapped[dict | None] = mapped_column(JSON)  # smart albums: the validated plan
    request: Mapped[str | None] = mapped_column(Text)  # smart albums: the words it was saved from
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow, onupdate=utcnow)


class AlbumPhoto(Base):
    """A photo the user put in a manual album."""

    __tablename__ = "album_photos"
    album_id: Mapped[int] = mapped_column(ForeignKey("albums.id", ondelete="CASCADE"), primary_key=True)
    photo_id: Mapped[int] = mapped_column(
        ForeignKey("photos.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    added_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
