"""Sentences that say what a photo's evidence supports, ordered by what the question asks.

Deterministic: the same evidence and question give the same words. The tagger's candidates keep their
confidence ("A dog — most likely a redbone (36 %)"), objects say where they are ("a person on the
left"), the scene model's likely scene is named ("The place looks like a beach (47 %), outdoors"),
text is quoted, people are named, and the date and place close it. Nothing is said that the
evidence does not hold.
"""

from __future__ import annotations

import re

from photosearch.ask.evidence import PhotoEvidence, Tag
from photosearch.models.labels import CLAIM_SCORES

PERCENT = "\u00a0%"  # a no-break space: "36 %" never wraps between the number and its sign
MIN_THING_SCORE = 0.3
#: A scene is said from the score at which the scene model claims a concept in search; the next one
#: beside it from this.
MIN_SCENE_SCORE = CLAIM_SCORES["scenes"]
NEXT_SCENE_SCORE = 0.1
MIN_TAG_SCORE = 0.05
UNSURE_BELOW = 0.15
#: WordNet words too broad to name what a photo shows ("an object — most likely a mug").
TOO_BROAD = {
    "entity",
    "physical entity",
    "object",
    "whole",
    "artifact",
    "artefact",
    "organism",
    "living thing",
    "instrumentality",
    "matter",
    "abstraction",
    "unit",
    "being",
}
NOTHING_YET = (
    "Nothing in it has been recognised yet: index its folder with the photo models to learn what it shows."
)
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
_IRREGULAR = {
    "person": "people",
    "man": "men",
    "woman": "women",
    "child": "children",
    "mouse": "mice",
    "knife": "knives",
    "sheep": "sheep",
    "skis": "skis",
    "scissors": "scissors",
    "tv": "TVs",
}


# ---- words ----------------------------------------------------------------------------------------
def percent(score: float) -> str:
    return f"{round(100 * score)}{PERCENT}"


def article(noun: str) -> str:
    """ "a dog", "an umbrella", "a uniform", "an hour" (by the first sound, good enough for class names)."""
    low = noun.lower()
    vowel = low[:1] in "aeiou" and not re.match(r"(uni|use|usu|uk|eu|one\b|once)", low)
    return f"{'an' if vowel or re.match(r'(hour|honest|honou?r)', low) else 'a'} {noun}"


def plural(noun: str) -> str:
    if noun in _IRREGULAR:
        return _IRREGULAR[noun]
    head, _, last = noun.rpartition(" ")
    word = _IRREGULAR.get(last) or (
        last + "es"
        if re.search(r"(s|x|z|ch|sh)$", last)
        else last[:-1] + "ies"
        if re.search(r"[^aeiou]y$", last)
        else last + "s"
    )
    return f"{head} {word}".strip()


def count_words(n: int, noun: str) -> str:
    """ "a cup", "two cups", "12 cups"."""
    if n == 1:
        return article(noun)
    return f"{_NUMBERS[n] if n < len(_NUMBERS) else n} {plural(noun)}"


def join(items: list[str]) -> str:
    """ "a, b and c"."""
    items = [i for i in items if i]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?", "”")) else ".")


# ---- what it is (the tagger) ------------------------------------------------------------------------
def broad_name(ev: PhotoEvidence, top: Tag) -> str:
    """The everyday word for the top candidate: a detected object's label that one of the tagger's
    broader words names (the detector says "dog", the tagger "redbone" under "dog"), else the narrowest
    broader word at least as likely as the candidate and over one half (a sum of classes below it)."""
    broader = [t for t in ev.tags if t.hypernym and t.score >= top.score - 1e-6]
    detected = {t.label.lower() for t in ev.things if t.score >= MIN_THING_SCORE}
    for t in sorted(broader, key=lambda t: t.score):
        names = {n.lower() for n in (t.label, *t.names)}
        if names & detected:
            return next(iter(sorted(names & detected)))
    sure = [t for t in broader if t.score >= 0.5 and t.label.lower() not in TOO_BROAD]
    return min(sure, key=lambda t: t.score).label if sure else ""


def what_it_is(ev: PhotoEvidence) -> str:
    """ "A dog — most likely a redbone (36 %), or a bloodhound (12 %)." """
    classes = [t for t in ev.tags if not t.hypernym and t.score >= MIN_TAG_SCORE] or [
        t for t in ev.tags if not t.hypernym
    ][:1]
    if not classes:
        return ""
    top, rest = classes[0], [t for t in classes[1:3] if t.score >= MIN_TAG_SCORE]
    guesses = f"{article(top.label)} ({percent(top.score)})"
    if rest:
        guesses += ", or " + ", or ".join(f"{article(t.label)} ({percent(t.score)})" for t in rest)
    if top.score < UNSURE_BELOW:
        return sentence(f"Hard to say what it is: perhaps {guesses}")
    general = broad_name(ev, top)
    if general and general.lower() != top.label.lower():
        return sentence(f"{article(general)} — most likely {guesses}")
    return sentence(f"Most likely {guesses}")


