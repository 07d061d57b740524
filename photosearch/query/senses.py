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
* A word inside a name takes the sense the name is (`query.named_senses`): "mount rushmore" is a
  mountain, no riding horse.
* A photo shows things: a shape gives way to a thing the word also names ("space"), and a thing the
  photo models label (or a kind above one) leads a person sense ("tiger", "chameleon") and is not
  given up for a sense a few words of context barely point to ("my dog at the park": no pawl).
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from photosearch.models.labels import model_class_synsets
from photosearch.query.demonyms import demonym_places
from photosearch.query.named_senses import sense_a_name_means, sense_before_a_name

#: WordNet 3.0's offsets of person.n.01 (a human being) and physical_entity.n.01.
PERSON_OFFSET = 7846
PHYSICAL_OFFSET = 1930
#: WordNet's lexicographer file of shapes (noun.shape): how a thing looks, not a thing.
SHAPE_LEXFILE = 25
#: WordNet 3.0's offsets of produce.n.01 (fruit and vegetables) and edible_nut.n.01: what one eats...
PRODUCE_OFFSETS = frozenset({7705711, 7737081})
#: ...and of plant.n.02 and wood.n.01: the tree, vine or shrub it grows on, and its timber.
GROWER_OFFSETS = frozenset({17222, 15098161})
#: A leading sense produce of the same name goes before: its plant or wood, or a person ("date").
GROWER_OR_PERSON = GROWER_OFFSETS | {PERSON_OFFSET}
#: person.n.01 alone, as `_a_kind_of` takes it.
PERSON_KINDS = frozenset({PERSON_OFFSET})
#: dog.n.01 ("a member of the genus Canis"): every breed is a kind of it.
DOG_KINDS = frozenset({2084071})


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
) | frozenset(w for w in demonym_places() if " " not in w)  # "balinese", "tuscan" (resources/demonyms.yaml)


def colour_of(word: str) -> str | None:
    """The colour name a colour word means (None: not a colour word)."""
    return COLOUR_WORDS.get(word.lower())


#: WordNet 3.0's offset of color.n.01: the colour senses of "olive", "peach", "coral" are kinds of it.
COLOUR_KINDS = frozenset({4956594})
#: A colour word in a gloss, and the one a hyphen joins it to ("yellow-green" is a green).
_GLOSS_COLOUR = re.compile(r"\b(" + "|".join(sorted(COLOUR_WORDS, key=len, reverse=True)) + r")\b(?:-(\w+))?")


def shade_colour(wn, word: str) -> str | None:
    """The colour a shade word names by WordNet's colour sense of it: "peach" ("a shade of pink
    tinged with yellow") is pink, "olive" ("a yellow-green color") green, "burgundy" red; None where
    the word has no colour sense ("cream", "forest")."""
    for offset in wn.lookup(word.lower().replace(" ", "_")):
        if not _a_kind_of(wn, offset, COLOUR_KINDS):
            continue
        for m in _GLOSS_COLOUR.finditer(wn.synset(offset).gloss.split(";")[0]):
            head = m.group(2) if m.group(2) in COLOUR_WORDS else m.group(1)
            return COLOUR_WORDS[head]
    return None


def is_a_shade(wn, word: str, colour: str) -> bool:
    """Whether the word before a colour word names a shade of it: a colour sense of its own
    ("olive green", "wine red", "coral pink"), or a WordNet colour or adjective of the two words
    ("sky-blue", "blood-red", "pitch black", "powder blue")."""
    joined = f"{word}_{colour}"
    return (
        shade_colour(wn, word) is not None
        or shade_colour(wn, joined) is not None
        or wn.is_adjective(f"{word}-{colour}")
    )


def role(word: str, wn=None) -> str:
    """ "colour", "nationality", "adjective" (more often an adjective than a noun in WordNet's
    tagged corpus, e.g. "old", "dark", and naming nothing the photo models label) or "noun"."""
    w = word.lower().strip()
    if w in COLOUR_WORDS:
        return "colour"
    if w in NATIONALITY_WORDS:
        return "nationality"
    if wn is not None and " " not in w and _adjective_first(wn, w):
        return "adjective"
    return "noun"


