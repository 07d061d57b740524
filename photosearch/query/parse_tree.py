"""From claimed tokens to the plan: content words merged into concept phrases, comma lists read
as OR, clauses AND-ed, and inside a clause the boolean tree: OR binds tighter than AND; NOT takes
the following OR-chain (and following same-type operands joined by "and")."""

from __future__ import annotations

import re
from collections.abc import Callable

from photosearch.query import lexicon as lx
from photosearch.query import spelling
from photosearch.query.parse_state import (
    ALONE,
    ME_UNNAMED,
    ClaimState,
    ParseResult,
    Slot,
    Token,
    sentence_start,
)
from photosearch.query.plan import default_compose, flat_node, make_plan


def build_result(st: ClaimState) -> ParseResult:
    """The plan, confidence, notes, slots and skeleton of a request whose spans are all claimed."""
    toks = sorted(st.toks, key=lambda t: t.start)
    seq = _phrases(toks, st)
    seq = _only_lists(_lists(_one_value_each(seq)))
    unnamed = _unnamed_me(toks)
    where = _parallel_clauses(flat_node(_alone_means_exactly(_build_clauses(seq, st), seq, unnamed)))
    if (
        st.compose["per"] == "person"
        and "and" in where
        and len(where["and"]) > 1
        and all("person" in t for t in where["and"])
    ):
        where = {"or": where["and"]}  # "Anna, Tom and Lisa, each at least once": any of them, all covered
    plan = make_plan(where, st.compose)
    slots = [Slot(t.slot, t.node, t.start, t.end) for t in seq if t.kind == "atom" and t.node is not None]
    skeleton = _skeleton(toks, seq)
    has_atoms = bool(slots)
    conf = 1.0 - st.penalty
    if not has_atoms and st.compose == default_compose():
        st.note("nothing in the request was understood", 0.8)
        conf = 1.0 - st.penalty
    return ParseResult(plan, round(max(0.0, min(1.0, conf)), 3), st.notes, slots, skeleton)


def _phrases(toks: list[Token], st: ClaimState) -> list[Token]:
    """Merge adjacent content words into concept phrases (drops do not split them)."""
    out: list[Token] = []
    run: list[Token] = []
    # a kind said already is the kind ("screenshots of recipes": a photo is one kind)
    kind_said = any(t.slot == "kind" for t in toks)

    def flush():
        if not run:
            return
        unknown = [_unknown_here(t.text, st) for t in run]
        # two unknown words side by side are a name, as written ("machu picchu"), not two typos; apart,
        # they are ("pictres of my dgo")
        named = any(
            unknown[i] and unknown[i + 1] and not st.text[run[i].end : run[i + 1].start].strip()
            for i in range(len(run) - 1)
        )
        words = [_spelled(t, st) if u and not named else t.text for t, u in zip(run, unknown, strict=True)]
        _check_words([t for t, w in zip(run, words, strict=True) if w == t.text], st)
        # a typo of a word that says nothing ("picutres of my cat"): dropped, as written right
        kept = [(t, w) for t, w in zip(run, words, strict=True) if w == t.text or w not in lx.STOP_WORDS]
        if not kept:
            run.clear()
            return
        run[:], words = [t for t, _ in kept], [w for _, w in kept]
        head = words[-1] if _names_a_plural(words) else _singular_noun(words[-1], words[:-1])
        phrase = " ".join([*(w.lower() for w in words[:-1]), head.lower()]).strip(" .'-")
        phrase = re.sub(r"'s$", "", phrase)
        if len(words) > 3:
            st.note(f"“{phrase}” was looked for as one thing", 0.2)
        if phrase in lx.RELATION_WORDS:  # "my dad": no one is named so in People (a name is a person)
            st.note(f"no one is named “{phrase}” in People: name them there to find their photos", 0.0)
        node: dict = {"concept": phrase}
        # "receipts": a document, and what it is; "grandpa reading the newspaper" is a scene
        if _names_a_document(phrase) and not kind_said and not _someone_before(toks, run[0].start, st):
            node = {"and": [{"kind": "document"}, node]}
        out.append(Token(run[0].start, run[-1].end, "atom", node, phrase, "concept"))
        run.clear()

    for t in toks:
        if t.kind == "word":
            run.append(t)
        elif t.kind == "drop":
            continue
        else:
            flush()
            out.append(t)
    flush()
    return out


