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
import re
import threading
from dataclasses import dataclass, field

from photosearch.metadata import regions as region_parse
from photosearch.metadata.sidecar import sidecar_paths, signature

log = logging.getLogger(__name__)

#: A sidecar larger than this is not read (a real one is a few kB; Lightroom's with history < 1 MB).
MAX_SIDECAR_BYTES = 16 << 20
#: Text values longer than this are cut (the catalog's label column holds 512 characters).
MAX_TEXT_CHARS = 512
#: At most this many keywords per photo (a keyword list of thousands is a tool gone wrong).
MAX_KEYWORDS = 500
#: Caption text cameras write into ImageDescription by themselves: never the user's words.
CAMERA_BOILERPLATE = frozenset(
    {
        "olympus digital camera",
        "sony dsc",
        "digital camera",
        "default",
        "exif_jpeg_picture",
        "image",
        "picture",
        "untitled",
        "<untitled>",
        "no title",
        "ljpeg",
        "minolta digital camera",
        "kodak digital still camera",
        "samsung digital camera",
        "camera",
    }
)
SOURCE_FILE = "the file"

_lock = threading.Lock()  # exiv2's XMP toolkit keeps global state: one read at a time
_ready = False


def _exiv2():
    """pyexiv2 with exiv2's own console logging muted (problems become `issues` instead)."""
    global _ready
    import pyexiv2

    if not _ready:
        pyexiv2.set_log_level(4)
        _ready = True
    return pyexiv2


@dataclass
class Keyword:
    label: str  # one level of the keyword ("Lisbon")
    source: str
    path: str | None = None  # the whole hierarchy ("Places|Portugal|Lisbon") for a hierarchical one


@dataclass
class Text:
    kind: str  # title | description | credit
    label: str
    source: str
    field: str  # where it was read, e.g. "XMP dc:title"


@dataclass
class Region:
    name: str
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 of the oriented image, 0..1
    source: str
    scheme: str  # mwg | mp


@dataclass
class PlaceNames:
    sublocation: str = ""
    city: str = ""
    state: str = ""
    country: str = ""
    source: str = ""

    def empty(self) -> bool:
        return not (self.sublocation or self.city or self.state or self.country)


@dataclass
class EmbeddedMetadata:
    """Everything read for one photo; `issues` says what was skipped and why."""

    keywords: list[Keyword] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    rating: int | None = None
    rating_source: str = ""
    label: str | None = None
    label_source: str = ""
    place: PlaceNames = field(default_factory=PlaceNames)
    regions: list[Region] = field(default_factory=list)
    sidecars: list[str] = field(default_factory=list)
    sidecar_signature: str | None = None
    issues: list[str] = field(default_factory=list)
    keyword_index: dict[str, Keyword] = field(default_factory=dict, repr=False)  # folded -> keyword


@dataclass
class _Block:
    """The three metadata blocks of one source, as pyexiv2 flattens them (key -> value)."""

    source: str
    exif: dict = field(default_factory=dict)
    iptc: dict = field(default_factory=dict)
    xmp: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------- reading


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
    orientation = _orientation(blocks[0])
    for block in blocks:
        _collect(block, out, orientation)
    return out


def _read_file(path: str, issues: list[str]) -> _Block:
    block = _Block(SOURCE_FILE)
    pe = _exiv2()
    try:
        with _lock:
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
            issues.append(f"the file's metadata could not be read: {_short(exc)}")
    if not block.xmp or not block.exif:
        _heif_fallback(path, block, issues)
    return block


