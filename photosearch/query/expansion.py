"""Query-side meaning: expand a concept word with WordNet into weighted routes.

A query word ("kitty", "puppies", "woman") is reduced to its noun lemmas (morphy), and each noun
sense contributes its synonyms (the other lemmas of the synset), its hyponyms (kinds of it, e.g.
dog -> golden retriever) and its near hypernyms (what it is a kind of, e.g. kitty -> domestic cat,
woman -> person). Each route has a weight, exact > synonym > hyponym > hypernym, so a photo that
shows exactly what was asked ranks above one that matches through a broader or narrower term.
A term is used only where the sense reached is its most frequent one ("cat" is also a
Caterpillar tractor, a kind of vehicle: "vehicle" does not reach cat photos). A scene word
("beach", "kitchen", "underwater") also reaches the classes of things seen there, from
`resources/scenes.yaml` (route "scene"). The resolver matches the expanded terms against every label space the models write (ImageNet
tags and their stored hypernyms, COCO objects, learned knowledge) and names the route in `why`.
"""

from __future__ import annotations

import functools
import logging
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from photosearch.models.labels import model_class_synsets
from photosearch.query.resolvers.text import naming_words
from photosearch.query.senses import Embed, is_offensive, read_senses, role
from photosearch.vision.wordnet import WordNetUnavailable

log = logging.getLogger(__name__)

#: Route weights: exact > synonym > hyponym > hypernym (a hypernym further up weighs less).
EXACT = 1.0
SYNONYM = 0.9
HYPONYM = 0.8
HYPONYM_DECAY = 0.02
HYPONYM_FLOOR = 0.7
#: Kinds are followed this many steps down: a sheep is 9 below "animal", a goldfish 10, an ox 11
#: (breadth first, so a broad word's 4,000 nearest kinds are kept).
KINDS_DEPTH = 12
HYPERNYM = (0.65, 0.55, 0.45)
#: A hypernym with at most this many kinds below it is narrow (see `Route.narrow`).
NARROW_KINDS = 40
#: A label word that contains the query word as its head or tail ("lake" -> "lakeside").
COMPOUND = 0.5
COMPOUND_MIN_LEN = 4
#: Senses after the first (most frequent) count less, and only where the word is one of the
#: synset's first lemmas ("kitty, kitty-cat, puss": yes; "frank, ..., hot dog, dog": no).
OTHER_SENSE = 0.75
OTHER_SENSE_LEMMAS = 2
#: The route of a synonym of a later sense of another kind than the first ("toy" ≈ toy dog, an animal,
#: where a toy is first a plaything): it ranks, like a broader class it never alone makes a photo sure.
OTHER_KIND = "other sense"
#: A part reaches the wholes it is part of, and their kinds ("sail" ≈ schooner, "antler" ≈ deer): a
#: photo of the whole mostly shows the part, but not always (a doe has no antlers), so it ranks and
#: never alone makes a photo sure.
PART_OF = "part of"
HOLONYM = 0.6
HOLONYM_KINDS = 0.55
#: WordNet's lexicographer files this module and the resolvers tell apart (`Synset.lexfile`).
ANIMAL, ARTIFACT, BODY, FOOD, LOCATION, PERSON, PLANT = 5, 6, 8, 13, 15, 18, 20  # noun.animal, ...
#: Wholes a part leads to: things (made things, animals, plants, bodies), whose photos show their
#: parts. A place is not: a beach is part of a shore, and a lakeside shows no beach.
WHOLE_KINDS = frozenset({ANIMAL, ARTIFACT, BODY, PLANT})
#: Stuff, qualities and times (noun.substance, .attribute, .time: wood, glass, green, fall), whose
#: plural is a noun of its own ("woods", "glasses", "greens", "falls"), not several of them.
STUFF = frozenset({27, 7, 28})
#: What a photo shows (noun.animal, .artifact, .food, .group, .location, .object, .plant): a plural of
#: its own is read as itself only where it means one of these.
SHOWN = frozenset({ANIMAL, ARTIFACT, FOOD, 14, LOCATION, 17, PLANT})
#: A place reaches the landmarks WordNet lists as its parts, and what they are ("paris" ≈ Eiffel
#: Tower, tower; "rome" ≈ Colosseum, amphitheatre): where the library knows no photo taken there, the
#: photos of its sights are the closest, and never sure (a tower is not in Paris because it is a tower).
PLACE_PART = "sight of the place"
PLACE_PART_WEIGHT = 0.5
PLACE_PART_KIND = 0.45
#: A scene route lighter than this (resources/scenes.yaml) is a hint: a thing often seen there ("beach"
#: ≈ umbrella, "forest" ≈ agaric) ranks a photo among the closest and never alone makes it sure.
SCENE_SURE_FROM = 0.5
SCENE_HINT = "scene hint"
#: The route of an everyday word for how a person looks to the face model's word for it
#: (resources/scenes.yaml, space "faces"): "lady" ≈ woman, where WordNet has a lady only as a kind of
#: woman (a hypernym route, which never alone makes a photo sure).
SAME_LOOK = "same look"
#: The scenes.yaml space of the face model's words (`vision/face_traits.WORDS`).
FACES_SPACE = "faces"
#: Routes that reach a label without saying the photo shows what the word means.
NOT_ITSELF = ("hypernym", OTHER_KIND, PART_OF, SCENE_HINT, PLACE_PART)
#: Route weights end up in float32 arrays (affinities, evidence), where a synonym's 0.9 is 0.8999999:
#: a threshold made of them is compared with this margin.
WEIGHT_ROUNDING = 1e-6
#: Lexicographer files too broad to tell one thing from another, where two senses are kin only with
#: a common parent within `KIN_STEPS`: made things (an airplane and a carpenter's plane are both in
#: it; a fortress and a palace, both castles, are structures), plants (a horse chestnut tree and
#: its seed, the tagger's "buckeye", are both in noun.plant) and animals (the "coney" among the
#: fish is a grouper, the tagger's coney a rabbit; an animal's near parent may be far above the
#: other: ImageNet's hen is a female animal, the chicken's hen a bird).
BROAD_KINDS = frozenset({ANIMAL, ARTIFACT, PLANT})
KIN_STEPS = 4


