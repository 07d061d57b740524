"""What the catalog knows about one photo, as plain data the sentence composer reads: the tagger's
candidates, the detector's objects with their boxes, the scene model's scenes, the text read, the people, the file's own words,
when and where it was taken."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select

from photosearch.catalog.models import Face, Fact, Person, Photo
from photosearch.errors import PhotoSearchError
from photosearch.models.labels import SCENE_SIDES
from photosearch.people.looks import FACE_KIND, look_of

#: Fact kinds the file or the user wrote (shown as what the photo "says about itself").
OWN_WORDS = ("title", "description", "keyword", "user_tag")


@dataclass(frozen=True)
class Tag:
    """One tagger candidate: a class (hypernym False) or a broader word it sums (hypernym True)."""

    label: str
    score: float
    hypernym: bool = False
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class Thing:
    """One detected object: its label, confidence and box (normalised x0, y0, x1, y1)."""

    label: str
    score: float
    box: tuple[float, float, float, float]


@dataclass
class PhotoEvidence:
    """Everything the composer may say about one photo."""

    photo_id: int
    tags: list[Tag] = field(default_factory=list)
    things: list[Thing] = field(default_factory=list)
    scenes: list[Tag] = field(default_factory=list)  # the scene model's scenes, best first
    setting: str = ""  # "indoors" or "outdoors", where the scene model says
    text_lines: list[str] = field(default_factory=list)
    people: list[str] = field(default_factory=list)  # named, once each, in face order
    unnamed_faces: int = 0
    #: what each unnamed face looks like, where the face model is sure of a word ("woman", "boy")
    unnamed_looks: list[str] = field(default_factory=list)
    captions: list[str] = field(default_factory=list)
    own_words: dict[str, list[str]] = field(default_factory=dict)  # title/description/keyword/user_tag
    learned: list[dict] = field(default_factory=list)  # {"entity", "category"} from earlier web searches
    taken_at: datetime | None = None
    place: str = ""  # "Lisbon, Portugal"
    gps: tuple[float, float] | None = None
    path: str = ""


def load_regions(store, photo_id: int) -> PhotoEvidence:
    """The photo's row, tags and detected objects (the first step of an answer)."""
    with store.session() as s:
        photo = s.get(Photo, photo_id)
        if photo is None or photo.state != "active":
            raise PhotoSearchError(f"no photo with id {photo_id} in the catalog")
        ev = PhotoEvidence(photo_id, taken_at=photo.taken_at, path=photo.path)
        if photo.gps_lat is not None and photo.gps_lon is not None:
            ev.gps = (float(photo.gps_lat), float(photo.gps_lon))
        rows = s.scalars(
            select(Fact)
            .where(Fact.photo_id == photo_id, Fact.kind.in_(("tag", "object", "scene", "caption")))
            .order_by(Fact.score.desc(), Fact.id)
        )
        for f in rows:
            data = dict(f.data or {})
            if f.kind == "tag":
                names = tuple(str(n) for n in data.get("names") or ())
                ev.tags.append(Tag(f.label, float(f.score), bool(data.get("hypernym")), names))
            elif f.kind == "object" and f.box and len(f.box) == 4:
                ev.things.append(Thing(f.label, float(f.score), tuple(float(v) for v in f.box)))
            elif f.kind == "scene" and f.label in SCENE_SIDES:
                ev.setting = ev.setting or f.label
            elif f.kind == "scene":
                ev.scenes.append(Tag(f.label, float(f.score)))
            elif f.kind == "caption" and f.label not in ev.captions:
                ev.captions.append(f.label)
    return ev


def add_text(store, ev: PhotoEvidence) -> None:
    """The lines the text reader found, top to bottom."""
    with store.session() as s:
        rows = list(s.scalars(select(Fact).where(Fact.photo_id == ev.photo_id, Fact.kind == "text")))
    rows.sort(key=lambda f: ((f.box or [0, 0])[1], (f.data or {}).get("line", 0), f.id))
    ev.text_lines = list(dict.fromkeys(" ".join(f.label.split()) for f in rows if f.label.strip()))


def add_people(store, ev: PhotoEvidence) -> None:
    """Named people (faces, left to right), faces without a name, what earlier searches learned,
    and the words the file or the user gave the photo."""
    with store.session() as s:
        faces = s.execute(
            select(Face.box, Person.name, Person.hidden)
            .outerjoin(Person, Person.id == Face.person_id)
            .where(Face.photo_id == ev.photo_id)
        ).all()
        facts = list(
            s.scalars(
                select(Fact)
                .where(Fact.photo_id == ev.photo_id, Fact.kind.in_(("knowledge", FACE_KIND, *OWN_WORDS)))
                .order_by(Fact.id)
            )
        )
    named = sorted(((box or [0])[0], name) for box, name, hidden in faces if name and not hidden)
    ev.people = list(dict.fromkeys(name for _x, name in named))
    unnamed = sorted((box or [0]) for box, name, _hidden in faces if not name)
    ev.unnamed_faces = len(unnamed)
    ev.unnamed_looks = _looks(unnamed, [f for f in facts if f.kind == FACE_KIND])
    for f in facts:
        if f.kind == FACE_KIND:
            continue
        data = dict(f.data or {})
        if f.kind == "knowledge":
            entity = data.get("entity") or f.label
            if data.get("role", "entity") == "entity" and entity not in {e["entity"] for e in ev.learned}:
                ev.learned.append({"entity": entity, "category": data.get("category", "")})
        else:
            words = ev.own_words.setdefault(f.kind, [])
            if f.label not in words:
                words.append(f.label)


def _looks(boxes: list[list[float]], facts: list[Fact]) -> list[str]:
    """The likeliest word for each face (left to right) where the face model claims one."""
    said = [(f.label, f.score, f.box) for f in facts]
    return [word for word in (look_of(box, said) for box in boxes) if word]


def add_place(store, ev: PhotoEvidence, geocode=None) -> None:
    """The place name: a `place` fact (from GPS or the file), else the photo's GPS reverse-geocoded
    offline (`geocode`: [(lat, lon)] -> [{"city", "country", ...}], the place index's by default)."""
    with store.session() as s:
        facts = list(s.scalars(select(Fact).where(Fact.photo_id == ev.photo_id, Fact.kind == "place")))
    facts.sort(key=lambda f: f.analyzer != "place")  # GPS first: it is where the camera was
    for f in facts:
        name = place_words(dict(f.data or {})) or f.label
        if name:
            ev.place = name
            return
    if ev.gps is None:
        return
    if geocode is None:
        from photosearch.query.resolvers.places import reverse_geocode as geocode
    found = geocode([ev.gps])
    ev.place = place_words(found[0]) if found else ""


def place_words(p: dict) -> str:
    """ "Lisbon, Portugal" from a place record (city or region, then the country's name)."""
    local = p.get("city") or p.get("admin1") or ""
    country = p.get("country") or ""
    if not country and p.get("cc"):
        from photosearch.query.places import COUNTRIES

        country = COUNTRIES.get(str(p["cc"]).upper(), (p["cc"],))[0]
    return ", ".join(x for x in (local, country) if x)


def load_evidence(store, photo_id: int, geocode=None) -> PhotoEvidence:
    """All of it at once (tests and the CLI's JSON)."""
    ev = load_regions(store, photo_id)
    add_text(store, ev)
    add_people(store, ev)
    add_place(store, ev, geocode)
    return ev