def _heif_fallback(path: str, block: _Block, issues: list[str]) -> None:
    """HEIF/AVIF: exiv2 misses metadata items some writers (exiftool) add to a file that had none;
    libheif finds them, and exiv2 then reads the EXIF (a TIFF stream) and the XMP packet themselves."""
    if os.path.splitext(path)[1].lower() not in {".heic", ".heif", ".hif", ".avif"}:
        return
    try:
        from PIL import Image

        import photosearch.ingest.decode  # noqa: F401 - registers the HEIF opener

        with Image.open(path) as im:
            exif, xmp = im.info.get("exif"), im.info.get("xmp")
    except Exception as exc:  # noqa: BLE001 - the decoder names its own failure when it indexes
        issues.append(f"the file's metadata could not be read: {_short(exc)}")
        return
    pe = _exiv2()
    # an XMP packet read alone is a sidecar to exiv2, which copies XMP into EXIF on reading it: only
    # its XMP is taken, so the photo's own EXIF stays as written
    for raw, want, xmp_only in ((exif, not block.exif, False), (xmp, not block.xmp, True)):
        if not raw or not want:
            continue
        if raw.startswith(b"Exif\x00\x00"):
            raw = raw[6:]
        try:
            with _lock:
                image = pe.ImageData(bytes(raw))
                try:
                    _read_blocks(image, block, issues, "the file", xmp_only=xmp_only)
                finally:
                    image.close()
        except Exception as exc:
            issues.append(f"the file's metadata could not be read: {_short(exc)}")


def _read_sidecar(path: str, issues: list[str]) -> _Block | None:
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
    block = _Block(name)
    pe = _exiv2()
    try:
        with _lock:
            image = pe.ImageData(data)
            try:
                mime = image.get_mime_type()
                if "xml" not in mime and "xmp" not in mime:
                    raise ValueError(f"not an XMP sidecar ({mime})")
                _read_blocks(image, block, issues, name, xmp_only=True)
            finally:
                image.close()
    except Exception as exc:
        issues.append(f"{name} is not valid XMP ({_short(exc)}): skipped")
        return None
    return block


def _read_blocks(image, block: _Block, issues: list[str], where: str, xmp_only: bool = False) -> None:
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
                issues.append(f"{name.upper()} in {where} could not be read ({_short(exc)}): skipped")
                continue
        except Exception as exc:  # noqa: BLE001 - exiv2 raises RuntimeError for a malformed packet
            issues.append(f"{name.upper()} in {where} could not be read ({_short(exc)}): skipped")
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


def _short(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:200]


# ---------------------------------------------------------------------------------- fields


