"""Where an embedded word came from, for `why`: "keyword: Lisbon (in the file)".

The snapshot groups facts by (kind, label) across photos; whether one photo's keyword was in the
photo file or in its XMP sidecar is looked up for the shown results only (one query per page).
"""

from __future__ import annotations

from sqlalchemy import text

from photosearch.metadata.model import SOURCE_FILE
from photosearch.query.resolvers.text import fold

#: Fact kinds the embedded analyzer writes that can answer a search.
EMBEDDED_KINDS = ("keyword", "title", "description", "credit", "rating", "color_label", "place")
ANALYZER = "embedded"


#: How `why` names each kind, in the words the app uses.
KIND_WORDS = {"color_label": "label", "description": "caption", "credit": "by"}


def origin_text(source: str) -> str:
    return "in the file" if source in ("", SOURCE_FILE) else f"in {source}"


def annotate_origins(store, results: list[dict]) -> None:
    """Add `origin` to every `why` entry that rests on an embedded fact, in place."""
    wanted = {
        r["id"]
        for r in results
        for w in r.get("why", ())
        if w.get("fact") in EMBEDDED_KINDS or w.get("origin_kind") in EMBEDDED_KINDS
    }
    if not wanted or store is None:
        return
    sources: dict[tuple[int, str, str], str] = {}
    ids = sorted(wanted)
    with store.connect() as conn:
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            marks = ", ".join(f":p{i}" for i in range(len(chunk)))
            rows = conn.execute(
                text(
                    "SELECT photo_id, kind, label, data FROM facts WHERE analyzer = :an "
                    f"AND photo_id IN ({marks})"
                ),
                {"an": ANALYZER, **{f"p{i}": pid for i, pid in enumerate(chunk)}},
            )
            for pid, kind, label, data in rows:
                source = _source(data)
                sources[(pid, kind, fold(label))] = source
    for r in results:
        for w in r.get("why", ()):
            kind = w.get("origin_kind") or w.get("fact")
            label = w.get("origin_label") or w.get("label")
            if kind in EMBEDDED_KINDS and label is not None:
                src = sources.get((r["id"], kind, fold(str(label))))
                if src is not None:
                    w["origin"] = origin_text(src)
                    said = f"{KIND_WORDS.get(kind, kind)}: {label} ({w['origin']})"
                    w["text"] = f"{w['text']}; {said}" if w.get("route") else said
            w.pop("origin_kind", None)
            w.pop("origin_label", None)


def _source(data) -> str:
    import json

    if isinstance(data, str):
        try:
            data = json.loads(data)
        except ValueError:
            data = None
    return str((data or {}).get("source") or SOURCE_FILE) if isinstance(data, dict) else SOURCE_FILE