@dataclass(frozen=True)
class Route:
    """One way a query word reaches a label: `term` (folded, spaces), `route` name, `weight`."""

    word: str
    term: str
    route: str
    weight: float
    #: For a hypernym: it has few kinds below it ("domestic cat", not "domestic animal"), so it may
    #: match a photo's stored hypernym tag, not only a label a model output directly.
    narrow: bool = True
    #: The WordNet synsets (offsets) the term was reached through; empty for scene and compound routes.
    synsets: tuple[int, ...] = ()
    #: Reached through the sense the term mostly means (else it fits only labels of a known sense).
    primary: bool = True
    #: For a hypernym: how many steps up it is (1 = what the word is directly a kind of).
    depth: int = 0
    #: For a scene route: a measured attribute the photo must also have for this label to count
    #: ("snow" ≈ white scene only with sky: a white backdrop is no snowfield).
    also: str = ""

    def text(self) -> str:
        """ "kitty ≈ domestic cat (hypernym)"."""
        return f"{self.word} ≈ {self.term} ({self.route})"

    def fits(self, names: tuple[str, ...], known: Mapping[tuple[str, ...], int] | None = None) -> bool:
        """Whether the route reaches a label with these names (a class's or tag's lemmas, "ostrich,
        Struthio camelus"). Where the names' synset is known: that very synset, or, through the sense
        the term mostly means, the same kind of thing (WordNet's lexicographer files: person,
        animal, plant, artifact, ...). So "person" does not reach the tagger's ostrich (the bird;
        the route went through "a person who refuses to face reality") and "tree" not the titi
        monkey, while ImageNet's "hen" (a female bird) still fits "chicken". Where it is not known,
        as before: only through the sense the term mostly means. `known`: names whose synset is
        known already (the tagger's classes). A scene route reaches the class it lists by its first
        name only (resources/scenes.yaml): "pet" ≈ cat is no big cat, whose names include "cat"."""
        if self.route in ("scene", SCENE_HINT, SAME_LOOK):
            return not names or _term(names[0]) == self.term
        if not self.synsets:
            return True
        names = tuple(names)
        named = (known or {}).get(names) if names else None
        if named is None and names:
            named = synset_of(names)
        if named is None:
            return self.primary
        if named in self.synsets:
            return True
        return self.primary and any(_kin(named, s) for s in self.synsets)