def _clean(value) -> str:
    """Printable, single-spaced text cut to the label size (NULs of XP tags, control bytes dropped)."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    text = "".join(ch if ch.isprintable() else " " for ch in str(value))
    return " ".join(text.split())[:MAX_TEXT_CHARS]


def _values(value) -> list[str]:
    """Every text of a value: a bag/seq (list), a lang-alt (dict: x-default first), or a string."""
    if value is None:
        return []
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: "x-default" not in str(kv[0]))
        return [v for v in (_clean(x) for _, x in items) if v]
    if isinstance(value, (list, tuple)):
        return [v for v in (_clean(x) for x in value) if v]
    text = _clean(value)
    if text.startswith('type="'):  # a struct or array node, not a value
        return []
    return [text] if text else []


_CHARSET = re.compile(r"^charset=\"?(ascii|unicode|jis|undefined)\"?\s*", re.I)


def _user_comment(value) -> list[str]:
    texts = []
    for v in _values(value):
        v = _CHARSET.sub("", v).strip()
        if v and v.strip("\x00 ") and not set(v) <= {"\x00", " "}:
            texts.append(v)
    return texts


def _collect(block: _Block, out: EmbeddedMetadata, orientation: int) -> None:
    src = block.source
    ex, ip, xm = block.exif, block.iptc, block.xmp
    # keywords
    flat = (
        _values(xm.get("Xmp.dc.subject"))
        + _values(ip.get("Iptc.Application2.Keywords"))
        + [k for v in _values(ex.get("Exif.Image.XPKeywords")) for k in re.split(r"[;,]", v)]
    )
    for word in flat:
        _add_keyword(out, word, src, None)
    for key, sep in (
        ("Xmp.lr.hierarchicalSubject", "|"),
        ("Xmp.digiKam.TagsList", "/"),
        ("Xmp.MicrosoftPhoto.LastKeywordXMP", "/"),
    ):
        for path in _values(xm.get(key)):
            levels = [lv.strip() for lv in path.split(sep) if lv.strip()]
            for lv in levels:
                _add_keyword(out, lv, src, sep.join(levels) if len(levels) > 1 else None)
    # titles, captions, authorship
    fields = [
        ("title", "XMP dc:title", _values(xm.get("Xmp.dc.title"))),
        ("title", "XMP photoshop:Headline", _values(xm.get("Xmp.photoshop.Headline"))),
        ("title", "IPTC Headline", _values(ip.get("Iptc.Application2.Headline"))),
        ("title", "EXIF XPTitle", _values(ex.get("Exif.Image.XPTitle"))),
        ("title", "EXIF XPSubject", _values(ex.get("Exif.Image.XPSubject"))),
        ("description", "XMP dc:description", _values(xm.get("Xmp.dc.description"))),
        ("description", "IPTC Caption-Abstract", _values(ip.get("Iptc.Application2.Caption"))),
        ("description", "EXIF ImageDescription", _values(ex.get("Exif.Image.ImageDescription"))),
        ("description", "EXIF XPComment", _values(ex.get("Exif.Image.XPComment"))),
        ("description", "EXIF UserComment", _user_comment(ex.get("Exif.Photo.UserComment"))),
        ("credit", "EXIF Artist", _values(ex.get("Exif.Image.Artist"))),
        ("credit", "XMP dc:creator", _values(xm.get("Xmp.dc.creator"))),
        ("credit", "EXIF Copyright", _values(ex.get("Exif.Image.Copyright"))),
        ("credit", "XMP dc:rights", _values(xm.get("Xmp.dc.rights"))),
    ]
    have = {(t.kind, t.label.casefold()) for t in out.texts}
    for kind, where, texts in fields:
        for text in texts:
            key = (kind, text.casefold())
            if key in have or text.casefold() in CAMERA_BOILERPLATE:
                continue
            have.add(key)
            out.texts.append(Text(kind, text, src, where))
    # rating and colour label (a sidecar read after the file overrides it)
    for value in _values(xm.get("Xmp.xmp.Rating")) + _values(ex.get("Exif.Image.Rating")):
        rating = _rating(value)
        if rating is not None:
            out.rating, out.rating_source = rating, src
            break
    for value in _values(xm.get("Xmp.xmp.Label")):
        out.label, out.label_source = value[:64], src
        break
    # place names
    place = PlaceNames(
        sublocation=_first(xm.get("Xmp.iptc.Location"), ip.get("Iptc.Application2.SubLocation")),
        city=_first(xm.get("Xmp.photoshop.City"), ip.get("Iptc.Application2.City")),
        state=_first(xm.get("Xmp.photoshop.State"), ip.get("Iptc.Application2.ProvinceState")),
        country=_first(xm.get("Xmp.photoshop.Country"), ip.get("Iptc.Application2.CountryName")),
        source=src,
    )
    if not place.empty():
        out.place = place
    # named face regions
    for name, box, scheme in region_parse.named_regions(xm, orientation):
        out.regions.append(Region(_clean(name), box, src, scheme))


def _add_keyword(out: EmbeddedMetadata, word: str, source: str, path: str | None) -> None:
    word = _clean(word).strip(" ;,")
    if not word:
        return
    folded = word.casefold()
    known = out.keyword_index.get(folded)
    if known is not None:
        if path and not known.path:
            known.path = path  # the flat copy of a hierarchical keyword: keep where it sits
        return
    if len(out.keywords) >= MAX_KEYWORDS:
        note = f"more than {MAX_KEYWORDS} keywords: the first {MAX_KEYWORDS} kept"
        if note not in out.issues:
            out.issues.append(note)
        return
    out.keyword_index[folded] = keyword = Keyword(word, source, path)
    out.keywords.append(keyword)


def _first(*values) -> str:
    for v in values:
        got = _values(v)
        if got:
            return got[0][:128]
    return ""


def _rating(value: str) -> int | None:
    """xmp:Rating is -1 (rejected) or 0..5, written as an integer or a real."""
    try:
        rating = round(float(value))
    except ValueError:
        return None
    return rating if -1 <= rating <= 5 else None


def _orientation(block: _Block) -> int:
    for value in _values(block.exif.get("Exif.Image.Orientation")) + _values(
        block.xmp.get("Xmp.tiff.Orientation")
    ):
        try:
            o = int(value)
        except ValueError:
            continue
        if 1 <= o <= 8:
            return o
    return 1
