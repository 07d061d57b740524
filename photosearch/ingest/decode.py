"""Decode image files safely: draft-mode JPEG, EXIF orientation, pixel cap, HEIC via pillow-heif,
JPEG XL via pillow-jxl-plugin, camera RAW via rawpy (the embedded preview when there is one, else a half-size demosaic) with the
RAW's own EXIF (rawpy exposes none).

Every failure becomes a `DecodeError` with a short reason code the catalog counts by.
"""

from __future__ import annotations

import errno
import functools
import io
import os
import struct
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import ExifTags, Image, ImageOps, UnidentifiedImageError

from photosearch.errors import DecodeError
from photosearch.files import NotARegularFile, require_regular
from photosearch.ingest.jp2_exif import jp2_exif_tiff
from photosearch.ingest.signatures import HEADER_BYTES, sniff, sniff_file, worth_sniffing
from photosearch.panoramas import panorama_box


@functools.cache
def heif_available() -> bool:
    """Register pillow-heif's opener (HEIC/HEIF/AVIF) on first use, not at import: a search imports
    this module and decodes nothing. Optional at import time, but declared as a dependency."""
    try:
        import pillow_heif

        pillow_heif.register_heif_opener()
        return True
    except Exception:  # pragma: no cover - only when the wheel is missing
        return False


try:  # JPEG XL: a declared dependency; without it a .jxl is recorded as needing the plugin
    import pillow_jxl  # noqa: F401 - importing registers the JXL plugin with Pillow

    JXL_AVAILABLE = True
except Exception:  # pragma: no cover - only when the wheel is missing
    JXL_AVAILABLE = False

#: Camera RAW formats (LibRaw through rawpy).
RAW_EXTENSIONS = frozenset(
    {
        ".dng",
        ".cr2",
        ".cr3",
        ".crw",
        ".nef",
        ".nrw",
        ".arw",
        ".srf",
        ".sr2",
        ".orf",
        ".rw2",
        ".raf",
        ".pef",
        ".srw",
        ".x3f",
        ".3fr",
        ".erf",
        ".kdc",
        ".dcr",
        ".mrw",
        ".mos",
        ".rwl",
        ".iiq",
    }
)
#: HEIF containers (pillow-heif): Apple's .heic, Fujifilm's .hif, and the image-sequence variants.
HEIF_EXTENSIONS = frozenset({".heic", ".heif", ".hif", ".heics", ".heifs"})
#: JPEG XL (pillow-jxl-plugin).
JXL_EXTENSIONS = frozenset({".jxl"})
#: Every photo format Pillow decodes with the installed plugins, by every extension Pillow registers for
#: it (JPEG and its multi-picture MPO, PNG and animated APNG, JPEG 2000 files and codestreams through
#: OpenJPEG, the PNM family, AVIF and AVIF sequences), plus HEIF, JPEG XL and camera RAW. An explicit list, so
#: what is catalogued does not change with the plugins installed; tests/ingest/test_formats.py checks
#: it still covers what Pillow registers for these formats.
IMAGE_EXTENSIONS = (
    frozenset(
        {
            ".jpg",
            ".jpeg",
            ".jpe",
            ".jfif",
            ".mpo",
            ".png",
            ".apng",
            ".webp",
            ".tif",
            ".tiff",
            ".gif",
            ".bmp",
            ".avif",
            ".avifs",
            ".jp2",
            ".j2k",
            ".jpf",
            ".jpx",
            ".j2c",
            ".jpc",
            ".pnm",
            ".pbm",
            ".pgm",
            ".ppm",
        }
    )
    | HEIF_EXTENSIONS
    | JXL_EXTENSIONS
    | RAW_EXTENSIONS
)
DEFAULT_MAX_PIXELS = 200_000_000
# Worker threads decode concurrently, so Pillow's global cap cannot carry a per-call limit: every
# open_image() checks its own `max_pixels` from the header before any pixel is decoded.
Image.MAX_IMAGE_PIXELS = None


NEEDS_HEIF = "needs_pillow_heif"  # not sticky: installing pillow-heif makes the next run read the file
NEEDS_JXL = "needs_pillow_jxl"  # not sticky either


def _heif_missing(path: str) -> bool:
    return not heif_available() and os.path.splitext(path)[1].lower() in HEIF_EXTENSIONS


def _jxl_missing(path: str, data: bytes | None) -> bool:
    if JXL_AVAILABLE:
        return False
    if os.path.splitext(path)[1].lower() in JXL_EXTENSIONS:
        return True
    return data is not None and sniff(data[:HEADER_BYTES]) == "JXL"