_cache: dict[tuple[str, str], tuple[Route, ...]] = {}
_lock = threading.Lock()
_wordnet_failed = False


def shared_wordnet():
    """The process-wide WordNet, or None when it is not installed (a warning says so once)."""
    global _wordnet_failed
    if _wordnet_failed:
        return None
    try:
        from photosearch.vision.wordnet import get_wordnet

        return get_wordnet()
    except Exception as exc:  # noqa: BLE001 - search still works on exact labels
        log.warning("no WordNet expansion of query words: %s", exc)
        _wordnet_failed = True
        return None


def _term(lemma: str) -> str:
    return lemma.replace("_", " ").lower()


@functools.lru_cache(maxsize=65536)
def lexfile(offset: int) -> int:
    """WordNet's lexicographer file of a noun synset (what kind of thing it is)."""
    wn = shared_wordnet()
    return wn.synset(offset).lexfile if wn is not None else 0


def first_lexfile(word: str) -> int | None:
    """WordNet's lexicographer file of the word's first noun sense (what it mostly names: a person,
    an animal, a place), or None where WordNet has no noun for it."""
    wn = shared_wordnet()
    senses = wn.senses(word) if wn is not None and word else ()
    return lexfile(senses[0]) if senses else None


@functools.lru_cache(maxsize=16384)
def _kin(a: int, b: int) -> bool:
    """Whether two senses are the same kind of thing: the same lexicographer file (animal, plant,
    person, food...), and for made things a common parent within `KIN_STEPS` of each."""
    if lexfile(a) != lexfile(b):
        return False
    if lexfile(a) not in BROAD_KINDS:
        return True
    wn = shared_wordnet()

    def near(o: int) -> set[int]:
        return {o} | {p for p, depth in wn.ancestors(o).items() if depth <= KIN_STEPS}

    if lexfile(a) == ANIMAL:  # a near parent of either, however far above the other (the hen)
        return bool(near(a) & {b, *wn.ancestors(b)} or near(b) & {a, *wn.ancestors(a)})
    return bool(near(a) & near(b))


@functools.lru_cache(maxsize=16384)
def synset_of(names: tuple[str, ...]) -> int | None:
    """The one noun synset holding all of `names` ("ostrich", "Struthio camelus"), or None when no
    synset or several do ("crane" alone: a bird or a machine)."""
    wn = shared_wordnet()
    if wn is None:
        return None
    sets = [set(wn.lookup(n)) for n in names if n.strip()]
    sets = [found for found in sets if found]
    if not sets:
        return None
    common = set.intersection(*sets)
    return next(iter(common)) if len(common) == 1 else None


def expand(word: str, wordnet=None, *, context: str = "", embed: Embed | None = None) -> tuple[Route, ...]:
    """Weighted WordNet routes of a word or phrase (best weight per term; the word itself excluded).

    Read in its sense (`query.senses`): a colour, nationality or adjective-first word has no routes
    (it describes, it is not a thing); a noun follows the sense the request's other words
    (`context`, compared through `embed`) point to, else its dominant sense."""
    key = " ".join(word.lower().split())
    context = " ".join(context.lower().split()) if embed is not None else ""
    cache_key = (key, context)
    with _lock:
        hit = _cache.get(cache_key)
    if hit is not None and wordnet is None:
        return hit
    wn = wordnet or shared_wordnet()
    if wn is None or not key:
        return ()
    routes = () if role(key, wn) != "noun" else _routes(wn, key, context, embed)
    routes = _with_scene(routes, key)
    if wordnet is None:
        with _lock:
            _cache[cache_key] = routes
    return routes


