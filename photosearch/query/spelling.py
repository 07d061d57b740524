"""Typos in a request's words: "flowrs" is read as "flowers", "mountians" as "mountains".

A word is corrected only when neither WordNet nor pyspellchecker's English word list knows it
("selfie", "lego", "capybara" stay as typed), and only to a noun WordNet knows, one edit away (a
letter dropped, added, changed or two swapped) and not rare; two edits only for long words
("helicopeter" is one edit, "restaurnat" one, "accomodation" two). The most frequent such word wins. What is typed
with a capital is a name and left alone; so is a name the library knows (a person, camera, folder,
album). The request says what it read: "“flowrs” was read as “flowers”".
"""

from __future__ import annotations

import functools
import re
import threading

#: Shorter words are too often something else one letter away ("cst": cat, cut, cost...).
MIN_LEN = 4
#: From this length a word may be two edits from what was meant.
TWO_EDITS_FROM = 8
#: A correction is a word seen at least this often in the word list's corpus: "giraf" is no "graf"
#: (a German count, seen 50 times; "narwhal" 221, "giraffe" 1501).
MIN_COUNT = 100

_VOWEL = re.compile(r"[aeiouy]")
_lock = threading.Lock()


@functools.cache
def _checker(distance: int):
    from spellchecker import SpellChecker

    with _lock:
        return SpellChecker(language="en", distance=distance)


def correction(word: str, known_names: frozenset[str] = frozenset()) -> str | None:
    """What a lower-case word was meant to be, or None when it is a word (or a name) as typed, or
    nothing close enough is a noun."""
    from photosearch.query.expansion import scenes, shared_wordnet

    w = word.lower()
    if w != word or len(w) < MIN_LEN or not w.isalpha() or w in known_names or not _VOWEL.search(w):
        return None  # a name, a short word or an abbreviation ("bbq", "nyc")
    wn = shared_wordnet()
    if wn is None or wn.base_forms(w) or wn.verb_forms(w) or wn.senses(w) or w in scenes():
        return None
    if w in _checker(1):  # an English word WordNet lacks ("selfie" is not: see `_noun`)
        return None
    distances = (1, 2) if len(w) >= TWO_EDITS_FROM else (1,)
    for distance in distances:
        checker = _checker(distance)
        nouns = [
            c for c in checker.candidates(w) or () if c != w and checker[c] >= MIN_COUNT and _noun(wn, c)
        ]
        if nouns:
            return max(sorted(nouns), key=lambda c: checker.word_usage_frequency(c))
    return None


def _noun(wn, word: str) -> bool:
    return bool(wn.base_forms(word))
