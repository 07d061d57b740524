"""Which photo editor worked on a photo, from what the file or its sidecar says: EXIF Software and
ProcessingSoftware, XMP CreatorTool and the edit history's software agents, darktable's history and
Camera Raw's develop settings. Only photo editors count: a camera's firmware ("Ver.1.01"), a phone's
system ("16.4") or a metadata tool (ExifTool, digiKam, Bridge) says nothing of an edit. A copy a phone
or an app saved as "IMG_1234-edited.jpg" is an edited copy by its name."""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.metadata.model import Block

#: (what the software's name holds, folded; the editor's name). Lightroom before Photoshop: its
#: name is "Adobe Photoshop Lightroom".
EDITORS: tuple[tuple[str, str], ...] = (
    ("lightroom", "Lightroom"),
    ("camera raw", "Camera Raw"),
    ("photoshop", "Photoshop"),
    ("gimp", "GIMP"),
    ("darktable", "darktable"),
    ("rawtherapee", "RawTherapee"),
    ("capture one", "Capture One"),
    ("affinity photo", "Affinity Photo"),
    ("pixelmator", "Pixelmator"),
    ("luminar", "Luminar"),
    ("snapseed", "Snapseed"),
    ("vsco", "VSCO"),
    ("dxo", "DxO PhotoLab"),
    ("on1 photo", "ON1"),
    ("paint.net", "Paint.NET"),
    ("paintshop", "PaintShop Pro"),
    ("acdsee", "ACDSee"),
    ("facetune", "Facetune"),
    ("picsart", "PicsArt"),
    ("polarr", "Polarr"),
    ("photoscape", "PhotoScape"),
    ("fotor", "Fotor"),
    ("canva", "Canva"),
    ("aurora hdr", "Aurora HDR"),
    ("topaz", "Topaz"),
    ("krita", "Krita"),
)
#: The editor of a copy whose file name says it was edited.
EDITED_COPY = "an edited copy"
#: "IMG_1234-edited.jpg", "IMG_1234 (edited).jpg", "photo_edit.jpg", "DSC_0042-Edit-2.tif".
_EDITED_NAME = re.compile(r"(?:[-_ ]|\()edit(?:ed)?\)?(?:[-_ ]?\d+)?$", re.IGNORECASE)
_SOFTWARE_KEYS = (
    "Exif.Image.Software",
    "Exif.Image.ProcessingSoftware",
    "Xmp.xmp.CreatorTool",
    "Xmp.tiff.Software",
)


def editor_name(software: str) -> str | None:
    """The editor a software field names ("Adobe Photoshop Lightroom Classic 12.0 (Windows)" →
    "Lightroom"), or None for anything else (firmware, a system version, a metadata tool)."""
    folded = " ".join(str(software).casefold().split())
    return next((name for word, name in EDITORS if word in folded), None)


def read_editors(block: Block) -> list[str]:
    """The editors one source names, each once, in the order found."""
    xmp = block.xmp
    said = [block.exif.get(k) or xmp.get(k) for k in _SOFTWARE_KEYS]
    said += [v for k, v in xmp.items() if k.endswith("/stEvt:softwareAgent")]
    found = [name for value in said if value and (name := editor_name(str(value)))]
    if any(k.startswith("Xmp.darktable.history") for k in xmp):
        found.append("darktable")
    if str(xmp.get("Xmp.crs.HasSettings", "")).casefold() == "true" and not found:
        found.append("Camera Raw")  # develop settings with no program named
    return list(dict.fromkeys(found))


def edited_by_name(path: str | Path) -> bool:
    """Whether the file's name says it is an edited copy ("IMG_1234-edited.jpg")."""
    return bool(_EDITED_NAME.search(Path(path).stem))
