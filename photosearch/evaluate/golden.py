"""Golden sets: a gallery and queries with judged relevant photos (see docs/EVALUATION.md).

name: example
gallery: .                  # photo root, relative to this file (or absolute)
k: [1, 3, 5, 10]            # cut-offs for P@k, R@k, nDCG@k (default 1, 3, 5, 10)
queries:
  - id: cat
    request: "cat"          # what the user types (or give `plan:` only, to test the executor)
    relevant:               # a list (grade 1 each) or {path: grade}
      cats/chelsea.jpg: 2
      cats/chelsea_blurry.jpg: 1
    plan: {concept: cat}    # optional expected plan (a `where` node or a whole plan)
    k: [1, 3]               # optional per-query cut-offs
  - id: "absent: zebra"
    request: zebra          # something no photo shows: right when nothing is above the cut-off
    absent: true
people:                     # optional: after indexing, the one face found in each photo is named
  people/grace_hopper.jpg: Grace Hopper
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from photosearch.errors import PhotoSearchError
from photosearch.files import NotARegularFile, read_regular

DEFAULT_K = (1, 3, 5, 10)


class GoldenSetError(PhotoSearchError):
    """A golden set file is missing, unreadable or does not follow the format."""


@dataclass
class GoldenQuery:
    id: str
    request: str | None
    relevant: dict[str, float]
    plan: dict | None = None
    expected_plan: dict | None = None
    k: tuple[int, ...] = DEFAULT_K
    notes: str = ""
    #: A request for something no photo shows: scored only by whether it stayed below the cut-off.
    absent: bool = False

    @property
    def max_k(self) -> int:
        return max(self.k)


@dataclass
class GoldenSet:
    name: str
    path: Path | None
    gallery: Path
    queries: list[GoldenQuery] = field(default_factory=list)
    k: tuple[int, ...] = DEFAULT_K
    people: dict[str, str] = field(default_factory=dict)  # photo path -> the name of its one face

    def all_relevant(self) -> set[str]:
        return {p for q in self.queries for p in q.relevant}

    def all_photos(self) -> set[str]:
        """Every photo the set names: judged ones and those whose face it names."""
        return self.all_relevant() | set(self.people)


def _norm_rel(path: str) -> str:
    p = str(path).replace("\\", "/").strip()
    while p.startswith("./"):
        p = p[2:]
    return p


def _ks(value, where: str, default: tuple[int, ...]) -> tuple[int, ...]:
    if value is None:
        return default
    if isinstance(value, int):
        value = [value]
    if not isinstance(value, list) or not value or not all(isinstance(k, int) and k > 0 for k in value):
        raise GoldenSetError(f"{where}: k must be a positive integer or a list of them, got {value!r}")
    return tuple(sorted(set(value)))


def _relevant(value, where: str) -> dict[str, float]:
    if isinstance(value, list):
        out = {}
        for item in value:
            if isinstance(item, dict):  # [{path: grade}, ...]
                out.update(_relevant(item, where))
            else:
                out[_norm_rel(item)] = 1.0
        return out
    if isinstance(value, dict):
        out = {}
        for path, grade in value.items():
            if isinstance(grade, bool) or not isinstance(grade, (int, float)) or grade < 0:
                raise GoldenSetError(f"{where}: grade of {path!r} must be a number >= 0, got {grade!r}")
            out[_norm_rel(path)] = float(grade)
        return out
    if value is None:
        return {}
    raise GoldenSetError(f"{where}: relevant must be a list of paths or a mapping path -> grade")


def _people(value, where: str) -> dict[str, str]:
    """`people:` maps a photo path to the name its single face gets."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(n, str) and n.strip() for n in value.values()):
        raise GoldenSetError(f"{where}: people must map a photo path to a name, e.g. 'people/ada.jpg: Ada'")
    return {_norm_rel(path): name.strip() for path, name in value.items()}