def _adjective_first(wn, word: str) -> bool:
    """More often an adjective, and no thing the photo models label: "husky" alone is the sled dog
    (a tagger class), "remote" the remote control, while "old" and "dark" describe."""
    adj = wn.adjective_tagged(word)
    if not (adj > 0 and adj > wn.tagged_senses(word)):
        return False
    classes = model_class_synsets()
    return not any(o in classes for o in wn.lookup(word))


def _a_kind_of(wn, offset: int, kinds: frozenset[int]) -> bool:
    """Whether a noun synset is one of `kinds` or a kind of one of them."""
    if offset in kinds:
        return True
    ancestors = wn.ancestors(offset)
    return any(kind in ancestors for kind in kinds)


def names_a_dog(wn, word: str) -> bool:
    """Whether one of the word's noun senses is a dog or a breed of dog ("beagle", "terrier")."""
    return wn is not None and any(_a_kind_of(wn, o, DOG_KINDS) for o in wn.lookup(word))


def is_person_sense(wn, offset: int) -> bool:
    """Whether a noun synset is a person (person.n.01 or a kind of person)."""
    return _a_kind_of(wn, offset, PERSON_KINDS)


# ----------------------------------------------------------------------------- sense by context

#: The context's similarity to a sense must beat the dominant sense's by this much to lead.
CONTEXT_MARGIN = 0.06
Embed = Callable[[list[str]], np.ndarray]


@dataclass(frozen=True)
class Reading:
    """The senses of a word to follow, best first (WordNet offsets), and how they were chosen."""

    word: str
    senses: tuple[int, ...]
    by: str  # "dominant" | "context" | "literal" (a sense WordNet lacks: matched as written)


#: Things WordNet knows only in another sense, with the words that call for the missing one: in
#: that company the word is read as written (its name and the photos' own evidence), never through
#: WordNet ("jaguar" beside "car" is the car, not the big cat).
MISSING_SENSES: dict[str, frozenset[str]] = {
    "jaguar": _words("car cars vehicle logo badge sedan coupe dealership"),
    "mustang": _words("car cars vehicle ford convertible logo"),
    "beetle": _words("car cars volkswagen vw vehicle van"),
    "puma": _words("shoe shoes sneaker sneakers trainers logo jacket shirt"),
    "corona": _words("beer bottle bottles lime drink"),
    "apple": _words("logo store laptop macbook iphone phone watch keyboard"),
    "blackberry": _words("phone keyboard smartphone"),
    "caterpillar": _words("excavator bulldozer digger tractor machine machinery construction"),
    "tesla": _words("car cars vehicle charger model"),
    "mercedes": _words("car cars vehicle star logo"),
}

_gloss_cache: dict[tuple[int, ...], np.ndarray] = {}
_gloss_lock = threading.Lock()


def _sense_text(wn, syn) -> str:
    """ "mouse, computer mouse, a kind of electronic device: a hand-operated ..." """
    kinds = ", ".join(wn.synset(h).name for h in syn.hypernyms[:2])
    return f"{', '.join(syn.names[:3])}, a kind of {kinds}: {syn.gloss.split(';')[0]}"


def is_physical(wn, offset: int) -> bool:
    """Whether a sense is a physical thing (physical_entity.n.01 or below): what a photo can show."""
    return PHYSICAL_OFFSET in wn.ancestors(offset)


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(n == 0, 1, n)


def is_proper(wn, word: str, offset: int) -> bool:
    """Whether `word` names this sense only as a proper noun ("Crane" the writer, "Turkey")."""
    lemmas = [lemma for lemma in wn.synset(offset).lemmas if lemma.lower().replace("_", " ") == word]
    return bool(lemmas) and all(lemma[:1].isupper() for lemma in lemmas)


#: How WordNet's glosses mark a slur ("offensive term for ...", "(ethnic slur) ...").
_OFFENSIVE = re.compile(
    r"ethnic slur|offensive (?:term|name|word)|(?:disparaging|derogatory|contemptuous) (?:term|name|word)"
    r"|considered offensive|offensive and derogatory"
)