def is_image_name(name: str) -> bool:
    """Whether the name's extension is one the app reads (see `is_image_file` for other names)."""
    return os.path.splitext(name)[1].lower() in IMAGE_EXTENSIONS


def may_be_image_name(name: str) -> bool:
    """Whether a file of this name is an image or may be one inside (its header decides)."""
    return is_image_name(name) or worth_sniffing(name)


def is_image_file(path: str) -> bool:
    """Whether the file at `path` is one to catalogue: its extension says image, or its first bytes do."""
    name = os.path.basename(path)
    if is_image_name(name):
        return True
    return worth_sniffing(name) and sniff_file(path) is not None


def is_raw_name(name: str) -> bool:
    return os.path.splitext(str(name))[1].lower() in RAW_EXTENSIONS


@dataclass
class Decoded:
    """An oriented RGB image plus the facts decoding learned about the file."""

    image: Image.Image  # RGB, oriented, downscaled to max_side when asked
    width: int  # full oriented size
    height: int
    format: str
    exif: Image.Exif | None


def _reason_for_oserror(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission_denied"
    if exc.errno == errno.ENOENT:
        return "vanished"
    if exc.errno == errno.ELOOP:
        return "symlink_loop"
    return "unreadable"


#: A panorama's analysis image may be this many times `max_side` long, to keep its short side.
PANORAMA_LONGEST = 3


def fit_box(width: int, height: int, max_side: int, panorama_short: int | None = None) -> tuple[int, int]:
    """The box an image is downscaled into: the square of `max_side`; with `panorama_short`, for a
    panorama one long enough that its short side stays at least that (its long side at most
    `PANORAMA_LONGEST` times `max_side`): fitted into the square, a 6:1 panorama's people are 35 px
    high, too small for the face detector."""
    if not panorama_short:
        return max_side, max_side
    return panorama_box(width, height, max_side, panorama_short, PANORAMA_LONGEST)


def open_image(
    path: str | Path,
    max_side: int | None = None,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    data: bytes | None = None,
    panorama_short: int | None = None,
) -> Decoded:
    """Open `path` (or its already-read `data`) as an RGB image with EXIF orientation applied.

    With `max_side`, JPEGs decode in draft mode (DCT scaling) and the result is downscaled
    so its longest side is at most `max_side`; with `panorama_short` too, a panorama's short side
    stays at least that (`fit_box`).
    """
    path = str(path)
    if data is None:
        try:
            size = require_regular(path).st_size
        except NotARegularFile as exc:
            raise DecodeError("not_a_file", str(exc)) from exc
        except OSError as exc:
            raise DecodeError(_reason_for_oserror(exc), f"cannot read {path}: {exc.strerror or exc}") from exc
    else:
        size = len(data)
    if size == 0:
        raise DecodeError("empty_file", f"{path} is empty (0 bytes)")
    if is_raw_name(path):
        return _open_raw(path, data, max_side, max_pixels, panorama_short)
    try:  # the pixel cap is checked below from the header, per call (Pillow's own cap is process-wide)
        return _decode_with_pillow(path, data, max_side, max_pixels, panorama_short)
    except DecodeError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise DecodeError("too_many_pixels", f"{path}: {exc}") from exc
    except UnidentifiedImageError as exc:
        if _heif_missing(path):
            raise DecodeError(
                NEEDS_HEIF,
                f"{path} is HEIC/HEIF and pillow-heif is not installed: run `pip install pillow-heif` "
                "and `photosearch index` again",
            ) from exc
        if _jxl_missing(path, data):
            raise DecodeError(
                NEEDS_JXL,
                f"{path} is JPEG XL and pillow-jxl-plugin is not installed: run "
                "`pip install pillow-jxl-plugin` and `photosearch index` again",
            ) from exc
        raise DecodeError("not_an_image", f"{path} is not an image Pillow can read") from exc
    except FileNotFoundError as exc:
        raise DecodeError("vanished", f"{path} disappeared while reading") from exc
    except OSError as exc:
        raise _os_decode_error(path, exc) from exc
    except (ValueError, SyntaxError, EOFError, MemoryError) as exc:
        raise DecodeError("corrupt", f"{path} could not be decoded: {exc}") from exc


def check_pixel_cap(path: str | Path, max_pixels: int) -> None:
    """Refuse a file over `max_pixels` from its header alone, before it is read whole (the cap is a
    setting: a file refused under it is checked again on every run at this cost). Files Pillow
    cannot identify here, and camera RAW, are left to `open_image`, which checks the cap too."""
    if is_raw_name(path):
        return
    try:
        with Image.open(path) as img:
            width, height = img.size
    except Exception:  # noqa: BLE001 - decoding names the problem
        return
    if width * height > max_pixels:
        raise DecodeError(
            "too_many_pixels", f"{path} is {width}x{height} pixels, over the cap of {max_pixels}"
        )


def _decode_with_pillow(
    path: str, data: bytes | None, max_side: int | None, max_pixels: int, panorama_short: int | None = None
) -> Decoded:
    """Pillow's decode (first frame, EXIF orientation, RGB, downscaled); raises what Pillow raises."""
    heif_available()
    img = Image.open(io.BytesIO(data) if data is not None else path)
    fmt = (img.format or "").upper()
    full_w, full_h = img.size
    if full_w < 1 or full_h < 1:
        raise DecodeError("no_pixels", f"{path} has no pixels ({full_w}x{full_h})")
    if full_w * full_h > max_pixels:
        raise DecodeError(
            "too_many_pixels", f"{path} is {full_w}x{full_h} pixels, over the cap of {max_pixels}"
        )
    exif = img.getexif()
    if fmt == "JPEG2000" and not exif:
        exif = _jp2_exif(path, data) or exif
    orientation = exif.get(0x0112, 1) if exif else 1
    box = fit_box(full_w, full_h, max_side, panorama_short) if max_side else None
    if box and fmt == "JPEG":
        # Draft picks a DCT scale >= the requested size: a big speed-up on 12 MP photos.
        img.draft("RGB", box)
    img.seek(0)  # GIF/animated: first frame
    img.load()
    # Turned before downscaling, as always: turning after would save ~10 ms on turned photos but
    # moves pixels by rounding, and with them a tag here and there (findings must not change).
    img = _orient(img, orientation)
    if img.mode != "RGB":
        img = _to_rgb(img)
    if orientation in (5, 6, 7, 8):
        full_w, full_h = full_h, full_w
        box = box[::-1] if box else None
    if box and (img.width > box[0] or img.height > box[1]):
        img.thumbnail(box, Image.Resampling.BILINEAR, reducing_gap=2.0)
    return Decoded(image=img, width=full_w, height=full_h, format=fmt, exif=exif)


#: EXIF orientation -> the transpose that shows the photo upright (as ImageOps.exif_transpose does).
_ORIENT = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}


