"""Class names of several words: is a request word what the class is, or only a word it shares?

A model's class name of several words is an English compound: its head (the last word, or the one
before "of") says what the thing is, the words before it narrow it down. "sea lion" is no lion's
kind but a seal, a "water ouzel" is a bird, an "ice bear" is a bear. A request word found only among
the modifiers is evidence of the class when the class's WordNet gloss speaks of it too ("tennis
racket": "a racket used to play tennis"; "beer glass": "a glass for serving beer"), and only a shared
word otherwise ("water ouzel": "small stocky diving bird ... frequents fast streams").
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from photosearch.query.expansion import ANIMAL, ARTIFACT, shared_wordnet
from photosearch.query.resolvers.kinds import class_senses
from photosearch.query.resolvers.text import tokens

#: What a request word that only modifies a class name (and its gloss does not speak of) counts of
#: that class's evidence: it still ranks ("water" lists the water ouzel), never alone confidently.
MODIFIER_WEIGHT = 0.4
#: The route such a label is reached by (`why`: "water ≈ water ouzel (shared word)"); like a broader
#: class, it is no evidence that the photo shows what was asked (`concept._without_broader`).
SHARED_WORD = "shared word"


def head_word(name: str) -> str:
    """The token a compound name is about: its last ("sea lion": lion), or the one before "of"
    ("hen-of-the-woods": hen)."""
    words = tokens(name.replace("-", " "))
    if "of" in words[1:]:
        return words[words.index("of", 1) - 1]
    return words[-1] if words else ""


def only_modifies(token: str, names: Iterable[str]) -> bool:
    """Is `token` in some of one class's names, and the head of none?"""
    names = list(names)
    if any(head_word(nm) == token for nm in names):
        return False
    return any(token in tokens(nm.replace("-", " ")) for nm in names)


@functools.lru_cache(maxsize=8192)
def _gloss_tokens(names: tuple[str, ...], offset: int | None) -> frozenset[str]:
    """The tokens of the class's WordNet gloss: its synset's, else the first noun sense of a name."""
    wn = shared_wordnet()
    if wn is None:
        return frozenset()
    offsets = [offset] if offset is not None else [o for nm in names for o in wn.lookup(nm)[:1]]
    out: set[str] = set()
    for o in offsets[:1]:
        try:
            out.update(tokens(wn.synset(o).gloss.replace("-", " ")))
        except Exception:  # noqa: BLE001 - a damaged WordNet file: no gloss, the word only modifies
            return frozenset()
    return frozenset(out)


def clipped(token: str, names: tuple[str, ...], offset: int | None = None) -> bool:
    """Is a name of the class that is `token` alone only a clipping of its compound name ("toy" of
    "toy dog", "bullet" of "bullet train"), the class not being what the word first means (WordNet's
    first sense of "toy" is a plaything, of "bullet" a projectile; "remote" is first a remote control)?"""
    if not any(token in tokens(nm.replace("-", " "))[:-1] for nm in names if " " in nm.strip()):
        return False
    wn = shared_wordnet()
    if wn is None:
        return False
    senses = wn.senses(token)
    if offset is None:
        offset = next((o for nm in names if " " in nm.strip() for o in wn.lookup(nm)[:1]), None)
    return bool(senses) and offset is not None and senses[0] != offset


def _one_thing_for_another(token: str, names: tuple[str, ...], offset: int | None) -> bool:
    """Are the word and the class both made things ("pencil" and "pencil sharpener", "car" and "car
    wheel"), or both animals the class is no kind of ("bee" and "bee eater", a bird whose gloss
    says it feeds on bees)? Then the class is for, or of, the word's thing, not one: a sharpener is
    no pencil, a bee eater no bee. Of an activity, a food or a group the gloss still decides
    ("tennis" and "tennis racket", "beer" and "beer glass", "police" and "police van")."""
    wn = shared_wordnet()
    if wn is None:
        return False
    senses, classes = wn.senses(token), class_senses(names, offset)
    if not senses or not classes:
        return False
    kinds = wn.synset(senses[0]).lexfile, wn.synset(classes[0]).lexfile
    if kinds == (ANIMAL, ANIMAL):
        return senses[0] not in wn.ancestors(classes[0])
    return kinds == (ARTIFACT, ARTIFACT)


def shares_only_a_word(token: str, names: tuple[str, ...], offset: int | None = None) -> bool:
    """Is `token` only a modifier of the class (`names`; `offset` its WordNet synset when known)
    that its gloss does not speak of, or a made thing the class is made for: a word the names share
    with the request, not its meaning? A name that only clips the compound (`clipped`) does not
    make the token its head."""
    names = tuple(names)
    if any(tokens(nm) == [token] for nm in names) and clipped(token, names, offset):
        names = tuple(nm for nm in names if tokens(nm) != [token])
    if not only_modifies(token, names):
        return False
    return token not in _gloss_tokens(names, offset) or _one_thing_for_another(token, names, offset)


@functools.lru_cache(maxsize=4096)
def is_compound_noun(phrase: str) -> bool:
    """Whether a request of several words is itself one WordNet noun ("water bird", "police car",
    "pine tree"): its words before the head only narrow it down, and by themselves name nothing of
    it ("water" ≈ a lake does not make an eagle by a lake a water bird)."""
    wn = shared_wordnet()
    return " " in phrase.strip() and wn is not None and bool(wn.senses(phrase))
