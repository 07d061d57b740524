"""What may be cited: spam sentences removed, spam pages and off-topic (homonym) pages dropped.

Spam here is what search engines hand out for unknown names: keyword stuffing (one word over and
over), lists of names with no sentence around them ("Voltra Orbeline Quillby Tessaract cheap."),
shop boilerplate. Off-topic is a page that names the subject but is about something else (a yacht
called like the camera in the photo): judged against what the photo shows, relative to the other
evidence, so that a photo with nothing recognised keeps everything.
"""

from __future__ import annotations

import re
from collections import Counter

from photosearch.enrich.answering import PATTERNS
from photosearch.enrich.textutil import STOPWORDS, content_tokens, cosine_matrix, tokens
from photosearch.enrich.types import Page

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d[\d.,]*")
_SPAMMY = re.compile(
    r"\b(cheap|buy now|best price|discount|free shipping|casino|click here|order now|lowest price|"
    r"coupon|deal of the day|limited offer)\b",
    re.I,
)
_FUNCTION = STOPWORDS | {
    "has",
    "had",
    "be",
    "been",
    "but",
    "not",
    "all",
    "can",
    "its",
    "one",
    "per",
    "made",
    "built",
}


_QUANTITIES = tuple(PATTERNS[k] for k in ("weight", "length", "power", "money"))


def has_quantity(text: str) -> bool:
    """Does the text hold a number with a unit or a price ("19 kg", "504 Wh", "499 euros")?"""
    return any(p.search(text) for p in _QUANTITIES)


def spam_sentence(sentence: str) -> bool:
    """Keyword stuffing, a bare list of names, or shop boilerplate. Not spam: a Title Case headline or
    caption ("Halvorsen Optics Unveils Kestrel K7 Camera", "A, NASA Astronaut, Kennedy Space Center."),
    a spec line ("Battery Capacity 504 Wh") or a sentence that gives a quantity next to a shop phrase."""
    words = _WORD.findall(sentence)
    if len(words) < 3:
        return False
    toks = [w.lower() for w in words]
    function = sum(t in _FUNCTION for t in toks) / len(toks)
    quantity = has_quantity(sentence)
    shop = bool(_SPAMMY.search(sentence))
    caps = [w for w in words[1:] if w[0].isupper()]
    if (
        len(words) >= 4
        and len(caps) / (len(words) - 1) >= 0.6
        and function <= 0.1
        and not quantity
        and (shop or len(words) >= 12)  # a short Title Case line is a headline, not a name list
    ):
        return True  # "Voltra Orbeline Quillby Tessaract Marrowfen cheap."
    content = [t for t in toks if t not in _FUNCTION]
    if len(content) >= 6:
        top = Counter(content).most_common(1)[0][1]
        if top >= 3 and top / len(content) >= 0.25 or len(set(content)) / len(content) < 0.5:
            return True  # "voltaro voltaro best voltaro x9 voltaro deal"
    return shop and function < 0.25 and not quantity


def _lines(text: str) -> list[str]:
    out: list[str] = []
    for line in text.splitlines():
        out += [s for s in re.split(r"(?<=[.!?])\s+", line.strip()) if s.strip()]
    return out


def spam_page(text: str) -> bool:
    """Most of the page is spam sentences, or it is one long list of names/keywords."""
    units = _lines(text)
    if not units:
        return True
    spam = sum(spam_sentence(u) for u in units)
    if spam / len(units) >= 0.4:
        return True
    # a spec sheet's lines ("Weight 19 kg") hold no function words either: only the other lines count
    toks = tokens("\n".join(line for line in text.splitlines() if not has_quantity(line)))
    if len(toks) >= 30:
        function = sum(t in _FUNCTION for t in toks) / len(toks)
        if function < 0.08:
            return True  # no sentences at all: a name list or a tag cloud
        content = [t for t in toks if t not in _FUNCTION]
        if content and len(set(content)) / len(content) < 0.3:
            return True
    return False


def clean_page(page: Page) -> Page | None:
    """The page without its spam sentences; None when the page itself is spam."""
    if spam_page(page.text):
        return None
    kept = []
    for line in page.text.splitlines():
        parts = [s for s in re.split(r"(?<=[.!?])\s+", line.strip()) if s.strip() and not spam_sentence(s)]
        if parts:
            kept.append(" ".join(parts))
    text = "\n".join(kept)
    if not text.strip():
        return None
    return Page(url=page.url, title=page.title, text=text, bytes=page.bytes, kind=page.kind)