@functools.lru_cache(maxsize=4096)
def word_meant(word: str, stemmed: str) -> str:
    """The form of a request word to read senses and classes by: the plural as written where WordNet
    has it as a noun of its own where the singular is first a stuff, a colour, a time or a person
    ("woods" a forest, not wood; "glasses" spectacles, not glass; "greens"; "falls" a waterfall;
    "pliers" the tool, not one who plies a trade), else the stemmed token."""
    wn = shared_wordnet()
    if word == stemmed or wn is None:
        return stemmed
    single = wn.lookup(stemmed)
    if not single:  # "christmas" is no plural of a "christma", "mercedes" (scenes.yaml) no "mercede"
        return word if wn.lookup(word) or word in scenes() else stemmed
    own = [o for o in wn.lookup(word) if not wn.synset(o).names[0][:1].isupper()]  # not "Ethel Waters"
    if not own:
        return stemmed
    # the plural of a stuff, a colour or a time names something else; of anything else, mostly several
    # ("stairs", "arms", "receipts": WordNet's first receipt is the act of receiving); and only a thing
    # a photo shows ("waters" is first amniotic fluid, "blues" the music)
    stuff = wn.synset(single[0]).lexfile in STUFF
    shown = wn.synset(own[0]).lexfile in SHOWN
    return (
        word
        if own[0] != single[0] and (stuff and shown or _a_thing_not_a_person(wn, own, single))
        else stemmed
    )


def _a_thing_not_a_person(wn, plural: list[int], single: tuple[int, ...]) -> bool:
    """Is the plural a made thing or a food where the singular is first a person and never a thing
    the photo models label ("pliers" the tool, not pliers of a trade; "fries" not young people; but
    "boxers" stay dogs)?"""
    person = wn.synset(single[0]).lexfile == PERSON
    thing = wn.synset(plural[0]).lexfile in (ARTIFACT, FOOD)
    return person and thing and not model_class_synsets() & set(single)


#: What an adjective that no noun is may be made from and still be read as (`noun_of_adjective`):
#: an animal, an artifact, a food, an object, a phenomenon, a plant or a stuff ("rocky" a rock, "foggy"
#: fog, "leafy" leaves). Not a place ("tropical": the tropic, a line of latitude; "rural": the country,
#: first a nation), a quality ("tasty": taste), a feeling or a state.
MADE_FROM = frozenset({ANIMAL, ARTIFACT, FOOD, 17, 19, PLANT, 27})


@functools.lru_cache(maxsize=4096)
def noun_of_adjective(word: str) -> str | None:
    """The noun a request word is read by where it is an adjective made from a thing and no noun
    itself: "rocky coast" is a coast with rocks, "hilly landscape" one with hills, "foggy" fog,
    "snowy" snow (WordNet's derivation and pertainym pointers, `WordNet.adjective_nouns`); None for
    a noun ("wild" is a wilderness too), or an adjective of a quality ("tasty", "happy")."""
    wn = shared_wordnet()
    if wn is None or wn.senses(word):
        return None
    try:
        made_from = wn.adjective_nouns(word)
    except WordNetUnavailable as exc:  # a damaged adjective file: the word is read as written
        log.warning("%s: “%s” is read as written", exc, word)
        return None
    for lemma, offset in made_from:
        if wn.synset(offset).lexfile in MADE_FROM:
            return lemma.replace("_", " ").lower()
    return None


def naming_words_meant(text: str) -> list[str]:
    """A concept's naming tokens (`resolvers.text.naming_tokens`), each in the form its senses and
    classes are read by (`word_meant`; an adjective made from a thing, by the thing's noun, save in
    a noun of two words WordNet knows: a "polar bear" is no pole, a "solar panel" no sun)."""
    pairs = naming_words(text)
    meant = [word_meant(w, t) for w, t in pairs]
    return [
        m if _names_one_thing_with_next(pairs, i) else (noun_of_adjective(m) or m)
        for i, m in enumerate(meant)
    ]


