"""Pets as their owners call them: breeds by a short name, a Labrador as a "lab", a cat by its coat.

WordNet reads these words as something else: "jack russell" is a jack and someone called Russell,
"a black lab" a laboratory, "a ginger cat" a spice beside a cat, "bernese" nothing at all, and
"mix" in "a lab mix" a thing of its own. Each is read here as the dog or the cat it is, with its
coat's colours as colour atoms (measured on the photo's subject at index time). The library's
people are read before this pass: someone called Jack Russell in People stays that person.
"""

from __future__ import annotations

import re

from photosearch.query.parse_state import ClaimState

#: What a dog is called after its breed ("lab puppies", "a lab mix").
_DOG_AFTER = r"puppy|puppies|pups?|dogs?|mix|mixes|cross|crosses"

#: "a black lab", "our chocolate lab", "lab puppies": a Labrador by its coat or as a dog, where
#: WordNet's only "lab" is a laboratory ("the science lab", "a lab coat" stay one).
_LABRADOR = re.compile(
    r"\b(?:(?P<coat>black|yellow|chocolate|golden|fox\s+red)\s+)(?P<lab>labs?)\b(?!\s+coats?\b)"
    rf"|\b(?P<dog>labs?)(?=\s+(?:{_DOG_AFTER}|retrievers?)\b)"
)
#: A Labrador's coats, as the colours measured at index time.
_LAB_COATS = {
    "black": "black",
    "yellow": "yellow",
    "chocolate": "brown",
    "golden": "yellow",
    "fox red": "orange",
}

#: Breeds by the name owners use -> the breed's name. A breed WordNet knows is the one the labels
#: know (a Cavalier King Charles is an English toy spaniel, the kind of ImageNet's Blenheim spaniel);
#: one it lacks ("jack russell terrier") is searched as one thing, by its last word: a terrier.
_BREEDS: tuple[tuple[re.Pattern, str], ...] = (
    (re.compile(r"\b(?:jack|parson)\s+russells?(?:\s+terriers?)?\b"), "jack russell terrier"),
    # a herder in WordNet, but a dog before a crossbreed's word or a puppy ("a shepherd mix")
    (
        re.compile(r"\b(?:german\s+)?shepherds?(?=\s+(?:mix|mixes|cross|crosses|puppy|puppies|pups?)\b)"),
        "german shepherd",
    ),
    (
        re.compile(
            r"\bcavaliers?\s+king\s+charles(?:\s+spaniels?)?\b"
            r"|\bcavaliers?(?:\s+spaniels?\b|(?=\s+(?:puppy|puppies|pups?|dogs?)\b))"
        ),
        "english toy spaniel",
    ),
    (
        re.compile(r"\bbernese(?:\s+mountain\s+dogs?)?\b(?!\s+(?:oberland|alps|mountains?)\b)"),
        "bernese mountain dog",
    ),
    # a pet called a child: "our fur baby" is no baby
    (re.compile(r"\bfur[\s-]?(?:bab(?:y|ies)|kids?|kiddos?)\b"), "pet"),
)

#: A crossbreed's "mix" or "cross" after a dog's word: the dog is the thing ("a lab mix", "a terrier
#: cross", "beagle mix puppies").
_MIX = re.compile(r"(?<=[a-z])\s+(?P<mix>mix(?:es)?|cross(?:es)?|mixed\s+breeds?)\b")
#: Cats by their coats -> the coat's colours. "ginger" is a spice and "tuxedo" a dinner jacket in
#: WordNet; before a cat they are its coat. A calico or tortoiseshell cat is WordNet's own.
_CAT_COATS = {"ginger": ("orange",), "marmalade": ("orange",), "tuxedo": ("black", "white")}
_CAT = re.compile(
    r"\b(?P<coat>" + "|".join(_CAT_COATS) + r")\s+"
    r"(?=(?:cats?|kittens?|kitty|kitties|tomcats?|tabby|tabbies)\b)"
)


def claim_pets(st: ClaimState) -> None:
    """Labradors, breeds by their short names, pets called children, crossbreeds and cats' coats."""
    dogs = _labradors(st)
    for pattern, breed in _BREEDS:
        for m in st.unclaimed(pattern):
            st.claim(m.start(), m.end(), "atom", {"concept": breed}, slot="concept")
            dogs.add(m.end())
    _cat_coats(st)
    _mixes(st, dogs)


def _labradors(st: ClaimState) -> set[int]:
    """Claim each Labrador; where their words end."""
    ends: set[int] = set()
    for m in _LABRADOR.finditer(st.low):
        lab = "lab" if m.group("lab") else "dog"
        if not st.free(*m.span(lab)):
            continue
        st.claim(*m.span(lab), "atom", {"concept": "labrador retriever"}, slot="concept")
        ends.add(m.end(lab))
        coat = m.group("coat")
        if coat and st.free(*m.span("coat")):
            st.claim(*m.span("coat"), "atom", {"color": _LAB_COATS[" ".join(coat.split())]}, slot="color")
    return ends


def _cat_coats(st: ClaimState) -> None:
    for m in st.unclaimed(_CAT):
        for colour in _CAT_COATS[m.group("coat")]:
            st.claim(*m.span("coat"), "atom", {"color": colour}, slot="color")


def _mixes(st: ClaimState, dogs: set[int]) -> None:
    """Drop "mix" after a dog: a breed claimed here (`dogs`: where their words end), or a word
    WordNet knows as a kind of dog ("a beagle mix", "a shepherd mix")."""
    from photosearch.query.expansion import shared_wordnet
    from photosearch.query.senses import names_a_dog

    for m in _MIX.finditer(st.low):
        before = st.word_before(m.start("mix"))
        if before is None or not st.free(*m.span("mix")):
            continue
        if before.end() in dogs or names_a_dog(shared_wordnet(), before.group(0)):
            st.claim(*m.span("mix"), "drop", text="")
