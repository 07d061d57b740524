"""Do the models that can name a concept agree on a photo? (abstention; `query/calibration.py`)

The detector (COCO classes) and the tagger (ImageNet classes) are two models. A label from one of
them is a guess; where the other model can name the same thing too and says nothing of it on that
photo, the guess is not corroborated: the detector's "elephant" on a dragon sculpture, its "pizza"
on a fish, the tagger's "laptop" on a solar panel. Such a photo is a closest match, not a
confident one. Words people wrote (keywords, captions, titles) and words read in the photo stand
on their own, and a concept only one model can name needs only that model.

A model can name a concept when one of its classes is the concept or a synonym of it (affinity at
least `NAMES_IT`), or, for the tagger, when its classes and their parents cover at least `COVERED`
of the concept's kinds in WordNet (a dog: most breeds are classes; a person: three kinds of
several hundred, so a photo of people needs no word from the tagger).
"""

from __future__ import annotations

import functools
import threading

import numpy as np

from photosearch.models.labels import COCO_SPACE, IMAGENET_SPACE
from photosearch.query.expansion import WEIGHT_ROUNDING, shared_wordnet
from photosearch.query.resolvers.distributions import label_synsets
from photosearch.query.resolvers.text import fold, naming_tokens
from photosearch.query.senses import read_senses

#: The two labelling models: the fact kind each writes and the class space of its scores.
MODELS = {"detector": (("object",), COCO_SPACE), "tagger": (("tag",), IMAGENET_SPACE)}
#: A class at least this close to the concept (exact 1.0, synonym 0.9) names it.
NAMES_IT = 0.9
#: Share of a concept's kinds (direct hyponyms) the tagger's classes must reach to name it.
COVERED = 0.4
#: A model agrees on a photo when its own evidence of the concept there is at least this: for the
#: detector the score at which it reports an object, for the tagger a tenth of its probability.
AGREES = {"detector": 0.4, "tagger": 0.1}

_covered_lock = threading.Lock()
_covered: dict[int, frozenset[int]] = {}


def models_agree(
    value: str,
    per_model: dict[str, np.ndarray],
    analysed: dict[str, np.ndarray],
    affinities: dict[str, float],
    ctx,
) -> np.ndarray:
    """Per photo: False where both models looked at the photo (`analysed`), both can name `value`,
    and one of them says nothing of it (`per_model`: each model's own evidence per photo;
    `affinities`: each class space's best affinity to the concept)."""
    n = ctx.snapshot.n
    naming = [m for m in MODELS if _names(m, value, affinities, ctx)]
    if len(naming) < 2:
        return np.ones(n, bool)
    both_looked = np.all([analysed[m] for m in naming], axis=0)
    agreed = np.all([per_model[m] >= AGREES[m] for m in naming], axis=0)
    return agreed | ~both_looked


def _names(model: str, value: str, affinities: dict[str, float], ctx) -> bool:
    space = MODELS[model][1]
    if affinities.get(space, 0.0) >= NAMES_IT - WEIGHT_ROUNDING:
        return True
    if model != "tagger":
        return False
    known = label_synsets(ctx.settings)
    if not known:
        return False
    synset = _concept_synset(value, ctx)
    return synset is not None and _coverage(synset, _covered_by(known)) >= COVERED


def _concept_synset(value: str, ctx) -> int | None:
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
