"""Planner: parser + golden library (+ optional LLM) → one validated plan with provenance.

Order: a verified pair for the same request (user pairs first) → the parser; when the parser's
confidence is low: a golden example with the same shape (same slot types, connectives and compose
words) lends its verified plan structure with the new slot values; else the LLM (when configured)
with the nearest golden examples as few-shot prompts; else the parser's plan, with notes.
"""

from __future__ import annotations

import copy
import json
import logging
from dataclasses import dataclass, field
from datetime import date, datetime

from photosearch.query.golden import GoldenExample, GoldenLibrary, get_library, normalize_request
from photosearch.query.llm_planner import LLMCallable, plan_with_llm, planner_llm
from photosearch.query.parser import LOW_CONFIDENCE, ParseResult, PlanContext, parse_detailed
from photosearch.query.plan import MAX_REQUEST_CHARS, PlanError, default_compose, map_nodes, validate_plan

log = logging.getLogger(__name__)


@dataclass
class PlanResult:
    plan: dict
    confidence: float
    source: str  # golden | parser | pattern | llm
    notes: list[str] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)  # golden requests that steered it
    # What the person is told about how the request was read, in plain words (the parser's notes:
    # "no birthday is known for Tom, …"); `notes` adds how the plan was made.
    remarks: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "plan": self.plan,
            "confidence": self.confidence,
            "source": self.source,
            "notes": self.notes,
            "examples": self.examples,
            "remarks": self.remarks,
        }


def known_people(store) -> list[str]:
    """Names of the catalog's named, visible people."""
    from sqlalchemy import select

    from photosearch.catalog.models import Person

    with store.session() as s:
        rows = s.execute(select(Person.name).where(Person.name.is_not(None), Person.hidden.is_(False))).all()
    return sorted({r[0].strip() for r in rows if r[0] and r[0].strip()})


def planning_context(store, settings=None, *, people: list[str] | None = None) -> PlanContext:
    """Everything the parser can know from the catalog: people, "me", birthdays, years, cameras, folders,
    home."""
    from sqlalchemy import select

    from photosearch.catalog.albums import album_names
    from photosearch.catalog.models import Folder, Person
    from photosearch.query.resolvers.snapshot import get_snapshot
    from photosearch.query.resolvers.snapshot_file import snapshot_dir

    ctx = PlanContext(people=list(people or []))
    with store.session() as s:
        for name, bday in s.execute(
            select(Person.name, Person.birthday).where(Person.name.is_not(None), Person.hidden.is_(False))
        ).all():
            name = (name or "").strip()
            if not name:
                continue
            ctx.people.append(name)
            if bday is not None:
                ctx.birthdays[name] = bday.date() if isinstance(bday, datetime) else bday
        # years and cameras from the search's columns (read from the saved snapshot, else SQL)
        snap = get_snapshot(store, directory=snapshot_dir(settings))
        ctx.years, ctx.cameras = snap.year_range(), list(snap.camera_models)
        ctx.words = library_words(snap)
        ctx.places = library_places(snap)
        ctx.folders = [r[0] for r in s.execute(select(Folder.path)).all()]
    ctx.albums = album_names(store)
    ctx.find_home = lambda: library_home(store, settings)
    ctx.people = list(dict.fromkeys(ctx.people))
    owner = getattr(settings, "owner", None) if settings is not None else None
    if owner and owner in ctx.people:
        ctx.owner = owner
    else:
        ctx.owner = next((p for p in ctx.people if p.lower() in ("me", "myself")), None)
    return ctx


def library_home(store, settings=None):
    """Home as Settings name it, else where most of the library's photos with a place were taken, with
    the spot where photos were taken on the most days (`query.home`); the photos' GPS is named first
    where the places step has not run yet."""
    from photosearch.query.home import home_in
    from photosearch.query.resolvers.places import ensure_place_facts
    from photosearch.query.resolvers.snapshot import get_snapshot
    from photosearch.query.resolvers.snapshot_file import snapshot_dir

    try:
        ensure_place_facts(store)
    except Exception as exc:  # noqa: BLE001 - the photos named already still tell home
        log.warning("reverse geocoding failed: %s", exc)
    return home_in(get_snapshot(store, directory=snapshot_dir(settings)), settings)


def library_words(snap) -> frozenset[str]:
    """The words of the library's labels, text, keywords and place names (once per snapshot)."""
    if "library_words" not in snap.cache:
        places = {w for p in snap.places for v in p.values() if isinstance(v, str) for w in v.lower().split()}
        snap.cache["library_words"] = frozenset(snap.token_index) | frozenset(places)
    return snap.cache["library_words"]


def library_places(snap) -> frozenset[str]:
    """The folded names of the towns and regions the library's photos were taken in (once per
    snapshot)."""
    from photosearch.query.places import fold

    if "library_places" not in snap.cache:
        names = (fold(p[k]) for p in snap.places for k in ("city", "admin1") if p.get(k))
        snap.cache["library_places"] = frozenset(names)
    return snap.cache["library_places"]


# --------------------------------------------------------------------------- golden patterns