def _names_one_thing_with_next(pairs: list[tuple[str, str]], i: int) -> bool:
    """Is the i-th word, with the word after it, one noun WordNet knows ("polar bears", "milky way")?"""
    wn = shared_wordnet()
    if wn is None or i + 1 >= len(pairs):
        return False
    return bool(wn.base_forms(f"{pairs[i][0]} {pairs[i + 1][0]}"))


def read_as(word: str, *, context: str = "", embed: Embed | None = None) -> tuple[int, ...]:
    """The noun senses `word` is read in, as `expand` follows them: those the request's `context`
    points to, else its dominant one (every sense, where WordNet has no counts of them, as for
    "kitty"); () for a word that is no noun here or that WordNet does not know."""
    wn = shared_wordnet()
    key = " ".join(word.lower().split())
    if wn is None or not key or role(key, wn) != "noun":
        return ()
    context = " ".join(context.lower().split()) if embed is not None else ""
    reading = read_senses(wn, key, wn.senses(key), context, embed)
    return reading.senses[:1] if _ranked(wn, key, reading) else reading.senses


def _ranked(wn, key: str, reading) -> bool:
    """Whether the reading's senses come in order of use: the dominant reading of a word WordNet has
    counts for (all of "kitty"'s senses have none, and a sense the context chose is the one meant)."""
    bases = wn.base_forms(key)
    return reading.by == "dominant" and bool(bases) and max(wn.tagged_senses(b) for b in bases) > 0


class _BestRoutes:
    """The routes found so far from `key`, the best weight kept per term."""

    def __init__(self, wn, key: str):
        self.wn, self.key = wn, key
        self.best: dict[str, Route] = {}

    def add(
        self,
        term: str,
        route: str,
        weight: float,
        narrow: bool = True,
        sense_of: int | None = None,
        depth: int = 0,
    ) -> None:
        t = _term(term)
        if t == self.key or sense_of is not None and is_offensive(self.wn, sense_of):
            return  # a slur is no kind of person to search by, nor to show in `why`
        senses = self.wn.lookup(term)
        # Reached through the sense the term mostly means? ("cat" is also a Caterpillar vehicle.) If
        # not, the route fits only labels known to name that sense (the tagger's "hen", a bird).
        primary = sense_of is None or not senses or senses[0] == sense_of
        synsets = (sense_of,) if sense_of is not None else ()
        old = self.best.get(t)
        if old is None:
            self.best[t] = Route(self.key, t, route, round(weight, 3), narrow, synsets, primary, depth)
            return
        kept = tuple(dict.fromkeys(old.synsets + synsets))
        if weight > old.weight and (primary or not old.primary):
            self.best[t] = Route(
                self.key, t, route, round(weight, 3), narrow, kept, primary or old.primary, depth
            )
        else:
            self.best[t] = Route(
                old.word, t, old.route, old.weight, old.narrow, kept, old.primary or primary, old.depth
            )

    def sorted(self) -> tuple[Route, ...]:
        return tuple(sorted(self.best.values(), key=lambda r: (-r.weight, r.term)))


def _routes(wn, key: str, context: str = "", embed: Embed | None = None) -> tuple[Route, ...]:
    """Synonyms of every sense of `key` worth following, and the kinds and parents of the related ones."""
    found = _BestRoutes(wn, key)
    bases = wn.base_forms(key)
    own = {b.lower() for b in bases}
    reading = read_senses(wn, key, wn.senses(key), context, embed)
    #: senses with no frequency data (e.g. all of "kitty") are all treated like the first one, and
    #: so is the sense the request's context chose
    frequent = _ranked(wn, key, reading)
    lead = wn.synset(reading.senses[0]).lexfile if reading.senses else None
    for rank, off in enumerate(reading.senses):
        rank = rank if frequent else 0
        syn = wn.synset(off)
        if rank and not own & {lemma.lower() for lemma in syn.lemmas[:OTHER_SENSE_LEMMAS]}:
            continue
        sense = 1.0 if rank == 0 else OTHER_SENSE
        name = "synonym" if rank == 0 or syn.lexfile == lead else OTHER_KIND
        for lemma in syn.lemmas:
            if lemma.lower() not in own:
                found.add(lemma, name, SYNONYM * sense, sense_of=off)
        if rank == 0 or syn.lemmas[0].lower() in own:  # kinds of it / what it is a kind of
            _add_kinds_and_parents(found, wn, off, rank, sense)
        if rank == 0:
            _add_wholes(found, wn, syn)
            _add_sights(found, wn, syn)
    return found.sorted()


