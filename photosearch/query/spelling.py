"""Typos in a request's words: "flowrs" is read as "flowers", "mountians" as "mountains".

A word is corrected only when neither WordNet nor pyspellchecker's English word list knows it
("selfie", "lego", "capybara" stay as typed), and only to a noun WordNet knows, one edit away (a
letter dropped, added, changed or two swapped: "helicopeter", "restaurnat", "accomodation") and
not rare. The most frequent such word wins. Two edits would guess wrong more often ("airpods" is
two from "airport") and cost a quarter of a second a word; a request tries at most `MAX_TRIES`
words, so a long request of made-up words costs milliseconds.

Left as typed: a word with a capital (a name: "Sintra"), a name the library knows (a person,
camera, folder, album), and a word of the library's own labels, text, keywords and places
(`PlanContext.words`). The request says what it read: "“flowrs” was read as “flowers”".
"""

from __future__ import annotations

import functools
import re
import threading
from pathlib import Path

#: Shorter words are too often something else one letter away ("cst": cat, cut, cost...), or an
#: abbreviation a swap makes a word of ("usb": sub, "cpu": cup); a word of this length is read only as
#: a word that says nothing, two letters swapped ("hte beach" is the beach).
MIN_LEN = 4
SWAP_LEN = 3
#: At most this many unknown words of one request are looked up.
MAX_TRIES = 5
#: A correction is a word seen at least this often in the word list's corpus: "giraf" is no "graf"
#: (a German count, seen 50 times; "narwhal" 221, "giraffe" 1501).
MIN_COUNT = 100

_VOWEL = re.compile(r"[aeiouy]")
_lock = threading.Lock()


#: Words of photography, food, breeds and brands the English word list lacks, which are no typos
#: ("exif" is not "exit", "macaron" not "macaroni", "chai" not "chair").
EVERYDAY_WORDS_FILE = Path(__file__).resolve().parents[2] / "resources" / "everyday_words.txt"


def everyday_words() -> list[str]:
    """The words of `EVERYDAY_WORDS_FILE` (comments and blank lines aside)."""
    lines = EVERYDAY_WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return [w.strip().lower() for w in lines if w.strip() and not w.startswith("#")]


@functools.cache
def _checker():
    from spellchecker import SpellChecker

    with _lock:
        checker = SpellChecker(language="en", distance=1)
        checker.word_frequency.load_words(everyday_words())
        return checker


def unknown(word: str, known_names: frozenset[str] = frozenset()) -> bool:
    """Whether a lower-case word is no word WordNet or the English word list knows, nor a name the
    library knows, nor an abbreviation: a typo, perhaps."""
    from photosearch.query.expansion import scenes, shared_wordnet
    from photosearch.query.lexicon import singular

    w = word
    if w != w.lower() or len(w) < SWAP_LEN or not w.isalpha() or w in known_names or not _VOWEL.search(w):
        return False  # a name, a short word or an abbreviation ("bbq", "nyc")
    wn = shared_wordnet()
    if wn is None or wn.base_forms(w) or wn.verb_forms(w) or wn.senses(w) or singular(w) in scenes():
        return False
    return w not in _checker()  # an English word WordNet lacks ("selfie", "lego") is a word


#: Crossbreeds no word list has, each a dog to the models ("a puggle" was read as "juggle"; "cockapoo" no label names).
_CROSSES = (
    "labradoodle goldendoodle cockapoo cavapoo maltipoo yorkipoo schnoodle bernedoodle sheepadoodle"
    " aussiedoodle cavachon puggle pomsky morkie chiweenie jackapoo sprocker springador borador"
)
CROSSBREEDS = {w: "dog" for w in _CROSSES.split()} | {w + "s": "dogs" for w in _CROSSES.split()}

#: Short forms people type, which no word list has or has as something else: "bday party" is a birthday
#: party, not a "day party"; "hols" are holidays.
SHORTHAND = {
    "bday": "birthday",
    "bdays": "birthdays",
    "hols": "holidays",  # "hols in spain": a holiday, no "hol"
    "fam": "family",
    "vacay": "vacation",
    # pets and people as they are called at home ("my doggo" is a dog, no spelling of "upper")
    "doggo": "dog",
    "doggos": "dogs",
    "pupper": "puppy",
    "puppers": "puppies",
    "birb": "bird",
    "birbs": "birds",
    # dog breeds as their owners call them ("a doxie" was read as "moxie")
    "doxie": "dachshund",
    "doxies": "dachshunds",
    "yorkie": "yorkshire terrier",
    "yorkies": "yorkshire terriers",
    "westie": "west highland white terrier",
    "westies": "west highland white terriers",
    "frenchie": "french bulldog",
    "frenchies": "french bulldogs",
    "sheltie": "shetland sheepdog",
    "shelties": "shetland sheepdogs",
    "pittie": "pit bull terrier",
    "pitties": "pit bull terriers",
    "pitbull": "pit bull terrier",
    "pitbulls": "pit bull terriers",
    "staffie": "staffordshire bullterrier",
    "staffies": "staffordshire bullterriers",
    "staffy": "staffordshire bullterrier",
    "tortie": "tortoiseshell cat",
    "torties": "tortoiseshell cats",
    **CROSSBREEDS,
    "mt": "mount",  # "mt everest"; a town's "mt" is its region's code ("bozeman mt": Montana)
    "kiddo": "kid",
    "kiddos": "kids",
    "hubby": "husband",
    "bf": "boyfriend",
    "gf": "girlfriend",
    "bff": "best friend",
    "bffs": "best friends",
    "bestie": "best friend",
    "besties": "best friends",
    "sis": "sister",
    "ppl": "people",
    "uni": "university",
}


def meant(word: str) -> str | None:
    """The word a short form stands for, else the most frequent common noun one edit away from an
    unknown word, or None."""
    from photosearch.query.expansion import shared_wordnet

    if word in SHORTHAND:
        return SHORTHAND[word]

    wn, checker = shared_wordnet(), _checker()
    if len(word) < MIN_LEN:  # "hte" is "the"
        from photosearch.query.lexicon import STOP_WORDS

        swaps = sorted(c for c in _swaps(word) if c in STOP_WORDS)
        return max(swaps, key=checker.word_usage_frequency) if swaps else None
    candidates = checker.candidates(word)
    nouns = [c for c in candidates or () if c != word and checker[c] >= MIN_COUNT and _noun(wn, c)]
    return max(sorted(nouns), key=checker.word_usage_frequency) if nouns else None


def _swaps(word: str) -> set[str]:
    """The word with two neighbouring letters swapped ("dgo" -> "gdo", "dog")."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}


def _noun(wn, word: str) -> bool:
    return bool(wn.base_forms(word))
