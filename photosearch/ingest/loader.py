"""Worker-side loading: read once, hash, decode a downscaled view, read EXIF, make the thumbnail.

Runs in worker threads (Pillow and hashlib release the GIL); touches no database.
"""

from __future__ import annotations

import errno
import os
import time
from dataclasses import dataclass, field

import imagehash
import numpy as np

from photosearch.errors import DecodeError
from photosearch.files import NotARegularFile, require_regular
from photosearch.ingest.decode import check_pixel_cap, open_image
from photosearch.ingest.exif import ExifInfo, read_exif
from photosearch.ingest.hashing import read_and_hash
from photosearch.ingest.scanner import FileEntry
from photosearch.ingest.thumbnails import make_thumbnail, write_thumbnail


@dataclass
class Loaded:
    """What a worker learned about one file. `error` set means nothing else is."""

    path: str
    entry: FileEntry | None = None
    photo_id: int | None = None  # for re-analysis of known photos
    content_hash: str | None = None
    size: int = 0
    mtime: float = 0.0
    width: int | None = None
    height: int | None = None
    format: str | None = None
    exif: ExifInfo | None = None
    phash: str | None = None
    thumb: tuple[str, int, int] | None = None
    rgb: np.ndarray | None = None
    error: DecodeError | None = None
    timings: dict[str, float] = field(default_factory=dict)


@dataclass
class LoadOptions:
    thumbs_dir: str
    thumbnail_size: int = 256
    analysis_max_side: int = 1280
    max_pixels: int = 200_000_000
    want_pixels: bool = True
    max_file_bytes: int = 1 << 30

    @property
    def panorama_short(self) -> int:
        """A panorama's analysis image keeps half the analysis size on its short side
        (`decode.fit_box`): faces and text in it stay large enough to find."""
        return self.analysis_max_side // 2


# Errors writing our own files (thumbnails): the photo is fine, the run is retried next time.
_DISK_FULL = {errno.ENOSPC, errno.EDQUOT}


def _thumbnail_write_error(exc: OSError, thumbs_dir: str) -> DecodeError:
    """A thumbnail that could not be written is a transient failure, never a verdict on the photo."""
    if exc.errno in _DISK_FULL:
        return DecodeError(
            "disk_full",
            f"cannot write thumbnails to {thumbs_dir}: the disk is full; free some space and run "
            "`photosearch index` again (nothing was lost)",
        )
    return DecodeError(
        "write_failed",
        f"cannot write thumbnails to {thumbs_dir}: {exc.strerror or exc}; fix the folder and run "
        "`photosearch index` again (nothing was lost)",
    )


def _check_size(path: str, size: int, limit: int) -> None:
    if limit and size > limit:
        raise DecodeError(
            "too_large",
            f"{path} is {size / 2**20:.0f} MiB, over the {limit / 2**20:.0f} MiB ceiling "
            "(raise max_file_bytes in settings.json to index it)",
        )


def load_for_ingest(entry: FileEntry, opts: LoadOptions) -> Loaded:
    out = Loaded(path=entry.path, entry=entry, size=entry.size, mtime=entry.mtime)
    t0 = time.perf_counter()
    decoded_ok = False  # past the decoder, a failure is ours, not the file's
    try:
        try:
            st = require_regular(entry.path)
            _check_size(entry.path, st.st_size, opts.max_file_bytes)
            check_pixel_cap(entry.path, opts.max_pixels)
            out.content_hash, data = read_and_hash(entry.path)
        except FileNotFoundError as exc:
            raise DecodeError("vanished", f"{entry.path} disappeared before it could be read") from exc
        except NotARegularFile as exc:
            raise DecodeError("not_a_file", str(exc)) from exc
        except IsADirectoryError as exc:
            raise DecodeError("unreadable", f"{entry.path} is a directory") from exc
        except PermissionError as exc:
            raise DecodeError("permission_denied", f"cannot read {entry.path}: permission denied") from exc
        except OSError as exc:
            raise DecodeError("unreadable", f"cannot read {entry.path}: {exc}") from exc
        out.size, out.mtime = st.st_size, st.st_mtime
        t1 = time.perf_counter()
        out.timings["read_hash"] = (t1 - t0) * 1000
        decoded = open_image(
            entry.path,
            max_side=opts.analysis_max_side,
            max_pixels=opts.max_pixels,
            data=data,
            panorama_short=opts.panorama_short,
        )
        del data
        decoded_ok = True
        t2 = time.perf_counter()
        out.timings["decode"] = (t2 - t1) * 1000
        out.width, out.height, out.format = decoded.width, decoded.height, decoded.format
        out.exif = read_exif(decoded.exif)
        thumb = make_thumbnail(decoded.image, opts.thumbnail_size)
        try:
            out.thumb = write_thumbnail(thumb, out.content_hash, opts.thumbs_dir)
        except OSError as exc:
            raise _thumbnail_write_error(exc, opts.thumbs_dir) from exc
        out.phash = str(imagehash.phash(thumb))  # on the thumbnail: same bits within noise, 1000x cheaper
        if opts.want_pixels:
            out.rgb = np.asarray(decoded.image, dtype=np.uint8)
        out.timings["thumb_exif"] = (time.perf_counter() - t2) * 1000
    except DecodeError as exc:
        out.error = exc
    except Exception as exc:
        out.error = _unexpected_error(entry.path, exc, decoded_ok)
    return out


def _unexpected_error(path: str, exc: Exception, decoded: bool) -> DecodeError:
    """A decoder bug on this file is the file's problem ("corrupt", not retried until it changes);
    a failure after a good decode (thumbnail, hashing) is ours: the photo keeps what the catalog
    knows and is tried again next run."""
    if not decoded:
        return DecodeError("corrupt", f"{path} could not be decoded: {type(exc).__name__}: {exc}")
    return DecodeError(
        "processing_failed",
        f"{path} was read but could not be processed ({type(exc).__name__}: {exc}); "
        "it is kept as it was and tried again on the next run",
    )


def load_for_analysis(photo_id: int, path: str, opts: LoadOptions) -> Loaded:
    out = Loaded(path=path, photo_id=photo_id)
    t0 = time.perf_counter()
    try:
        try:
            _check_size(path, os.stat(path).st_size, opts.max_file_bytes)
        except FileNotFoundError as exc:
            raise DecodeError("vanished", f"{path} disappeared before it could be read") from exc
        except OSError:
            pass  # open_image names the error
        decoded = open_image(
            path,
            max_side=opts.analysis_max_side,
            max_pixels=opts.max_pixels,
            panorama_short=opts.panorama_short,
        )
        out.width, out.height = decoded.width, decoded.height
        out.rgb = np.asarray(decoded.image, dtype=np.uint8)
    except DecodeError as exc:
        out.error = exc
    except Exception as exc:
        out.error = DecodeError("corrupt", f"{path} could not be decoded: {type(exc).__name__}: {exc}")
    out.timings["decode"] = (time.perf_counter() - t0) * 1000
    return out