def _add_sights(found: _BestRoutes, wn, syn) -> None:
    """A place's parts that are things to see, and what each is ("paris" ≈ Eiffel Tower, tower;
    "new york" ≈ Brooklyn Bridge, suspension bridge). Parts that are places themselves (a city's
    districts, a country's cities) are left out: they are places, not sights."""
    if syn.lexfile != LOCATION:
        return
    for part in syn.parts:
        psyn = wn.synset(part)
        if psyn.lexfile == LOCATION:
            continue
        for lemma in psyn.lemmas:
            found.add(lemma, PLACE_PART, PLACE_PART_WEIGHT, sense_of=part)
        for parent in psyn.hypernyms:
            for lemma in wn.synset(parent).lemmas:
                found.add(lemma, PLACE_PART, PLACE_PART_KIND, sense_of=parent)


def _add_wholes(found: _BestRoutes, wn, syn) -> None:
    """What the word's sense is a part of, and the kinds of those wholes ("sail" ≈ sailing vessel,
    schooner, catamaran)."""
    for whole in syn.part_of:
        if wn.synset(whole).lexfile not in WHOLE_KINDS:
            continue
        for lemma in wn.synset(whole).lemmas:
            found.add(lemma, PART_OF, HOLONYM, sense_of=whole)
        for kind in wn.descendants(whole):
            for lemma in wn.synset(kind).lemmas:
                found.add(lemma, PART_OF, HOLONYM_KINDS, sense_of=kind)


def _add_kinds_and_parents(found: _BestRoutes, wn, off: int, rank: int, sense: float) -> None:
    """The sense's kinds (those of a later sense, `rank` > 0, by the route "other sense", which ranks
    and never alone makes a photo sure: "reading" is also a meter's, whose kinds include the sunset)
    and its parents."""
    kinds = OTHER_KIND if rank else "hyponym"
    for child, depth in wn.descendants(off, max_depth=KINDS_DEPTH).items():
        w = max(HYPONYM_FLOOR, HYPONYM - HYPONYM_DECAY * (depth - 1)) * sense
        for lemma in wn.synset(child).lemmas:
            found.add(lemma, kinds, w, sense_of=child)
    for parent, depth in wn.ancestors(off).items():
        if depth > (len(HYPERNYM) if rank == 0 else 1):  # rarer senses reach their parent only
            continue
        psyn = wn.synset(parent)
        if psyn.abstract:
            continue
        narrow = _kinds_at_most(wn, parent, NARROW_KINDS)
        for lemma in psyn.lemmas:
            found.add(lemma, "hypernym", HYPERNYM[depth - 1] * sense, narrow, sense_of=parent, depth=depth)
    if rank == 0:
        _add_flower(found, wn, off, sense)
        _add_the_grown_animal(found, wn, off, sense)


#: WordNet's offsets of young_mammal.n.01 and young_bird.n.01: kinds it files young animals under,
#: not under the animal they grow into ("lamb": young sheep, a kind of young mammal only).
YOUNG_ANIMALS = frozenset({1321854, 1613615})
#: A young animal's gloss: "young sheep", "a young horse", "young of domestic cattle".
_YOUNG_OF = re.compile(r"^(?:an? |the )?young (?:of )?(?:an? |the |any |certain |various )?([a-z ]+)")


#: The animal a young one grows into has at most this many kinds: a sheep, a horse, a dog; not the
#: "carnivorous mammals" a cub's gloss names, nor any bird.
GROWN_KINDS_MAX = 200


