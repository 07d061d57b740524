"""A lexical baseline search: request words matched against fact labels and EXIF camera names.

It has the same signature as `photosearch.query.search.search`, so it can stand in for it (to
compare the real search against a naive one, or to run an evaluation before the real search is
installed). No planner, no embeddings: a word matches a fact whose label contains it.
"""

from __future__ import annotations

import re
import time

from sqlalchemy import select

from photosearch.catalog.models import Fact, Photo
from photosearch.query.plan import signed_atoms

STOP = {
    "a",
    "an",
    "the",
    "of",
    "with",
    "in",
    "on",
    "at",
    "from",
    "photos",
    "photo",
    "pictures",
    "picture",
    "taken",
    "ones",
    "and",
    "word",
    "words",
    "me",
    "my",
    "show",
    "all",
    "some",
    "to",
    "by",
}
KINDS = {"tag", "object", "text", "kind", "quality", "caption", "knowledge", "user_tag"}


def _words(text: str) -> list[str]:
    return [w for w in re.findall(r"[\w-]+", text.casefold()) if w not in STOP]


def _singular(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _plan_words(plan: dict, pos: list[str], neg: list[str]) -> None:
    """The words of the plan's string atoms, into `neg` when excluded and `pos` otherwise."""
    for atom, negated in signed_atoms(plan):
        value = next(iter(atom.values()))
        if isinstance(value, str):
            (neg if negated else pos).extend(_words(value))


def baseline_search(
    store,
    settings,
    request: str | None = None,
    plan: dict | None = None,
    limit: int = 50,
    explain: bool = False,
    **_ignored,
) -> dict:
    t0 = time.perf_counter()
    pos: list[str] = []
    neg: list[str] = []
    if plan is not None:
        _plan_words(plan, pos, neg)
    elif request:
        words = _words(request)
        i = 0
        while i < len(words):
            if words[i] in ("not", "no", "without", "except") and i + 1 < len(words):
                neg.append(words[i + 1])
                i += 2
            else:
                pos.append(words[i])
                i += 1
    pos, neg = [_singular(w) for w in pos], [_singular(w) for w in neg]
    scores: dict[int, float] = {}
    why: dict[int, list[str]] = {}
    banned: set[int] = set()
    with store.session() as s:
        photos = {
            pid: (path, make, model)
            for pid, path, make, model in s.execute(
                select(Photo.id, Photo.path, Photo.camera_make, Photo.camera_model).where(
                    Photo.state == "active"
                )
            )
        }
        for pid, kind, label, score in s.execute(select(Fact.photo_id, Fact.kind, Fact.label, Fact.score)):
            if pid not in photos or kind not in KINDS:
                continue
            lab = label.casefold()
            for w in neg:
                if w in lab:
                    banned.add(pid)
            for w in pos:
                if w in lab and score > scores.get(pid, 0.0):
                    scores[pid] = float(score)
                    why.setdefault(pid, []).append(f"{kind}:{label}")
        for pid, (_path, make, model) in photos.items():
            cam = f"{make or ''} {model or ''}".casefold()
            if pos and cam.strip() and any(w in cam for w in pos):
                scores[pid] = max(scores.get(pid, 0.0), 0.5)
                why.setdefault(pid, []).append(f"camera:{model}")
    ranked = sorted((p for p in scores if p not in banned), key=lambda p: (-scores[p], p))[:limit]
    results = [
        {
            "id": p,
            "path": photos[p][0],
            "score": round(scores[p], 4),
            "why": why.get(p, []) if explain else None,
        }
        for p in ranked
    ]
    return {"plan": None, "results": results, "timing_ms": {"total": (time.perf_counter() - t0) * 1000}}