def _orient(img: Image.Image, orientation: int | None) -> Image.Image:
    method = _ORIENT.get(orientation or 1)
    return img.transpose(method) if method is not None else img


def _os_decode_error(path: str, exc: OSError) -> DecodeError:
    """Pillow reports damaged files as OSError too: tell those apart from real I/O errors."""
    text = str(exc).lower()
    if "truncated" in text or "broken data stream" in text or "image file is truncated" in text:
        return DecodeError("truncated", f"{path} is truncated or damaged: {exc}")
    if exc.errno is not None:
        return DecodeError(_reason_for_oserror(exc), f"cannot read {path}: {exc}")
    return DecodeError("corrupt", f"{path} could not be decoded: {exc}")


def _open_raw(
    path: str, data: bytes | None, max_side: int | None, max_pixels: int, panorama_short: int | None = None
) -> Decoded:
    """A camera RAW file: its embedded preview (JPEG or bitmap) when present, else a half-size demosaic."""
    try:
        import rawpy
    except ImportError as exc:
        raise DecodeError(
            "unsupported_format", f"{path} is camera RAW: install rawpy (pip install rawpy)"
        ) from exc
    try:
        with rawpy.imread(io.BytesIO(data) if data is not None else path) as raw:
            full_w, full_h = int(raw.sizes.width), int(raw.sizes.height)
            if raw.sizes.flip in (5, 6):  # LibRaw rotates 90° for these
                full_w, full_h = full_h, full_w
            if full_w * full_h > max_pixels:
                raise DecodeError(
                    "too_many_pixels", f"{path} is {full_w}x{full_h} pixels, over the cap of {max_pixels}"
                )
            img, preview_exif = _raw_preview(raw, rawpy)
            if img is None:
                rgb = raw.postprocess(half_size=True, use_camera_wb=True, output_bps=8)
                img = Image.fromarray(np.ascontiguousarray(rgb[..., :3]).astype(np.uint8))
    except DecodeError:
        raise
    except FileNotFoundError as exc:
        raise DecodeError("vanished", f"{path} disappeared while reading") from exc
    except Exception as exc:  # noqa: BLE001 - LibRaw errors come in many types
        raise DecodeError("corrupt", f"{path} is not a RAW file LibRaw can read: {exc}") from exc
    if img.mode != "RGB":
        img = _to_rgb(img)
    box = fit_box(img.width, img.height, max_side, panorama_short) if max_side else None
    if box and (img.width > box[0] or img.height > box[1]):
        img.thumbnail(box, Image.Resampling.BILINEAR, reducing_gap=2.0)
    return Decoded(
        image=img, width=full_w, height=full_h, format="RAW", exif=_raw_exif(path, data, preview_exif)
    )