def _kinds_at_most(wn, offset: int, most: int) -> bool:
    """Whether a sense has at most `most` kinds below it (counted no further than one past it)."""
    return len(wn.descendants(offset, limit=most + 1)) <= most


def _an_animal_kind(wn, offset: int) -> bool:
    """Whether a sense is an animal with at most `GROWN_KINDS_MAX` kinds below it."""
    return wn.synset(offset).lexfile == ANIMAL and _kinds_at_most(wn, offset, GROWN_KINDS_MAX)


def _add_the_grown_animal(found: _BestRoutes, wn, off: int, sense: float) -> None:
    """A young animal is a kind of the animal its gloss names, as a puppy is a dog: "lamb" ≈ sheep,
    "kitten" ≈ domestic cat, "calf" ≈ cattle, "foal" ≈ horse, "piglet" ≈ pig (WordNet files
    them under "young mammal" only)."""
    syn = wn.synset(off)
    if YOUNG_ANIMALS.isdisjoint(syn.hypernyms):
        return
    m = _YOUNG_OF.match(syn.gloss.split(";")[0].lower())
    words = m.group(1).split()[:3] if m else []
    spans = (" ".join(words[i : i + n]) for i in range(len(words)) for n in range(len(words) - i, 0, -1))
    firsts = (wn.lookup(span)[:1] for span in spans)
    grown = next((first[0] for first in firsts if first and _an_animal_kind(wn, first[0])), None)
    if grown is None:
        return
    narrow = _kinds_at_most(wn, grown, NARROW_KINDS)
    for lemma in wn.synset(grown).lemmas:
        found.add(lemma, "hypernym", HYPERNYM[0] * sense, narrow, sense_of=grown, depth=1)


#: A plant's gloss that says it bears flowers ("usually a single showy flower", "fragrant flowers"),
#: not one whose flower is a part eaten or a grain's ("edible flower head", "flower spikes").
BEARS_FLOWERS = re.compile(
    r"\b(flowers?|blooms?|blossoms?|flowering|flowered)\b(?!\s+(buds?|heads?|spikes?))"
)


def _bears_flowers(wn, off: int) -> bool:
    return bool(BEARS_FLOWERS.search(wn.synset(off).gloss.split(";")[0]))


def _kinds_bear_flowers(wn, off: int) -> bool:
    """Do at least half of a plant's direct kinds (two or more) bear flowers, by their glosses? The
    rose's gloss speaks only of roses; its damask, tea and Cherokee roses' glosses of their blooms."""
    kinds = list(dict.fromkeys(wn.synset(off).hyponyms))
    return len(kinds) >= 2 and 2 * sum(_bears_flowers(wn, k) for k in kinds) >= len(kinds)


def _add_flower(found: _BestRoutes, wn, off: int, sense: float) -> None:
    """A plant WordNet files under another branch than the flowers, whose gloss (or most of whose
    kinds' glosses) says it bears them, is a flower one step up: "tulip" and "lily" are bulbous plants, "lilac" and "lavender" shrubs,
    and WordNet's "flower" is only the orchid's, the sunflower's and the poppy's parent. A photo of
    tulips shows flowers, and a model with no tulip class still sees them."""
    syn = wn.synset(off)
    if syn.lexfile != PLANT or not (_bears_flowers(wn, off) or _kinds_bear_flowers(wn, off)):
        return
    flower = wn.lookup("flower")[:1]  # a plant cultivated for its blooms or blossoms
    if not flower or flower[0] == off or flower[0] in wn.ancestors(off):
        return
    for lemma in wn.synset(flower[0]).lemmas:
        found.add(lemma, "hypernym", HYPERNYM[0] * sense, False, sense_of=flower[0], depth=1)


SCENES_FILE = Path(__file__).resolve().parents[2] / "resources" / "scenes.yaml"
#: A scenes.yaml entry's flag: what no model here can confirm (a make of car), so its classes rank
#: photos as the closest and never make one sure, whatever else agrees (`never_sure`).
NEVER_SURE = "never sure"
_scenes: dict[str, dict[str, float]] | None = None
_also: dict[str, dict[str, str]] = {}
_looks: dict[str, frozenset[str]] = {}
_never_sure: set[str] = set()


