"""Write what the user did in PhotoSearch into XMP sidecars, never into the photo (opt-in:
`Settings.sidecar_writeback`, off by default; `Settings.sidecar_naming` picks `photo.jpg.xmp`
(digiKam, darktable) or `photo.xmp` (Lightroom)).

What is written: the names of people (MWG face regions, the frame of the stored image), tags added by
hand (dc:subject, kept with the keywords already there), the user's rating (xmp:Rating) and caption
(dc:description). The sidecar is merged, not replaced: exiv2 parses what is there (other tools'
namespaces included, such as darktable's history) and only our properties change; the new packet is
read back and checked, then put in place atomically (a temporary file in the same folder, fsync,
rename). A sidecar that cannot be parsed is left alone and reported.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from photosearch.metadata.exiv2 import LOCK, exiv2, short_error
from photosearch.metadata.fields import values
from photosearch.metadata.sidecar import FULL_NAME, STEM_NAME, candidate_names

log = logging.getLogger(__name__)

EMPTY_PACKET = (
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
    '  <rdf:Description rdf:about=""/>\n'
    " </rdf:RDF>\n"
    "</x:xmpmeta>\n"
    '<?xpacket end="w"?>'
).encode()
_PACKET_END = re.compile(rb"<\?xpacket end=['\"][rw]['\"]\?>")
_REGION_KEY = re.compile(r"^Xmp\.mwg-rs\.Regions/mwg-rs:RegionList\[(\d+)\](/.*)?$")


class SidecarWriteError(Exception):
    """The sidecar could not be written; nothing on disk changed."""


@dataclass
class SidecarUpdate:
    """What PhotoSearch knows that the sidecar should hold. Boxes: (x0, y0, x1, y1) in 0..1 of the
    photo as shown (oriented)."""

    keywords: list[str] = field(default_factory=list)
    people: list[tuple[str, tuple[float, float, float, float]]] = field(default_factory=list)
    rating: int | None = None
    caption: str | None = None

    def empty(self) -> bool:
        return not (self.keywords or self.people or self.rating is not None or self.caption)

    def digest(self) -> str:
        data = asdict(self)
        data["people"] = [[n, [round(v, 4) for v in b]] for n, b in self.people]
        return hashlib.sha1(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def sidecar_path(photo_path: str | Path, naming: str = FULL_NAME) -> Path:
    """Where the sidecar of a photo goes in the chosen convention."""
    if naming not in (FULL_NAME, STEM_NAME):
        raise ValueError(f"unknown sidecar naming {naming!r}; use {FULL_NAME!r} or {STEM_NAME!r}")
    photo = Path(photo_path)
    full, stem = candidate_names(photo.name)
    return photo.with_name(full if naming == FULL_NAME else stem)


def write_sidecar(
    photo_path: str | Path,
    update: SidecarUpdate,
    naming: str = FULL_NAME,
    *,
    orientation: int = 1,
    size: tuple[int, int] | None = None,
) -> Path:
    """Merge `update` into the photo's sidecar (made when missing); returns its path. `size`: the
    photo's (width, height) as shown, for the regions' AppliedToDimensions."""
    target = sidecar_path(photo_path, naming)
    try:
        before = target.read_bytes() if target.exists() else EMPTY_PACKET
    except OSError as exc:
        raise SidecarWriteError(f"cannot read {target}: {exc.strerror or exc}") from exc
    packet = _merged(before, update, orientation, size, target.name)
    _replace_atomically(target, packet)
    return target


def _merged(before: bytes, update: SidecarUpdate, orientation: int, size, name: str) -> bytes:
    pe = exiv2()
    with LOCK:
        try:
            image = pe.ImageData(before)
        except Exception as exc:
            raise SidecarWriteError(f"{name} is not valid XMP ({short_error(exc)}); left as it is") from exc
        try:
            if "xml" not in image.get_mime_type():
                raise SidecarWriteError(f"{name} is not an XMP sidecar; left as it is")
            xmp = image.read_xmp()
            # one call, so exiv2 writes the packet once (the region struct, when named, is deleted
            # first and rewritten whole in the same call)
            image.modify_xmp(_changes(xmp, update, orientation, size))
            out = image.get_bytes()
        except SidecarWriteError:
            raise
        except Exception as exc:
            raise SidecarWriteError(
                f"{name} could not be updated ({short_error(exc)}); left as it is"
            ) from exc
        finally:
            image.close()
        # exiv2's memory buffer keeps the old tail when the packet shrinks: it ends at its trailer
        end = _PACKET_END.search(out)
        if end is None:
            raise SidecarWriteError(f"{name}: exiv2 wrote no XMP packet; left as it is")
        out = out[: end.end()] + b"\n"
        _check(out, update, name)
    return out


def _changes(xmp: dict, update: SidecarUpdate, orientation: int, size) -> dict:
    changes: dict = {}
    if update.keywords:
        have = values(xmp.get("Xmp.dc.subject"))
        folded = {k.casefold() for k in have}
        merged = have + [k for k in update.keywords if k.casefold() not in folded]
        if merged != have:
            changes["Xmp.dc.subject"] = merged
    if update.rating is not None:
        changes["Xmp.xmp.Rating"] = str(int(update.rating))
    if update.caption:
        changes["Xmp.dc.description"] = {'lang="x-default"': update.caption}
    if update.people:
        changes.update(_regions(xmp, update.people, orientation, size))
    return changes


def _regions(xmp: dict, people, orientation: int, size) -> dict:
    """The whole mwg-rs:Regions struct: regions already there kept (with every field they hold), a
    person we name replacing the region of the same name, the others added."""
    kept: dict[int, dict[str, object]] = {}
    for key, value in xmp.items():
        m = _REGION_KEY.match(key)
        if m:
            kept.setdefault(int(m.group(1)), {})[m.group(2) or ""] = value
    ours = {name.casefold() for name, _ in people}
    regions = [
        fields
        for _, fields in sorted(kept.items())
        if values(fields.get("/mwg-rs:Name"))[:1] == []
        or values(fields.get("/mwg-rs:Name"))[0].casefold() not in ours
    ]
    base = "Xmp.mwg-rs.Regions"
    # exiv2 holds a struct as one entry per field: every old field goes (None deletes), then the
    # regions are written again (a field written again is kept in place)
    out: dict = {key: None for key in xmp if key == base or key.startswith(base + "/")}
    out[f"{base}/mwg-rs:RegionList"] = 'type="Bag"'
    if size:
        w, h = size if orientation < 5 else (size[1], size[0])  # the stored image's size
        out |= {
            f"{base}/mwg-rs:AppliedToDimensions/stDim:w": str(int(w)),
            f"{base}/mwg-rs:AppliedToDimensions/stDim:h": str(int(h)),
            f"{base}/mwg-rs:AppliedToDimensions/stDim:unit": "pixel",
        }
    i = 0
    for fields in regions:
        i += 1
        for sub, value in fields.items():
            out[f"{base}/mwg-rs:RegionList[{i}]{sub}"] = value
    inverse = {6: 8, 8: 6}.get(orientation, orientation)
    for name, box in people:
        i += 1
        x0, y0, x1, y1 = _stored(box, inverse)
        item = f"{base}/mwg-rs:RegionList[{i}]"
        out |= {
            item: 'type="Struct"',
            f"{item}/mwg-rs:Name": name,
            f"{item}/mwg-rs:Type": "Face",
            f"{item}/mwg-rs:Area/stArea:x": f"{(x0 + x1) / 2:.6f}",
            f"{item}/mwg-rs:Area/stArea:y": f"{(y0 + y1) / 2:.6f}",
            f"{item}/mwg-rs:Area/stArea:w": f"{x1 - x0:.6f}",
            f"{item}/mwg-rs:Area/stArea:h": f"{y1 - y0:.6f}",
            f"{item}/mwg-rs:Area/stArea:unit": "normalized",
        }
    return out


def _stored(box, inverse_orientation: int):
    from photosearch.metadata.regions import orient_box

    return orient_box(tuple(box), inverse_orientation)


def _check(packet: bytes, update: SidecarUpdate, name: str) -> None:
    """Read the new packet back: it parses and holds what was written, or nothing is replaced."""
    pe = exiv2()
    try:
        image = pe.ImageData(packet)
        try:
            xmp = image.read_xmp()
        finally:
            image.close()
    except Exception as exc:
        raise SidecarWriteError(f"{name}: the merged XMP does not read back ({short_error(exc)})") from exc
    if packet.count(b"<?xpacket begin") != 1:  # exiv2 fell back to the old packet: nothing applied
        raise SidecarWriteError(f"{name}: exiv2 could not apply the change; left as it is")
    subjects = {k.casefold() for k in values(xmp.get("Xmp.dc.subject"))}
    missing = [k for k in update.keywords if k.casefold() not in subjects]
    named = {n.casefold() for n, _, _ in _named(xmp)}
    missing += [n for n, _ in update.people if n.casefold() not in named]
    if update.rating is not None and values(xmp.get("Xmp.xmp.Rating")) != [str(update.rating)]:
        missing.append("the rating")
    if missing:
        raise SidecarWriteError(f"{name}: the merged XMP lacks {missing}; left as it is")


def _named(xmp: dict):
    from photosearch.metadata.regions import named_regions

    return list(named_regions(xmp))


def _replace_atomically(target: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise SidecarWriteError(f"cannot write {target}: {exc.strerror or exc}") from exc
