"""Exact and fuzzy filter atoms: person, date, camera, folder, file, faces, kind, quality, tag,
knowledge, text."""

from __future__ import annotations

import fnmatch
import os
import re
from collections.abc import Callable
from datetime import date, datetime

import numpy as np

from photosearch.ingest.decode import is_raw_name
from photosearch.metadata.editing import EDITED_COPY
from photosearch.query.plan import (
    ANY_EDITOR,
    ANY_PERSON,
    ANY_RAW,
    ANY_TAG,
    ANY_TEXT,
    CAMERA_KINDS,
    UNNAMED_PERSON,
)
from photosearch.query.resolvers.base import AtomResult, ExecContext, ScoredSet, contains, position
from photosearch.query.resolvers.boxes import boxes_of
from photosearch.query.resolvers.camera_kinds import camera_kind
from photosearch.query.resolvers.sizes import photo_sizes
from photosearch.query.resolvers.snapshot import (
    EPOCH,
    NO_DATE,
    Group,
    Snapshot,
    file_names,
    rows_with,
    taken_at,
)
from photosearch.query.resolvers.text import content_tokens, fold, fuzzy_budget, tokens, within_edits

TAG_ALIASES = {
    "favorite": "favourite",
    "favorites": "favourite",
    "favourites": "favourite",
    "fav": "favourite",
    "fave": "favourite",
    "star": "favourite",
    "starred": "favourite",
}


def _groups_rows(groups: list[Group]) -> ScoredSet:
    """Union of groups' rows, keeping the best fact score per photo."""
    best = ScoredSet.best_of(groups)
    best.scores = np.clip(best.scores, 0, 1).astype(np.float32)
    return best


def _group_explainer(groups: list[Group], atom_name: str, value: str, **extra):
    def explain(row: int) -> list[dict]:
        out = []
        for g in groups:
            i = position(g.rows, row)
            if i < g.rows.size and g.rows[i] == row:
                out.append(
                    {
                        "atom": atom_name,
                        "query": value,
                        "fact": g.kind,
                        "label": g.label,
                        "score": round(float(g.scores[i]), 3),
                        **extra,
                    }
                )
        return out

    return explain


def resolve_person(atom: dict, ctx: ExecContext) -> AtomResult:
    name = str(atom["person"])
    if name in (ANY_PERSON, UNNAMED_PERSON):
        return _named_or_not(atom, ctx.snapshot, name == ANY_PERSON)
    key = fold(name)
    snap = ctx.snapshot
    rows = snap.people.get(key)
    info = {}
    if rows is None:  # nobody is named so in People: the faces nobody named yet are its closest
        info["unknown_person"] = name
        unnamed = _named_or_not({"person": UNNAMED_PERSON}, snap, named=False)
        return AtomResult(
            atom,
            ScoredSet.from_rows(np.zeros(0, np.int32)),
            unnamed.explain,
            info,
            find_near=lambda: unnamed.set if len(unnamed.set) else None,
        )
    display = snap.person_names.get(key, name)
    return AtomResult(
        atom, ScoredSet.from_rows(rows), lambda row: [{"atom": "person", "person": display}], info
    )


def _named_or_not(atom: dict, snap: Snapshot, named: bool) -> AtomResult:
    """Photos with someone named in People, or with a face nobody named yet (more faces than names:
    two faces of one person are rare enough to count as two names)."""
    names = np.zeros(snap.n, np.int16)
    for row, people in snap.person_of_row.items():
        names[row] = len(people)
    mask = names > 0 if named else snap.face_count > names
    said = "someone you named" if named else "a face not named yet"

    def why(row: int) -> list[dict]:
        shown = [snap.person_names[k] for k in snap.person_of_row.get(row, [])]
        return [{"atom": "person", "person": ", ".join(shown) if named and shown else said}]

    return AtomResult(atom, ScoredSet.from_mask(mask), why)


def _day(value: str | date | None, default: int) -> int:
    if value in (None, ""):
        return default
    d = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
    return (datetime(d.year, d.month, d.day) - EPOCH).days


def day_range(atom: dict, key: str = "date") -> tuple[int, int]:
    """A date (or added) atom's first and last day (days since EPOCH; open ends far away)."""
    spec = atom[key] or {}
    return _day(spec.get("from"), -(10**7)), _day(spec.get("to"), 10**7)