def _someone_before(toks: list[Token], start: int, st: ClaimState) -> bool:
    """Whether someone is named before `start`, doing something ("grandpa reading the newspaper",
    "a man holding a ticket"): a person, a count of people or a word WordNet reads first as a
    person; not an owner ("anna's passport") nor who it came from ("a letter from grandma" names
    grandma after it)."""
    from photosearch.query.expansion import PERSON, first_lexfile

    for t in toks:
        if t.end > start:
            continue
        if "'s" in st.low[t.end - 2 : t.end + 2] or st.low[t.end - 1 : t.end + 1] == "s'":  # an owner
            continue
        if {"faces", "person"} & set(t.node or {}) or (
            t.kind == "word" and first_lexfile(_singular_noun(t.text.lower())) == PERSON
        ):
            return True
    return False


def _names_a_document(phrase: str) -> bool:
    """Whether a thing's name ends in a paper people photograph to keep ("train ticket")."""
    words = phrase.split()
    if " ".join(words[-2:]) in lx.NOT_DOCUMENTS:
        return False
    return words[-1] in lx.DOCUMENT_THINGS or " ".join(words[-2:]) in lx.DOCUMENT_THINGS


def _singular_noun(word: str, before: list[str] | tuple[str, ...] = ()) -> str:
    """The head word's singular, where WordNet agrees it is one: a noun WordNet knows as written and
    whose plain singular it does not know is not a plural ("rhinoceros", "cosmos", "badlands"); a
    plural whose plain singular WordNet does not know takes WordNet's ("rhinoceroses" → rhinoceros);
    a plural that is a noun of its own stays (`word_meant`: "woods" is a forest, not wood), unless
    the word before makes a noun of the singular ("wedding rings": wedding ring, no gym rings)."""
    from photosearch.query.expansion import shared_wordnet, word_meant

    single = lx.singular(word)
    wn = shared_wordnet() if single != word else None
    if wn is None:
        return single
    if before and wn.lookup(f"{before[-1].lower()}_{single.lower()}"):
        return single
    forms = wn.base_forms(word)
    if not forms or single.lower() in forms:
        return word if word_meant(word.lower(), single.lower()) == word.lower() else single
    return word if word.lower() in forms else forms[0]


