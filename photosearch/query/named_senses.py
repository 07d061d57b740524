"""The sense a word takes inside a name: "mount rushmore" is a mountain, not WordNet's first mount,
a riding horse; "mount rainier", a name WordNet lacks, is a mountain as most of its "mount ..." are.
"""

from __future__ import annotations

import re
import weakref


def sense_a_name_means(wn, word: str, senses: tuple[int, ...], words: list[str]) -> int | None:
    """The sense of `word` that a noun of two to four words it is part of in the request (`words`)
    is, is a kind of, or is glossed by: "Mount Rushmore" is "a mountain in the Black Hills", so its
    "mount" is a mountain, not WordNet's first mount, a riding horse; a "hot dog"'s dog is the
    frankfurter, a "chest of drawers"' chest the furniture. None where the word is in no such noun,
    or none of its senses is what the noun is."""
    for i, w in enumerate(words):
        if w != word and word not in wn.base_forms(w):
            continue
        for size in NAME_SIZES:
            for start in range(max(0, i - size + 1), min(i, len(words) - size) + 1):
                for name in wn.senses(" ".join(words[start : start + size])):
                    if size > 2 and wn.synset(name).lexfile not in THINGS:
                        continue  # an idiom: "a snake in the grass" is a traitor, in words
                    sense = next((s for s in senses if _names_its_kind(wn, word, s, name)), None)
                    if sense is not None:
                        return sense
    return None


#: The lengths, in words, of the nouns a word may be part of ("hot dog", "chest of drawers", "lily of
#: the valley"); a noun of more than two words only where it is a thing (`THINGS`).
NAME_SIZES = (2, 3, 4)
#: WordNet's lexicographer files of things one can photograph: animal, artifact, food, object, plant.
THINGS = frozenset({5, 6, 13, 17, 20})


#: A word is a title when it heads this many of WordNet's names, this share of them in one sense.
TITLE_NAMES = 20
TITLE_SHARE = 2 / 3
#: Names looked at per word (evenly spread): WordNet has thousands of "genus ..." and "family ...".
TITLE_SAMPLE = 60
_titles: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # WordNet -> {word: title sense}


def sense_before_a_name(wn, word: str, senses: tuple[int, ...], words: list[str]) -> int | None:
    """The sense of a title before a name WordNet does not know: "mount rainier" is a mountain, as
    most of WordNet's "mount ..." are, not a riding horse. None for a word before a known word, or
    no title."""
    for i, w in enumerate(words[:-1]):
        after = words[i + 1]
        unknown = after.isalpha() and not wn.base_forms(after) and not wn.adjective_tagged(after)
        if unknown and (w == word or word in wn.base_forms(w)):
            return _title_sense(wn, word, senses)
    return None


def _title_sense(wn, word: str, senses: tuple[int, ...]) -> int | None:
    """The sense of `word` that most of WordNet's names headed by it are, if it heads enough."""
    known = _titles.setdefault(wn, {})
    if word not in known:
        names = wn.names_headed_by(word)
        sample = names[:: max(1, len(names) // TITLE_SAMPLE)]
        counts: dict[int, int] = {}
        for name in sample:
            sense = next((s for s in senses if _names_its_kind(wn, word, s, wn.lookup(name)[0])), None)
            if sense is not None:
                counts[sense] = counts.get(sense, 0) + 1
        best = max(counts, key=counts.__getitem__, default=None)
        enough = len(names) >= TITLE_NAMES and best is not None and counts[best] >= TITLE_SHARE * len(sample)
        known[word] = best if enough else None
    return known[word]


#: Words a gloss may open with before the noun it says the thing is ("a mountain in ...").
GLOSS_OPENERS = frozenset({"a", "an", "the", "any", "one"})


def _names_its_kind(wn, word: str, sense: int, name: int) -> bool:
    """Is the noun `name` this sense of `word`, a kind or a part of it ("Mount Everest" is a
    mountain peak, a mountain's), or glossed as one of its other names ("Mount Rushmore: a mountain
    in the Black Hills")?"""
    kinds = {name, *wn.ancestors(name)}
    if sense in kinds or any(sense in wn.synset(k).part_of for k in kinds):
        return True
    head = _gloss_head(wn, name)
    others = (n.lower().replace("_", " ") for n in wn.synset(sense).lemmas)
    return any(n == head for n in others if n != word)


def _gloss_head(wn, name: int) -> str:
    """The noun a gloss opens with, after an article and at most one more word ("a mountain in
    the Black Hills" -> "mountain"; "the highest mountain peak" -> "mountain peak"; "measuring
    instrument consisting of" -> "measuring instrument")."""
    gloss = re.sub(r"\([^)]*\)", " ", wn.synset(name).gloss.split(";")[0])  # "(astronomy) a ..."
    words = gloss.lower().replace(",", " ").split()
    words = words[1:] if words[:1] and words[0] in GLOSS_OPENERS else words
    for start in range(min(2, len(words))):
        for size in (3, 2, 1):
            phrase = " ".join(words[start : start + size])
            if len(phrase.split()) == size and wn.lookup(phrase):
                return phrase
    return ""
