"""What a user does with people: list, name, merge, split, move, hide, set a birthday.

Every function takes the `Store` and runs one unit of work. Faces moved by hand are pinned:
clustering never moves them again.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date, datetime

import numpy as np
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from photosearch.catalog.models import Face, Fact, Person, Photo, is_row_id
from photosearch.catalog.store import Store
from photosearch.errors import PhotoSearchError
from photosearch.people.clustering import descriptor_array, remove_empty_people
from photosearch.people.looks import CLAIMED, FACE_KIND, look_of


class PeopleError(PhotoSearchError):
    """A people operation cannot be done as asked (unknown person or face, ambiguous name …)."""


@dataclass
class PersonSummary:
    id: int
    name: str | None
    hidden: bool
    birthday: str | None  # ISO date
    face_count: int
    photo_count: int
    face_id: int | None = None  # representative face: the one nearest the person's centroid
    photo_id: int | None = None
    photo_path: str | None = None
    box: list[float] | None = None
    #: For a person without a name: how most of their faces look, in a word ("woman"; "" unknown).
    look: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class FaceInfo:
    id: int
    photo_id: int
    photo_path: str
    box: list[float]
    score: float
    person_id: int | None
    pinned: bool

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class NameResult:
    person_id: int  # the person that now carries the name (the existing one after a merge)
    name: str | None
    merged: list[int] = field(default_factory=list)  # ids merged into person_id
    same_name: list[int] = field(default_factory=list)  # other people with this name, not merged

    def as_dict(self) -> dict:
        return asdict(self)


def _person(s: Session, person_id: int) -> Person:
    person = s.get(Person, int(person_id)) if is_row_id(int(person_id)) else None
    if person is None:
        raise PeopleError(f"no person #{person_id}; see `photosearch people list --all`")
    return person


def _clean_name(name: str | None) -> str | None:
    if name is None:
        return None
    name = " ".join(str(name).split())
    if len(name) > 256:
        raise PeopleError("a name can have at most 256 characters")
    return name or None


def _birthday(person: Person) -> str | None:
    return person.birthday.date().isoformat() if person.birthday else None


# ---- reading ----------------------------------------------------------------------------------
def list_people(
    store: Store, *, include_hidden: bool = False, min_faces: int = 1, named_only: bool = False
) -> list[PersonSummary]:
    """People with their face and photo counts (active photos only), most faces first."""
    with store.session() as s:
        people = {p.id: p for p in s.scalars(select(Person))}
        rows = s.execute(
            select(Face.id, Face.person_id, Face.photo_id, Face.box, Face.descriptor, Photo.path)
            .join(Photo, Photo.id == Face.photo_id)
            .where(Photo.state == "active", Face.person_id.is_not(None))
            .order_by(Face.id)
        ).all()
        looks = _unnamed_looks(s)
    faces: dict[int, list] = defaultdict(list)
    for row in rows:
        faces[row[1]].append(row)
    out = []
    for pid, person in people.items():
        if person.hidden and not include_hidden:
            continue
        if named_only and not person.name:
            continue
        mine = faces.get(pid, [])
        if len(mine) < min_faces and not person.name:
            continue
        summary = PersonSummary(
            id=pid,
            name=person.name,
            hidden=bool(person.hidden),
            birthday=_birthday(person),
            face_count=len(mine),
            photo_count=len({r[2] for r in mine}),
            look=looks.get(pid, ""),
        )
        rep = _representative(mine)
        if rep is not None:
            summary.face_id, summary.photo_id, summary.box, summary.photo_path = (
                rep[0],
                rep[2],
                rep[3],
                rep[5],
            )
        out.append(summary)
    out.sort(key=lambda p: (-p.face_count, p.name is None, p.id))
    return out


def _unnamed_looks(s: Session) -> dict[int, str]:
    """Person id -> the word the face model says most often of that unnamed person's faces."""
    rows = s.execute(
        select(Face.id, Face.person_id, Face.box, Fact.label, Fact.score, Fact.box)
        .join(Person, Person.id == Face.person_id)
        .join(Fact, (Fact.photo_id == Face.photo_id) & (Fact.kind == FACE_KIND) & (Fact.score >= CLAIMED))
        .join(Photo, Photo.id == Face.photo_id)
        .where(Person.name.is_(None), Photo.state == "active")
    ).all()
    faces: dict[int, tuple[int, list[float] | None, list]] = {}
    for face_id, person_id, box, label, score, at in rows:
        faces.setdefault(face_id, (person_id, box, []))[2].append((label, score, at))
    counts: dict[int, Counter] = defaultdict(Counter)
    for person_id, box, words in faces.values():
        word = look_of(box, words)
        if word:
            counts[person_id][word] += 1
    return {pid: c.most_common(1)[0][0] for pid, c in counts.items()}


