"""Someone nobody named in People yet: "anna and the dog", "photos of Priya". A first name the
library does not know was a thing ("anna" is a coin in WordNet, "john" a toilet); it is a person
atom now, which no photo surely meets, and whose closest matches are the photos with a face nobody
named yet (`resolvers/filters.resolve_person`). The request says so, and how to name them.

A word is read so when it is a common first name (`query/first_names.py`) and nothing else reads it:
not a word WordNet knows as a thing a photo shows, a verb or an adjective ("rose", "mark",
"sandy"), nor a place ("georgia"), unless written with a capital inside the request ("photos of
Rose"); or when it is a word no word list knows, written with a capital ("Priya with her cat").
Never after an article ("a penny"), a saint's or a place's title ("St Peter's"), nor in a noun
WordNet knows ("teddy bear"); a pet's name is the pet ("max the dog").
"""

from __future__ import annotations

import re

from photosearch.query import lexicon as lx
from photosearch.query.first_names import CAPITALISED, COMMON, name_share
from photosearch.query.parse_state import ClaimState, sentence_start

#: A word, with an owner's "'s" after it ("anna's bike").
_WORD = re.compile(r"(?<![\w@#'-])(?P<w>[a-z][a-z-]*[a-z])(?:'s)?(?![\w'-])")


def unnamed_note(name: str) -> str:
    return f"“{name}” is nobody in People yet: the faces not named yet are the closest"


def claim_unnamed_people(st: ClaimState) -> None:
    """A first name nobody in People has is someone not named yet (a person atom), with a surname
    after it ("eileen collins"), said in a note."""
    from photosearch.query import spelling

    for m in _WORD.finditer(st.low):
        word, (start, end) = m.group("w"), m.span("w")
        typed = st.text[start:end]
        capital, share = _capitalised(typed), name_share(word)
        if not (share or capital) or not st.free(start, m.end()):
            continue  # no first name nor a capitalised word: no one (and no WordNet lookup)
        inside = capital and not sentence_start(st.text, start)
        full = capital and _capital_after(st, m.end())  # "Grace Hopper", at the start too
        if _after_one_of(st, start, _TITLES) or _in_a_compound(st, start, m.end(), word):
            continue  # "St Peter's", "mount everest"; "teddy bear", "christmas carol"
        if share and not _taken(word, st) and _a_pets_name(st, start, m.end()):
            st.claim(start, m.end(), "drop", text="")  # "max the dog", "our cat luna": the animal's name
            st.note(f"“{typed}” was read as a pet's name", 0.0)
            continue
        if (inside or full) and share >= CAPITALISED and not _not_a_word(word):
            pass  # "photos of Rose": a capital inside the request says it is a name
        elif share and _after_one_of(st, start, _RELATIONS):
            pass  # "uncle bob", "my sister rose": a relation's name, whatever else the word is
        elif _taken(word, st) or _after_an_article(st, start):
            continue
        elif share and _no_word_but_a_name(word, share) and not _a_place(word):
            pass  # "kate", "sophie", "noah", "Ahmed": WordNet knows no such word, or only as a name
        elif share >= COMMON:
            if not _only_a_name(word) or _a_place(word):
                continue  # "lily", "mark", "georgia": a flower, a verb, a country
        elif not (capital and spelling.unknown(word)):
            continue  # "Priya with her cat": a capitalised word no word list knows
        end = m.end()
        names = [typed.title() if typed.islower() else typed]
        surname = _surname_after(st, end) if end == m.end("w") else None  # not after "anna's"
        if surname is None and end == m.end("w") and _before_a_thing(st, end):
            continue  # "jean jacket", "ted talk", "tiffany lamp", "porsche 911": a kind of thing
        if surname is not None:
            names.append(st.text[surname.start("w") : surname.end("w")].title())
            end = surname.end()
        name = " ".join(names)
        st.claim(start, end, "atom", {"person": name}, slot="person")
        st.note(unnamed_note(name), 0.0)
    _drop_relation_titles(st)