_STUB = re.compile(
    r"\b(?:enable javascript|javascript is (?:disabled|required)|turn on javascript|access denied|"
    r"you do not have permission|permission denied|forbidden|subscribe to (?:continue|read)|"
    r"subscribers only|already a subscriber|log in to (?:continue|read)|sign in to (?:continue|read)|"
    r"are you a robot|verify you are (?:a )?human|captcha|attention required|page not found|"
    r"checking your browser|not available in your (?:country|region))\b",
    re.I,
)


def useless_page(page: Page, subject: str) -> str | None:
    """Why a fetched page teaches nothing (its search result's snippet is used instead), or None:
    a paywall, script-only or access-denied stub, or a cleaned text that never names the subject."""
    clean = clean_page(page)
    if clean is None:
        return None  # spam: the filter drops it, snippet and all
    if _STUB.search(clean.text) and len(tokens(clean.text)) < 120:
        return "a paywall, script-only or access-denied page"
    if not names_subject(clean.text, subject):
        return "the page text does not name the object"
    return None


def names_subject(text: str, subject: str) -> bool:
    """Does the text name the subject (every word of a short name; two thirds of a long one)?"""
    want = set(content_tokens(subject))
    if not want:
        return True
    have = set(content_tokens(text))
    need = len(want) if len(want) <= 3 else -(-2 * len(want) // 3)
    return len(want & have) >= need


def definitions(doc: str, subject: str) -> list[str]:
    """What the doc says the subject is: "<subject> is a <phrase>" and a title's "(<phrase>)"."""
    words = subject.split()
    if not words:
        return []
    name = r"\s+".join(re.escape(w) for w in words)
    out = [
        m.group(1)
        for m in re.finditer(
            name
            + r"\s+(?:is|was|are)\s+(?:a|an|the)\s+((?:[\w-]+\s+){0,3}?[\w-]+?)(?=\s+(?:made|built|by|from|for|of|"
            r"in|on|and|that|which|with|used|released|designed)\b|\s*[.,;:()]|\s*$)",
            doc,
            re.I,
        )
    ]
    out += [m.group(1) for m in re.finditer(name + r"\s*\(([\w\s-]{2,30})\)", doc, re.I)]
    phrases = [o.strip().lower() for o in out if o.strip()]
    heads = [p.split()[-1] for p in phrases if len(p.split()) > 1]  # "folding e-bike" -> "e-bike"
    return list(dict.fromkeys(phrases + heads))


class TopicGuard:
    """Drops homonyms: a doc that says the subject is something (an album, a sailboat) far from what
    the photo shows (its labels and caption), compared with the best such statement met so far in
    the chain. Docs that define nothing are kept; so is everything when nothing is recognised."""

    def __init__(self, subject: str, context: str, embedder, *, margin: float = 0.15):
        self.subject_text = subject
        self.subject = set(content_tokens(subject))
        self.context = " ".join(t for t in content_tokens(context) if t not in self.subject)
        self.embedder = embedder
        self.margin = margin
        self.best = float("-inf")

    def similarity(self, doc: str) -> float | None:
        """How close what the doc says the subject is comes to what the photo shows (None: says nothing)."""
        if not self.context or self.embedder is None:
            return None
        phrases = [p for p in definitions(doc, self.subject_text) if set(content_tokens(p)) - self.subject]
        if not phrases:
            return None
        vecs = self.embedder.embed([self.context, *phrases])
        sim = float(cosine_matrix(vecs[:1], vecs[1:])[0].mean())
        self.best = max(self.best, sim)
        return sim

    def off_topic(self, sim: float | None) -> bool:
        """Against the best statement met so far (a homonym met first is caught when the right one comes)."""
        return sim is not None and sim < self.best - self.margin

    def keep(self, docs: list[str]) -> list[bool]:
        sims = [self.similarity(d) for d in docs]
        return [not self.off_topic(x) for x in sims]


def on_topic(docs: list[str], subject: str, context: str, embedder, *, margin: float = 0.15) -> list[bool]:
    """Which docs are about what the photo shows (one batch, no memory)."""
    return TopicGuard(subject, context, embedder, margin=margin).keep(docs)
