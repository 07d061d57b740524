"""Read a photo's own metadata and its XMP sidecars with libexiv2 (pyexiv2): keywords (flat and
hierarchical), titles and captions, authorship, rating, colour label, place names and named face
regions, each with where it was found ("the file" or the sidecar's name).

Nothing here parses XMP by hand: exiv2 reads every block (EXIF, IPTC, XMP, in JPEG, TIFF, PNG, WebP,
HEIF/AVIF, JPEG XL and camera RAW, and `.xmp` sidecars). Anything odd (malformed XMP, a sidecar that
is not XML, bytes in no known encoding, metadata too large) becomes an entry of `issues` and that
block is skipped; `read_metadata` never raises for a bad file.
"""

from __future__ import annotations

import logging
import os
import struct

from photosearch.metadata.exiv2 import LOCK, exiv2, short_error
from photosearch.metadata.fields import collect, orientation_of
from photosearch.metadata.model import SOURCE_FILE, Block, EmbeddedMetadata
from photosearch.metadata.sidecar import sidecar_paths, signature

log = logging.getLogger(__name__)

#: A sidecar larger than this is not read (a real one is a few kB; Lightroom's with history < 1 MB).
MAX_SIDECAR_BYTES = 16 << 20


def read_metadata(path: str, sidecars: list[str] | None = None) -> EmbeddedMetadata:
    """The embedded metadata of the photo at `path` and of its sidecars (found beside it unless
    given). Later sources win for single values (rating, label, place): a sidecar over the file."""
    out = EmbeddedMetadata()
    sidecars = sidecar_paths(path) if sidecars is None else sidecars
    out.sidecars = [os.path.basename(p) for p in sidecars]
    out.sidecar_signature = signature(sidecars)
    blocks = [_read_file(path, out.issues)]
    for sc in sidecars:
        block = _read_sidecar(sc, out.issues)
        if block is not None:
            blocks.append(block)
    orientation = orientation_of(blocks[0])
    for block in blocks:
        collect(block, out, orientation)
    return out


def _read_file(path: str, issues: list[str]) -> Block:
    block = Block(SOURCE_FILE)
    pe = exiv2()
    try:
        with LOCK:
            try:  # libexiv2 maps the file and reads only its metadata (4x faster than reading it here)
                image = pe.Image(path)
            except UnicodeEncodeError:  # a name that is not UTF-8 (undecodable bytes): read it here
                with open(path, "rb") as fh:
                    image = pe.ImageData(fh.read())
            try:
                _read_blocks(image, block, issues, "the file")
            finally:
                image.close()
    except Exception as exc:  # exiv2 cannot open it (a broken container, a format it does not know)
        if "unknown image type" not in str(exc):  # PNM and the like hold no metadata to read
            issues.append(f"the file's metadata could not be read: {short_error(exc)}")
    if not block.xmp or not block.exif:
        _heif_fallback(path, block, issues)
    return block


def _heif_fallback(path: str, block: Block, issues: list[str]) -> None:
    """HEIF/AVIF: exiv2 misses metadata items some writers (exiftool) add to a file that had none;
    libheif finds them, and exiv2 then reads the EXIF (a TIFF stream) and the XMP packet themselves."""
    if os.path.splitext(path)[1].lower() not in {".heic", ".heif", ".hif", ".avif"}:
        return
    try:
        from PIL import Image

        from photosearch.ingest.decode import heif_available

        heif_available()  # registers the HEIF opener, which importing the module does not
        with Image.open(path) as im:
            exif, xmp = im.info.get("exif"), im.info.get("xmp")
    except Exception as exc:  # noqa: BLE001 - the decoder names its own failure when it indexes
        issues.append(f"the file's metadata could not be read: {short_error(exc)}")
        return
    pe = exiv2()
    # an XMP packet read alone is a sidecar to exiv2, which copies XMP into EXIF on reading it: only
    # its XMP is taken, so the photo's own EXIF stays as written
    for raw, want, xmp_only in ((exif, not block.exif, False), (xmp, not block.xmp, True)):
        if not raw or not want:
            continue
        if raw.startswith(b"Exif\x00\x00"):
            raw = raw[6:]
        if _empty_tiff(raw):  # a writer's empty EXIF (a header, no entries): nothing to read
            continue
        try:
            with LOCK:
                image = pe.ImageData(bytes(raw))
                try:
                    _read_blocks(image, block, issues, "the file", xmp_only=xmp_only)
                finally:
                    image.close()
        except Exception as exc:
            issues.append(f"the file's metadata could not be read: {short_error(exc)}")