def _drop_relation_titles(st: ClaimState) -> None:
    """A word for a relation right before someone's name is a title: "aunt mary" is Mary, named in
    People or not (the relation, a look that is never sure, made Mary's photos only partial)."""
    for t in list(st.toks):
        if t.kind != "atom" or not t.node or "person" not in t.node:
            continue
        before = st.word_before(t.start)
        if before is None or before.group(0) not in _RELATIONS or not st.free(*before.span()):
            continue
        if re.fullmatch(r"\s+", st.low[before.end() : t.start]):
            st.claim(*before.span(), "drop", text="")


_NEXT_WORD = re.compile(r"\s+(?P<w>[a-z][a-z-]*[a-z])(?:'s)?(?![\w'-])")


def _surname_after(st: ClaimState, end: int) -> re.Match | None:
    """The word after a first name, where it is a surname: written with a capital ("Eileen
    Collins"), or a word WordNet knows first as someone, or not at all ("eileen collins")."""
    from photosearch.query.expansion import PERSON, shared_wordnet

    m = _NEXT_WORD.match(st.low, end)
    if m is None or not st.free(*m.span()) or _not_a_word(m.group("w")) or _taken(m.group("w"), st):
        return None
    if _capitalised(st.text[m.start("w") : m.end("w")]):
        return m
    wn = shared_wordnet()
    if wn is None or wn.is_verb(m.group("w")) or wn.is_adjective(m.group("w")):
        return None
    senses = wn.lookup(m.group("w"))  # "collins", "smith", "curie": someone WordNet names so
    known = any(_proper(wn, s, m.group("w")) and wn.synset(s).lexfile == PERSON for s in senses)
    return m if not senses or known else None


def _before_a_thing(st: ClaimState, end: int) -> bool:
    """Whether a noun or a number follows the name right after it, which the name then describes
    ("jean jacket", "porsche 911"); not a word that joins ("anna and tom", "anna at the beach")."""
    from photosearch.query.expansion import shared_wordnet

    after = re.match(r"\s+([a-z0-9][\w-]*)", st.low[end:])
    word = after.group(1) if after else ""
    if not word or not st.free(end + after.start(1), end + after.end(1)):
        return False  # the end, or a word read already ("emma 2019": a year)
    if _a_joining_word(word):
        return False
    if word[0].isdigit():
        return True
    wn = shared_wordnet()
    return wn is not None and not word.endswith("ing") and bool(wn.senses(word))


def _capitalised(typed: str) -> bool:
    """Whether a word is written with a capital and the rest in lower case ("Rose", not "ROSE")."""
    return typed[:1].isupper() and typed[1:].islower()


def _capital_after(st: ClaimState, end: int) -> bool:
    """Whether the next word is written with a capital (and the rest in lower case)."""
    m = _NEXT_WORD.match(st.low, end)
    return _capitalised(st.text[m.start("w") : m.end("w")] if m else "")


def _a_place(word: str) -> bool:
    """Whether the word is a country, a famous city or a region WordNet knows first as a place
    ("georgia", "victoria", "paris"; not "mary", a region of Turkmenistan)."""
    from photosearch.query.claims.entities import first_a_place
    from photosearch.query.places import FAMOUS_CITIES, lookup

    found = lookup(word)
    if word in FAMOUS_CITIES or found and found[0].kind == "country":
        return True
    return bool(found) and found[0].kind == "region" and first_a_place(word)


_PET_AFTER = re.compile(r"\s+(?:the|our|my|his|her|their)\s+(?P<w>[a-z]+)\b")


def _a_pets_name(st: ClaimState, start: int, end: int) -> bool:
    """Whether an animal's word is said with the name: "max the dog", "our cat luna"."""
    from photosearch.query.expansion import ANIMAL, shared_wordnet

    wn = shared_wordnet()
    after, before = _PET_AFTER.match(st.low, end), st.word_before(start)
    words = [w for w in (after and after.group("w"), before and before.group(0)) if w]
    return wn is not None and any((s := wn.senses(w)) and wn.synset(s[0]).lexfile == ANIMAL for w in words)


