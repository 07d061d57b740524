"""Is a model's class another kind of thing than the word a request names?

Class names whose text embedding lies near a request word ("wrench" and "screwdriver", "duck" and
"goose", "cat" and "dog") rank as the closest matches when no class names the word. When WordNet
knows both the word and the class and neither is a kind of the other, they are siblings: a
screwdriver is no wrench, so such a class alone is no evidence that the photo shows what was asked.
A word WordNet does not know, or a class it cannot place, is left to the embedding.
"""

from __future__ import annotations

import functools

from photosearch.query.expansion import shared_wordnet


@functools.lru_cache(maxsize=4096)
def _word_senses(word: str) -> tuple[int, ...]:
    wn = shared_wordnet()
    if wn is None:
        return ()
    return wn.senses(word)


@functools.lru_cache(maxsize=16384)
def _lineage(offset: int) -> frozenset[int]:
    """The synset and all its hypernyms."""
    wn = shared_wordnet()
    return frozenset({offset, *wn.ancestors(offset)}) if wn is not None else frozenset({offset})


def class_senses(names: tuple[str, ...], offset: int | None) -> tuple[int, ...]:
    """The class's synset where known, else the first noun sense of each of its names."""
    if offset is not None:
        return (offset,)
    wn = shared_wordnet()
    if wn is None:
        return ()
    return tuple(o for nm in names for o in wn.lookup(nm)[:1])


def another_kind(word: str, names: tuple[str, ...], offset: int | None = None) -> bool:
    """True when WordNet knows `word` and the class (`names`, `offset` its synset when known), and
    no sense of the word is the class, a kind of it, or a kind it has."""
    senses = _word_senses(word)
    classes = class_senses(tuple(names), offset)
    if not senses or not classes:
        return False
    for c in classes:
        above_class = _lineage(c)
        if any(s in above_class or c in _lineage(s) for s in senses):
            return False
    return True
