"""A search result's evidence in words for people: the app's tooltips and the CLI's result lines
say "dog (object, 99 %)", "similar description (28 %)", "taken 2021-03-09", never a model's or a
signal's internal name ("imagenet:", "facts_text~0.28")."""

from __future__ import annotations

from photosearch.query.times_of_day import taken_words

#: What each kind of evidence is called for people (the catalog's fact kinds and signals).
EVIDENCE_WORDS = {
    "tag": "tag",
    "object": "object",
    "scene": "scene",
    "places365": "looks like",
    "sunattributes": "looks like",
    "text": "text in the photo",
    "user_tag": "your tag",
    "keyword": "keyword in the file",
    "knowledge": "learned on the web",
    "place": "place",
    "person": "person",
    "face": "person",
    "imagenet": "looks like",
    "coco": "looks like",
    "facts_text": "description",
    "caption": "caption",
    "attribute": "measured",
}


def evidence_words(w: dict, *, routes: bool = False) -> str:
    """One piece of evidence in words; with `routes`, also how the request's word reached the label
    ("seashore (tag, 54 %; wave ≈ seashore (scene))")."""
    if "origin" in w and w.get("text"):  # the file's own word: "keyword: Lisbon (in the file)"
        return str(w["text"])
    if "label" in w:
        kind = EVIDENCE_WORDS.get(str(w.get("fact")), str(w.get("fact") or "match"))
        score = w.get("score")
        said = [kind + (f", {float(score):.0%}" if score is not None else "")]
        if routes and "route" in w and w.get("text"):
            said.append(str(w["text"]))
        return f"{w['label']} ({'; '.join(said)})"
    if "similarity" in w:
        what = "looks like the chosen photo" if w.get("atom") == "similar" else "similar description"
        return f"{what} ({float(w['similarity']):.0%})"
    if "taken_at" in w:  # at a time of day: its clock time too; on a day of the week: its name
        return w.get("text") or taken_words(str(w["taken_at"]), str(w.get("atom") or ""))
    if w.get("text"):  # the resolver said it in words ("blue: 51% of the subject", "4 horses")
        return str(w["text"])
    return ", ".join(f"{k} {v}" for k, v in w.items() if k not in ("atom", "query"))


def why_words(why: list, most: int | None = 5, *, routes: bool = False) -> str:
    """A result's evidence in words, each said once: "dog (object, 99 %), grass (tag, 80 %), taken
    2021-03-09" (at most `most` pieces; None: all)."""
    out: list[str] = []
    said: set = set()
    for w in why:
        text = evidence_words(w, routes=routes) if isinstance(w, dict) else str(w)
        # a label is said once, with the first route that reached it
        key = (
            (w["label"], EVIDENCE_WORDS.get(str(w.get("fact"))))
            if isinstance(w, dict) and "label" in w
            else text
        )
        if text and key not in said:
            said.add(key)
            out.append(text)
        if most is not None and len(out) >= most:
            break
    return ", ".join(out).replace("%)", " %)").replace("%;", " %;")