#: An embedded preview smaller than this (longest side) is a thumbnail, not a preview: demosaic instead.
RAW_PREVIEW_MIN_SIDE = 256


def _raw_preview(raw, rawpy) -> tuple[Image.Image | None, Image.Exif | None]:
    """The embedded preview (None when absent or thumbnail-sized) and the EXIF a JPEG preview carries."""
    try:
        thumb = raw.extract_thumb()
    except (rawpy.LibRawNoThumbnailError, rawpy.LibRawUnsupportedThumbnailError):
        return None, None
    exif = None
    if thumb.format == rawpy.ThumbFormat.JPEG:
        img = Image.open(io.BytesIO(thumb.data))
        exif = img.getexif()
        img = ImageOps.exif_transpose(img)
    else:
        img = Image.fromarray(np.ascontiguousarray(thumb.data[..., :3]).astype(np.uint8))
    return (img if max(img.size) >= RAW_PREVIEW_MIN_SIDE else None), exif


_TIFF_BYTE_ORDERS = {b"II": "<", b"MM": ">"}


def _raw_exif(path: str, data: bytes | None, preview_exif: Image.Exif | None) -> Image.Exif | None:
    """The RAW's EXIF: its own TIFF IFDs when it is TIFF-structured (DNG, CR2, NEF, ARW, PEF, ORF, RW2, …),
    else what its JPEG preview carries (RAF); None when neither says anything. Damaged EXIF is no EXIF."""
    try:
        with io.BytesIO(data) if data is not None else open(path, "rb") as fp:
            exif = _tiff_exif(fp)
    except (OSError, SyntaxError, ValueError, TypeError, KeyError, struct.error, EOFError):
        exif = None
    if exif and (ExifTags.Base.Make in exif or ExifTags.IFD.Exif in exif):
        return exif
    return preview_exif or exif or None


def _jp2_exif(path: str, data: bytes | None) -> Image.Exif | None:
    """The EXIF of a JPEG 2000 file's EXIF box, which Pillow leaves unread; damaged EXIF is none."""
    try:
        with io.BytesIO(data) if data is not None else open(path, "rb") as fp:
            tiff = jp2_exif_tiff(fp)
        return _tiff_exif(io.BytesIO(tiff)) if tiff else None
    except (OSError, SyntaxError, ValueError, TypeError, KeyError, struct.error, EOFError):
        return None


def _tiff_exif(fp) -> Image.Exif | None:
    """IFD0 of a TIFF-structured file with its Exif and GPS IFDs read (the file may close after).

    The header's magic number is not checked: ORF ("IIRO") and RW2 ("IIU") vary it, keeping the layout.
    """
    head = fp.read(8)
    endian = _TIFF_BYTE_ORDERS.get(head[:2])
    if endian is None or len(head) < 8:
        return None
    exif = Image.Exif()
    exif.endian = endian
    exif.load_from_fp(fp, offset=struct.unpack(endian + "I", head[4:8])[0])
    for ifd in (ExifTags.IFD.Exif, ExifTags.IFD.GPSInfo):
        exif.get_ifd(ifd)  # cached on the Exif: read_exif needs no open file
    return exif


def _to_rgb(img: Image.Image) -> Image.Image:
    """Flatten alpha on white; convert palette/grey/CMYK/16-bit to 8-bit RGB."""
    if img.mode in ("RGBA", "LA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    if img.mode in ("I;16", "I;16B", "I;16L", "I"):
        arr = np.asarray(img, dtype=np.float32)
        top = float(arr.max()) or 1.0
        return Image.fromarray((arr / top * 255).astype(np.uint8)).convert("RGB")
    return img.convert("RGB")


def load_rgb(path: str | Path, max_side: int = 1280, max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """The analysis view of a photo: oriented RGB uint8 array, longest side <= max_side."""
    return np.asarray(open_image(path, max_side=max_side, max_pixels=max_pixels).image, dtype=np.uint8)