def adapt_example(example: GoldenExample, example_parse: ParseResult, parse: ParseResult) -> dict | None:
    """The example's verified plan with its slot values replaced by this request's (same shape)."""
    old, new = example_parse.slots, parse.slots
    if [s.type for s in old] != [s.type for s in new]:
        return None
    mapping: dict[str, dict] = {}
    for a, b in zip(old, new, strict=True):
        key = json.dumps(a.node, sort_keys=True)
        if key in mapping and mapping[key] != b.node:
            return None  # one golden value maps to two new ones: ambiguous
        mapping[key] = b.node
    where = map_nodes(
        example.plan["where"], lambda n: copy.deepcopy(mapping.get(json.dumps(n, sort_keys=True)))
    )
    compose = dict(parse.plan["compose"])
    base = example_parse.plan["compose"]
    for k, v in example.plan["compose"].items():
        if v != base.get(k, default_compose()[k]):
            compose[k] = v  # what the verifier changed on purpose
    return validate_plan({"version": 1, "where": where, "compose": compose})


class Planner:
    """Plans requests; cheap to call repeatedly (everything heavy is loaded once, lazily)."""

    def __init__(
        self,
        settings=None,
        *,
        library: GoldenLibrary | None = None,
        llm: LLMCallable | None = None,
        use_llm: bool | None = None,
        few_shot: int = 4,
    ):
        self.settings = settings
        self.library = library if library is not None else get_library(settings, use_embedder=None)
        self._llm = llm
        self._use_llm = use_llm
        self.few_shot = few_shot

    @property
    def llm(self) -> LLMCallable | None:
        if self._use_llm is False:
            return None
        if self._llm is None and self.settings is not None:  # settings.llm_model, or a pulled hub LLM
            self._llm = planner_llm(self.settings)
        return self._llm

    def plan(
        self,
        request: str,
        *,
        now: date | None = None,
        context: PlanContext | None = None,
        people: list[str] | None = None,
        exclude_self: bool = False,
    ) -> PlanResult:
        """Plan one request. `exclude_self` hides a golden pair for this very request (evaluation)."""
        if len(request) > MAX_REQUEST_CHARS:
            raise PlanError(
                f"the request is {len(request)} characters; at most {MAX_REQUEST_CHARS} are planned"
            )
        now = now or date.today()
        parse = parse_detailed(request, now=now, people=people, context=context)
        notes = list(parse.notes)
        key = normalize_request(request)

        if not exclude_self:
            ex = self.library.exact(request)
            if ex is not None:
                plan = self._reuse_exact(ex, parse, now)
                if plan is not None:
                    return PlanResult(
                        plan,
                        1.0,
                        "golden",
                        [f"verified plan from the {ex.source} golden library"],
                        [ex.request],
                    )

        remarks = list(parse.notes)
        if parse.confidence >= LOW_CONFIDENCE:
            return PlanResult(parse.plan, parse.confidence, "parser", notes, remarks=remarks)

        for ex, ex_parse in self.library.skeleton_matches(parse.skeleton):
            if exclude_self and normalize_request(ex.request) == key:
                continue
            adapted = adapt_example(ex, ex_parse, parse)
            if adapted is not None:
                return PlanResult(
                    adapted,
                    max(parse.confidence, LOW_CONFIDENCE),
                    "pattern",
                    [*notes, f"structure from verified example: {ex.request!r}"],
                    [ex.request],
                    remarks,
                )

        llm = self.llm
        if llm is not None:
            shots = [
                e
                for e, _ in self.library.nearest(request, k=self.few_shot + 1)
                if not (exclude_self and normalize_request(e.request) == key)
            ][: self.few_shot]
            plan, llm_notes = plan_with_llm(request, parse.plan, shots, llm, now_text=now.isoformat())
            if plan is not None:
                return PlanResult(
                    plan,
                    max(parse.confidence, LOW_CONFIDENCE),
                    "llm",
                    [*notes, *llm_notes],
                    [e.request for e in shots],
                    remarks,
                )
            notes.extend(llm_notes)
        return PlanResult(parse.plan, parse.confidence, "parser", notes, remarks=remarks)

    def _reuse_exact(self, ex: GoldenExample, parse: ParseResult, now: date) -> dict | None:
        """The verified plan, adapted to this date and catalog; None (→ the parser) when it cannot be:
        the example's dates, birthdays or "me" are the example's own, never this catalog's."""
        ex_parse = parse_detailed(ex.request, now=ex.now, context=ex.context())
        same = [(s.type, s.node) for s in ex_parse.slots] == [(s.type, s.node) for s in parse.slots]
        if ex.now == now and same:
            return ex.plan
        return adapt_example(ex, ex_parse, parse)


def plan_request(
    request: str,
    *,
    settings=None,
    now: date | None = None,
    context: PlanContext | None = None,
    people: list[str] | None = None,
    llm: LLMCallable | None = None,
) -> PlanResult:
    """One-call API for the CLI and GUI."""
    return Planner(settings, llm=llm).plan(request, now=now, context=context, people=people)