def _representative(rows: list) -> tuple | None:
    """The face nearest the mean descriptor (ties: the lowest id)."""
    if not rows:
        return None
    vecs = [(r, descriptor_array(r[4])) for r in rows]
    vecs = [(r, v) for r, v in vecs if v is not None]
    if not vecs:
        return rows[0]
    centroid = np.mean([v for _, v in vecs], axis=0)
    return min(vecs, key=lambda rv: (float(np.linalg.norm(rv[1] - centroid)), rv[0][0]))[0]


def get_person(store: Store, person_id: int) -> PersonSummary:
    for p in list_people(store, include_hidden=True, min_faces=0):
        if p.id == int(person_id):
            return p
    with store.session() as s:
        _person(s, person_id)  # raises for an unknown id
        person = s.get(Person, int(person_id))
        return PersonSummary(person.id, person.name, bool(person.hidden), _birthday(person), 0, 0)


def person_faces(store: Store, person_id: int) -> list[FaceInfo]:
    """The faces of one person on active photos, by photo then face id."""
    with store.session() as s:
        _person(s, person_id)
        rows = s.execute(
            select(Face, Photo.path)
            .join(Photo, Photo.id == Face.photo_id)
            .where(Face.person_id == int(person_id), Photo.state == "active")
            .order_by(Face.photo_id, Face.id)
        ).all()
        return [
            FaceInfo(f.id, f.photo_id, path, list(f.box), f.score, f.person_id, bool(f.pinned))
            for f, path in rows
        ]


def person_ids_by_name(store: Store, name: str) -> list[int]:
    """Ids of the people called `name` (case- and space-insensitive), oldest first."""
    wanted = (_clean_name(name) or "").casefold()
    if not wanted:
        return []
    with store.session() as s:
        rows = s.execute(
            select(Person.id, Person.name).where(Person.name.is_not(None)).order_by(Person.id)
        ).all()
    return [pid for pid, n in rows if (_clean_name(n) or "").casefold() == wanted]


def resolve_person(store: Store, ref: str | int) -> int:
    """A person id from an id or a unique name."""
    if isinstance(ref, int) or str(ref).strip().lstrip("#").isdigit():
        pid = int(str(ref).strip().lstrip("#"))
        with store.session() as s:
            _person(s, pid)
        return pid
    ids = person_ids_by_name(store, str(ref))
    if not ids:
        raise PeopleError(f"nobody is called {ref!r}; see `photosearch people list`")
    if len(ids) > 1:
        raise PeopleError(f"{len(ids)} people are called {ref!r} (#{', #'.join(map(str, ids))}); use an id")
    return ids[0]


# ---- changing ---------------------------------------------------------------------------------
def name_person(store: Store, person_id: int, name: str | None, *, merge: bool = True) -> NameResult:
    """Name (or with None/"" unname) a person. When someone else already has that name and `merge`
    is true, this person is merged into the existing one (the name says they are the same)."""
    clean = _clean_name(name)
    others = [pid for pid in person_ids_by_name(store, clean) if pid != int(person_id)] if clean else []
    with store.session() as s:
        _person(s, person_id)
    if others and merge:
        keep = others[0]
        merge_people(store, keep, int(person_id))
        with store.session() as s:
            _person(s, keep).name = clean
        return NameResult(person_id=keep, name=clean, merged=[int(person_id)], same_name=others[1:])
    with store.session() as s:
        _person(s, person_id).name = clean
    return NameResult(person_id=int(person_id), name=clean, same_name=others)


