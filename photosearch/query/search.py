"""The search API the CLI and GUI share: `search`, `similar`, `duplicates`.

`search(store, settings, request=..., plan=...)` plans the request (query.planner: golden
library, parser, optional LLM), executes the plan's `where` tree over an
in-memory snapshot of the catalog and the vector indexes, composes the result (HiGHS) and
returns `{"plan", "results": [{"id","path","score","why","partial","below_cutoff"}], "timing_ms",
"composer", "explain"}`.

When fewer photos than asked (the plan's limit, else `PAGE`) satisfy the whole request, the page is
filled: first with *partial* matches (some soft concepts of the request missing, named in
`missing`), then with the *closest* matches below the calibrated cut-offs and people counts one
person off (`below_cutoff: true`, at most `CLOSEST_MAX`). When nothing meets the request, the
parts no photo meets are left out for the closest matches: a library with photos never answers
with an empty page; where nothing of it is met anywhere ("money" in a library without any), the
newest photos fill the page, scored near nothing (`NOTHING_MET`). `explain.unmet` says, in the
user's words, what could not be met ("no photo with exactly two people"); other filters stay hard.

A camera RAW and its developed twin (same folder and name) are one photo: the RAW leaves the
matches before the page is composed (no slot used twice, `matched` counts shots) and the shown
twin links it as `raw`.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import numpy as np

from photosearch.cache_problems import cache_problems
from photosearch.errors import PhotoSearchError
from photosearch.ingest.decode import RAW_EXTENSIONS, is_raw_name
from photosearch.query.calibration import CalibrationConfig
from photosearch.query.composer import ComposeOptions, compose, hamming
from photosearch.query.executor import SOFT_ATOMS, Execution, Executor, plan_atoms
from photosearch.query.origins import annotate_origins
from photosearch.query.plan import filter_atoms, validate_plan
from photosearch.query.planner import plan_request, planning_context
from photosearch.query.resolvers.added import added_at, added_nearness
from photosearch.query.resolvers.albums import atoms_with_albums
from photosearch.query.resolvers.base import EmbeddingSignal, ExecContext, ScoredSet
from photosearch.query.resolvers.duplicates import duplicate_groups
from photosearch.query.resolvers.filters import (
    date_nearness,
    hour_nearness,
    month_nearness,
    weekday_nearness,
)
from photosearch.query.resolvers.places import ensure_place_facts
from photosearch.query.resolvers.settings import said_setting, setting_nearness
from photosearch.query.resolvers.similar import IMAGE_SPACE, neighbours, query_vector
from photosearch.query.resolvers.sizes import SORTED_BY, said_size, size_nearness
from photosearch.query.resolvers.snapshot import NO_DATE, Snapshot, get_snapshot, taken_at
from photosearch.query.resolvers.snapshot_file import snapshot_dir
from photosearch.query.times_of_day import taken_words
from photosearch.query.unmet import sentences
from photosearch.vectors import VectorIndexes
from photosearch.vision.text_embedder import get_text_embedder

log = logging.getLogger(__name__)

FACTS_SPACE = "facts_text"
#: The page a plan without a limit fills with partial and closest matches.
PAGE = 20
#: How many photos "similar to this one" shows (`photosearch similar`, the app's Find similar).
SIMILAR_LIMIT = 20
#: At most this many closest matches below the cut-off follow the confident ones.
CLOSEST_MAX = 10
#: CLIP's text-image cosines sit lower than MiniLM's text-text ones (a good match is ~0.25-0.35).
CLIP_MIN_SIMILARITY = 0.15
_indexes: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def vector_indexes(store, settings) -> VectorIndexes:
    """The process-wide `VectorIndexes` of a store."""
    idx = _indexes.get(store)
    if idx is None or idx.directory != settings.vectors_dir:
        idx = _indexes[store] = VectorIndexes(store, settings)
    return idx


# ------------------------------------------------------------------------------ encoders


def default_signals(store, settings, text_embedder=None) -> list[EmbeddingSignal]:
    """facts_text via the MiniLM text embedder (injected, or the shared one when installed), and
    clip:* for each pulled CLIP model."""
    emb = text_embedder
    if emb is None:
        try:
            shared = get_text_embedder(settings)
            emb = shared if shared.available() else None
        except Exception as exc:  # noqa: BLE001 - search still works lexically
            log.info("text embedder unavailable: %s", exc)
            emb = None
    signals = clip_signals(settings)
    if emb is None:
        return signals
    fn = emb.embed
    if text_embedder is None:  # the shared model: its vectors are remembered on disk
        from photosearch.query.embedding_cache import cached_text_encoder

        fn = cached_text_encoder(emb, settings)
    return [EmbeddingSignal(FACTS_SPACE, fn), *signals]


def clip_signals(settings) -> list[EmbeddingSignal]:
    """A text→image signal per pulled CLIP model (space `clip:<name>`): a request is also matched
    against what the photos look like. The text tower loads on the first request that needs it."""
    from photosearch.vision.clip import installed_clip_models, load_clip, space_name

    def encoder(name: str) -> Callable[[list[str]], np.ndarray]:
        return lambda texts: load_clip(settings, name).encode_texts(texts)

    return [
        EmbeddingSignal(space_name(name), encoder(name), min_similarity=CLIP_MIN_SIMILARITY)
        for name in installed_clip_models(settings)
    ]


# ------------------------------------------------------------------------------ planning


def plan_for(request: str, store, settings, now: date | None = None) -> tuple[dict, dict]:
    """(plan, planner info): the planner, told what the catalog knows (people, places)."""
    try:
        context = planning_context(store, settings)
    except Exception as exc:  # noqa: BLE001 - plan without catalog knowledge
        log.warning("planning without catalog context: %s", exc)
        context = None
    res = plan_request(request, settings=settings, now=now, context=context)
    return res.plan, {
        "confidence": res.confidence,
        "notes": res.notes,
        "source": res.source,
        "remarks": res.remarks,
    }


# ------------------------------------------------------------------------------ context


def make_context(
    store,
    settings,
    *,
    plan: dict | None = None,
    text_embedder=None,
    signals: list[EmbeddingSignal] | None = None,
    calibration: CalibrationConfig | None = None,
    image_embedder: Callable[[str], np.ndarray] | None = None,
) -> ExecContext:
    where = plan.get("where", {}) if plan is not None else {}
    found = plan_atoms(where)
    if any("album" in a for a in found):  # a smart album's search needs what its atoms need
        found = atoms_with_albums(store, where)
    if plan is not None:
        needs_places = any("place" in a for a in found)
        if needs_places or (plan.get("compose") or {}).get("per") == "place":
            try:
                ensure_place_facts(store)
            except Exception as exc:  # noqa: BLE001 - GPS filtering still works by radius
                log.warning("reverse geocoding failed: %s", exc)
    snap = get_snapshot(store, directory=snapshot_dir(settings))
    if signals is None:
        # a place no photo was taken at looks for what it looks like (`places._looks_like_the_place`)
        needs_concept = plan is None or any("concept" in a or "place" in a for a in found)
        signals = default_signals(store, settings, text_embedder) if needs_concept else []
    return ExecContext(
        snapshot=snap,
        store=store,
        settings=settings,
        indexes=vector_indexes(store, settings),
        signals=signals,
        calibration=calibration or CalibrationConfig(),
        image_embedder=image_embedder,
    )


# ------------------------------------------------------------------------------ API


def _checked_plan(
    store, settings, request: str | None, plan: dict | None, limit: int | None, now: date | None
) -> tuple[dict, dict, int | None]:
    """(validated plan, planner info, page cap): the given plan, or the request's. `limit` is the
    caller's page (the app's 5,000, the CLI's 50 or --limit): it caps the results and never becomes
    the plan's own limit, which "top 2 birds" or "one per day" (as many as there are days) set."""
    planner: dict = {}
    if plan is None:
        if not request or not request.strip():
            raise PhotoSearchError("nothing to search for: give a request or a plan")
        plan, planner = plan_for(request, store, settings, now)
    plan = validate_plan(copy.deepcopy(plan))
    if limit is not None and int(limit) < 1:
        raise PhotoSearchError("--limit must be at least 1")
    return plan, planner, None if limit is None else int(limit)