def _names_a_plural(words: list[str]) -> bool:
    """Whether several words are, as written, one thing WordNet knows by a plural name ("northern
    lights" is the aurora; "northern light" would be a light)."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet() if len(words) > 1 else None
    return wn is not None and bool(wn.lookup("_".join(w.lower() for w in words)))


def _check_words(run: list[Token], st: ClaimState) -> None:
    """A capitalised word that is no person or place of the library is said to be looked for as a
    thing: inside a sentence always, at its start when WordNet does not know the word ("Xavier at
    the beach"; "Dogs at the beach" is plain capitalisation)."""
    for t in run:
        w = t.text
        if not w[:1].isupper() or w.lower() in lx.COMMON_WORDS:
            continue
        if not sentence_start(st.text, t.start) or _unknown_word(w):
            st.note(f"“{w}” is not a person or place in your library, so it was looked for as a thing", 0.35)


def _spelled(t: Token, st: ClaimState) -> str:
    """The word as meant, for a word no word list knows (`_unknown_here`): a typo is read as the noun
    one edit away ("flowrs" → "flowers"; `query/spelling.py`), and the request says so."""
    w = t.text
    if st.spelling_tries >= spelling.MAX_TRIES:
        return w
    st.spelling_tries += 1
    word = spelling.meant(w)
    if word is None:
        return w
    st.note(typo_note(w, word), TYPO_PENALTY)
    st.corrections.append((t.start, t.end, w, word))
    return word


def typo_note(typed: str, word: str) -> str:
    return f"“{typed}” was read as “{word}”"


def _unknown_here(w: str, st: ClaimState) -> bool:
    """Whether no word list nor the library knows the word (a capital is a name's: "Sintra"), or it
    is a short form people type ("bday", "hols": `spelling.SHORTHAND`)."""
    if w in spelling.SHORTHAND:
        return True
    if w[:1].isupper() or w in st.ctx.words:
        return False
    known = frozenset(n.lower() for n in (*st.ctx.people, *st.ctx.cameras, *st.ctx.folders, *st.ctx.albums))
    return spelling.unknown(w, known)


#: A corrected typo lowers the reading's confidence only a little: the word it became is a known noun.
TYPO_PENALTY = 0.05


def _unknown_word(word: str) -> bool:
    """Whether WordNet knows the word only as a name (its "Xavier" is the saint) or not at all."""
    from photosearch.query.expansion import shared_wordnet

    wn = shared_wordnet()
    if wn is None or not word.isalpha():
        return False
    forms = {b.lower() for b in wn.base_forms(word.lower())} | {word.lower()}
    lemmas = (lemma for off in wn.senses(word.lower()) for lemma in wn.synset(off).lemmas)
    return not any(lemma in forms for lemma in lemmas)  # a common noun's lemma is lower case


#: Atoms a photo has one value of: when it was taken, where, with what camera, in what folder, of
#: what kind or shape. "photos from 2019 and 2020", "in paris and london", "on saturdays and
#: sundays" ask for either: both at once no photo can be.
ONE_VALUE_EACH = (
    "date",
    "added",
    "month",
    "yearly",
    "weekday",
    "hour",
    "place",
    "camera",
    "lens",
    "folder",
    "kind",
    "orientation",
)


#: Negations that list what is left out: each thing joined by "and" after them is left out too,
#: whatever its kind ("everything except screenshots and memes"); after "no" or "without" only things
#: of the first one's kind are ("no people and a dog" keeps the dog).
EXCEPTIONS = frozenset(
    {
        "except",
        "except for",
        "excluding",
        "other than",
        "apart from",
        "aside from",
        "anything but",
        "everything but",
    }
)


def _parallel_clauses(where: dict) -> dict:
    """ "dogs in paris and cats in london", "anna in 2019 and tom in 2020": a photo has one place and
    one date, so two clauses that each end in one are either clause (were all four parts at once)."""
    parts = where.get("and") if isinstance(where, dict) else None
    for key in ONE_VALUE_EACH if parts else ():
        at = [i for i, part in enumerate(parts) if set(part) == {key}]
        if len(at) == 2 and at[0] >= 1 and at[1] > at[0] + 1:
            first, second = parts[: at[0] + 1], parts[at[0] + 1 :]
            return {"or": [flat_node({"and": first}), flat_node({"and": second})]}
    return where


def _atom_key(t: Token | None) -> str | None:
    """The atom key of a positive atom token ("date"), else None."""
    if t is None or t.kind != "atom" or not t.node or len(t.node) != 1:
        return None
    key = next(iter(t.node))
    return key if key in ONE_VALUE_EACH else None


def _one_value_each(seq: list[Token]) -> list[Token]:
    """ "2019 and 2020", "June, July and August": an 'and' (and the commas of its list) between atoms
    of one key a photo has one value of becomes 'or'."""
    out = list(seq)
    for i, t in enumerate(out):
        if t.kind != "and" or t.text not in ("and", "&") or i == 0 or i + 1 >= len(out):
            continue
        key = _atom_key(out[i - 1])
        if key is None or _atom_key(out[i + 1]) != key:
            continue
        out[i] = Token(t.start, t.end, "or", text=t.text)
        _commas_to_or(out, i - 1, lambda x, key=key: _atom_key(x) == key)
    return out


def _commas_to_or(out: list[Token], last: int, same: Callable[[Token], bool]) -> None:
    """The commas of the list that ends with the atom at `last` ("Anna, Tom or Lisa"), back to its
    first atom of the same kind, become 'or' (in place)."""
    k = last
    while k - 2 >= 0 and out[k - 1].kind == "sep" and same(out[k - 2]):
        out[k - 1] = Token(out[k - 1].start, out[k - 1].end, "or", text=",")
        k -= 2


def _lists(seq: list[Token]) -> list[Token]:
    """ "Anna, Tom or Lisa": commas in a same-type list that ends with 'or' become 'or'."""
    out = list(seq)
    i = 0
    while i < len(out):
        if out[i].kind != "or":
            i += 1
            continue
        j = i - 1
        if j < 0 or out[j].kind != "atom":
            i += 1
            continue
        typ = out[j].slot
        _commas_to_or(out, j, lambda x, typ=typ: x.kind == "atom" and x.slot == typ)
        if i - 1 >= 0 and out[i - 1].kind == "sep":
            out.pop(i - 1)
            i -= 1
        i += 1
    return out


def _is_person(t: Token | None) -> bool:
    return t is not None and t.kind == "atom" and t.slot == "person"


def _only_lists(seq: list[Token]) -> list[Token]:
    """ "only Anna, Tom and Lisa": the commas of a list of people after 'only' join it (an 'and';
    an Oxford comma before 'and' goes), so one clause counts every name."""
    out: list[Token] = []
    in_list = False
    for i, t in enumerate(seq):
        nxt = seq[i + 1] if i + 1 < len(seq) else None
        if t.kind == "only":
            in_list = _is_person(nxt)
        elif in_list and t.kind == "sep":
            if nxt is not None and nxt.kind == "and" and _is_person(seq[i + 2] if i + 2 < len(seq) else None):
                continue
            if _is_person(nxt):
                out.append(Token(t.start, t.end, "and", text=","))
                continue
            in_list = False
        elif t.kind not in ("and", "atom") or t.kind == "atom" and t.slot != "person":
            in_list = False
        out.append(t)
    return out


def _unnamed_me(toks: list[Token]) -> int:
    """1 where the request says "me" beside others and no owner is set: a person to count, not to find."""
    return int(any(t.kind == "drop" and t.text == ME_UNNAMED for t in toks))


def _alone_means_exactly(where: dict, seq: list[Token], unnamed: int = 0) -> dict:
    """ "Anna and Tom alone": with two or more people named, 'alone' means exactly them (faces = n);
    an unnamed "me" is one of them ("me and Anna alone": two faces, whoever "me" is; "me alone": one,
    where "Anna alone" may show her from behind)."""
    alone = [t.node for t in seq if t.kind == "atom" and t.slot == "faces" and t.text == ALONE]
    terms = where.get("and", [where])
    if not alone:
        return where
    people = sum("person" in x for x in terms) + unnamed
    if people < 2 and not unnamed:
        return where
    exactly = {"faces": {"min": people, "max": people}}
    terms = [exactly if any(x is a for a in alone) else x for x in terms]
    return {"and": terms} if "and" in where else terms[0]


def _skeleton(toks: list[Token], seq: list[Token]) -> str:
    """The request's shape for golden pattern matching, e.g. "<person> and <concept> <limit>"."""
    parts = []
    for t in seq:
        if t.kind == "atom":
            parts.append(f"<{t.slot}>")
        elif t.kind in ("and", "or", "not", "only"):
            parts.append(t.text or t.kind)
        elif t.kind == "sep":
            parts.append(",")
    for t in toks:
        if t.kind == "drop" and t.text.startswith("<"):
            parts.append(t.text)
    return " ".join(parts)


def _build_clauses(seq: list[Token], st: ClaimState) -> dict:
    """Comma clauses AND-ed; inside a clause an 'or' between different kinds of things splits it
    ("Tom at the beach or Lisa in the snow" → (Tom AND beach) OR (Lisa AND snow))."""
    clauses: list[list[Token]] = [[]]
    for t in seq:
        if t.kind == "sep":
            clauses.append([])
        else:
            clauses[-1].append(t)
    parts: list[dict] = []
    for clause in clauses:
        atoms_at = [i for i, t in enumerate(clause) if t.kind == "atom"]
        cuts = []
        for i, t in enumerate(clause):
            if t.kind != "or" or t.text == ",":
                continue
            prev = [j for j in atoms_at if j < i]
            nxt = [j for j in atoms_at if j > i]
            if (
                prev
                and nxt
                and clause[prev[-1]].slot != clause[nxt[0]].slot
                and (len(prev) > 1 or len(nxt) > 1)
                and not any(clause[j].kind == "not" for j in range(i))
            ):
                cuts.append(i)
        if cuts:
            pieces, last = [], 0
            for c in cuts:
                pieces.append(clause[last:c])
                last = c + 1
            pieces.append(clause[last:])
            nodes = [_TreeBuilder(p, st).build() for p in pieces if any(t.kind == "atom" for t in p)]
            parts.append(nodes[0] if len(nodes) == 1 else {"or": nodes})
        elif any(t.kind in ("atom", "only") for t in clause):
            parts.append(_TreeBuilder(clause, st).build())
    flat: list[dict] = []
    for p in parts:
        if "and" in p:
            flat.extend(p["and"])
        else:
            flat.append(p)
    return flat[0] if len(flat) == 1 else {"and": flat}


class _TreeBuilder:
    """OR binds tighter than AND; NOT takes the following OR-chain (and same-type 'and' followers)."""

    def __init__(self, seq: list[Token], st: ClaimState):
        self.seq = [t for t in seq if t.kind in ("atom", "and", "or", "not", "sep", "only")]
        self.st = st
        self.i = 0

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.seq[j] if j < len(self.seq) else None

    def build(self) -> dict:
        terms: list[dict] = []
        explicit_and = False
        saw_or_after_and = False
        while self.peek() is not None:
            t = self.peek()
            if t.kind in ("and", "sep"):
                explicit_and = explicit_and or t.kind == "and" and t.text in ("and", "&", "+", "plus")
                self.i += 1
                continue
            if t.kind == "or":  # dangling 'or' / 'either'
                self.i += 1
                continue
            before = len(terms)
            self._unit(terms)
            if len(terms) > before and self._last_was_or and explicit_and:
                saw_or_after_and = True
        if saw_or_after_and:
            self._check_mixed()
        if len(terms) == 1:
            return terms[0]
        return {"and": terms}

    _last_was_or = False

    def _check_mixed(self) -> None:
        seq = self.seq
        for i, t in enumerate(seq):
            if t.kind == "or" and t.text != ",":
                prev = [x for x in seq[:i] if x.kind == "atom"]
                nxt = [x for x in seq[i + 1 :] if x.kind == "atom"]
                if len(prev) >= 2 and nxt and prev[-1].slot == prev[-2].slot == nxt[0].slot:
                    between = [x for x in seq[seq.index(prev[-2]) + 1 : i] if x.kind == "and"]
                    if between:
                        self.st.note("“and” and “or” mixed: read as A and (B or C)", 0.35)
                        return

    def _unit(self, terms: list[dict]) -> None:
        t = self.peek()
        self._last_was_or = False
        if t.kind == "only":
            self.i += 1
            if self.peek() is None or self.peek().kind != "atom":
                return
            start = len(terms)
            self._unit(terms)
            people = [x for x in terms[start:] if "person" in x]
            while (
                self.peek() is not None
                and self.peek().kind in ("and", "sep")
                and self.peek(1) is not None
                and self.peek(1).kind == "atom"
                and self.peek(1).slot == "person"
            ):
                self.i += 1
                self._unit(terms)
                people = [x for x in terms[start:] if "person" in x]
            if people and not any("faces" in x for x in terms):  # "only Anna and Tom": exactly them
                n = len(people) + _unnamed_me(self.st.toks)  # "only Anna and me", no owner set: two
                terms.append({"faces": {"min": n, "max": n}})
            return
        if t.kind == "not":
            self.i += 1
            while (
                self.peek() is not None
                and self.peek().kind in ("not", "and")
                and (self.peek().text != "with" or self.peek(1) is not None and self.peek(1).kind == "atom")
            ):
                self.i += 1
            if self.peek() is None or self.peek().kind != "atom":
                self.st.note(f"nothing follows “{t.text}” to leave out, so it was ignored", 0.3)
                return
            first_slot = self.peek().slot
            listed = " ".join(t.text.split()) in EXCEPTIONS  # "except screenshots and memes": both
            terms.append({"not": self._or_chain(nor=True)})
            while (
                self.peek() is not None
                and self.peek().kind == "and"
                and self.peek().text in ("and", "or", "nor")
                and self.peek(1) is not None
                and self.peek(1).kind == "atom"
                and (listed or self.peek(1).slot == first_slot)
            ):
                self.i += 1
                terms.append({"not": self._or_chain(nor=True)})
            return
        if t.kind != "atom":
            self.i += 1
            return
        node = self._or_chain()
        terms.append(node)

    def _or_chain(self, nor: bool = False) -> dict:
        items = [self.peek().node]
        self.i += 1
        while self.peek() is not None and (self.peek().kind == "or" or nor and self.peek().text == "nor"):
            nxt = self.peek(1)
            if nxt is None:
                self.i += 1
                break
            if nxt.kind == "not":  # "or not X" → leave for the caller
                break
            if nxt.kind != "atom":
                self.i += 1
                continue
            self.i += 2
            items.append(nxt.node)
            self._last_was_or = True
        return items[0] if len(items) == 1 else {"or": items}