def _plan_parts(value, where: str) -> dict | None:
    """Accept a whole plan or a bare `where` node; return {"where":..., ["compose":...]}."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise GoldenSetError(f"{where}: a plan is a mapping, got {type(value).__name__}")
    out = {"where": value["where"]} if "where" in value else {"where": value}
    if "compose" in value:
        out["compose"] = value["compose"]
    from photosearch.query.plan import PlanError, validate_plan

    try:
        validate_plan({"version": 1, **out})
    except PlanError as exc:
        raise GoldenSetError(f"{where}: {exc}") from None
    return out


def parse_golden(
    data: dict, base_dir: Path, path: Path | None = None, gallery: Path | None = None
) -> GoldenSet:
    if not isinstance(data, dict):
        raise GoldenSetError(f"{path or 'golden set'}: expected a mapping at the top level")
    where = str(path or "golden set")
    root = gallery or data.get("gallery")
    if root is None:
        raise GoldenSetError(f"{where}: missing 'gallery' (the photo root, relative to the file)")
    root = Path(root).expanduser()
    if not root.is_absolute():
        root = (base_dir / root).resolve()
    k = _ks(data.get("k"), where, DEFAULT_K)
    raw = data.get("queries")
    if not isinstance(raw, list) or not raw:
        raise GoldenSetError(f"{where}: 'queries' must be a non-empty list")
    queries, seen = [], set()
    for i, q in enumerate(raw):
        qwhere = f"{where}: queries[{i}]"
        if not isinstance(q, dict):
            raise GoldenSetError(f"{qwhere}: expected a mapping")
        qid = str(q.get("id") or q.get("request") or f"q{i + 1}")
        if qid in seen:
            raise GoldenSetError(f"{qwhere}: duplicate id {qid!r}")
        seen.add(qid)
        request = q.get("request")
        run_plan = _plan_parts(q.get("run_plan"), qwhere + ".run_plan")
        expected = _plan_parts(q.get("plan"), qwhere + ".plan")
        if not request and not run_plan and not expected:
            raise GoldenSetError(f"{qwhere}: give a 'request' (text) or a 'plan'")
        if not request:  # plan-only query: run the plan itself
            run_plan, expected = run_plan or expected, None
        relevant = _relevant(q.get("relevant"), qwhere + ".relevant")
        absent = q.get("absent", False)
        if not isinstance(absent, bool):
            raise GoldenSetError(f"{qwhere}: absent must be true or false, got {absent!r}")
        if absent and any(g > 0 for g in relevant.values()):
            raise GoldenSetError(f"{qwhere}: an absent-concept request (absent: true) has no relevant photos")
        queries.append(
            GoldenQuery(
                id=qid,
                request=str(request) if request else None,
                relevant=relevant,
                plan=run_plan,
                expected_plan=expected,
                k=_ks(q.get("k"), qwhere, k),
                notes=str(q.get("notes", "")),
                absent=absent,
            )
        )
    return GoldenSet(
        name=str(data.get("name") or (path.stem if path else "golden")),
        path=path,
        gallery=root,
        queries=queries,
        k=k,
        people=_people(data.get("people"), where + ": people"),
    )


def load_golden(path: Path | str, gallery: Path | str | None = None) -> GoldenSet:
    """Read a golden set (YAML or JSON) whose judged photos are in its gallery; `gallery` overrides
    the file's photo root."""
    gs = read_golden(path, gallery)
    if not gs.gallery.is_dir():
        raise GoldenSetError(
            f"gallery {gs.gallery} of {gs.path} is not a folder (for the shipped example run "
            "`photosearch example-gallery DIR` first)"
        )
    missing = sorted(p for p in gs.all_photos() if not (gs.gallery / p).is_file())
    if missing:
        shown = ", ".join(missing[:5]) + (" …" if len(missing) > 5 else "")
        raise GoldenSetError(f"{len(missing)} photo(s) named in {gs.path} are not in {gs.gallery}: {shown}")
    return gs


def read_golden(path: Path | str, gallery: Path | str | None = None) -> GoldenSet:
    """Read and check a golden set file without looking at its photos (judgements only, e.g. the
    committed `resources/eval/real.yaml` to re-score a saved run)."""
    path = Path(path).expanduser()
    try:
        text = read_regular(path).decode("utf-8")
    except OSError as exc:
        raise GoldenSetError(f"cannot read golden set {path}: {exc.strerror or exc}") from None
    except (NotARegularFile, UnicodeDecodeError) as exc:
        raise GoldenSetError(f"cannot read golden set {path}: {exc}") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else yaml.safe_load(text)
    except (ValueError, yaml.YAMLError) as exc:
        raise GoldenSetError(
            f"{path} is not valid {'JSON' if path.suffix == '.json' else 'YAML'}: {exc}"
        ) from None
    return parse_golden(
        data, path.resolve().parent, path, Path(gallery).expanduser().resolve() if gallery else None
    )