def scene_weight(entry) -> tuple[float, str]:
    """A scenes.yaml class entry: a weight, or {weight, with: an attribute the photo must also have}."""
    if isinstance(entry, dict):
        return float(entry["weight"]), str(entry.get("with") or "")
    return float(entry), ""


def scenes() -> dict[str, dict[str, float]]:
    """Scene word → {class name (folded): weight} over both label spaces (`resources/scenes.yaml`)."""
    global _scenes
    if _scenes is None:
        import yaml

        from photosearch.query.lexicon import singular

        data = yaml.safe_load(SCENES_FILE.read_text(encoding="utf-8")) or {}
        table: dict[str, dict[str, float]] = {}
        for word, raw in data.items():
            spaces = {space: classes for space, classes in (raw or {}).items() if space != NEVER_SURE}
            best: dict[str, float] = {}
            also: dict[str, str] = {}
            for classes in spaces.values():
                for name, entry in classes.items():
                    weight, with_ = scene_weight(entry)
                    best[_term(str(name))] = max(best.get(_term(str(name)), 0.0), weight)
                    if with_:
                        also[_term(str(name))] = _term(with_)
            looks = frozenset(_term(str(name)) for name in (spaces.get(FACES_SPACE) or {}))
            key = _term(str(word))
            table[key], _also[key], _looks[key] = best, also, looks
            one = " ".join(singular(w) for w in key.split())
            if (raw or {}).get(NEVER_SURE):
                _never_sure.update({key, one})
            table.setdefault(one, best)  # "woods"
            _also.setdefault(one, also)
            _looks.setdefault(one, looks)
        _scenes = table
    return _scenes


def never_sure(key: str) -> bool:
    """Whether no model here can confirm the word (resources/scenes.yaml's `never sure`: "porsche")."""
    scenes()
    return " ".join(key.lower().split()) in _never_sure


def scene_routes(key: str) -> tuple[Route, ...]:
    """What the models see in photos of a scene word ("beach" → seashore, sandbar, surfboard)."""
    from photosearch.query.lexicon import singular

    table = scenes()
    entry = key if key in table else " ".join(singular(w) for w in key.split())
    found, also, looks = table.get(entry) or {}, _also.get(entry) or {}, _looks.get(entry) or frozenset()

    def name(term: str, weight: float) -> str:
        if weight < SCENE_SURE_FROM:  # "grandma" ≈ an old woman: a hint that ranks, never sure
            return SCENE_HINT
        return SAME_LOOK if term in looks else "scene"

    return tuple(
        Route(key, term, name(term, weight), weight, also=also.get(term, ""))
        for term, weight in found.items()
        if term != key
    )


def _with_scene(routes: tuple[Route, ...], key: str) -> tuple[Route, ...]:
    extra = scene_routes(key)
    if not extra:
        return routes
    best = {r.term: r for r in routes}
    for r in extra:  # the table's class, where WordNet reached it only through another sense of it
        if r.term not in best or r.weight > best[r.term].weight or not best[r.term].primary:
            best[r.term] = r
    return tuple(sorted(best.values(), key=lambda r: (-r.weight, r.term)))


def compound_of(word: str, label_word: str) -> bool:
    """True when a label word is a compound of the query word and another word ("lake" + "side" is
    "lakeside"); a word that only ends in it is not ("river" in "screwdriver", "phone" in
    "microphone": "screwd" and "micro" name no thing)."""
    if len(word) < COMPOUND_MIN_LEN or len(label_word) < len(word) + 3:
        return False
    if label_word.startswith(word):
        rest = label_word[len(word) :]
    elif label_word.endswith(word):
        rest = label_word[: -len(word)]
    else:
        return False
    wn = shared_wordnet()
    return wn is None or bool(wn.base_forms(rest.strip("-")))
