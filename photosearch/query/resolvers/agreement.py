"""Do the models that can name a concept agree on a photo? (abstention; `query/calibration.py`)

The detector (COCO classes), the tagger (ImageNet classes) and the scene model (Places365 scenes)
are three models. A label from one of them is a guess; where another model can name the same thing
too and says nothing of it on that photo, the guess is not corroborated: the detector's "elephant" on a dragon sculpture, its "pizza"
on a fish, the tagger's "laptop" on a solar panel. Such a photo is a closest match, not a
confident one. Words people wrote (keywords, captions, titles) and words read in the photo stand
on their own, and a concept only one model can name needs only that model.

A model can name a concept when one of its classes is the concept or a synonym of it (affinity at
least `NAMES_IT`), or, for the tagger, when its classes and their parents cover at least `COVERED`
of the concept's kinds in WordNet (a dog: most breeds are classes; a person: three kinds of
several hundred, so a photo of people needs no word from the tagger).

A model that cannot name the concept can still contradict the other's claim (`contradicted`): the
tagger has no "horse" class worth the name (one breed of several dozen), but when it is sure the
photo the detector calls a horse shows a wild boar and a hog, it has seen another animal.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

import numpy as np

from photosearch.models.labels import COCO_SPACE, IMAGENET_SPACE, PLACES_SPACE
from photosearch.query.expansion import ANIMAL, WEIGHT_ROUNDING, scene_routes, shared_wordnet
from photosearch.query.resolvers.distributions import (
    ClassSpace,
    class_name_index,
    class_spaces,
    label_synsets,
    top_classes,
)
from photosearch.query.resolvers.kinds import class_senses
from photosearch.query.resolvers.text import fold, naming_tokens
from photosearch.query.senses import read_senses

#: The labelling models: the fact kind each writes and the class space of its scores (None: it keeps
#: no scores of its own). The scene model names places (a beach, a kitchen, a windmill), which the
#: other two rarely can; the face model what a face looks like (a woman, a boy, a baby).
MODELS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "detector": (("object",), COCO_SPACE),
    "tagger": (("tag",), IMAGENET_SPACE),
    "scenes": (("scene",), PLACES_SPACE),
    "faces": (("face",), None),
}
#: A class at least this close to the concept (exact 1.0, synonym 0.9) names it.
NAMES_IT = 0.9
#: A scene word's route to one of the scene model's places at least this heavy ("snow" ≈ snowfield,
#: resources/scenes.yaml) says the scene model can name it.
PLACE_NAMES_IT = 0.8
#: Share of a concept's kinds (direct hyponyms) the tagger's classes must reach to name it.
COVERED = 0.4
#: A model agrees on a photo when its own evidence of the concept there is at least this: for the
#: detector the score at which it reports an object, for the tagger and the scene model a tenth of
#: their probability.
AGREES = {"detector": 0.4, "tagger": 0.1, "scenes": 0.1}
#: The tagger, where it says (next to) nothing of the concept, contradicts a claim when it gives at
#: least this much of its probability to rival classes: things of the concept's own kind in WordNet
#: (its lexicographer file: animals, plants, foods, made things, people) that are neither the
#: concept, a kind of it, nor what it is a kind of (0.46 "wild boar" + 0.43 "hog" on the photo the
#: detector calls a horse). Only a model whose scores share one belief can say "something else":
#: the detector scores each of its 80 classes on its own, and on a thing it has no class for it
#: reports the nearest one it has (an airplane on a hammer, skis on a screwdriver).
CONTRADICTS = 0.5
#: An animal's parent with at most this many kinds below it is its genus (`_family`; cattle 29,
#: ruminant 161).
GENUS_KINDS = 40

_covered_lock = threading.Lock()
_covered: dict[int, frozenset[int]] = {}


def models_agree(
    value: str,
    per_model: dict[str, np.ndarray],
    analysed: dict[str, np.ndarray],
    affinities: dict[str, float],
    ctx,
) -> np.ndarray:
    """Per photo: False where two models that can name `value` looked at the photo (`analysed`) and
    one of them says nothing of it (`per_model`: each model's own evidence per photo; `affinities`:
    each class space's best affinity to the concept)."""
    n = ctx.snapshot.n
    out = np.ones(n, bool)
    if "scenes" in per_model and _names_the_place(value, affinities, ctx):
        out &= ~analysed["scenes"] | (per_model["scenes"] >= AGREES["scenes"])
    naming = [m for m in MODELS if _names(m, value, affinities, ctx)]
    if len(naming) < 2 or _name_other_things(value, ctx):
        return out
    looked = np.sum([analysed[m] for m in naming], axis=0)
    silent = np.sum([analysed[m] & (per_model[m] < AGREES[m]) for m in naming], axis=0)
    return out & ((silent == 0) | (looked < 2))


def _names_the_place(value: str, affinities: dict[str, float], ctx) -> bool:
    """Whether `value` is a scene word the scene model has a place for: one of its scenes by name,
    or listed for the word in `resources/scenes.yaml` at `PLACE_NAMES_IT` ("snow" ≈ snowfield).
    Its photos need the scene model's word too: a detector's snowboard on an aerial photo of a
    coast, or a fridge in a shop, is no snow or kitchen where the scene model sees neither."""
    if affinities.get(PLACES_SPACE, 0.0) >= NAMES_IT - WEIGHT_ROUNDING:
        return True
    places = next((cs for cs in class_spaces(ctx.settings) if cs.space == PLACES_SPACE), None)
    if places is None:
        return False
    index = class_name_index(places)
    return any(
        r.weight >= PLACE_NAMES_IT - WEIGHT_ROUNDING
        and any(r.fits(places.names[c]) for c in index.get(r.term, ()))
        for r in scene_routes(fold(value))
    )


def _names(model: str, value: str, affinities: dict[str, float], ctx) -> bool:
    space = MODELS[model][1]
    if affinities.get(space, 0.0) >= NAMES_IT - WEIGHT_ROUNDING:
        return True
    if model != "tagger":
        return False
    known = label_synsets(ctx.settings)
    if not known:
        return False
    synset = concept_synset(value, ctx)
    return synset is not None and _coverage(synset, _covered_by(known)) >= COVERED


def _name_other_things(value: str, ctx) -> bool:
    """Whether two models' classes of this very name are other senses of it ("kite": the tagger's
    hawk, the detector's plaything flown in the wind): neither vouches for the other."""
    word = fold(value)
    senses = [
        {
            s
            for names in cs.names
            if any(fold(n) == word for n in names)
            for s in class_senses(names, cs.synsets.get(names))
        }
        for cs in class_spaces(ctx.settings)
    ]
    named = [s for s in senses if s]
    return any(not a & b for i, a in enumerate(named) for b in named[i + 1 :])


def concept_synset(value: str, ctx) -> int | None:
    """The WordNet sense the request means by the concept (the whole phrase, else its last word)."""
    wn = shared_wordnet()
    if wn is None:
        return None
    toks = naming_tokens(value)
    for word in dict.fromkeys([fold(value), *toks[-1:]]):
        offsets = wn.senses(word)
        if offsets:
            sense = ctx.sense_context(value)
            reading = read_senses(wn, word, offsets, sense.get("context", ""), sense.get("embed"))
            return reading.senses[0] if reading.senses else None
    return None


def _covered_by(known: dict[tuple[str, ...], int]) -> frozenset[int]:
    """The tagger's class synsets and every synset above them."""
    key = id(known)
    with _covered_lock:
        hit = _covered.get(key)
        if hit is None:
            wn = shared_wordnet()
            found: set[int] = set(known.values())
            for off in known.values():
                found.update(wn.ancestors(off))
            hit = _covered[key] = frozenset(found)
        return hit


@functools.lru_cache(maxsize=4096)
def _hyponyms(synset: int) -> tuple[int, ...]:
    return shared_wordnet().synset(synset).hyponyms


def _coverage(synset: int, covered: frozenset[int]) -> float:
    """The share of the synset's kinds that are tagger classes or above one (1.0: it is a class)."""
    if synset in covered and not _hyponyms(synset):
        return 1.0
    kinds = _hyponyms(synset)
    if not kinds:
        return 0.0
    return sum(k in covered for k in kinds) / len(kinds)


def contradicted(value: str, per_model: dict[str, np.ndarray], ctx) -> np.ndarray:
    """Per photo: True where the tagger, which has a class for `value` or for a kind of it, says less
    than it `AGREES` of it (`per_model`) and gives at least `CONTRADICTS` to rival classes."""
    out = np.zeros(ctx.snapshot.n, bool)
    synset = concept_synset(value, ctx)
    cs = next((c for c in class_spaces(ctx.settings) if c.space == IMAGENET_SPACE), None)
    top = top_classes(ctx, cs) if cs is not None and synset is not None else None
    rivals = _rivals(cs, synset) if top is not None else None
    if rivals is None or "tagger" not in per_model:
        return out
    rows, idx, prob = top
    strength = np.where(rivals[idx], prob, 0.0).sum(axis=1)
    out[rows] = (strength >= CONTRADICTS) & (per_model["tagger"][rows] < AGREES["tagger"])
    return out


@dataclass(frozen=True)
class _ClassTree:
    """A class space placed in WordNet once: each class's synset (-1 where unknown) and lexicographer
    file, and for every synset above a class the classes under it."""

    synset: np.ndarray
    lexfile: np.ndarray
    below: dict[int, np.ndarray]


_tree_lock = threading.Lock()
_trees: dict[tuple[str, int], _ClassTree] = {}


def _class_tree(cs: ClassSpace) -> _ClassTree:
    key = (cs.space, len(cs.names))
    with _tree_lock:
        if key not in _trees:
            wn = shared_wordnet()
            synsets = np.full(len(cs.names), -1, np.int64)
            lexfiles = np.full(len(cs.names), -1, np.int16)
            below: dict[int, list[int]] = {}
            for i, names in enumerate(cs.names):
                senses = class_senses(names, cs.synsets.get(names))
                if not senses:
                    continue
                synsets[i], lexfiles[i] = senses[0], wn.synset(senses[0]).lexfile
                for above in {senses[0], *wn.ancestors(senses[0])}:
                    below.setdefault(above, []).append(i)
            _trees[key] = _ClassTree(synsets, lexfiles, {a: np.array(v, np.intp) for a, v in below.items()})
        return _trees[key]


def _rivals(cs: ClassSpace, synset: int) -> np.ndarray | None:
    """Per class of `cs`: is it a rival of the concept `synset` (same lexicographer file, and neither
    is a kind of the other, nor of the concept's `_family`)? None when no class of `cs` is in the
    family: a model without a class for pigs (the detector) can only say what else a pig looks like,
    and that contradicts nothing. Classes WordNet cannot place are no rivals."""
    tree = _class_tree(cs)
    family = _family(tree, synset)
    if family is None:
        return None
    wn = shared_wordnet()
    kind_of_it = np.zeros(tree.synset.size, bool)
    kind_of_it[tree.below[family]] = True
    above_concept = np.isin(tree.synset, [synset, *wn.ancestors(synset), family])
    return (tree.lexfile == wn.synset(synset).lexfile) & ~above_concept & ~kind_of_it & (tree.synset >= 0)


def _family(tree: _ClassTree, synset: int) -> int | None:
    """The concept, where a class is it or a kind of it; else its genus, where a class is a kind of
    that: the tagger has no cow, but an ox, and both are cattle, so its sure "bison" says the
    detector's cow is none. A genus is an animal's narrow parent (at most `GENUS_KINDS` kinds below
    it): animals of one are built alike, while a made thing's or a place's parent groups by use (a
    kite and a ball are both playthings) and a broad one by descent (a giraffe and an ox are both
    ruminants)."""
    if tree.below.get(synset) is not None:
        return synset
    wn = shared_wordnet()
    if wn.synset(synset).lexfile != ANIMAL:
        return None
    parents = [
        p
        for p in wn.synset(synset).hypernyms
        if tree.below.get(p) is not None and len(wn.descendants(p, limit=GENUS_KINDS + 1)) <= GENUS_KINDS
    ]
    return parents[0] if parents else None