def _a_joining_word(word: str) -> bool:
    """A word that joins or fills, no name: "the", "at", "and", "or"."""
    return word in lx.STOP_WORDS or word in lx.SEPARATORS or word in lx.AND_WORDS or word in lx.OR_WORDS


def _not_a_word(word: str) -> bool:
    return len(word) < 3 or _a_joining_word(word)


def _taken(word: str, st: ClaimState) -> bool:
    """Whether the word is a common word, a scene word ("marina", a make of car: "porsche",
    "mercedes") or one of the library's own (a keyword, a label, a place)."""
    from photosearch.query.expansion import scenes

    if _not_a_word(word) or word in lx.COMMON_WORDS or word in scenes():
        return True
    return word in st.ctx.words or word in st.ctx.places


def _after_an_article(st: ClaimState, start: int) -> bool:
    """ "a penny", "the baker": a thing, not someone; "photos by john", "from anna": who took or
    sent them, not who is in them."""
    before = st.word_before(start)
    return before is not None and before.group(0) in _NOT_SOMEONE_AFTER


_NOT_SOMEONE_AFTER = frozenset({"a", "an", "the", "some", "this", "that", "these", "those", "by", "from"})


def _in_a_compound(st: ClaimState, start: int, end: int, word: str) -> bool:
    """Whether the word and the one before or after it are one WordNet noun ("christmas carol",
    "teddy bear")."""
    from photosearch.query.claims.attributes import names_a_thing

    before, after = st.word_before(start), st.word_after(end)
    return bool(before and names_a_thing(before.group(0), word) or after and names_a_thing(word, after))


#: Words before a name that make it a place's or a saint's ("St Peter's", "mount everest").
_TITLES = frozenset({"st", "saint", "san", "santa", "mount", "mt", "lake", "fort", "port", "cape", "loch"})


#: Words for relations a first name follows: "uncle bob", "aunt mary", "cousin jack".
_RELATIONS = lx.RELATION_WORDS | {"cousin", "auntie", "aunty", "grandad", "gran", "papa", "mama"}


def _after_one_of(st: ClaimState, start: int, words: frozenset[str]) -> bool:
    """Whether the word at `start` comes right after one of `words` (a title, a relation)."""
    before = st.word_before(start)
    return before is not None and before.group(0) in words


def _proper(wn, synset: int, word: str) -> bool:
    """Whether WordNet writes the word with a capital in that sense (a name: "John", "Taylor")."""
    written = [lemma for lemma in wn.synset(synset).lemmas if lemma.lower() == word]
    return bool(written) and written[0][:1].isupper()


def _no_word_but_a_name(word: str, share: float) -> bool:
    """Whether WordNet knows the word as no verb or adjective, and as no noun ("kate", "sophie"),
    or only as names where it is a name often given ("noah"; not "monet", someone famous)."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    if wn is None or wn.is_verb(word) or wn.is_adjective(word):
        return False
    senses = wn.senses(word)
    return not senses or share >= CAPITALISED and all(_proper(wn, s, word) for s in senses)


def _only_a_name(word: str) -> bool:
    """Whether WordNet knows the word as nothing a person would search photos for but a name: no
    verb ("mark", "rose"), no adjective ("sandy"), no plant, animal or food ("lily", "robin"), and
    no other sense it often means ("grace", "hunter"), unless its first sense is a name ("tom")."""
    from photosearch.query.expansion import ANIMAL, FOOD, PLANT, shared_wordnet

    wn = shared_wordnet()
    if wn is None or wn.is_verb(word) or wn.is_adjective(word):
        return False
    senses = wn.lookup(word)
    if not senses or _proper(wn, senses[0], word):
        return True
    uses = wn.sense_uses(word)
    common = [(s, used) for s, used in zip(senses, uses, strict=True) if not _proper(wn, s, word)]
    return not any(wn.synset(s).lexfile in (ANIMAL, FOOD, PLANT) or used >= 3 for s, used in common)
