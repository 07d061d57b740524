"""The `embedded` analyzer: a photo's own metadata and its XMP sidecars as catalog facts.

Fact kinds it writes (analyzer "embedded"; `data["source"]` is "the file" or the sidecar's name):

* ``keyword`` one per keyword and per level of a hierarchical one ("Places|Portugal|Lisbon" gives
  Places, Portugal and Lisbon, each with ``data["path"]``);
* ``title``, ``description``, ``credit`` (artist, creator, copyright): searchable text;
* ``rating`` ("-1" rejected, "0".."5") and ``color_label`` ("Red", …): filters;
* ``place`` (city, region, country, sub-location) when the file names one: it joins the place index
  (GPS, when the photo has it, stays the photo's place);
* ``aperture``, ``shutter``, ``iso``, ``focal_length``, ``focal_length_35mm`` and ``flash``: the
  camera settings (`exposure.py`), each labelled with its value ("1.8", "0.004", "3200", "fired");
* ``editor`` one per photo editor that worked on it ("Lightroom", "Snapseed"; `editing.py`), or
  "an edited copy" when only its file name says so ("IMG_1234-edited.jpg");
* ``sidecar`` the signature of the sidecars read (the scanner re-reads a photo whose sidecar changed);
* ``metadata_issue`` what was skipped and why (malformed XMP, a sidecar that is not XML, ...).

Named face regions become faces (no descriptor) with the region's name; the catalog makes or joins
that person and hands the name to the detected face the region overlaps (catalog/regions.py).

Embedded words are the file's claims, not what the models see: they are kept as their own kinds, and
`why` names where they came from.
"""

from __future__ import annotations

from photosearch.metadata.editing import EDITED_COPY, edited_by_name
from photosearch.metadata.exposure import exposure_facts
from photosearch.metadata.model import EmbeddedMetadata
from photosearch.metadata.reader import read_metadata
from photosearch.records import AnalysisResult, FaceRecord, FactRecord, PhotoImage

NAME = "embedded"

#: The XMP colour labels the common tools write (Lightroom, Bridge, digiKam, darktable).
COLOR_LABELS = ("Red", "Orange", "Yellow", "Green", "Blue", "Purple", "Magenta", "Gray", "White", "Black")


def to_result(meta: EmbeddedMetadata) -> AnalysisResult:
    """The catalog facts and named faces of what was read."""
    facts: list[FactRecord] = []
    for k in meta.keywords:
        data = {"source": k.source} | ({"path": k.path} if k.path else {})
        facts.append(FactRecord("keyword", k.label, 1.0, None, data))
    for t in meta.texts:
        facts.append(FactRecord(t.kind, t.label, 1.0, None, {"source": t.source, "field": t.field}))
    if meta.rating is not None:
        facts.append(FactRecord("rating", str(meta.rating), 1.0, None, {"source": meta.rating_source}))
    if meta.label:
        facts.append(
            FactRecord("color_label", canonical_label(meta.label), 1.0, None, {"source": meta.label_source})
        )
    place = meta.place
    if not place.empty():
        facts.append(FactRecord("place", place_label(place), 1.0, None, place_data(place)))
    for kind, label in exposure_facts(meta.exposure):
        facts.append(FactRecord(kind, label, 1.0))
    for name in meta.editors:
        facts.append(FactRecord("editor", name, 1.0))
    if meta.sidecar_signature:
        facts.append(FactRecord("sidecar", meta.sidecar_signature, 1.0, None, {"files": meta.sidecars}))
    for issue in meta.issues:
        facts.append(FactRecord("metadata_issue", issue[:512], 1.0))
    faces = [FaceRecord(list(r.box), 1.0, None, name=r.name) for r in meta.regions]
    return AnalysisResult(facts=facts, faces=faces)


def canonical_label(label: str) -> str:
    """ "red" and "Red" are one label; an unknown label is kept as written."""
    for known in COLOR_LABELS:
        if known.casefold() == label.strip().casefold():
            return known
    return label.strip()


def place_label(place) -> str:
    return ", ".join(x for x in (place.sublocation, place.city, place.state, place.country) if x)


def place_data(place) -> dict:
    """The place index's fields (query/resolvers/places.py): city, admin1, cc, country."""
    from photosearch.query.places import country_code

    return {
        "city": place.city or place.sublocation,
        "admin1": place.state,
        "cc": country_code(place.country) if place.country else "",
        "country": place.country,
        "sublocation": place.sublocation,
        "source": place.source,
    }


class EmbeddedMetadataAnalyzer:
    """Reads the photo's file and sidecars (not its pixels); cheap, so it runs first."""

    name = NAME
    version = 3  # 2: camera settings; 3: photo editors

    def __init__(self, settings=None):
        self.settings = settings

    def available(self) -> bool:
        try:
            import pyexiv2  # noqa: F401
        except ImportError:
            return False
        return True

    def analyze(self, image: PhotoImage) -> AnalysisResult:
        meta = read_metadata(image.path)
        if not meta.editors and edited_by_name(image.path):
            meta.editors.append(EDITED_COPY)
        return to_result(meta)
