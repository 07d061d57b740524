"""Optional LLM planner: the shared local LLM (`photosearch.models.llm`) writes a plan constrained to
PLAN_SCHEMA (a grammar: the output parses).

Used only for requests the parser marks low-confidence, and only when an LLM is configured
(`settings.llm_model`) or pulled (a hub LLM); the bundled base model only when named. The output is
validated and merged with the parser's deterministic slots (people, dates, places, cameras... the LLM
may not invent them, and may not drop them); compose comes from the parser. Anything invalid → None,
and the caller keeps the parser's plan.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from photosearch.errors import PhotoSearchError
from photosearch.query.plan import PLAN_SCHEMA, PlanError, atoms, filter_atoms, signed_atoms, validate_plan

log = logging.getLogger(__name__)

#: What the LLM must produce: the plan without version (the planner adds it).
LLM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"where": {"$ref": "#/$defs/node"}, "compose": {"$ref": "#/$defs/compose"}},
    "required": ["where"],
    "additionalProperties": False,
    "$defs": PLAN_SCHEMA["$defs"],
}

SYSTEM_PROMPT = (
    'You turn photo search requests into JSON plans. A plan is {"where": NODE, "compose": {...}}. '
    'NODE is {"and": [NODE,...]}, {"or": [NODE,...]}, {"not": NODE} or an atom: '
    '{"concept": thing}, {"person": name, "*" anyone named, "?" a face not named yet}, {"date": {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}}, '
    '{"added": {"from": "YYYY-MM-DD", "to": "YYYY-MM-DD"}} (added to the library), '
    '{"days_of": {"where": NODE, "from": days, "to": days}} (taken days after a photo of NODE: 1, 1 the day after), '
    '{"hour": [hours of the day 0-23]}, {"weekday": [days of the week, 1 = Monday]}, {"place": name, "home" at home}, {"text": words in the photo}, {"camera": model}, {"lens": lens maker or kind, "macro", "fisheye"}, {"folder": name}, {"file": part of a file name}, {"album": name}, {"editor": photo editor, "*" any}, '
    '{"similar": photo id, "*" for near-duplicates}, {"knowledge": fact}, {"tag": tag, "*" any tag}, {"faces": {"min": n, "max": n}}, '
    '{"rating": {"min": stars, "max": stars}}, {"label": colour label}, '
    '{"setting": {"of": "aperture|shutter|iso|focal|focal35|flash", "min": n, "max": n}} (camera settings: '
    "f-number, seconds, ISO, mm), "
    '{"size": {"of": "megapixels|megabytes", "min": n, "max": n}}, '
    '{"kind": "photo|screenshot|document"}, {"quality": "sharp|blurry"}, '
    '{"color": "red|...|monochrome"} (colour words are colours, never things), '
    '{"orientation": "portrait|landscape|panorama|square"}. Answer with JSON only.'
)

#: Atom types whose values the parser finds deterministically; the LLM may not add or drop them.
SLOT_TYPES = (
    "person",
    "date",
    "added",
    "month",
    "hour",
    "weekday",
    "yearly",
    "days_of",
    "place",
    "camera",
    "lens",
    "folder",
    "file",
    "album",
    "editor",
    "text",
    "similar",
    "tag",
    "kind",
    "quality",
    "color",
    "orientation",
    "faces",
    "rating",
    "setting",
    "size",
    "label",
    "knowledge",
)

LLMCallable = Callable[[list[dict[str, str]]], str]


def ask_llm(llm, max_tokens: int = 384) -> LLMCallable:
    """messages -> a JSON plan (text) from a `LocalLLM`, constrained to LLM_SCHEMA."""

    def ask(messages: list[dict[str, str]]) -> str:
        return llm.chat(messages, schema=LLM_SCHEMA, max_tokens=max_tokens)

    return ask


def planner_llm(settings) -> LLMCallable | None:
    """The planner's LLM: settings.llm_model, else a pulled hub LLM; None when neither (the bundled
    gemma3-270m plans only when named: llm_model = "bundled"). A named model that cannot be used raises."""
    from photosearch.models.llm import get_llm

    llm = get_llm(settings, bundled=False)
    return None if llm is None else ask_llm(llm)


# --------------------------------------------------------------------------- prompting


def _compact(plan: dict) -> str:
    return json.dumps({"where": plan["where"]}, ensure_ascii=False, separators=(",", ":"))


def build_messages(request: str, examples: list, *, now_text: str) -> list[dict[str, str]]:
    """System prompt + golden few-shot pairs + the request. Gemma has no system role: merged in."""
    shots = "\n".join(f"Request: {e.request}\nPlan: {_compact(e.plan)}" for e in examples)
    user = f"{SYSTEM_PROMPT}\nToday is {now_text}.\n\nExamples:\n{shots}\n\nRequest: {request}\nPlan:"
    return [{"role": "user", "content": user}]


def _extract_json(text: str) -> Any:
    text = text.strip()
    if text.startswith("```"):
        text = text.strip("`").removeprefix("json").strip()
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end < start:
        raise ValueError("no JSON object in the LLM output")
    return json.loads(text[start : end + 1])


# --------------------------------------------------------------------------- merging


def _key(atom: dict) -> str:
    return json.dumps(atom, sort_keys=True)


def merge(llm_plan: dict, parsed_plan: dict, request: str) -> dict | None:
    """LLM structure + parser's slot atoms + parser's compose; None when nothing sensible is left."""
    parsed_atoms = atoms(parsed_plan)
    allowed = {_key(a) for a in parsed_atoms if next(iter(a)) in SLOT_TYPES}
    low = request.lower()

    def keep(atom: dict) -> bool:
        key, value = next(iter(atom.items()))
        if key in SLOT_TYPES:
            return _key(atom) in allowed
        if key == "concept":  # concepts must come from the request's words
            return all(w in low or w.rstrip("s") in low for w in str(value).lower().split())
        return False

    where = filter_atoms(llm_plan["where"], keep)
    present = {_key(a) for a in atoms(where)} if where else set()
    missing = [a for a in parsed_atoms if next(iter(a)) in SLOT_TYPES and _key(a) not in present]
    # a missing slot atom keeps its parser polarity (negated in the parse → negated here)
    negated = {_key(a) for a, is_negated in signed_atoms(parsed_plan) if is_negated}
    extra = [{"not": a} if _key(a) in negated else a for a in missing]
    parts = ([where] if where is not None else []) + extra
    if not parts:
        return None
    node = parts[0] if len(parts) == 1 else {"and": parts}
    try:
        return validate_plan({"version": 1, "where": node, "compose": parsed_plan["compose"]})
    except PlanError:
        return None


def plan_with_llm(
    request: str, parsed_plan: dict, examples: list, llm: LLMCallable, *, now_text: str
) -> tuple[dict | None, list[str]]:
    """Ask the LLM; return (merged plan or None, notes). Never raises for bad model output."""
    messages = build_messages(request, examples, now_text=now_text)
    try:
        raw = llm(messages)
    except PhotoSearchError:
        raise
    except Exception as exc:  # a model failure must not lose the request
        return None, [f"LLM planner failed: {exc}; kept the parser's plan"]
    try:
        obj = _extract_json(raw)
        if isinstance(obj, dict) and "where" not in obj and len(obj) == 1:
            obj = {"where": obj}
        plan = validate_plan({"version": 1, **obj} if isinstance(obj, dict) else obj)
    except (ValueError, PlanError, TypeError) as exc:
        return None, [f"LLM plan was invalid ({str(exc)[:120]}); kept the parser's plan"]
    merged = merge(plan, parsed_plan, request)
    if merged is None:
        return None, ["LLM plan had nothing usable; kept the parser's plan"]
    return merged, ["planned with the LLM (validated and merged with the parser's slots)"]