def _read_sidecar(path: str, issues: list[str]) -> Block | None:
    name = os.path.basename(path)
    try:
        size = os.path.getsize(path)
        if size > MAX_SIDECAR_BYTES:
            issues.append(
                f"{name} is {size >> 20} MiB, over the {MAX_SIDECAR_BYTES >> 20} MiB limit: skipped"
            )
            return None
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        issues.append(f"{name} could not be read: {exc.strerror or exc}: skipped")
        return None
    if not data.strip():
        issues.append(f"{name} is empty: skipped")
        return None
    if not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):  # XML starts with a tag (after a BOM)
        issues.append(f"{name} is not XML: skipped")
        return None
    block = Block(name)
    pe = exiv2()
    try:
        with LOCK:
            image = pe.ImageData(data)
            try:
                mime = image.get_mime_type()
                if "xml" not in mime and "xmp" not in mime:
                    raise ValueError(f"not an XMP sidecar ({mime})")
                _read_blocks(image, block, issues, name, xmp_only=True)
            finally:
                image.close()
    except Exception as exc:
        issues.append(f"{name} is not valid XMP ({short_error(exc)}): skipped")
        return None
    return block


def _read_blocks(image, block: Block, issues: list[str], where: str, xmp_only: bool = False) -> None:
    """Each block read on its own: one that fails (a wrong encoding, a broken packet) is skipped."""
    readers = (
        [("xmp", image.read_xmp)]
        if xmp_only
        else [
            ("exif", image.read_exif),
            ("iptc", image.read_iptc),
            ("xmp", image.read_xmp),
        ]
    )
    for name, read in readers:
        try:
            got = read()
        except UnicodeDecodeError:
            try:  # legacy IPTC/EXIF in Latin-1 (pre-UTF-8 tools): read it as such, and say so
                got = read(encoding="latin-1")
                issues.append(f"{name.upper()} in {where} is not UTF-8: read as Latin-1")
            except Exception as exc:  # noqa: BLE001
                issues.append(f"{name.upper()} in {where} could not be read ({short_error(exc)}): skipped")
                continue
        except Exception as exc:  # noqa: BLE001 - exiv2 raises RuntimeError for a malformed packet
            issues.append(f"{name.upper()} in {where} could not be read ({short_error(exc)}): skipped")
            continue
        if got:
            getattr(block, name).update(got)
        elif name == "xmp" and _has_raw_xmp(image):  # exiv2 drops a packet it cannot parse, silently
            issues.append(f"the XMP in {where} is malformed: skipped")


def _has_raw_xmp(image) -> bool:
    """Does the file hold an XMP packet that is not well-formed XML (lxml says; an empty but
    well-formed packet is no problem)?"""
    from lxml import etree

    try:
        raw = image.read_raw_xmp(encoding="latin-1")
    except Exception:  # noqa: BLE001 - no packet at all
        return False
    if not raw.strip():
        return False
    try:
        etree.fromstring(raw.encode("latin-1"), etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return True
    return False


def _empty_tiff(raw: bytes) -> bool:
    """An EXIF (TIFF) stream whose first directory has no entries and no next one (pillow-heif
    writes one for a photo without EXIF); exiv2 calls it corrupted."""
    order = {b"MM": ">", b"II": "<"}.get(bytes(raw[:2]))
    if order is None or len(raw) < 8:
        return False
    (first,) = struct.unpack(order + "I", raw[4:8])
    if len(raw) < first + 2:
        return False
    (entries,) = struct.unpack(order + "H", raw[first : first + 2])
    following = raw[first + 2 : first + 6]
    return entries == 0 and (len(following) < 4 or struct.unpack(order + "I", following)[0] == 0)