def days_nearness(days: np.ndarray, known: np.ndarray, lo: int, hi: int, near_days: float) -> np.ndarray:
    """Per row, how near its day is to lo..hi: 1 inside, 1 / (1 + days away / `near_days`) outside,
    0 where the day is unknown (after every known one)."""
    away = np.maximum(np.maximum(lo - days, days - hi), 0).astype(np.float32)
    return np.where(known, 1.0 / (1.0 + away / near_days), 0.0).astype(np.float32)


def dated(snap) -> np.ndarray:
    """Per row, whether the photo has a date taken."""
    return (snap.day >= -(10**6)) & (snap.taken != NO_DATE)


def _when_taken(key: str, snap) -> Callable[[int], list[dict]]:
    """The `why` of a date-like atom: when the photo was taken."""
    return lambda row: [{"atom": key, "taken_at": taken_at(snap, row)}]


def resolve_date(atom: dict, ctx: ExecContext) -> AtomResult:
    lo, hi = day_range(atom)
    snap = ctx.snapshot
    mask = (snap.day >= lo) & (snap.day <= hi) & dated(snap)

    return AtomResult(atom, ScoredSet.from_mask(mask), _when_taken("date", snap))


#: Days outside a date range at which a photo counts half as near to it (`date_nearness`).
NEAR_DAYS = 30.0


def date_nearness(atom: dict, snap) -> np.ndarray:
    """Per row, how near its date is to the atom's range (1 inside, 1 / (1 + days away / NEAR_DAYS)
    outside): what orders the closest matches of "yesterday" when no photo was taken then."""
    return days_nearness(snap.day, dated(snap), *day_range(atom), NEAR_DAYS)


def months_taken(snap) -> np.ndarray:
    """Per snapshot row, the month of the year it was taken (1-12; 0: undated); once per snapshot."""
    got = snap.cache.get("month_taken")
    if got is None:
        got = snap.cache["month_taken"] = np.where(snap.month >= 0, snap.month % 12 + 1, 0).astype(np.int32)
    return got


def resolve_month(atom: dict, ctx: ExecContext) -> AtomResult:
    """Taken in one of the listed months of any year (photos without a date never match)."""
    months = np.asarray(sorted(set(int(m) for m in atom["month"])), np.int32)
    snap = ctx.snapshot
    result = ScoredSet.from_mask(np.isin(months_taken(snap), months))
    return AtomResult(atom, result, _when_taken("month", snap))


