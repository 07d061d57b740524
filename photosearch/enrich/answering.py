"""What a question asks for, and whether a sentence gives it.

who → names (people for "who is this", makers for "who makes it"), where → places, how much →
prices, how heavy / long / big → quantities with units, when → dates, what → the entity and its
category. The extractive answerer and the LLM answer's validation both use these checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from photosearch.enrich.textutil import content_tokens, tokens

_NAME = r"[A-Z][\w'\-]+(?:\s+(?:[A-Z][\w'\-]+|of|de|van|von|der|la))*"
_UNITS = {
    "weight": r"(?:kg|kilograms?|g|grams?|lbs?|pounds?|tonnes?|tons?|oz|ounces?)",
    "length": r"(?:km|kilometres?|kilometers?|m|metres?|meters?|cm|mm|miles?|inch(?:es)?|in|ft|feet)",
    "power": r"(?:wh|kwh|w|watts?|kw|mah|v|volts?|hp)",
    "money": r"",
}
_MONEY = re.compile(
    r"(?:[€$£¥]\s?\d[\d,.]*|\d[\d,.]*\s?(?:€|\$|euros?|dollars?|usd|eur|gbp|pounds sterling|yen))", re.I
)


def _quantity(unit: str) -> re.Pattern:
    return re.compile(r"\b\d[\d,.]*\s?" + unit + r"\b", re.I)


PATTERNS: dict[str, re.Pattern] = {
    "weight": _quantity(_UNITS["weight"]),
    "length": _quantity(_UNITS["length"]),
    "power": _quantity(_UNITS["power"]),
    "money": _MONEY,
    "date": re.compile(
        r"\b(?:1[5-9]\d\d|20\d\d)\b|\b(?:January|February|March|April|May|June|July|August|"
        r"September|October|November|December)\b"
    ),
    "number": re.compile(r"\b\d[\d,.]*\b"),
    "maker": re.compile(
        r"\b(?:made|built|designed|produced|manufactured|developed|sold|published|founded)\s+by\s+"
        + _NAME
        + r"|\b"
        + _NAME
        + r"\s+(?:makes|made|builds|built|designed|produces|produced|"
        r"manufactures|launched|released|sells)\b"
    ),
    "place": re.compile(r"\b(?:in|from|based in|located in|made in|built in|near|at)\s+(?:the\s+)?" + _NAME),
    "definition": re.compile(r"\b(?:is|are|was|were)\s+(?:a|an|the)\s+\w+", re.I),
    "person": re.compile(_NAME),
}


@dataclass
class Intent:
    """What the question wants: a kind ("weight", "maker", …), the patterns an answer sentence
    must match (any of them), and whether the people named in the catalog answer it."""

    kind: str
    patterns: list[str] = field(default_factory=list)
    about_people: bool = False


def intent(question: str) -> Intent:
    q = " ".join(tokens(question))
    if re.match(
        r"(how heavy|how much does .* weigh|what does .* weigh|what is .* weight|weight)", q
    ) or re.search(r"\b(weigh|weighs|weight)\b", q):
        return Intent("weight", ["weight"])
    if re.search(r"\b(how much|price|cost|costs|expensive|cheap)\b", q):
        return Intent("money", ["money"])
    if re.search(r"\b(how (long|far|tall|wide|big|high)|range|length|height|width|size)\b", q):
        return Intent("length", ["length"])
    if re.search(r"\b(battery|capacity|power)\b", q):
        return Intent("power", ["power"])
    if re.search(r"\bhow many\b", q):
        return Intent("number", ["number"])
    if q.startswith("when") or re.search(r"\b(what year|which year|launched when|release date)\b", q):
        return Intent("date", ["date"])
    if q.startswith("where") or re.search(r"\b(which country|which city|what country)\b", q):
        return Intent("place", ["place"])
    if q.startswith("who") or re.search(r"\b(which company|what company|what brand|maker|manufacturer)\b", q):
        people = bool(
            re.match(r"who (is|are|was) (this|that|these|those|he|she|they|in|on)\b", q)
            or re.match(r"who (is|are) (it|here)\b", q)
            or q in {"who", "who is it"}
        )
        return Intent(
            "person" if people else "maker", ["person"] if people else ["maker"], about_people=people
        )
    return Intent("definition", ["definition"])


def answer_prefix(question: str, want: Intent, entity: str) -> str:
    """The start of an answer sentence for a completion-style prompt (the bundled model is a base
    model: it continues "The Marlowe 300 is made" well, and echoes chat prompts)."""
    q = " ".join(tokens(question))
    start = f"The {entity}" if re.search(r"\d", entity) or entity.isupper() else entity
    return {
        "weight": f"{start} weighs",
        "money": f"{start} costs",
        "place": f"{start} is made in"
        if re.search(r"\b(made|built|produced|manufactured)\b", q)
        else f"{start} is from",
        "maker": f"{start} is made by",
        "date": f"{start} was released in",
        "length": f"{start} has a",
        "power": f"{start} has a",
        "number": f"{start} has",
    }.get(want.kind, f"{start} is")


def entity_form(subject: str, text: str) -> str:
    """The subject as the text writes it ("Marlowe 300" for the OCR's "MARLOWE 300")."""
    m = re.search(r"\b" + r"\s+".join(re.escape(w) for w in subject.split()) + r"\b", text, re.I)
    return m.group(0) if m else subject


def answers(sentence: str, want: Intent, subject: str = "") -> bool:
    """Does the sentence hold the kind of statement the question asks for?"""
    text = re.sub(r"\s*\[\d+(?:,\s*\d+)*\]", "", sentence)
    for name in want.patterns:
        m = PATTERNS[name].search(text)
        if not m:
            continue
        if name in ("maker", "place", "person") and subject:
            # the name found must not just be the subject's own name
            found = set(content_tokens(" ".join(re.findall(r"[A-Z][\w'\-]*", m.group(0)))))
            if found and found <= set(content_tokens(subject)):
                continue
        return True
    return False


def unsupported_names(text: str, source: str) -> list[str]:
    """Names and numbers in `text` (capitalised words after the first, words with digits) that the
    source never writes: what a small model makes up ("made in Porto, Portugal")."""
    have = {t.lower() for t in re.findall(r"[\w'\-]+", source)}
    words = re.findall(r"[\w'\-]+", re.sub(r"\s*\[\d+(?:,\s*\d+)*\]", "", text))
    out = []
    for i, w in enumerate(words):
        if (i > 0 and w[:1].isupper() or any(c.isdigit() for c in w)) and w.lower() not in have:
            out.append(w)
    return out


def repeats(text: str, n: int = 4) -> bool:
    """Does the text repeat a run of n words (the fragment soup a small model or a template makes)?"""
    words = tokens(text)
    seen: set[tuple[str, ...]] = set()
    for i in range(len(words) - n + 1):
        gram = tuple(words[i : i + n])
        if gram in seen:
            return True
        seen.add(gram)
    return False


@dataclass
class LocalKnowledge:
    """What the catalog already knows about the photo: named people, learned entities, printed text."""

    people: list[str] = field(default_factory=list)
    entities: list[dict] = field(default_factory=list)  # {"entity", "category", "facts"}
    words: list[str] = field(default_factory=list)

    def statements(self, want: Intent) -> list[str]:
        """Plain sentences of what is known locally, the ones the question asks about first."""
        out: list[str] = []
        if self.people:
            names = _join(self.people)
            out.append(f"This is {names}." if want.about_people else f"The photo shows {names}.")
        for e in self.entities[:2]:
            cat = e.get("category")
            out.append(f"The photo shows the {e['entity']}" + (f", {_article(cat)} {cat}." if cat else "."))
        if self.words and not self.entities:
            out.append(f'The photo reads "{" ".join(self.words[:12])}".')
        return out

    def answers(self, want: Intent) -> bool:
        """Does local knowledge alone answer the question (no web needed)?"""
        return want.about_people and bool(self.people)


def _join(names: list[str]) -> str:
    names = list(dict.fromkeys(names))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"
