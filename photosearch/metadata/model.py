"""What is read of a photo's metadata: plain data (the reader fills it, the analyzer turns it into facts)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

#: `source` of what was read from the photo file itself (a sidecar's is its file name).
SOURCE_FILE = "the file"


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
class Exposure:
    """The settings one photo was taken with; None where the file does not say."""

    aperture: float | None = None
    shutter: float | None = None  # seconds
    iso: float | None = None
    focal: float | None = None  # mm, as the lens says
    focal35: float | None = None  # mm, the 35 mm film equivalent
    flash: bool | None = None  # fired

    def update(self, other: Exposure) -> None:
        """Take every setting `other` says (a sidecar read after the file wins)."""
        for f in fields(self):
            value = getattr(other, f.name)
            if value is not None:
                setattr(self, f.name, value)

    def numbers(self) -> dict[str, float]:
        """The known numeric settings by name (all but the flash)."""
        return {
            f.name: v for f in fields(self) if f.name != "flash" and (v := getattr(self, f.name)) is not None
        }


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
    exposure: Exposure = field(default_factory=Exposure)
    editors: list[str] = field(default_factory=list)  # photo editors that worked on it (editing.py)
    sidecars: list[str] = field(default_factory=list)
    sidecar_signature: str | None = None
    issues: list[str] = field(default_factory=list)
    keyword_index: dict[str, Keyword] = field(default_factory=dict, repr=False)  # folded -> keyword


@dataclass
class Block:
    """The three metadata blocks of one source, as pyexiv2 flattens them (key -> value)."""

    source: str
    exif: dict = field(default_factory=dict)
    iptc: dict = field(default_factory=dict)
    xmp: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------------- reading