def _page_size(block: dict, full_matches: int, cap: int | None = None) -> int:
    """How many results the page holds: the plan's limit, a `per` grouping's own size, else the
    caller's page (`cap`), else PAGE; never more than the caller's page."""
    if block.get("limit"):
        size = int(block["limit"])
    elif block.get("per") and full_matches:
        size = full_matches  # "one per day" sets its own size
    else:
        size = cap or max(PAGE, full_matches)
    return min(size, cap) if cap else size


def _result_entries(pages: list, snap: Snapshot) -> list[dict]:
    """One result dict per shown row, in page order (full, partial, closest), with its `why`."""
    results = []
    for p_rows, p_scores, ex, kind in pages:
        for r, sc in zip(p_rows.tolist(), p_scores.tolist(), strict=True):
            entry = {
                "id": int(snap.ids[r]),
                "path": snap.paths[r],
                "score": round(float(sc), 4),
                "taken_at": taken_at(snap, int(r)),
                "why": ex.why(int(r)),
                "partial": kind in ("partial", "closest_partial"),
                "below_cutoff": kind.startswith("closest"),
            }
            if entry["partial"]:
                entry["missing"] = ex.missing(int(r))
            raws = raw_files_of(snap, int(r))
            if raws:
                entry["raw"] = raws
            results.append(entry)
    return results