def is_offensive(wn, offset: int) -> bool:
    """Whether WordNet marks the sense as a slur: never what a request means ("fairy lights" are no
    slur for a gay man, WordNet's only physical "fairy"), never shown."""
    return _OFFENSIVE.search(wn.synset(offset).gloss) is not None


def names_one_thing(wn, word: str) -> bool:
    """Whether every sense of `word` is a proper noun: one named thing ("vesuvius", "eiffel"), of
    which its class ("volcano") is never the thing itself."""
    offsets = wn.senses(word)
    return bool(offsets) and all(is_proper(wn, word.lower(), o) for o in offsets)


def read_senses(
    wn, word: str, offsets: tuple[int, ...], context: str = "", embed: Embed | None = None
) -> Reading:
    """Order `word`'s noun senses for this request: the one its `context` points to first, else
    the dominant one. A lower-case word's proper-noun senses are dropped (unless it has no other);
    abstract senses are dropped where the word has physical ones ("table" is also a table of data,
    "plant" a plan of action), and shapes where it names a thing ("space"); person senses where the
    leading sense is not a person, which is a thing the photo models label where WordNet's first
    sense is a person ("tiger"). A word inside a name takes the name's sense ("mount rushmore")."""
    word = word.lower()
    others = [w for w in context.lower().split() if w != word]
    if word in MISSING_SENSES and MISSING_SENSES[word] & set(others):
        return Reading(word, (), "literal")
    words = context.lower().split() if others else []
    named = sense_a_name_means(wn, word, offsets, words)
    if named is None:  # a title names a thing: "family bbq" is no taxonomic family
        named = sense_before_a_name(wn, word, offsets, words)
        named = named if named is not None and is_physical(wn, named) else None
    if named is not None:
        return Reading(word, (named,), "context")
    offsets = tuple(o for o in offsets if not is_offensive(wn, o))  # "fairy lights": no slur
    common = tuple(o for o in offsets if not is_proper(wn, word, o)) or offsets
    if not common:
        return Reading(word, (), "dominant")
    common = tuple(o for o in common if is_physical(wn, o)) or common  # what a photo can show
    common = _things_not_shapes(wn, common)
    people = is_person_sense(wn, common[0])  # its person senses stay for the context to choose
    common = _the_fruit_not_its_tree(wn, common)
    common = _a_labelled_thing_first(wn, word, common)
    candidates = tuple(o for i, o in enumerate(common) if i == 0 or people or not is_person_sense(wn, o))
    contenders = _contenders(wn, candidates, people)
    if others and embed is not None and len(contenders) > 1:
        chosen = _by_context(wn, contenders, " ".join(others), embed)
        if chosen and not _settled_by_use(wn, word, contenders[0], chosen[0]):
            return Reading(word, chosen, "context")
    if people and not is_person_sense(wn, common[0]):  # the labelled thing leads: no person follows
        candidates = tuple(o for o in candidates if not is_person_sense(wn, o))
    return Reading(word, _without_its_tree(wn, candidates), "dominant")


#: A sense WordNet's tagged corpus used at least this often stays first where the sense a request's
#: other words point to was never used (`SETTLED_USES`), or was never used and is no thing the photo
#: models label (`SETTLED_AGAINST_UNLABELLED`): a few words of context are a weak signal.
SETTLED_USES = 30
SETTLED_AGAINST_UNLABELLED = 10
#: ...and, used at least `SETTLED_AGAINST_UNLABELLED` times, against one used this many times less
#: that no model labels.
SETTLED_RATIO = 5


def _settled_by_use(wn, word: str, leading: int, chosen: int) -> bool:
    """Whether the leading sense is used so much more than the chosen one that a few words of context
    do not overturn it: "houses, not wooden ones" read the house as a theater (used 0 times against
    the dwelling's 157), "kids playing in the snow" the snow as cocaine (0 against 13). The computer
    mouse beside a keyboard (0 uses against the rodent's 14, but a thing the models label) and the
    chest of drawers (1 against the thorax's 34) are still read by their context."""
    if leading == chosen:
        return False
    uses = _sense_uses(wn, word)  # "houses": the house's senses
    most, chosen_uses = uses.get(leading, 0), uses.get(chosen, 0)
    if most < SETTLED_AGAINST_UNLABELLED:
        return False
    if chosen_uses:  # used, but far less, and nothing the models label ("picnic in the park": no ballpark)
        return most >= SETTLED_RATIO * chosen_uses and chosen not in labelled_and_above(wn)
    return most >= SETTLED_USES or chosen not in labelled_and_above(wn)


