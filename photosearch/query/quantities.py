"""How many of a thing a request asks for: "two jaguars", "a herd of horses", "several windmills".

The parser keeps such words in the concept ("two jaguar", "herd horse"), `naming_tokens` leaves
them out of what is looked for, and `count_of` reads them: a number word is an exact count ("one"
to "a hundred"), a pair or a couple two, "a few" two or more, and the other words of quantity
("several", "many", "a herd of", "a flock of") three or more; "at least two" and "up to three" bound
the count. Digits are not counts: they may be written in the photo ("route 66"), unless a bound says
they count ("at least 2 cats" is kept as "least two cat"). `say` puts a counted concept back into words for people.
"""

from __future__ import annotations

from dataclasses import dataclass

from photosearch.query.lexicon import COUNT_BOUNDS, IRREGULAR_PLURALS, NUMBER_WORDS, QUANTITY_WORDS

#: Words of quantity said "a ... of" things ("a herd of horses"), and "... of" things ("lots of").
COLLECTIVES = frozenset(
    {"herd", "flock", "pack", "swarm", "bunch", "group", "crowd", "pair", "couple", "lot"}
)
MASSES = frozenset({"lots", "plenty", "dozens", "hundreds"})
#: Words of quantity that do not count: "some birds" is birds.
NOT_COUNTS = frozenset({"some", "various"})
_PLURALS = {singular: plural for plural, singular in IRREGULAR_PLURALS.items() if singular != plural}


@dataclass(frozen=True)
class Count:
    """At least `min` and at most `max` (None: no limit) of the thing; `word` as the request says it."""

    min: int
    max: int | None
    word: str

    def holds(self, n):
        """Whether `n` (a number, or an array of them) is the count asked for."""
        return (n >= self.min) & ((n <= self.max) if self.max is not None else True)

    def off_by_one(self, n):
        """Whether `n` (a number, or an array of them) is one short or one over."""
        return (n == self.min - 1) | ((n == self.max + 1) if self.max is not None else False)


def count_of(value: str) -> Count | None:
    """The count a concept asks for, from its first word of quantity; None when it asks for none. A
    number after "least" is a least count ("least two dog"), after "most" a most ("most three cat");
    a word of quantity after the thing is part of its name ("parking lot")."""
    bound = ""
    toks = value.lower().split()
    for i, tok in enumerate(toks):
        if i and i == len(toks) - 1 and not tok.isdigit() and tok not in NUMBER_WORDS:
            break  # a word of quantity last names the thing: "parking lot", "wolf pack"
        if tok in COUNT_BOUNDS:
            bound = tok
            continue
        if tok.isdigit() or tok in NOT_COUNTS:
            continue
        if tok in NUMBER_WORDS:
            n = NUMBER_WORDS[tok]
            return Count(n, None if bound == "least" else n, tok) if bound != "most" else Count(1, n, tok)
        if tok in ("pair", "pairs", "couple", "couples"):
            return Count(2, 2, tok)
        if tok == "few":
            return Count(2, None, tok)
        if tok in QUANTITY_WORDS:
            return Count(3, None, tok)
    return None


def plural(word: str) -> str:
    """An English noun's plural ("jaguar" -> "jaguars", "fox" -> "foxes", "mouse" -> "mice")."""
    if word in _PLURALS:
        return _PLURALS[word]
    if word in IRREGULAR_PLURALS:  # the same in both ("sheep", "fish")
        return word
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def say(value: str) -> str:
    """A counted concept in words ("two jaguar" -> "two jaguars", "herd horse" -> "a herd of
    horses", "one cat" -> "one cat"); any other concept as it is."""
    count = count_of(value)
    words = value.split()
    if count is None or count.word not in words:
        return value
    thing = _thing(value, 2 if count.max is None else count.max)
    if not thing:
        return value
    if count.word in COLLECTIVES:
        return f"a {count.word} of {' '.join(thing)}"
    if count.word in MASSES:
        return f"{count.word} of {' '.join(thing)}"
    lead = "a few" if count.word == "few" else count.word
    bound = next((w for w in words[: words.index(count.word)] if w in COUNT_BOUNDS), "")
    return f"{f'at {bound} ' if bound else ''}{lead} {' '.join(thing)}"


def _thing(value: str, n: int) -> list[str]:
    """The words of a counted concept that name the thing, its last one in the plural unless n is 1."""
    thing = [w for w in value.split() if w not in QUANTITY_WORDS and w not in NUMBER_WORDS]
    if thing and n != 1:
        thing[-1] = plural(thing[-1])
    return thing


def count_words(n: int, value: str) -> str:
    """How many of a counted concept's thing a photo has, in words ("4 horses", "1 horse")."""
    thing = _thing(value, n)
    return f"{n} {' '.join(thing)}" if thing else f"{n} found"


def uncounted(value: str) -> str:
    """The thing of a counted concept, in the plural ("two jaguar" -> "jaguars")."""
    return " ".join(_thing(value, 2)) or value
