"""The local answer in steps: each step says what it is doing before it starts and what it found
after, so a front end can show it live; `cancel` is polled between steps (raises `Cancelled`).

Without a vision-language model the answer is `sentences.compose` over the catalog's evidence (well
under a second once warm). With one pulled, that answer comes first as a draft and the model's own
answer, given the evidence as context, follows.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from photosearch.ask import evidence as ev_mod
from photosearch.ask.sentences import compose, things_in_frame
from photosearch.errors import Cancelled

log = logging.getLogger(__name__)

#: The steps, in order, as people read them.
REGIONS = "Looking at the regions…"
TEXT = "Reading text…"
NAMING = "Naming…"
PLACING = "Finding when and where…"
WORDING = "Putting it into words…"
LOOKING_CLOSER = "Asking the vision model…"
STEPS = (REGIONS, TEXT, NAMING, PLACING, WORDING)

Progress = Callable[[tuple], None]
_vlms: dict[tuple, Any] = {}
_vlm_lock = threading.Lock()


def pulled_vlm_name(settings) -> str | None:
    from photosearch.models.manifest import installed_with_role

    found = installed_with_role(settings, "vlm")
    return found[0].name if found else None


def shared_vlm(settings):
    """The first pulled vision-language model (one per process, so a warm-up serves the next ask),
    or None."""
    name = pulled_vlm_name(settings)
    if name is None:
        return None
    key = (name, str(settings.models_dir), int(settings.threads), bool(settings.gpu))
    with _vlm_lock:
        if key not in _vlms:
            from photosearch.vision.vlm import VlmCaptioner

            _vlms[key] = VlmCaptioner(settings, name)
        return _vlms[key]


def warm(store, settings, photo_id: int | None = None, *, vlm: bool = True) -> float:
    """Load what the next local answer needs: the place index when the photo has GPS and no place
    name yet, and the vision-language model when one is pulled (`vlm`). Returns the seconds it took."""
    t0 = time.perf_counter()
    if photo_id is not None:
        ev = ev_mod.load_regions(store, photo_id)
        if ev.gps is not None:
            ev_mod.add_place(store, ev)  # the first reverse geocode builds the index (about 2 s)
    if vlm:
        model = shared_vlm(settings)
        if model is not None:
            model.llm.load()
    return time.perf_counter() - t0


def _summary_of_regions(ev) -> str:
    found = [f"{n} {label}" if n > 1 else label for label, n, _where in things_in_frame(ev)]
    tags = [t.label for t in ev.tags if not t.hypernym][:2]
    bits = ([", ".join(found)] if found else []) + ([f"tags: {', '.join(tags)}"] if tags else [])
    return "; ".join(bits) or "nothing recognised yet"


def answer_locally(
    store,
    settings,
    photo_id: int,
    question: str,
    *,
    progress: Progress | None = None,
    cancel: Callable[[], bool] | None = None,
    vlm: Any | None = None,
    use_vlm: bool = True,
    geocode=None,
) -> dict:
    """The local answer: {"photo_id", "question", "answer", "sentences", "answer_method" ("evidence"
    or "vlm"), "steps": [[step, seconds, found]], "seconds", ...}. `progress` gets ("step", name) as a
    step starts, ("found", name, what) as it ends and ("draft", answer) before the vision model runs;
    `vlm` (default: the pulled one, when `use_vlm`) answers with the evidence as context."""
    say = progress or (lambda _item: None)
    stop = cancel or (lambda: False)
    question = question.strip() or "what is this?"
    t_start = time.perf_counter()
    steps: list[list] = []

    def step(name: str, work: Callable[[], str]) -> None:
        if stop():
            raise Cancelled("the question was stopped")
        say(("step", name))
        t0 = time.perf_counter()
        found = work()
        steps.append([name, round(time.perf_counter() - t0, 3), found])
        say(("found", name, found))

    holder: dict[str, Any] = {}

    def regions() -> str:
        holder["ev"] = ev_mod.load_regions(store, photo_id)
        return _summary_of_regions(holder["ev"])

    def text() -> str:
        ev_mod.add_text(store, holder["ev"])
        lines = holder["ev"].text_lines
        return f"“{' '.join(lines)[:60]}”" if lines else "no text"

    def naming() -> str:
        ev = holder["ev"]
        ev_mod.add_people(store, ev)
        named = ", ".join(ev.people) or "nobody named"
        return named + (f"; {ev.unnamed_faces} face(s) without a name" if ev.unnamed_faces else "")

    def placing() -> str:
        ev = holder["ev"]
        ev_mod.add_place(store, ev, geocode)
        when = ev.taken_at.strftime("%d %b %Y") if ev.taken_at else "no date"
        return f"{when}; {ev.place or 'no place'}"

    def wording() -> str:
        holder["sentences"] = compose(holder["ev"], question)
        return f"{len(holder['sentences'])} sentence(s)"

    for name, work in zip(STEPS, (regions, text, naming, placing, wording), strict=True):
        step(name, work)
    sentences: list[str] = holder["sentences"]
    result = {
        "photo_id": photo_id,
        "question": question,
        "answer": " ".join(sentences),
        "sentences": sentences,
        "answer_method": "evidence",
        "sources": [],
        "regions": [],
        "graph": {"nodes": [], "queries": [], "stop_reason": "local"},
        "steps": steps,
    }
    model = vlm
    if model is None and use_vlm:
        try:
            model = shared_vlm(settings)
        except Exception as exc:  # a damaged pull leaves the evidence answer, never no answer
            log.warning("the vision model cannot be used: %s", exc)
    if model is not None:
        result["seconds"] = round(time.perf_counter() - t_start, 3)
        say(("draft", dict(result)))
        step(LOOKING_CLOSER, lambda: _vlm_answer(model, holder["ev"], question, sentences, result))
    result["seconds"] = round(time.perf_counter() - t_start, 3)
    return result


def _vlm_answer(model, ev, question: str, sentences: list[str], result: dict) -> str:
    """The vision model's answer first, the evidence after it (kept when the model fails)."""
    from photosearch.enrich.answering import repeats
    from photosearch.enrich.assistant import load_rgb

    rgb = load_rgb(ev.path)
    if rgb is None:
        return "the photo's file cannot be read"
    try:
        text = " ".join(model.answer(rgb, question, " ".join(sentences)).split())
    except Exception as exc:  # a failing model leaves the evidence answer
        log.warning("the vision model could not answer: %s", exc)
        return "the vision model failed"
    if not text or repeats(text):
        return "no usable answer"
    result["sentences"] = [text, *sentences]
    result["answer"] = " ".join(result["sentences"])
    result["answer_method"] = "vlm"
    return "answered"