class _Page:
    """The page of a search, filled in order: the confident results, the partial ones, then the
    closest matches (see the module docstring); a shot shows once."""

    def __init__(self, ctx: ExecContext, block: dict, required: list, cap: int | None, options):
        self.ctx, self.block, self.required, self.cap, self.options = ctx, block, required, cap, options
        self.image_index = ctx.index(IMAGE_SPACE) if block.get("exclude_near_duplicates") else None
        self.partner = raw_twins(ctx.snapshot).partner
        self.shown = np.zeros(0, np.int32)
        self.pages: list[tuple] = []
        self.size = 0

    def pick(self, found: ScoredSet, limit_n: int | None) -> tuple[np.ndarray, np.ndarray, dict]:
        rows_in, scores_in = found.rows, found.scores
        if self.shown.size:  # a shot shows once
            keep = ~np.isin(rows_in, self.shown) & ~np.isin(self.partner[rows_in], self.shown)
            rows_in, scores_in = rows_in[keep], scores_in[keep]
        sub = dict(self.block, limit=limit_n) if limit_n is not None else self.block
        return compose(
            rows_in,
            scores_in,
            sub,
            self.ctx.snapshot,
            image_index=self.image_index,
            options=self.options,
            page_cap=self.cap,
        )

    def _add(self, rows: np.ndarray, scores: np.ndarray, execution: Execution, kind: str) -> None:
        self.pages.append((rows, scores, execution, kind))
        self.shown = np.concatenate([self.shown, rows])

    def fill(self, execution: Execution) -> tuple[np.ndarray, dict]:
        """The confident results, then partial ones while there is room: (confident rows, composer)."""
        rows, scores, composer = self.pick(execution.result, self.block.get("limit"))
        self._add(rows, scores, execution, "full")
        self.size = _page_size(self.block, int(rows.size), self.cap)
        if rows.size < self.size and len(execution.partial):
            p_rows, p_scores, _ = self.pick(execution.partial, self.size - rows.size)
            self._add(p_rows, p_scores, execution, "partial")
        return rows, composer

    def closest(self, where: dict, nearness: np.ndarray | None = None, met_first: bool = False) -> None:
        """Closest matches, whole and partial ranked together: none is sure, so a photo that
        matches one part well (a solar panel, no roof seen) goes before one that matches every
        part faintly. `nearness`: per row, a weight for how near it is to what was dropped;
        `met_first`: the photos that meet `where` come before its closest matches ("dogs from last
        week" with no photo from then: the dogs, nearest in time first, then what looks like one)."""
        ctx, snap = self.ctx, self.ctx.snapshot
        runs = [Executor(ctx, required=self.required)] if met_first else []
        runs.append(Executor(ctx, required=self.required, relaxed=True))
        for executor in runs:
            found_by = one_per_shot(executor.run(where), snap)
            room = min(self.size - self.shown.size, CLOSEST_MAX)
            found = ScoredSet.best_of([found_by.result, found_by.partial], graded=True)
            if nearness is not None and len(found):
                found = ScoredSet(found.rows, found.scores * nearness[found.rows], graded=True)
            if room <= 0 or not len(found):
                continue
            c_rows, c_scores, _ = self.pick(found, room)
            whole = np.isin(c_rows, found_by.result.rows)
            for run in _runs(whole):
                kind = "closest" if whole[run.start] else "closest_partial"
                self._add(c_rows[run], c_scores[run], found_by, kind)

    def fill_closest(self, where: dict, execution: Execution) -> list[dict]:
        """The closest matches after the confident ones; returns the atoms of when a photo was taken
        that were left out for them (the photos nearest to those shown instead)."""
        snap = self.ctx.snapshot
        dropped_times: list[dict] = []
        when = _when_parts(where)
        if not execution.result.rows.size and when:  # "dogs in autumn", none then: the dogs, nearest first
            without = filter_atoms(where, lambda atom: atom not in when)
            self.closest(without, _nearness(when, self.ctx), met_first=True)
            if self.shown.size:
                dropped_times = when
        if self.shown.size < self.size and any(set(a) & set(RELAXABLE) for a in plan_atoms(where)):
            self.closest(where)
        if not self.shown.size and snap.n:  # never a blank page: the closest without the unmet parts
            unmet = _unmet_atoms(execution, snap.n)
            # first without the filters nobody meets only ("trees in 1990": the photos nearest to a
            # tree), then without every part nobody meets
            filters = [a for a in unmet if not set(a) & set(SOFT_ATOMS)]
            attempts = [filters] if 0 < len(filters) < len(unmet) else []
            for dropped in [*attempts, unmet] if unmet else []:
                reduced = filter_atoms(where, lambda atom, d=dropped: atom not in d) or {"and": []}
                nearness = _nearness(dropped, self.ctx)
                if nearness is None and reduced == {"and": []}:  # nothing of it anywhere
                    nearness = _newest(snap)
                self.closest(reduced, nearness, met_first=True)
                if self.shown.size:
                    return [a for a in dropped if set(a) & set(NEAR_IN_TIME)]
        return dropped_times