# ---- the scene (the scene model) --------------------------------------------------------------------
def scene(ev: PhotoEvidence) -> str:
    """ "The place looks like a beach (47 %) or a coast (12 %), outdoors." (or "Taken outdoors.")"""
    if not ev.scenes or ev.scenes[0].score < MIN_SCENE_SCORE:  # best first
        return sentence(f"Taken {ev.setting}") if ev.setting else ""
    likely = ev.scenes[:1] + [t for t in ev.scenes[1:2] if t.score >= NEXT_SCENE_SCORE]
    guesses = " or ".join(f"{article(t.label)} ({percent(t.score)})" for t in likely)
    return sentence(f"The place looks like {guesses}" + (f", {ev.setting}" if ev.setting else ""))


# ---- where things are (the detector) ----------------------------------------------------------------
def position(box: tuple[float, float, float, float]) -> str:
    """Where a box lies in the frame, in words."""
    x0, y0, x1, y1 = box
    if (x1 - x0) * (y1 - y0) >= 0.6:
        return "filling most of the photo"
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    side = "left" if cx < 0.36 else "right" if cx > 0.64 else ""
    level = "top" if cy < 0.3 else "bottom" if cy > 0.7 else ""
    if level and side:
        return f"at the {level} {side}"
    if level:
        return f"at the {level}"
    return f"on the {side}" if side else "in the centre"


def things_in_frame(ev: PhotoEvidence, limit: int = 6) -> list[tuple[str, int, str]]:
    """(label, how many, where) for the confident objects, most confident first."""
    groups: dict[tuple[str, str], int] = {}
    for t in sorted(ev.things, key=lambda t: -t.score):
        if t.score < MIN_THING_SCORE:
            continue
        key = (t.label, position(t.box))
        if key not in groups and len(groups) >= limit:
            continue
        groups[key] = groups.get(key, 0) + 1
    return [(label, n, where) for (label, where), n in groups.items()]


def where_things_are(ev: PhotoEvidence) -> str:
    """ "In the photo: a person on the left, two cups in the centre and a bicycle on the right."; things
    in the same place share it ("a cup and a bowl in the centre; a dining table filling most of the photo")."""
    by_where: dict[str, list[str]] = {}
    for label, n, where in things_in_frame(ev):
        by_where.setdefault(where, []).append(count_words(n, label))
    parts = [f"{join(items)} {where}" for where, items in by_where.items()]
    if not parts:
        return ""
    shared = any(len(items) > 1 for items in by_where.values())
    return sentence("In the photo: " + ("; ".join(parts) if shared else join(parts)))


def how_many(ev: PhotoEvidence, question: str) -> str:
    """ "How many people…?" answered from the detector's count of that object, when it detects it."""
    m = re.search(r"\bhow many ([a-z ]+?)(?:\s+(?:are|is|can|do|does|in|on|there)\b|\?|$)", question.lower())
    if not m:
        return ""
    asked = m.group(1).strip()
    labels = {t.label for t in ev.things}
    label = next((lb for lb in labels if asked in (lb, plural(lb))), None)
    if label is None:
        return ""
    n = sum(1 for t in ev.things if t.label == label and t.score >= MIN_THING_SCORE)
    verb = "is" if n == 1 else "are"
    many = ("one " + label) if n == 1 else count_words(n, label) if n else "no " + plural(label)
    return sentence(f"{many} {verb} detected in the photo")


# ---- text, people, the file's own words, when and where -------------------------------------------
def text_read(ev: PhotoEvidence, max_words: int = 16) -> str:
    """ "The sign reads “STOP”." (a sign when the photo has one), else "The text reads …"."""
    if not ev.text_lines:
        return ""
    words = " ".join(ev.text_lines).split()
    quoted = " ".join(words[:max_words]) + ("…" if len(words) > max_words else "")
    labels = [t.label.lower() for t in ev.things] + [t.label.lower() for t in ev.tags]
    what = "The sign" if any(re.search(r"\bsign\b", lb) for lb in labels) else "The text in the photo"
    return f"{what} reads “{quoted}”."


def who(ev: PhotoEvidence, asked: bool = False) -> str:
    """Named people; faces without a name; when asked "who" and nobody is named, how to name them."""
    said = []
    if ev.people:
        verb = "is" if len(ev.people) == 1 else "are"
        said.append(f"{join(ev.people)} {verb} in the photo.")
    if ev.unnamed_faces:
        faces = _unnamed(ev)
        said.append(
            sentence(f"{faces} {'has' if ev.unnamed_faces == 1 else 'have'} no name yet")
            if not ev.people
            else sentence(
                f"{'one other face' if ev.unnamed_faces == 1 else count_words(ev.unnamed_faces, 'other')}"
                f"{', ' + faces + ',' if len(ev.unnamed_looks) == ev.unnamed_faces else ''}"
                f" {'has' if ev.unnamed_faces == 1 else 'have'} no name yet"
            )
        )
    if asked and not ev.people:
        said.append("Name faces in People and the answer will say who it is.")
    return " ".join(said)


