"""Small text helpers for matching query words against fact labels (folding, tokens, fuzzy)."""

from __future__ import annotations

import re
import unicodedata

from photosearch.query.lexicon import QUANTITY_WORDS

_TOKEN = re.compile(r"[0-9a-z]+(?:['’][a-z]+)?")

STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "and",
        "or",
        "with",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "my",
        "our",
        "your",
        "their",
        "his",
        "her",
        "its",
        "is",
        "are",
        "be",
        "this",
        "that",
        "these",
        "those",
        "some",
        "any",
        "photo",
        "photos",
        "picture",
        "pictures",
        "pic",
        "pics",
        "image",
        "images",
        "shot",
        "shots",
    ]
)


def fold(text: str) -> str:
    """Lower case, accents removed ("Zürich" -> "zurich")."""
    norm = unicodedata.normalize("NFKD", str(text))
    return "".join(c for c in norm if not unicodedata.combining(c)).lower().strip()


def stem(word: str) -> str:
    """A light plural stemmer: dogs->dog, boxes->box, puppies->puppy, glasses->glass."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokens(text: str) -> list[str]:
    """Folded, stemmed word tokens."""
    return [stemmed for _word, stemmed in _words(text)]


def _words(text: str) -> list[tuple[str, str]]:
    """Each folded word beside its stemmed token: ("woods", "wood")."""
    return [(w, stem(w)) for w in _TOKEN.findall(fold(text).replace("_", " "))]


def _content_words(text: str) -> list[tuple[str, str]]:
    """`_words` without stop words (all of them when only stop words are left)."""
    words = _words(text)
    return [(w, t) for w, t in words if t not in STOP_WORDS] or words


def content_tokens(text: str) -> list[str]:
    """Tokens without stop words (falls back to all tokens when only stop words are left)."""
    return [stemmed for _word, stemmed in _content_words(text)]


def naming_tokens(text: str) -> list[str]:
    """The content tokens that name what is shown, without words of quantity ("two", "herd"; all
    content tokens when nothing else is left). Digits stay: they may be written in the photo."""
    return [stemmed for _word, stemmed in naming_words(text)]


def naming_words(text: str) -> list[tuple[str, str]]:
    """`naming_tokens` beside the words they were stemmed from: ("woods", "wood")."""
    content = _content_words(text)
    return [(w, t) for w, t in content if t not in QUANTITY_WORDS] or content


def within_edits(a: str, b: str, max_edits: int) -> bool:
    """Levenshtein distance(a, b) <= max_edits, with an early exit (banded DP)."""
    if abs(len(a) - len(b)) > max_edits:
        return False
    if a == b:
        return True
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        best = cur[0]
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            best = min(best, cur[j])
        if best > max_edits:
            return False
        prev = cur
    return prev[-1] <= max_edits


def fuzzy_budget(word: str) -> int:
    """How many OCR errors a word of this length may carry."""
    n = len(word)
    return 0 if n < 4 else 1 if n < 8 else 2