def search(
    store,
    settings,
    request: str | None = None,
    plan: dict | None = None,
    limit: int | None = None,
    explain: bool = False,
    *,
    now: date | None = None,
    text_embedder=None,
    signals: list[EmbeddingSignal] | None = None,
    calibration: CalibrationConfig | None = None,
    compose_options: ComposeOptions | None = None,
    image_embedder=None,
) -> dict:
    """Run a request or a plan. See the module docstring for the result's shape."""
    t0 = time.perf_counter()
    timing: dict[str, float] = {}
    plan, planner, cap = _checked_plan(store, settings, request, plan, limit, now)
    timing["plan"] = (time.perf_counter() - t0) * 1000
    t1 = time.perf_counter()
    ctx = make_context(
        store,
        settings,
        plan=plan,
        text_embedder=text_embedder,
        signals=signals,
        calibration=calibration,
        image_embedder=image_embedder,
    )
    timing["load"] = (time.perf_counter() - t1) * 1000
    t2 = time.perf_counter()
    required = plan.get("required") or []
    execution = one_per_shot(Executor(ctx, required=required).run(plan["where"]), ctx.snapshot)
    timing["execute"] = (time.perf_counter() - t2) * 1000
    t3 = time.perf_counter()
    block = plan.get("compose") or {}
    page = _Page(ctx, block, required, cap, compose_options)
    rows, composer = page.fill(execution)
    times_dropped = page.fill_closest(plan["where"], execution)
    pages, snap = page.pages, ctx.snapshot
    timing["compose"] = (time.perf_counter() - t3) * 1000
    t4 = time.perf_counter()
    results = _result_entries(pages, snap)
    _say_when(results, times_dropped, ctx)
    _say_size(results, block.get("sort"), snap)
    annotate_origins(store, results)
    timing["why"] = (time.perf_counter() - t4) * 1000
    timing["total"] = (time.perf_counter() - t0) * 1000
    out = {
        "plan": plan,
        "results": results,
        "matched": len(execution.result),
        "partial": sum(r["partial"] for r in results),
        "below_cutoff": sum(r["below_cutoff"] for r in results),
        "timing_ms": {k: round(v, 2) for k, v in timing.items()},
        "composer": composer,
    }
    if planner:
        out["planner"] = planner
    ex = {"atoms": execution.explain(), "matched": len(execution.result), "notes": ctx.notes}
    problems = cache_problems()
    if problems:  # never a different result, but the user should know why it was slow
        out["warnings"] = problems
    out["explain"] = (
        ex if explain else {"atoms": [{"atom": a["atom"], "hits": a["hits"]} for a in ex["atoms"]]}
    )
    full = int(rows.size)
    unmet = unmet_sentences(execution, snap.n) if full < page.size or not full else []
    out["explain"]["unmet"] = unmet
    # how the request was read, and answered
    out["explain"]["remarks"] = list(dict.fromkeys([*((planner or {}).get("remarks") or []), *ctx.remarks]))
    return out