def _things_not_shapes(wn, senses: tuple[int, ...]) -> tuple[int, ...]:
    """A photo shows things, which have shapes: WordNet's first "space" is an empty area, whose kinds
    reach the volcano (a crack in the earth's crust). Where the word also names a thing (outer
    space), its shape senses are dropped and the things lead: the "dip" of a magnetic needle gives
    way to the dip one eats, not to the pickpocket."""
    shapes = tuple(o for o in senses if wn.synset(o).lexfile == SHAPE_LEXFILE)
    things = [o for o in senses if o not in shapes and is_physical(wn, o) and not is_person_sense(wn, o)]
    if not (shapes and things):
        return senses
    kept = tuple(o for o in senses if o not in shapes)
    if is_person_sense(wn, kept[0]):  # a thing, not a person, takes the shape's place
        kept = (*things, *(o for o in kept if o not in things))
    return kept


def is_produce(wn, offset: int) -> bool:
    """Whether a sense is a fruit, vegetable or nut one eats (produce.n.01, edible_nut.n.01)."""
    return _a_kind_of(wn, offset, PRODUCE_OFFSETS)


def _the_fruit_not_its_tree(wn, senses: tuple[int, ...]) -> tuple[int, ...]:
    """A photo of "cherries" shows the fruit: WordNet's first "cherry" is its wood, its first "plum",
    "peach" and "kiwi" the tree or vine, its first physical "date" a person one goes out with. Where
    the leading sense is a plant, a wood or a person and the word also names produce, the produce
    leads (a sense the photo models label first); the plant stays for the context to choose ("cherry
    blossom"). Grain ("wheat", "corn") is no produce: its field is what a photo shows."""
    if not senses or is_produce(wn, senses[0]) or not _a_kind_of(wn, senses[0], GROWER_OR_PERSON):
        return senses
    produce = [o for o in senses if is_produce(wn, o)]
    if not produce:
        return senses
    labelled = labelled_and_above(wn)
    fruit = next((o for o in produce if o in labelled), produce[0])
    return (fruit, *(o for o in senses if o != fruit))


def _without_its_tree(wn, senses: tuple[int, ...]) -> tuple[int, ...]:
    """Where produce leads, its tree, vine or wood is not followed too: "cherries" ranked photos that
    look wooden through the cherry's wood, a kind of wood. Words that call for them choose them
    (`read_senses`: "cherry tree", "cherry wood table")."""
    if not senses or not is_produce(wn, senses[0]):
        return senses
    return tuple(o for o in senses if not _a_kind_of(wn, o, GROWER_OFFSETS))


def _a_labelled_thing_first(wn, word: str, senses: tuple[int, ...]) -> tuple[int, ...]:
    """Where a word means first a kind of person but also a thing the photo models label, the thing
    leads: WordNet's first "tiger" is a fierce person, its first "ostrich" one who will not face
    reality, its first "toaster" one who proposes a toast; a photo of a tiger is what is asked. So
    does any thing where WordNet's corpus has no count of the word's senses, which are then in no
    order of use: "shrimp" is a small person only as an insult. Where the senses are in no order of
    use, a labelled thing also leads a thing no model labels: "turtle" is the reptile, not the
    turtleneck; "dolphin" the toothed whale, not the dolphinfish. So does one used exactly as often as
    the first sense: "peacock" is the bird, not the butterfly; "alligator" the reptile, not its
    leather; "hammer" the tool, not a gunlock's part."""
    if not senses:
        return senses
    labelled = labelled_and_above(wn)
    uncounted = not any(wn.tagged_senses(b) for b in wn.base_forms(word))
    thing = next((o for o in senses if o in labelled and not is_person_sense(wn, o)), None)
    if not is_person_sense(wn, senses[0]):
        if senses[0] in labelled:
            return senses
        if not uncounted:
            thing = _labelled_as_used(wn, word, senses, labelled)
    elif thing is None and uncounted:
        thing = next((o for o in senses if is_physical(wn, o) and not is_person_sense(wn, o)), None)
    return senses if thing is None else (thing, *(o for o in senses if o != thing))