def merge_people(store: Store, keep_id: int, other_id: int) -> int:
    """Move every face of `other_id` to `keep_id` and delete `other_id`; returns faces moved.
    The kept person keeps its name, birthday and visibility, taking the other's where it has none."""
    if int(keep_id) == int(other_id):
        raise PeopleError("cannot merge a person with itself")
    with store.session() as s:
        keep, other = _person(s, keep_id), _person(s, other_id)
        moved = s.execute(update(Face).where(Face.person_id == other.id).values(person_id=keep.id)).rowcount
        if not keep.name and other.name:
            keep.name = other.name
        if keep.birthday is None and other.birthday is not None:
            keep.birthday = other.birthday
        s.delete(other)
        return int(moved or 0)


def _faces(s: Session, face_ids: list[int]) -> list[Face]:
    ids = sorted({int(f) for f in face_ids})
    if not ids:
        raise PeopleError("no face ids given")
    faces = list(s.scalars(select(Face).where(Face.id.in_([i for i in ids if is_row_id(i)]))))
    missing = sorted(set(ids) - {f.id for f in faces})
    if missing:
        raise PeopleError(
            f"no face with id {', '.join(map(str, missing))}; see `photosearch people show PERSON`"
        )
    return faces


def split_faces(store: Store, face_ids: list[int], name: str | None = None) -> int:
    """Move the given faces to a new person (pinned: clustering leaves them there); returns its id."""
    with store.session() as s:
        faces = _faces(s, face_ids)
        person = Person(name=_clean_name(name))
        s.add(person)
        s.flush()
        for face in faces:
            face.person_id = person.id
            face.pinned = True
        s.flush()
        remove_empty_people(s)
        return person.id


def move_faces(store: Store, face_ids: list[int], person_id: int) -> int:
    """Move the given faces to an existing person, pinned; returns how many moved."""
    with store.session() as s:
        target = _person(s, person_id)
        faces = _faces(s, face_ids)
        for face in faces:
            face.person_id = target.id
            face.pinned = True
        s.flush()
        remove_empty_people(s)
        return len(faces)


def set_hidden(store: Store, person_id: int, hidden: bool) -> None:
    """Hide a person from lists and suggestions (their faces stay theirs), or show them again."""
    with store.session() as s:
        _person(s, person_id).hidden = bool(hidden)


def set_birthday(store: Store, person_id: int, birthday: date | datetime | str | None) -> str | None:
    """Set (or with None clear) a birthday; accepts a date or 'YYYY-MM-DD'. Returns the ISO date."""
    value: datetime | None
    if birthday is None or birthday == "":
        value = None
    elif isinstance(birthday, date):  # datetime is a date too
        value = datetime(birthday.year, birthday.month, birthday.day)
    else:
        try:
            d = date.fromisoformat(str(birthday).strip())
        except ValueError as exc:
            raise PeopleError(f"birthday {birthday!r} is not a date like 1990-05-17") from exc
        value = datetime(d.year, d.month, d.day)
    with store.session() as s:
        person = _person(s, person_id)
        person.birthday = value
        return _birthday(person)


def people_counts(store: Store) -> dict[str, int]:
    """How many people, named people and faces without a person there are (for status lines)."""
    with store.session() as s:
        people = s.scalar(select(func.count()).select_from(Person)) or 0
        named = s.scalar(select(func.count()).select_from(Person).where(Person.name.is_not(None))) or 0
        loose = s.scalar(select(func.count()).select_from(Face).where(Face.person_id.is_(None))) or 0
    return {"people": int(people), "named": int(named), "unassigned_faces": int(loose)}
