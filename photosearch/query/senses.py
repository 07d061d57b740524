"""Senses, not strings: what role a request word plays and which of its senses the request means.

* Colour words are attributes of the photo ("red car", "not purple", "black and white"): the parser
  routes them to the `color` atom (the colours measured at index time), never to WordNet nouns
  ("black" is also a person in WordNet; a search must never read it so).
* Nationality words and other adjective-first words ("french bakery", "old bridge") describe
  something: they are matched as written, never expanded through their noun senses (a
  nationality's noun sense is a person).
* A noun with several senses is read in the sense the request's other words point to
  ("mouse" beside "keyboard" is the computer mouse, "in the grass" the rodent): each sense's
  gloss and lemmas are compared with the request's other words through the MiniLM text
  embedder; without context (or without the embedder) the dominant (most frequent) sense leads.
  A person sense is followed only when it is the word's dominant sense, or the context picks it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: WordNet 3.0's offset of person.n.01 (a human being).
PERSON_OFFSET = 7846

def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Colour words → the colour name the quality analyzer writes (`vision.quality.COLOR_NAMES`).
COLOUR_WORDS: dict[str, str] = {
    "black": "black",
    "white": "white",
    "gray": "gray",
    "grey": "gray",
    "silver": "gray",
    "red": "red",
    "crimson": "red",
    "scarlet": "red",
    "maroon": "red",
    "orange": "orange",
    "brown": "brown",
    "beige": "brown",
    "tan": "brown",
    "yellow": "yellow",
    "golden": "yellow",
    "green": "green",
    "teal": "teal",
    "turquoise": "teal",
    "cyan": "teal",
    "blue": "blue",
    "navy": "blue",
    "azure": "blue",
    "purple": "purple",
    "violet": "purple",
    "lilac": "purple",
    "lavender": "purple",
    "magenta": "pink",
    "pink": "pink",
}
#: Colour words that are also common things ("an orange", "a rose"): colours only before a noun,
#: after "not"/"no", or after "is"/"are" ("flowers that are orange").
AMBIGUOUS_COLOURS = frozenset({"orange", "silver", "golden", "tan", "navy", "violet", "lilac", "lavender"})
#: The colour atom's value for a photo without colour (black and white, greyscale).
MONOCHROME = "monochrome"
MONOCHROME_PHRASES = (
    "black and white",
    "black & white",
    "black-and-white",
    "b&w",
    "b/w",
    "monochrome",
    "monochromatic",
    "greyscale",
    "grayscale",
    "grey scale",
    "gray scale",
)

#: Nationality and regional adjectives (they describe food, buildings, flags...; never a person).
NATIONALITY_WORDS = _words(
    """
    afghan african albanian algerian american arab arabian argentinian argentine armenian asian
    australian austrian bangladeshi belgian bolivian bosnian brazilian british bulgarian burmese
    cambodian canadian caribbean chilean chinese colombian congolese croatian cuban cypriot czech
    danish dominican dutch ecuadorian egyptian english estonian ethiopian european filipino finnish
    french georgian german ghanaian greek guatemalan haitian hawaiian hungarian icelandic indian
    indonesian iranian iraqi irish israeli italian jamaican japanese jordanian kenyan korean kurdish
    laotian latin latvian lebanese libyan lithuanian malaysian maltese mexican mongolian moroccan
    nepalese nepali nigerian nordic norwegian pakistani palestinian panamanian persian peruvian polish
    portuguese romanian russian saudi scandinavian scottish senegalese serbian sicilian singaporean
    slovak slovenian somali spanish sudanese swedish swiss syrian taiwanese tanzanian thai tibetan
    tunisian turkish ugandan ukrainian uruguayan venezuelan vietnamese welsh yemeni
    """
)


def colour_of(word: str) -> str | None:
    """The colour name a colour word means (None: not a colour word)."""
    return COLOUR_WORDS.get(word.lower())


def role(word: str, wn=None) -> str:
    """ "colour", "nationality", "adjective" (more often an adjective than a noun in WordNet's
    tagged corpus, e.g. "old", "dark") or "noun"."""
    w = word.lower().strip()
    if w in COLOUR_WORDS:
        return "colour"
    if w in NATIONALITY_WORDS:
        return "nationality"
    if wn is not None and " " not in w and _adjective_first(wn, w):
        return "adjective"
    return "noun"


def _adjective_first(wn, word: str) -> bool:
    adj = wn.adjective_tagged(word)
    return adj > 0 and adj > wn.tagged_senses(word)


def is_person_sense(wn, offset: int) -> bool:
    """Whether a noun synset is a person (person.n.01 or a kind of person)."""
    return offset == PERSON_OFFSET or PERSON_OFFSET in wn.ancestors(offset)


# ----------------------------------------------------------------------------- sense by context

#: The context's similarity to a sense must beat the dominant sense's by this much to lead.
CONTEXT_MARGIN = 0.04
Embed = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True)
class Reading:
    """The senses of a word to follow, best first (WordNet offsets), and how they were chosen."""

    word: str
    senses: tuple[int, ...]
    by: str  # "dominant" | "context"


_gloss_cache: dict[tuple[int, ...], np.ndarray] = {}
_gloss_lock = threading.Lock()


def _sense_text(syn) -> str:
    return f"{', '.join(syn.names[:3])}: {syn.gloss.split(';')[0]}"


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(n == 0, 1, n)


def read_senses(
    wn, word: str, offsets: tuple[int, ...], context: str = "", embed: Embed | None = None
) -> Reading:
    """Order `word`'s noun senses for this request: the one its `context` points to first, else
    the dominant one; person senses other than the leading one are dropped."""
    if not offsets:
        return Reading(word, (), "dominant")
    lead, by = offsets[0], "dominant"
    context = " ".join(w for w in context.lower().split() if w != word.lower())
    if context and embed is not None and len(offsets) > 1:
        key = offsets
        with _gloss_lock:
            glosses = _gloss_cache.get(key)
        if glosses is None:
            glosses = _unit(embed([_sense_text(wn.synset(o)) for o in offsets]))
            with _gloss_lock:
                _gloss_cache[key] = glosses
        ctx = _unit(embed([f"{word} {context}"]))[0]
        sims = glosses @ ctx
        order = np.argsort(-sims, kind="stable")
        best, runner_up = int(order[0]), int(order[1])
        # the dominant sense keeps the lead unless another beats it clearly; a clear winner is the
        # only sense followed
        if sims[best] - sims[0 if best else runner_up] >= CONTEXT_MARGIN:
            lead, by = offsets[best], "context"
    if by == "context":
        return Reading(word, (lead,), by)  # the context chose: the other senses are not meant
    rest = tuple(o for o in offsets if o != lead and not is_person_sense(wn, o))
    return Reading(word, (lead, *rest), by)