def _labelled_as_used(wn, word: str, senses: tuple[int, ...], labelled: frozenset[int]) -> int | None:
    """A thing the photo models label that WordNet's corpus used as often as the word's first sense."""
    uses = _sense_uses(wn, word)
    first = uses.get(senses[0], 0)
    return next(
        (
            o
            for o in senses[1:]
            if first and uses.get(o, 0) == first and o in labelled and not is_person_sense(wn, o)
        ),
        None,
    )


def _sense_uses(wn, word: str) -> dict[int, int]:
    """How often WordNet's tagged corpus used each of the word's senses (a plural's, its singular's)."""
    uses: dict[int, int] = {}
    for base in wn.base_forms(word):
        for offset, used in zip(wn.lookup(base), wn.sense_uses(base), strict=True):
            uses.setdefault(offset, used)
    return uses


_labelled: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def labelled_and_above(wn) -> frozenset[int]:
    """The senses the photo models label and every sense above them: a "chameleon" is first a
    changeable person, then the lizard the tagger's African chameleon is a kind of; a "calculator"
    first one who calculates, then the machine its abacus is."""
    if wn not in _labelled:
        classes = model_class_synsets()
        _labelled[wn] = frozenset(classes).union(*(wn.ancestors(o) for o in classes))
    return _labelled[wn]


def _contenders(wn, senses: tuple[int, ...], people: bool) -> tuple[int, ...]:
    """The senses the request's other words may choose among: where the leading sense is a thing the
    photo models label (or a kind above one), only such things, and the people a word first means
    ("coach" at the stadium). A few words of context are a weak signal: "my dog at the park" read
    the dog as a pawl (a catch of a ratchet: "parking pawl"), "cat in a box" as a cat-o'-nine-tails;
    "mouse" beside "keyboard" is still the computer mouse, the rodent being no class of the models."""
    labelled = labelled_and_above(wn)
    if not senses or senses[0] not in labelled:
        return senses
    return tuple(o for o in senses if o in labelled or people and is_person_sense(wn, o))


def _by_context(wn, senses: tuple[int, ...], context: str, embed: Embed) -> tuple[int, ...]:
    """The senses the context clearly points to, best first; () when it does not decide."""
    with _gloss_lock:
        glosses = _gloss_cache.get(senses)
    if glosses is None:
        glosses = _unit(embed([_sense_text(wn, wn.synset(o)) for o in senses]))
        with _gloss_lock:
            _gloss_cache[senses] = glosses
    sims = glosses @ _unit(embed([context]))[0]
    order = np.argsort(-sims, kind="stable")
    best = int(order[0])
    beaten = sims[0] if best else sims[int(order[1])]  # the dominant sense, or the runner-up
    if sims[best] - beaten < CONTEXT_MARGIN:
        return ()
    return tuple(senses[int(i)] for i in order if sims[best] - sims[int(i)] < CONTEXT_MARGIN)


_embedders: dict[str, Embed | None] = {}


def sense_embedder(settings) -> Embed | None:
    """The bundled MiniLM's `embed` (its vectors remembered on disk like the search's), or None when
    it is not installed: then words are read in their dominant sense."""
    key = str(getattr(settings, "cache_dir", ""))
    if key not in _embedders:
        try:
            from photosearch.query.embedding_cache import cached_text_encoder
            from photosearch.vision.text_embedder import get_text_embedder

            emb = get_text_embedder(settings)
            _embedders[key] = cached_text_encoder(emb, settings) if emb.available() else None
        except Exception:  # noqa: BLE001 - no embedder: the dominant sense leads
            _embedders[key] = None
    return _embedders[key]