def hours_taken(snap) -> np.ndarray:
    """Per snapshot row, the hour of the day it was taken (0-23; -1: no date, or a date without a
    time, which sources write as exactly midnight); once per snapshot."""
    got = snap.cache.get("hour_taken")
    if got is None:
        seconds = np.where(snap.taken != NO_DATE, snap.taken % 86400, -1)
        got = np.where(seconds > 0, seconds // 3600, -1).astype(np.int32)
        snap.cache["hour_taken"] = got
    return got


#: Hours outside a time of day at which a photo counts half as near to it (`hour_nearness`).
NEAR_HOURS = 2.0


def _away_around(taken: np.ndarray, wanted: list[int], period: int) -> np.ndarray:
    """Per row, the fewest steps around a cycle of `period` (the clock's 24 hours, the week's 7 days,
    the year's 12 months) from `taken` to one of the `wanted` values."""
    away = np.full(taken.shape, period, np.int32)
    for v in sorted(set(int(v) for v in wanted)):
        d = np.abs(taken - v)
        away = np.minimum(away, np.minimum(d, period - d))
    return away


def month_nearness(atom: dict, snap) -> np.ndarray:
    """Per row, how near the month it was taken is to the atom's months, around the year (1 in one
    of them, 1 / (1 + months away) else; 0 undated): "dogs in autumn" with no dog photo from then
    lists the dogs of August and December first."""
    taken = months_taken(snap)
    near = 1.0 / (1.0 + _away_around(taken, atom["month"], 12).astype(np.float32))
    return np.where(taken > 0, near, 0.0).astype(np.float32)


def hour_nearness(atom: dict, snap) -> np.ndarray:
    """Per row, how near the hour it was taken is to the atom's hours, around the clock (1 at one of
    them, 1 / (1 + hours away / NEAR_HOURS) else; 0 without a time)."""
    taken = hours_taken(snap)
    near = 1.0 / (1.0 + _away_around(taken, atom["hour"], 24).astype(np.float32) / NEAR_HOURS)
    return np.where(taken >= 0, near, 0.0).astype(np.float32)


def resolve_hour(atom: dict, ctx: ExecContext) -> AtomResult:
    """Taken at one of the listed hours of the day (photos without a time never match)."""
    hours = np.asarray(sorted(set(int(h) for h in atom["hour"])), np.int32)
    snap = ctx.snapshot
    taken = hours_taken(snap)
    result = ScoredSet.from_mask((taken >= 0) & np.isin(taken, hours))
    return AtomResult(atom, result, _when_taken("hour", snap))


def weekdays_taken(snap) -> np.ndarray:
    """Per snapshot row, the day of the week it was taken (1 = Monday ... 7 = Sunday; 0: undated).
    Day 0 of the snapshot's days, 1970-01-01, was a Thursday (4)."""
    got = snap.cache.get("weekday_taken")
    if got is None:
        weekday = ((snap.day.astype(np.int64) + 3) % 7 + 1).astype(np.int32)
        got = snap.cache["weekday_taken"] = np.where(dated(snap), weekday, 0).astype(np.int32)
    return got


def resolve_weekday(atom: dict, ctx: ExecContext) -> AtomResult:
    """Taken on one of the listed days of the week (undated photos never match)."""
    days = np.asarray(sorted(set(int(d) for d in atom["weekday"])), np.int32)
    snap = ctx.snapshot
    result = ScoredSet.from_mask(np.isin(weekdays_taken(snap), days))
    return AtomResult(atom, result, _when_taken("weekday", snap))


def weekday_nearness(atom: dict, snap) -> np.ndarray:
    """Per row, how near the day of the week it was taken is to the atom's days, around the week (1
    on one of them, 1 / (1 + days away) else; 0 undated): "on Tuesdays" with none lists Mondays and
    Wednesdays first."""
    taken = weekdays_taken(snap)
    near = 1.0 / (1.0 + _away_around(taken, atom["weekday"], 7).astype(np.float32))
    return np.where(taken > 0, near, 0.0).astype(np.float32)


def month_days(snap) -> np.ndarray:
    """Per snapshot row, the day of the year taken as month * 100 + day (-1 unknown); once per snapshot."""
    got = snap.cache.get("month_day")
    if got is None:
        known = snap.month >= 0
        days = np.datetime64("1970-01-01", "D") + np.where(known, snap.day, 0).astype("timedelta64[D]")
        day_of_month = (days - days.astype("datetime64[M]")).astype(np.int32) + 1
        got = snap.cache["month_day"] = np.where(known, (snap.month % 12 + 1) * 100 + day_of_month, -1)
    return got


def resolve_yearly(atom: dict, ctx: ExecContext) -> AtomResult:
    """Taken between two days of any year, inclusive ("to" before "from" wraps over New Year);
    photos without a date never match."""
    lo, hi = (int(atom["yearly"][k].replace("-", "")) for k in ("from", "to"))
    snap = ctx.snapshot
    md = month_days(snap)
    inside = (md >= lo) & (md <= hi) if lo <= hi else (md >= lo) | ((md >= 0) & (md <= hi))
    result = ScoredSet.from_mask(inside & (md >= 0))
    return AtomResult(atom, result, _when_taken("yearly", snap))


def _contains_codes(values: list[str], needle: str) -> np.ndarray:
    """Codes of the unique values that contain the needle (all its words, in any order)."""
    words = tokens(needle)
    folded = fold(needle)
    hits = []
    for code, v in enumerate(values):
        if folded and folded in v:
            hits.append(code)
            continue
        vt = set(tokens(v))
        if words and all(w in vt or any(t.startswith(w) for t in vt) for w in words):
            hits.append(code)
    return np.array(hits, dtype=np.int32)


def resolve_camera(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos taken with a camera whose make and model hold the value, or of a kind ("phone": any
    phone's, "drone", "action camera", "dedicated camera": `plan.CAMERA_KINDS`)."""
    value = str(atom["camera"])
    snap = ctx.snapshot
    kind = fold(value)
    if kind in CAMERA_KINDS:
        codes = np.array([c for c, cam in enumerate(snap.cameras) if camera_kind(cam) == kind], np.int32)
    else:
        codes = _contains_codes(snap.cameras, value)
    mask = np.isin(snap.camera_code, codes)
    return AtomResult(
        atom,
        ScoredSet.from_mask(mask),
        lambda row: [{"atom": "camera", "camera": snap.cameras[snap.camera_code[row]].strip()}],
    )


#: A kind of lens, and the words its makers write for it ("Micro-NIKKOR", "EF100mm f/2.8L Macro").
LENS_KIND_WORDS = {"macro": ("macro", "micro"), "fisheye": ("fisheye", "fish-eye")}


def resolve_lens(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos whose lens EXIF holds the value: a maker ("Sigma"), a model ("24-70"), or a kind of lens
    in its makers' words ("macro": Canon's "Macro", Nikon's "Micro")."""
    value = str(atom["lens"])
    snap = ctx.snapshot
    if "lenses" not in snap.cache:
        snap.cache["lenses"] = [fold(lens) for lens in snap.lenses]
    words = LENS_KIND_WORDS.get(fold(value), (value,))
    codes = np.unique(np.concatenate([_contains_codes(snap.cache["lenses"], w) for w in words]))
    mask = np.isin(snap.lens_code, codes)
    return _named_by_code(atom, mask, snap.lenses, snap.lens_code, "taken with the lens")


def resolve_folder(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos in a folder whose name holds the value, or under a path typed out ("~/Pictures")."""
    value = fold(os.path.expanduser(str(atom["folder"]))).replace("\\", "/").strip("/")
    snap = ctx.snapshot
    codes = []
    for code, folder in enumerate(snap.folders):
        parts = [p for p in folder.replace("\\", "/").split("/") if p]
        if value and (any(value in p for p in parts) or ("/" in value and value in folder)):
            codes.append(code)
    mask = np.isin(snap.folder_code, np.array(codes, dtype=np.int32))
    return _named_by_code(atom, mask, snap.folders, snap.folder_code, "in the folder")


def _named_by_code(
    atom: dict, mask: np.ndarray, names: list[str], codes: np.ndarray, said: str
) -> AtomResult:
    """The photos of a mask, each explained by its name in the snapshot's list ("in the folder …")."""
    key = next(iter(atom))
    return AtomResult(
        atom,
        ScoredSet.from_mask(mask),
        lambda row: [{"atom": key, key: names[codes[row]], "text": f"{said} {names[codes[row]]}"}],
    )


def resolve_file(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos whose file name (not its folders) holds the value, in any case and accents; `*` and
    `?` match like a shell's ("IMG_20*.jpg"); `ANY_RAW`: a camera RAW file of any format."""
    value = fold(str(atom["file"])).strip()
    snap = ctx.snapshot
    names = file_names(snap)
    if value == ANY_RAW:
        hits = [i for i, name in enumerate(names) if is_raw_name(name)]
    elif any(c in value for c in "*?"):
        pattern = re.compile(fnmatch.translate(value))
        hits = [i for i, name in enumerate(names) if pattern.match(name)]
    else:
        hits = [i for i, name in enumerate(names) if value and value in name]
    mask = np.zeros(snap.n, bool)
    mask[hits] = True
    return AtomResult(
        atom,
        ScoredSet.from_mask(mask),
        lambda row: [{"atom": "file", "file": os.path.basename(snap.paths[row])}],
    )


def person_boxes(ctx: ExecContext) -> np.ndarray:
    """Per snapshot row: how many persons the object detector boxed."""
    return boxes_of(ctx, ["person"])


def person_box_scores(ctx: ExecContext) -> np.ndarray:
    """Per snapshot row: the detector's best person box score (0: it boxed no person), read from the
    snapshot in memory (`person_boxes` counts the boxes, from the catalog)."""
    best = np.zeros(ctx.snapshot.n, np.float32)
    group = ctx.snapshot.group("object", "person")
    if group is not None:
        best[group.rows] = group.scores
    return best


def people_words(count: int, faces: int) -> str:
    """A people count in words: "2 people", "2 people, 1 face seen" (the rest seen as figures)."""
    said = "1 person" if count == 1 else f"{count} people"
    if faces == count:
        return said
    return f"{said}, {'no' if faces == 0 else faces} face{'' if faces == 1 else 's'} seen"


#: A people count one person off scores this as a closest match.
COUNT_OFF_BY_ONE = 0.5


def resolve_faces(atom: dict, ctx: ExecContext) -> AtomResult:
    """People in the photo: the faces found and the detector's person boxes, whichever sees more (a
    masked or turned-away person has a box and no face; a close-up a face and no box). The count is
    soft: photos one person off are closest matches. Where the request names people ("only Anna and
    Tom") the count is about them and exact: faces only, no closest counts."""
    spec = atom["faces"] or {}
    lo = int(spec.get("min") or 0)
    hi = spec.get("max")
    faces = ctx.snapshot.face_count
    boxes = np.zeros_like(faces) if ctx.names_people else person_boxes(ctx)
    counts = np.maximum(faces, boxes)
    mask = counts >= lo
    if hi is not None:
        mask &= counts <= int(hi)
    near = None
    if not ctx.names_people:
        off = (counts == lo - 1) if lo > 0 else np.zeros_like(mask)
        if hi is not None:
            off |= counts == int(hi) + 1
        near = ScoredSet(
            np.flatnonzero(off).astype(np.int32), np.full(int(off.sum()), COUNT_OFF_BY_ONE, np.float32)
        )

    def explain(row: int) -> list[dict]:
        why = {"atom": "faces", "count": int(counts[row]), "faces": int(faces[row])}
        why |= {"person_boxes": int(boxes[row])} if boxes[row] else {}
        return [why | {"text": people_words(int(counts[row]), int(faces[row]))}]

    score = _people_certainty(ctx, faces >= lo) if lo >= 1 else np.ones(ctx.snapshot.n, np.float32)
    return AtomResult(atom, ScoredSet.from_dense(score, mask), explain, near=near)


def _people_certainty(ctx: ExecContext, by_faces: np.ndarray) -> np.ndarray:
    """Per row, how sure it is that the people counted are there: sure where faces make the count and
    the detector boxed a person too, a little less where only faces were found (a car's front or a
    pattern in a tennis racket's strings read as a face), else as sure as the detector's best person
    box (a box of 0.5 on a bus window ranks after a face), from `BOX_ONLY` up."""
    best_box = person_box_scores(ctx)
    faces = np.where(best_box > 0, 1.0, FACES_ONLY)
    return np.where(by_faces, faces, BOX_ONLY + (1.0 - BOX_ONLY) * best_box).astype(np.float32)


#: What people counted from person boxes alone score at the least (the box's score lifts it to 1).
BOX_ONLY = 0.5
#: What people counted from faces no person box agrees with score: after faces with a person box,
#: before all but the surest boxes alone.
FACES_ONLY = 0.95


def _label_atom(
    atom: dict, ctx: ExecContext, key: str, kind: str | tuple[str, ...], labels: list[str]
) -> AtomResult:
    kinds = (kind,) if isinstance(kind, str) else kind
    found = [g for k in kinds for lab in labels if (g := ctx.snapshot.group(k, lab)) is not None]
    res = _groups_rows(found)
    res = ScoredSet(res.rows, np.ones(res.rows.size, np.float32))
    return AtomResult(atom, res, _group_explainer(found, key, str(atom[key])))


def resolve_kind(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos of a kind (photo, screenshot, document). A document is a page of words: where OCR read
    the photo and found no line, the page-like look alone (a drawing on white) is a closest match."""
    found = _label_atom(atom, ctx, "kind", "kind", [str(atom["kind"])])
    if str(atom["kind"]) != "document":
        return found
    snap = ctx.snapshot
    wordless = np.zeros(snap.n, bool)
    ran = snap.group("ocr_gate", "ran")
    if ran is not None:
        wordless[ran.rows] = True
    wordless &= ~rows_with(snap, ("text",))
    rows = found.set.rows
    keep = ~wordless[rows]
    found.set = ScoredSet(rows[keep], found.set.scores[keep])
    found.near = ScoredSet(rows[~keep], np.full(int((~keep).sum()), WORDLESS_PAGE, np.float32))
    return found


#: A page-like photo in which OCR read nothing scores this as a closest document.
WORDLESS_PAGE = 0.5


#: A colour counts for a photo from this share of its frame; a monochrome photo has at most this share
#: of coloured pixels among its measured colours.
COLOR_MIN_SHARE = 0.1
MONOCHROME_MAX_COLOUR = 0.05
ACHROMATIC = ("black", "white", "gray")


def _colour_table(ctx: ExecContext) -> tuple[np.ndarray, dict[str, np.ndarray], dict[str, np.ndarray]]:
    """(rows with colour facts, colour name -> dense (n,) share of the frame, and of the subject:
    the detector's main object, else the salient centre), once per snapshot; vectorised (a catalog
    holds ~8 colour facts a photo)."""
    snap = ctx.snapshot
    key = ("colours",)
    if key not in snap.cache:
        from sqlalchemy import text

        with ctx.store.engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            region = "json_extract(data, '$.region'), json_extract(data, '$.of')" if sqlite else "data, NULL"
            found = conn.execute(
                text(f"SELECT photo_id, label, score, {region} FROM facts WHERE kind = 'color'")
            ).all()
        frame: dict[str, np.ndarray] = {}
        subject: dict[str, np.ndarray] = {}
        measured = np.zeros(snap.n, bool)
        if found:
            pids, labels, scores, regions, ofs = zip(*found, strict=True)
            rows, ok = snap.locate(np.array(pids, np.int64))
            shares = np.nan_to_num(np.array(scores, dtype=np.float32))
            where = [_region(r, o, sqlite) for r, o in zip(regions, ofs, strict=True)]
            in_subject = np.array([r == "subject" for r, _of in where], bool)
            # the detector's main object stands for the subject where there is one (else the centre)
            of_object = np.array([of is not None for _r, of in where], bool)
            boxed = np.zeros(snap.n, bool)
            boxed[rows[ok & in_subject & of_object]] = True
            in_subject &= of_object | ~boxed[rows]
            ok &= in_subject | np.array([r != "subject" for r, _of in where], bool)
            names, codes = np.unique(np.array([str(lb).lower() for lb in labels]), return_inverse=True)
            measured[rows[ok]] = True
            for table, part in ((frame, ok & ~in_subject), (subject, ok & in_subject)):
                for code, name in enumerate(names.tolist()):
                    sel = part & (codes == code)
                    if sel.any():
                        share = table[name] = np.zeros(snap.n, np.float32)
                        np.maximum.at(share, rows[sel], shares[sel])
        snap.cache[key] = (measured, frame, subject)
    return snap.cache[key]


def _region(value, of, sqlite: bool) -> tuple[str | None, str | None]:
    """A colour fact's region and the object it was measured on (the detector's main object; None:
    the salient centre or the frame): SQLite hands `$.region` and `$.of` over; other databases the
    whole data."""
    if sqlite or value is None:
        return value, of
    import json

    data = json.loads(value) if isinstance(value, str) else value
    return (data.get("region"), data.get("of")) if isinstance(data, dict) else (None, None)


def resolve_color(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos whose measured colours hold the colour, in the frame or in the subject (the salient
    centre: "red car", "flowers that are not purple"), graded by the larger share; for
    `monochrome`, photos whose frame colours are black, white and grey only."""
    name = str(atom["color"])
    measured, frame, subject = _colour_table(ctx)
    zero = np.zeros(ctx.snapshot.n, np.float32)
    in_subject = zero
    if name == "monochrome":
        # the pixels' own measure (quality v3's `monochrome` attribute); photos analysed before it
        # have no subject colours and are read from their frame colours (a colour under a tenth
        # of the frame is not among them)
        grey = sum((frame.get(c, zero) for c in ACHROMATIC), zero)
        total = sum(frame.values(), zero)
        share = np.where(measured, grey / np.maximum(total, 1e-6), 0.0).astype(np.float32)
        older = measured & ~np.any(np.stack([zero, *subject.values()]) > 0, axis=0)
        keep = older & (total - grey <= MONOCHROME_MAX_COLOUR)
        attr = ctx.snapshot.group("attribute", "monochrome")
        if attr is not None:
            keep[attr.rows] = True
            share[attr.rows] = np.maximum(share[attr.rows], attr.scores)
    else:
        in_frame, in_subject = frame.get(name, zero), subject.get(name, zero)
        share = np.maximum(in_frame, in_subject)
        keep = share >= COLOR_MIN_SHARE
    scores = np.clip(0.5 + share, 0.0, 1.0).astype(np.float32)
    rows = np.flatnonzero(keep).astype(np.int32)
    info = {"measured": int(measured.sum())}

    def explain(row: int) -> list[dict]:
        where = "subject" if in_subject[row] > 0 and in_subject[row] >= share[row] else "frame"
        why = {"atom": "color", "color": name, "share": round(float(share[row]), 3), "of": where}
        return [why | {"text": f"{name}: {share[row]:.0%} of the {where}"}]

    return AtomResult(atom, ScoredSet(rows, scores[rows]), explain, info)


#: Long side / short side from which a photo is a panorama; within this of 1 it is square.
PANORAMA_ASPECT = 2.0
SQUARE_TOLERANCE = 0.05


def resolve_orientation(atom: dict, ctx: ExecContext) -> AtomResult:
    """The photo's shape from its size (EXIF orientation applied at indexing)."""
    name = str(atom["orientation"])
    sizes = photo_sizes(ctx.snapshot)
    width, height = sizes["width"], sizes["height"]
    known = (width > 0) & (height > 0)
    ratio = np.where(known, width / np.maximum(height, 1), 1.0)
    masks = {
        "portrait": known & (ratio < 1 - SQUARE_TOLERANCE),
        "landscape": known & (ratio > 1 + SQUARE_TOLERANCE),
        "panorama": known & ((ratio >= PANORAMA_ASPECT) | (ratio <= 1 / PANORAMA_ASPECT)),
        "square": known & (np.abs(ratio - 1) <= SQUARE_TOLERANCE),
    }
    return AtomResult(
        atom,
        ScoredSet.from_mask(masks[name]),
        lambda row: [
            {
                "atom": "orientation",
                "orientation": name,
                "size": f"{int(width[row])}×{int(height[row])}",
                "text": f"{name}, {int(width[row])} × {int(height[row])} pixels",
            }
        ],
    )


def resolve_quality(atom: dict, ctx: ExecContext) -> AtomResult:
    return _label_atom(atom, ctx, "quality", "quality", [str(atom["quality"])])


def resolve_tag(atom: dict, ctx: ExecContext) -> AtomResult:
    value = fold(str(atom["tag"]))
    if value == ANY_TAG:  # any tag of the user's or keyword of the file; the heart is no tag here
        snap = ctx.snapshot
        found = [
            g
            for k in ("user_tag", "keyword")
            for label, g in snap.groups.get(k, {}).items()
            if label != "favourite"
        ]
        res = _groups_rows(found)
        return AtomResult(
            atom,
            ScoredSet(res.rows, np.ones(res.rows.size, np.float32)),
            _group_explainer(found, "tag", "any tag"),
        )
    canon = TAG_ALIASES.get(value, value)
    labels = {value, canon} | {k for k, v in TAG_ALIASES.items() if v == canon}
    labels |= {lab + "s" for lab in list(labels)} | {lab[:-1] for lab in list(labels) if lab.endswith("s")}
    # a keyword written in the file (Lightroom, digiKam, ...) is a tag too
    return _label_atom(atom, ctx, "tag", ("user_tag", "keyword"), sorted(labels))


def resolve_editor(atom: dict, ctx: ExecContext) -> AtomResult:
    """Photos a photo editor worked on, as the file or its sidecar says ("photoshop" finds
    Photoshop; `ANY_EDITOR`: any editor, or a copy named as edited)."""
    value = fold(str(atom["editor"]))
    found = [
        g
        for label, g in ctx.snapshot.groups.get("editor", {}).items()
        if value == ANY_EDITOR or value in label
    ]
    res = _groups_rows(found)

    def explain(row: int) -> list[dict]:  # "edited in Lightroom", "an edited copy, by its file name"
        return [
            {"atom": "editor", "query": value, "editor": g.label, "text": _edited_words(g.label)}
            for g in found
            if contains(g.rows, row)
        ]

    return AtomResult(atom, ScoredSet(res.rows, np.ones(res.rows.size, np.float32)), explain)


def _edited_words(editor: str) -> str:
    return "an edited copy, by its file name" if editor == EDITED_COPY else f"edited in {editor}"


def resolve_label(atom: dict, ctx: ExecContext) -> AtomResult:
    """The colour label written in the file or its sidecar (xmp:Label), any case."""
    return _label_atom(atom, ctx, "label", "color_label", [str(atom["label"])])


def resolve_rating(atom: dict, ctx: ExecContext) -> AtomResult:
    """Star ratings within [min, max] (max null: no upper bound); a photo with none never matches."""
    spec = atom["rating"] or {}
    lo, hi = int(spec.get("min", 1)), spec.get("max")
    found = []
    for g in ctx.snapshot.groups.get("rating", {}).values():
        try:
            stars = int(g.label)
        except ValueError:
            continue
        if stars >= lo and (hi is None or stars <= int(hi)):
            found.append(g)
    res = _groups_rows(found)
    res = ScoredSet(res.rows, np.ones(res.rows.size, np.float32))
    return AtomResult(atom, res, _group_explainer(found, "rating", _atom_rating_text(lo, hi)))


def _atom_rating_text(lo: int, hi) -> str:
    return f"{lo} or more" if hi is None else (f"{lo}" if lo == hi else f"{lo} to {hi}")


def resolve_knowledge(atom: dict, ctx: ExecContext) -> AtomResult:
    value = str(atom["knowledge"])
    words = content_tokens(value)
    groups = []
    for g in ctx.snapshot.groups.get("knowledge", {}).values():
        have = set(tokens(g.label)) | set(tokens(g.extra))
        if words and all(w in have for w in words):
            groups.append(g)
    res = _groups_rows(groups)
    res.graded = True
    return AtomResult(atom, res, _group_explainer(groups, "knowledge", value))


# Distinct words of a text atom that are matched (a pasted paragraph costs no more than this).
MAX_TEXT_WORDS = 32


#: At most this many of a photo's lines explain an any-words match.
ANY_TEXT_WHY = 3


def _any_text(atom: dict, ocr: dict[str, Group], n: int) -> AtomResult:
    """Every photo with a line read in it; score = its most certain line."""
    score = np.zeros(n, np.float32)
    for g in ocr.values():
        rows = g.rows.astype(np.intp)
        score[rows] = np.maximum(score[rows], g.scores)
    groups = list(ocr.values())
    lines = _group_explainer(groups, "text", ANY_TEXT)
    return AtomResult(
        atom,
        ScoredSet.from_dense(score, score > 0),
        lambda row: sorted(lines(row), key=lambda w: -w["score"])[:ANY_TEXT_WHY],
        {"lines": len(groups)},
    )


def resolve_text(atom: dict, ctx: ExecContext) -> AtomResult:
    """Words read in the photo (OCR facts): case-insensitive word/substring match, fuzzy for OCR errors.

        Each query word is matched against the OCR vocabulary: exact word or substring (score 1), else
        within 1-2 edits (score 0.8 per edit away). A photo must match every word; its score is the
        mean of the per-word best scores. A whole-phrase match in one OCR line scores 1 (spaces ignored:
    OCR drops them in tightly set type).
    """
    value = str(atom["text"])
    snap = ctx.snapshot
    ocr = snap.groups.get("text", {})
    if value.strip() == ANY_TEXT:
        return _any_text(atom, ocr, snap.n)
    all_words = list(dict.fromkeys(tokens(value)))  # each distinct word once
    words = all_words[:MAX_TEXT_WORDS]
    phrase = fold(value)
    info: dict = {"fuzzy": []}
    if len(all_words) > len(words):
        info["words_ignored"] = len(all_words) - len(words)
    if not words or not ocr:
        return AtomResult(atom, ScoredSet.empty(), info=info)
    # Running sum and minimum over words: memory is O(photos), not O(words x photos).
    total = np.zeros(snap.n, np.float32)
    lowest = np.full(snap.n, np.inf, np.float32)
    evidence: list[tuple[Group, float]] = []
    vocab = snap.cache.get("ocr_vocab")
    if vocab is None:
        vocab = {}
        for g in ocr.values():
            for t in set(tokens(g.label)):
                vocab.setdefault(t, []).append(g)
        snap.cache["ocr_vocab"] = vocab
    phrase_rows = np.zeros(snap.n, bool)
    if len(words) > 1:
        squeezed = "".join(phrase.split())  # OCR often drops the space: "GM 125" read as "GM125"
        for g in ocr.values():
            label = fold(g.label)
            if phrase in label or squeezed in "".join(label.split()):
                phrase_rows[g.rows] = True
                evidence.append((g, 1.0))
    for w in words:
        best = np.zeros(snap.n, np.float32)
        budget = fuzzy_budget(w)
        for tok, groups in vocab.items():
            if tok == w or (len(w) >= 3 and w in tok):
                s = 1.0
            elif budget and abs(len(tok) - len(w)) <= budget and within_edits(tok, w, budget):
                s = 0.8 if within_edits(tok, w, 1) else 0.6
                info["fuzzy"].append(tok)
            else:
                continue
            for g in groups:
                best[g.rows] = np.maximum(best[g.rows], s)
                evidence.append((g, s))
        best[phrase_rows] = 1.0
        total += best
        np.minimum(lowest, best, out=lowest)
    score = total / len(words)
    keep = lowest > 0
    res = ScoredSet.from_dense(score, keep)
    info["fuzzy"] = sorted(set(info["fuzzy"]))[:20]
    groups_only = list({id(g): g for g, _ in evidence}.values())
    return AtomResult(atom, res, _group_explainer(groups_only, "text", value), info)