def _runs(flags: np.ndarray) -> list[slice]:
    """Slices of consecutive equal values in `flags` ([T, T, F, T] -> 0:2, 2:3, 3:4)."""
    cuts = [0, *(np.flatnonzero(flags[1:] != flags[:-1]) + 1).tolist(), int(flags.size)]
    return [slice(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b > a]


#: Atoms whose closest matches a relaxed run admits (`AtomResult.near`).
RELAXABLE = ("concept", "faces", "place", "person")


def unmet_sentences(execution: Execution, total: int) -> list[str]:
    """What the request asked that no photo meets (see `query.unmet`), for the page's header."""
    hits = [(h.result.atom, len(h.result.set), h.negated) for h in execution.atoms]
    either = [h.path[: h.path.rfind(".or[")] if ".or[" in h.path else "" for h in execution.atoms]
    return sentences(hits, len(execution.result), total, either)


def _unmet_atoms(execution: Execution, total: int) -> list[dict]:
    """The parts that leave no photo: positive ones no photo meets, negated ones every photo meets."""
    return [
        h.result.atom
        for h in execution.atoms
        if (len(h.result.set) >= total if h.negated else not len(h.result.set))
    ]


def _say_when(results: list[dict], dropped: list[dict], ctx: ExecContext) -> None:
    """A closest match shown for being near a date, time or camera setting left out says its own
    (when it was taken, its ISO), and that it is the nearest unless it meets it ("dogs in autumn": a
    dog of February is)."""
    if not results or not dropped:
        return
    snap = ctx.snapshot
    rows = snap.rows_of(np.asarray([e["id"] for e in results], np.int64))
    for atom in dropped:
        key = next(iter(atom))
        inside = nearness_of(atom, ctx)[rows] >= 1.0
        for entry, row, then in zip(results, rows.tolist(), inside.tolist(), strict=True):
            if not entry["below_cutoff"] or any(w.get("atom") == key for w in entry["why"]):
                continue
            why = _own_value(key, atom, entry, snap, row)
            if why is not None:
                why["text"] += "" if then else ", the nearest"
                entry["why"].append(why)


def _say_size(results: list[dict], sort: str | None, snap: Snapshot) -> None:
    """Photos in size order ("largest files first") each say their size, as the order's reason."""
    of = SORTED_BY.get(sort or "")
    if of is None or not results:
        return
    rows = snap.rows_of(np.asarray([e["id"] for e in results], np.int64))
    for entry, row in zip(results, rows.tolist(), strict=True):
        said = said_size({"of": of}, snap, row)
        if said is not None and not any(w.get("atom") == "size" for w in entry["why"]):
            entry["why"].append({"atom": "size", "text": said})


def _own_value(key: str, atom: dict, entry: dict, snap: Snapshot, row: int) -> dict | None:
    """A photo's own value of a dropped condition as a `why` entry ("added 2026-11-01", "ISO 2500")."""
    if key in ("setting", "size"):
        said = said_setting(atom[key], snap, row) if key == "setting" else said_size(atom[key], snap, row)
        return None if said is None else {"atom": key, "text": said}
    when = added_at(snap, row) if key == "added" else entry.get("taken_at")
    if not when:
        return None
    said = f"added {when[:10]}" if key == "added" else taken_words(when, key)
    return {"atom": key, "added_at" if key == "added" else "taken_at": when, "text": said}


#: What the photos shown when nothing of a request is met score at most: near nothing, for nothing of
#: it was found in them.
NOTHING_MET = 0.01


def _newest(snap: Snapshot) -> np.ndarray:
    """Where no part of a request is met ("money" in a library without any), the page shows the
    newest photos (undated ones last), each scored near nothing (`NOTHING_MET`), instead of the
    first photos the catalog holds at full score."""
    dated = snap.taken != NO_DATE
    order = np.argsort(snap.taken[dated], kind="stable")
    recency = np.zeros(snap.n, np.float32)
    recency[np.flatnonzero(dated)[order]] = np.arange(1, order.size + 1, dtype=np.float32) / max(
        order.size, 1
    )
    return (NOTHING_MET * (0.5 + 0.5 * recency)).astype(np.float32)


#: Atoms of when a photo was taken (or added), of its camera settings and of its size, and how near
#: each photo is to one (1: inside it).
NEARNESS = {
    "date": date_nearness,
    "added": added_nearness,
    "month": month_nearness,
    "hour": hour_nearness,
    "weekday": weekday_nearness,
    "setting": setting_nearness,
    "size": size_nearness,
}
#: The atoms a photo can be near to, not only in: those of `NEARNESS`, and days told by other photos.
NEAR_IN_TIME = (*NEARNESS, "days_of")


def _when_parts(where: dict) -> list[dict]:
    """The atoms of when a photo was taken that the request's top `and` asks for beside what the
    photo shows ("dogs in autumn": the autumn); none when nothing else is asked."""
    parts = where.get("and") if len(where) == 1 else None
    if not isinstance(parts, list):
        return []
    when = [p for p in parts if isinstance(p, dict) and len(p) == 1 and next(iter(p)) in NEAR_IN_TIME]
    return when if len(when) < len(parts) else []


def nearness_of(atom: dict, ctx: ExecContext) -> np.ndarray:
    """Per row, how near a photo is to an atom of `NEAR_IN_TIME` (1: inside it); a days_of's days
    are its result's, resolved in this search."""
    key = next(iter(atom))
    if key in NEARNESS:
        return NEARNESS[key](atom, ctx.snapshot)
    result = ctx.atom_cache.get(json.dumps(atom, sort_keys=True))
    if result is None or result.near_in_time is None:
        return np.zeros(ctx.snapshot.n, np.float32)
    return result.near_in_time()


def _nearness(unmet: list[dict], ctx: ExecContext) -> np.ndarray | None:
    """A weight per photo for how near it is to the dropped dates and times of day: "yesterday" with
    nothing taken then lists the latest photos first, "in the late evening" the photos taken nearest
    to it. It at most halves a score, so what the request still asks ranks first ("dogs from last
    week": the dogs, the nearest in time first)."""
    times = [atom for atom in unmet if set(atom) & set(NEAR_IN_TIME)]
    if not times:
        return None
    near = np.ones(ctx.snapshot.n, np.float32)
    for atom in times:
        near *= nearness_of(atom, ctx)
    return 0.5 + 0.5 * near


def _shot(path: str) -> tuple[str, str]:
    """One shot's key: its folder and its file name without the extension, in any case."""
    slash = path.rfind(os.sep) + 1
    dot = path.rfind(".")
    return path[:slash], path[slash : dot if dot > slash else len(path)].lower()


@dataclass(frozen=True)
class RawTwins:
    """Camera RAW files and their developed twins (JPEG, HEIC, ... of the same folder and name), as
    snapshot rows: `developed[raw row]`, `raw[developed row]` and `partner` (either), -1 for none."""

    developed: np.ndarray
    raw: np.ndarray

    @property
    def partner(self) -> np.ndarray:
        return np.maximum(self.developed, self.raw)


def raw_twins(snap: Snapshot) -> RawTwins:
    """The snapshot's RAW twins, paired once per snapshot."""
    twins = snap.cache.get("raw_twins")
    if twins is None:
        twins = snap.cache["raw_twins"] = _pair_raw_twins(snap)
    return twins


def _pair_raw_twins(snap: Snapshot) -> RawTwins:
    developed, raw = np.full(snap.n, -1, np.int32), np.full(snap.n, -1, np.int32)
    ends = tuple(RAW_EXTENSIONS)
    raws = [r for r, p in enumerate(snap.paths) if p.lower().endswith(ends) and is_raw_name(p)]
    if raws:
        raw_of_shot = {_shot(snap.paths[r]): r for r in raws}
        beside = np.flatnonzero(np.isin(snap.folder_code, snap.folder_code[raws]))  # rows beside a RAW
        paths, is_raw = snap.paths, set(raws)
        for r in beside.tolist():
            twin = raw_of_shot.get(_shot(paths[r]))
            if twin is not None and r not in is_raw:
                developed[twin], raw[r] = r, twin
    return RawTwins(developed, raw)


def raw_files_of(snap: Snapshot, row: int) -> list[str]:
    """The camera RAW file of a developed photo's shot (`[]` when it has none)."""
    twin = int(raw_twins(snap).raw[row])
    return [snap.paths[twin]] if twin >= 0 else []


def one_per_shot(ex: Execution, snap: Snapshot) -> Execution:
    """A RAW and its developed twin are one photo, before the page is composed and the matches
    counted: a RAW leaves a set its twin is in, a partial match leaves when its shot matched in
    full. A RAW alone stays."""
    twins = raw_twins(snap)
    if twins.developed.max(initial=-1) < 0:
        return ex
    ex.result = _without(ex.result, twins.developed, ex.result)
    ex.partial = _without(_without(ex.partial, twins.partner, ex.result), twins.developed, ex.partial)
    return ex


def _without(found: ScoredSet, twin: np.ndarray, of: ScoredSet) -> ScoredSet:
    """`found` less the rows whose `twin` is in `of`."""
    if not len(found) or not len(of):
        return found
    partner = twin[found.rows]
    drop = (partner >= 0) & np.isin(partner, of.rows)
    if not drop.any():
        return found
    return ScoredSet(found.rows[~drop], found.scores[~drop], found.graded)


def similar(
    store, settings, photo_path_or_id, limit: int = SIMILAR_LIMIT, *, image_embedder=None, options=None
) -> dict:
    """Visually similar photos (image embedding): near-duplicates first (`near_duplicate`: image
    cosine or perceptual hash close enough, as the composer judges them), then by similarity;
    `calibrated` marks calibrated hits; `query_path` is the photo's own path when it is catalogued.
    `photosearch similar` and the app's Find similar both show exactly this list."""
    t0 = time.perf_counter()
    opts = options or ComposeOptions()
    ctx = make_context(store, settings, signals=[], image_embedder=image_embedder)
    vec, pid = query_vector(photo_path_or_id, ctx)
    if vec is None:
        raise PhotoSearchError(
            f"no image embedding for {photo_path_or_id!r}: index it first (`photosearch index`)"
        )
    index = ctx.index(IMAGE_SPACE)
    snap = ctx.snapshot
    own = snap.rows_of([pid]) if pid is not None else np.zeros(0, np.int32)
    cal_rows, _, info = neighbours(vec, ctx, exclude=pid)
    keys, sims = index.search(vec, int(limit) + 1, exact=len(index) <= 20000)
    results = []
    for key, sim in zip(keys.tolist(), sims.tolist(), strict=True):
        rows = snap.rows_of([key])
        if key == pid or rows.size == 0:
            continue
        r = int(rows[0])
        results.append(
            {
                "id": int(key),
                "path": snap.paths[r],
                "score": round(float(sim), 4),
                "calibrated": bool(np.isin(r, cal_rows)),
                "near_duplicate": _near_duplicate(snap, own, r, float(sim), opts),
                "why": [{"atom": "similar", "to": str(photo_path_or_id), "similarity": round(float(sim), 3)}],
            }
        )
    results = sorted(results[: int(limit)], key=lambda e: not e["near_duplicate"])  # stable: by similarity
    out = {
        "query": str(photo_path_or_id),
        "results": results,
        "cutoff": info,
        "timing_ms": {"total": round((time.perf_counter() - t0) * 1000, 2)},
    }
    if own.size:
        out["query_path"] = snap.paths[int(own[0])]
    return out


def _near_duplicate(snap: Snapshot, own: np.ndarray, row: int, cos: float, opts: ComposeOptions) -> bool:
    if cos >= opts.dup_cosine:
        return True
    if not own.size or not (snap.has_phash[own[0]] and snap.has_phash[row]):
        return False
    ham = int(hamming(snap.phash[own[0] : own[0] + 1], snap.phash[row : row + 1])[0])
    return ham <= opts.dup_hamming or (ham <= opts.both_hamming and cos >= opts.both_cosine)


def duplicates(
    store, settings, *, options: ComposeOptions | None = None, neighbours_k: int = 10
) -> list[dict]:
    """Near-duplicate groups over the whole catalog (`resolvers/duplicates.py`)."""
    ctx = make_context(store, settings, signals=[])
    return duplicate_groups(ctx, options or ComposeOptions(), neighbours_k)
