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

from photosearch.enrich.textutil import STOPWORDS, content_tokens, rank, tokens
from photosearch.enrich.types import Page

_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*|\d[\d.,]*")
_SPAMMY = re.compile(r"\b(cheap|buy now|best price|discount|free shipping|casino|click here|order now|lowest price|"
                     r"coupon|deal of the day|limited offer)\b", re.I)
_FUNCTION = STOPWORDS | {"has", "had", "be", "been", "but", "not", "all", "can", "its", "one", "per", "made", "built"}


def spam_sentence(sentence: str) -> bool:
    """Keyword stuffing, a bare list of names, or shop boilerplate."""
    words = _WORD.findall(sentence)
    if len(words) < 3:
        return False
    toks = [w.lower() for w in words]
    function = sum(t in _FUNCTION for t in toks) / len(toks)
    caps = [w for w in words[1:] if w[0].isupper()]
    if len(words) >= 4 and len(caps) / (len(words) - 1) >= 0.6 and function <= 0.1:
        return True  # "Voltra Orbeline Quillby Tessaract Marrowfen cheap."
    content = [t for t in toks if t not in _FUNCTION]
    if len(content) >= 6:
        top = Counter(content).most_common(1)[0][1]
        if top >= 3 and top / len(content) >= 0.25 or len(set(content)) / len(content) < 0.5:
            return True  # "voltaro voltaro best voltaro x9 voltaro deal"
    return bool(_SPAMMY.search(sentence) and function < 0.25)


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
    toks = tokens(text)
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


def names_subject(text: str, subject: str) -> bool:
    """Does the text name the subject (every word of a short name; two thirds of a long one)?"""
    want = set(content_tokens(subject))
    if not want:
        return True
    have = set(content_tokens(text))
    need = len(want) if len(want) <= 3 else -(-2 * len(want) // 3)
    return len(want & have) >= need


def on_topic(docs: list[str], subject: str, context: str, embedder, *, margin: float = 0.12,
             floor: float = 0.2) -> list[bool]:
    """Which docs are about what the photo shows: each doc's similarity to the photo's context (labels,
    caption; the subject's own words left out) must come within `margin` of the best doc's."""
    if len(docs) < 2:
        return [True] * len(docs)
    subj = set(content_tokens(subject))
    ctx = " ".join(t for t in content_tokens(context) if t not in subj)
    if not ctx:
        return [True] * len(docs)
    strip = [" ".join(t for t in tokens(d) if t not in subj) for d in docs]
    score = rank(ctx, strip, embedder)
    best = float(score.max())
    if best < floor:
        return [True] * len(docs)
    return [float(s) >= best - margin for s in score]