def _unnamed(ev: PhotoEvidence) -> str:
    """ "a woman and a man" where the face model is sure of every unnamed face, else "two faces"."""
    if ev.unnamed_looks and len(ev.unnamed_looks) == ev.unnamed_faces:
        counts = {word: ev.unnamed_looks.count(word) for word in dict.fromkeys(ev.unnamed_looks)}
        return join([count_words(n, word) for word, n in counts.items()])
    return count_words(ev.unnamed_faces, "face")


def learned_before(ev: PhotoEvidence) -> str:
    """ "An earlier web search found the Voltaro X9 (an e-bike)." (people already named are not repeated)"""
    items = [
        (e["entity"] if e["entity"][:1].isupper() else f"the {e['entity']}")
        + (f" ({article(e['category'])})" if e.get("category") else "")
        for e in ev.learned
        if e["entity"] not in ev.people
    ][:2]
    return sentence("An earlier web search found " + join(items)) if items else ""


def own_words(ev: PhotoEvidence) -> list[str]:
    """What the file or the user says about the photo: title, description, keywords, the user's tags."""
    out = []
    w = ev.own_words
    if w.get("title"):
        out.append(f"Its title is “{w['title'][0]}”.")
    if w.get("description"):
        out.append(f"Its description says “{w['description'][0]}”.")
    if ev.captions:
        out.append(f"Described when it was indexed as “{ev.captions[0]}”.")
    tags = list(dict.fromkeys(w.get("keyword", []) + w.get("user_tag", [])))[:8]
    if tags:
        quoted = [f"“{t}”" for t in tags]
        out.append(f"Its tags: {join(quoted)}.")
    return out


def when_where(ev: PhotoEvidence, asked: str = "") -> str:
    """ "Taken on Saturday 4 March 2023 at 10:30 in Lisbon, Portugal." """
    when = ""
    said = []
    if ev.taken_at is not None:
        t = ev.taken_at
        when = f"on {t.strftime('%A')} {t.day} {t.strftime('%B %Y')}"
        if (t.hour, t.minute, t.second) != (0, 0, 0):
            when += f" at {t.strftime('%H:%M')}"
    where = f"in {ev.place}" if ev.place else ""
    if when or where:
        said.append(sentence(" ".join(x for x in ("Taken", when, where) if x)))
    if asked == "date" and not when:
        said.append("The photo does not say when it was taken.")
    if asked == "place" and not where:
        said.append("Where it was taken is not known: it has no location and its file names no place.")
    return " ".join(said)


# ---- the answer ---------------------------------------------------------------------------------------
_TEXT_WORDS = re.compile(r"\b(say|says|said|read|reads|written|write|text|sign|word|words|letters|label)\b")


def asks_for(question: str) -> str:
    """What a question is after: person, text, count, date, place or what (the default)."""
    q = " ".join(question.lower().split())
    if re.search(r"\bhow many\b", q):
        return "count"
    if _TEXT_WORDS.search(q):
        return "text"
    if q.startswith("who") or re.search(r"\b(who is|who are|whose|name of)\b", q):
        return "person"
    if q.startswith("when") or re.search(r"\b(what (year|day|date|time)|which year|how old)\b", q):
        return "date"
    if q.startswith("where") or re.search(r"\b(which|what) (city|country|place|town)\b", q):
        return "place"
    return "what"


def compose(ev: PhotoEvidence, question: str = "what is this?") -> list[str]:
    """The answer's sentences, the ones the question asks for first."""
    want = asks_for(question)
    parts = {
        "count": how_many(ev, question),
        "what": what_it_is(ev),
        "things": where_things_are(ev),
        "scene": scene(ev),
        "text": text_read(ev) or ("No text was read in this photo." if want == "text" else ""),
        "person": who(ev, asked=want == "person"),
        "learned": learned_before(ev),
        "own": " ".join(own_words(ev)),
        "when": when_where(ev, asked={"date": "date", "place": "place"}.get(want, "")),
    }
    first = {
        "count": ["count", "things"],
        "text": ["text"],
        "person": ["person", "learned"],
        "date": ["when"],
        "place": ["when", "scene"],
        "what": [],
    }[want]
    order = first + [
        k for k in ("what", "things", "scene", "person", "text", "learned", "own", "when") if k not in first
    ]
    said = [parts[k] for k in order if parts.get(k)]
    seen = (
        ev.tags,
        ev.things,
        ev.scenes,
        ev.text_lines,
        ev.people,
        ev.unnamed_faces,
        ev.captions,
        ev.own_words,
        ev.learned,
    )
    if not any(seen):
        said.insert(0, NOTHING_YET)
    return said
