"""WordNet 3.0 noun hierarchy read straight from the database files (Debian's `wordnet-base`).

ImageNet classes are WordNet noun synsets, so a classifier label ("tabby") can be expanded
to its hypernyms ("cat", "feline", "carnivore", "mammal", "animal"). WordNet's synset offset
is the byte offset of the synset's line in `data.noun`, so a synset is read with one seek, and
`index.noun` (lemma -> synsets, sorted by lemma) is binary-searched in place: nothing is parsed whole.
"""

from __future__ import annotations

import mmap
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from photosearch.errors import PhotoSearchError

DEFAULT_DIRS = ("/usr/share/wordnet", "/usr/local/share/wordnet", "/usr/share/WordNet-3.0/dict")

# Top-of-hierarchy synsets that say nothing a user would search for ("entity", "whole", ...).
ABSTRACT_LEMMAS = frozenset(
    {
        "entity",
        "physical_entity",
        "abstraction",
        "abstract_entity",
        "object",
        "physical_object",
        "whole",
        "unit",
        "living_thing",
        "animate_thing",
        "organism",
        "being",
        "causal_agent",
        "cause",
        "matter",
        "part",
        "portion",
        "thing",
        "instrumentality",
        "instrumentation",
        "artifact",
        "artefact",
        "group",
        "grouping",
        "attribute",
        "relation",
        "psychological_feature",
        "measure",
        "quantity",
        "location",
        "event",
        "act",
        "process",
        "physical_process",
        "communication",
        "commodity",
        "trade_good",
        "good",
        "implement",
        "device",
        "structure",
        "construction",
        "covering",
        "container",
        "chordate",
        "vertebrate",
        "craniate",
        "placental",
        "placental_mammal",
        "eutherian",
        "eutherian_mammal",
        "invertebrate",
        "solid",
        "substance",
        "natural_object",
        "creation",
        "product",
        "consumer_goods",
        "system",
        "decoration",
        "ornament",
        "ornamentation",
        "equipment",
        "material",
        "stuff",
        "nutrient",
        "article",
        "geological_formation",
        "formation",
        "plant_part",
        "plant_structure",
    }
)


#: Morphy's noun detachment rules (suffix -> replacement).
_NOUN_SUFFIXES = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
)


#: WordNet's morphy rules for verbs (suffix, replacement): "cooks", "baked", "cooked", "making".
_VERB_SUFFIXES = (
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
)


def _read_noun_uses(path: Path) -> dict[str, dict[int, int]]:
    """cntlist.rev's nouns: lemma → {sense number: times WordNet's tagged corpus used it}; {} when
    absent. A line is "lemma%1:lexfile:id:: sense_number count"; "%1" marks a noun."""
    uses: dict[str, dict[int, int]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            parts = line.split()
            key, _, rest = parts[0].partition("%") if len(parts) == 3 else ("", "", "")
            if rest.startswith("1:") and parts[1].isdigit() and parts[2].isdigit():
                uses.setdefault(key, {})[int(parts[1])] = int(parts[2])
    return uses


def _read_exceptions(path: Path) -> dict[str, tuple[str, ...]]:
    """An exception list (noun.exc, verb.exc): irregular form → base forms; {} when absent."""
    exc: dict[str, tuple[str, ...]] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            parts = line.split()
            if len(parts) >= 2:
                exc[parts[0]] = tuple(parts[1:])
    return exc


class WordNetUnavailable(PhotoSearchError):
    """The WordNet database files are not installed."""


@dataclass(frozen=True)
class Synset:
    offset: int
    lemmas: tuple[str, ...]  # with underscores, as in the database
    hypernyms: tuple[int, ...]  # '@' and '@i' pointers to noun synsets
    gloss: str
    hyponyms: tuple[int, ...] = ()  # '~' and '~i' pointers to noun synsets
    lexfile: int = 0  # its lexicographer file: 6 noun.artifact, 5 noun.animal, 18 noun.person, ...
    part_of: tuple[int, ...] = ()  # '#p' pointers: the wholes it is a part of (a sail, of a sailing vessel)
    parts: tuple[int, ...] = ()  # '%p' pointers: its parts (Paris's Eiffel Tower, Rome's Colosseum)

    @property
    def wnid(self) -> str:
        return f"n{self.offset:08d}"

    @property
    def name(self) -> str:
        """The first lemma, human-readable ("tabby_cat" -> "tabby cat")."""
        return self.lemmas[0].replace("_", " ")

    @property
    def names(self) -> list[str]:
        return [lemma.replace("_", " ") for lemma in self.lemmas]

    @property
    def abstract(self) -> bool:
        return self.lemmas[0].lower() in ABSTRACT_LEMMAS


def find_wordnet_dir(explicit: str | Path | None = None) -> Path:
    """The directory holding `data.noun` and `index.noun` (env WNHOME / WORDNET_DIR honoured)."""
    bundled = Path(getattr(sys, "_MEIPASS", "")) / "wordnet" if getattr(sys, "frozen", False) else None
    candidates = [explicit, os.environ.get("WORDNET_DIR"), os.environ.get("WNHOME"), bundled, *DEFAULT_DIRS]
    for cand in candidates:
        if not cand:
            continue
        for d in (Path(cand), Path(cand) / "dict"):
            if (d / "data.noun").is_file() and (d / "index.noun").is_file():
                return d
    raise WordNetUnavailable(
        "WordNet 3.0 is not installed: install Debian's `wordnet-base` (apt-get install wordnet-base) "
        "or set WORDNET_DIR to a directory with data.noun and index.noun"
    )


@dataclass(frozen=True)
class DataLine:
    """One line of a WordNet data file (`data.noun`, `data.adj`; format: wndb(5WN))."""

    offset: int
    lexfile: int
    lemmas: tuple[str, ...]  # as in the database, without an adjective's marker ("Chinese(a)")
    pointers: tuple[tuple[str, int, str, int, int], ...]  # (symbol, target, pos, source word, target word)
    gloss: str


def read_data_line(line: str) -> DataLine:
    """Split one data line into its synset's offset, lexicographer file, lemmas, pointers and gloss."""
    head, _, gloss = line.partition(" | ")
    parts = head.split()
    w_cnt = int(parts[3], 16)
    lemmas = tuple(parts[4 + 2 * i].split("(")[0] for i in range(w_cnt))
    i = 4 + 2 * w_cnt
    pointers = []
    for _ in range(int(parts[i])):
        symbol, target, pos, ends = parts[i + 1 : i + 5]
        pointers.append((symbol, int(target), pos, int(ends[:2], 16), int(ends[2:], 16)))
        i += 4
    return DataLine(int(parts[0]), int(parts[1]), lemmas, tuple(pointers), gloss.strip())


def parse_data_line(line: str) -> Synset:
    """Parse one `data.noun` line (format: wndb(5WN))."""
    data = read_data_line(line)

    def noun_pointers(*symbols: str) -> tuple[int, ...]:
        return tuple(
            target for symbol, target, pos, _s, _d in data.pointers if symbol in symbols and pos == "n"
        )

    return Synset(
        data.offset,
        data.lemmas,
        noun_pointers("@", "@i"),
        data.gloss,
        noun_pointers("~", "~i"),
        data.lexfile,
        noun_pointers("#p"),
        noun_pointers("%p"),
    )


#: Index lines a process remembers (about 120k lemmas exist; a few MB at most in practice).
LINE_CACHE_SIZE = 200_000


class NounIndex:
    """index.noun searched in place: its lines are sorted by lemma, so a lookup is a binary search of
    the memory-mapped file (~17 probes) instead of parsing 118k lines (~0.5 s) in every process."""

    def __init__(self, path: Path):
        with open(path, "rb") as fh:
            self._map = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        self._start = 0
        while self._map[self._start : self._start + 1] == b" ":  # the licence header's lines
            self._start = self._map.find(b"\n", self._start) + 1
        # lemma -> its line's fields: expanding a concept looks up hundreds of related lemmas, and a
        # plan of thousands of concepts meets the same ones again (bounded: the index has 118k)
        self._lines: dict[str, list[str] | None] = {}

    def close(self) -> None:
        self._map.close()

    def _line(self, lemma: str) -> list[str] | None:
        """The fields of `lemma`'s line, or None (remembered)."""
        try:
            return self._lines[lemma]
        except KeyError:
            pass
        found = self._search(lemma)
        if len(self._lines) < LINE_CACHE_SIZE:
            self._lines[lemma] = found
        return found

    def _search(self, lemma: str) -> list[str] | None:
        """Binary search of the memory-mapped index for `lemma`'s line."""
        key = lemma.encode("utf-8")
        line, _end = self._line_at(self._first_line_from(key))
        return line.decode("utf-8", "replace").split() if line and line.split(b" ", 1)[0] == key else None

    def _first_line_from(self, key: bytes) -> int:
        """Where the first line whose lemma is not below `key` starts (the map's end if none): a
        binary search of the sorted lines (~17 probes)."""
        mm = self._map
        lo, hi = self._start, len(mm)  # both are line starts
        while lo < hi:
            mid = (lo + hi) // 2
            start = mm.rfind(b"\n", lo, mid) + 1 or lo
            end = mm.find(b"\n", start, hi)
            end = hi if end < 0 else end
            if mm[start:end].split(b" ", 1)[0] < key:
                lo = end + 1
            else:
                hi = start
        return lo

    def _line_at(self, start: int) -> tuple[bytes, int]:
        """The line that starts at `start`, without its newline, and where it ends."""
        end = self._map.find(b"\n", start)
        end = len(self._map) if end < 0 else end
        return self._map[start:end], end

    def __contains__(self, lemma: str) -> bool:
        return self._line(lemma) is not None

    def starting_with(self, prefix: str) -> list[str]:
        """Every lemma that starts with `prefix`, in the index's order ("mount_" -> mount_adams, ...)."""
        key = prefix.encode("utf-8")
        found: list[str] = []
        start = self._first_line_from(key)
        while start < len(self._map):
            line, end = self._line_at(start)
            word = line.split(b" ", 1)[0]
            if not word.startswith(key):
                break
            found.append(word.decode("utf-8", "replace"))
            start = end + 1
        return found

    def get(self, lemma: str, default: tuple[int, ...] = ()) -> tuple[int, ...]:
        """The lemma's noun synset offsets, most frequent sense first."""
        parts = self._line(lemma)
        return tuple(int(p) for p in parts[-int(parts[2]) :]) if parts else default

    def tagged(self, lemma: str) -> int:
        """How many of the lemma's senses are sense-tagged (0: unknown lemma)."""
        parts = self._line(lemma)
        return int(parts[-int(parts[2]) - 1]) if parts else 0


class WordNet:
    """Random-access reader of the noun database. Thread-safe; synsets are cached."""

    def __init__(self, directory: str | Path | None = None):
        self.dir = find_wordnet_dir(directory)
        self._lock = threading.Lock()
        self._cache: dict[int, Synset] = {}
        self._index: NounIndex | None = None
        self._exc: dict[str, tuple[str, ...]] | None = None
        self._uses: dict[str, dict[int, int]] | None = None
        # index.adj and index.verb (the noun index's format), opened when first asked; None: absent
        self._side: dict[str, NounIndex | None] = {}
        self._verb_exc: dict[str, tuple[str, ...]] | None = None
        self._fh = open(self.dir / "data.noun", "rb")  # noqa: SIM115 - kept open for seeks
        self._adj_fh: BinaryIO | None = None  # data.adj, opened when first asked

    def close(self) -> None:
        with self._lock:
            self._fh.close()
            if self._adj_fh is not None:
                self._adj_fh.close()
                self._adj_fh = None
            if self._index is not None:
                self._index.close()
                self._index = None
            for index in self._side.values():
                if index is not None:
                    index.close()
            self._side.clear()

    def synset(self, offset: int) -> Synset:
        with self._lock:
            hit = self._cache.get(offset)
            if hit is not None:
                return hit
            self._fh.seek(offset)
            line = self._fh.readline().decode("utf-8", "replace")
            syn = parse_data_line(line)
            if syn.offset != offset:
                raise WordNetUnavailable(f"{self.dir / 'data.noun'} is not the WordNet 3.0 noun database")
            self._cache[offset] = syn
            return syn

    def lookup(self, lemma: str) -> tuple[int, ...]:
        """Noun synset offsets of a lemma ("tiger cat" or "tiger_cat"), most frequent sense first."""
        index = self._load_index()
        return index.get(lemma.strip().lower().replace(" ", "_"), ())

    def names_headed_by(self, word: str) -> list[str]:
        """WordNet's nouns of several words whose first word is `word` ("mount" -> "mount adams",
        "mount ararat", ...)."""
        key = word.strip().lower().replace(" ", "_")
        return [lemma.replace("_", " ") for lemma in self._load_index().starting_with(key + "_")]

    def _load_index(self) -> NounIndex:
        with self._lock:
            if self._index is None:
                self._index = NounIndex(self.dir / "index.noun")
            return self._index

    def ancestors(self, offset: int) -> dict[int, int]:
        """All hypernyms (every path) of a synset with their shortest distance (1 = parent)."""
        dist: dict[int, int] = {}
        frontier = [offset]
        depth = 0
        while frontier:
            depth += 1
            nxt: list[int] = []
            for off in frontier:
                for parent in self.synset(off).hypernyms:
                    if parent not in dist:
                        dist[parent] = depth
                        nxt.append(parent)
            frontier = nxt
        return dist

    def tagged_senses(self, lemma: str) -> int:
        """How many of a lemma's senses occur in WordNet's sense-tagged corpus (0: no frequency data)."""
        return self._load_index().tagged(lemma.strip().lower().replace(" ", "_"))

    def sense_uses(self, lemma: str) -> tuple[int, ...]:
        """How often WordNet's tagged corpus used each of a lemma's noun senses, in `lookup` order
        (0 where it never did, or where cntlist.rev is missing)."""
        key = lemma.strip().lower().replace(" ", "_")
        with self._lock:
            if self._uses is None:
                self._uses = _read_noun_uses(self.dir / "cntlist.rev")
            counted = self._uses.get(key, {})
        return tuple(counted.get(n, 0) for n in range(1, len(self.lookup(key)) + 1))

    def adjective_tagged(self, lemma: str) -> int:
        """How many of a word's adjective senses are sense-tagged (0: no adjective, or no data)."""
        index = self._side_index("index.adj")
        return index.tagged(lemma.strip().lower().replace(" ", "_")) if index else 0

    def is_adjective(self, word: str) -> bool:
        """Whether WordNet knows the word as an adjective ("sandy"); False without `index.adj`."""
        index = self._side_index("index.adj")
        return index is not None and word.strip().lower().replace(" ", "_") in index

    def adjective_nouns(self, word: str) -> tuple[tuple[str, int], ...]:
        """The nouns an adjective is made from or pertains to, as (the noun's lemma, its synset), by
        its senses in order: WordNet's derivation ('+') and pertainym ('\\') pointers from this very
        word of each adjective synset ("rocky" → rock, "hilly" → hill, "foggy" → fog, "urban" →
        city); () for a word that is no adjective, or where `data.adj` is missing."""
        w = word.strip().lower().replace(" ", "_")
        index = self._side_index("index.adj")
        offsets = index.get(w) if index is not None else ()
        if not offsets or not (self.dir / "data.adj").is_file():
            return ()
        return tuple(dict.fromkeys(pair for offset in offsets for pair in self._derived_nouns(offset, w)))

    def _derived_nouns(self, offset: int, word: str) -> list[tuple[str, int]]:
        """The (lemma, noun synset) pairs `word` of the adjective synset at `offset` points to."""
        with self._lock:
            if self._adj_fh is None:
                self._adj_fh = open(self.dir / "data.adj", "rb")  # noqa: SIM115 - kept open for seeks
            self._adj_fh.seek(offset)
            line = self._adj_fh.readline().decode("utf-8", "replace")
        first = line.split(" ", 1)[0]
        if not first.isdigit() or int(first) != offset:
            raise WordNetUnavailable(f"{self.dir / 'data.adj'} is not the WordNet 3.0 adjective database")
        data = read_data_line(line)
        lemmas = [lemma.lower() for lemma in data.lemmas]
        own = lemmas.index(word) + 1 if word in lemmas else -1
        out = []
        for symbol, target, pos, source, dest in data.pointers:
            if symbol in ("+", "\\") and pos == "n" and source in (0, own):
                names = self.synset(target).lemmas
                out.append((names[dest - 1] if 0 < dest <= len(names) else names[0], target))
        return out

    def _side_index(self, name: str) -> NounIndex | None:
        """Another part of speech's index file (`index.adj`, `index.verb`), or None when absent."""
        with self._lock:
            if name not in self._side:
                path = self.dir / name
                self._side[name] = NounIndex(path) if path.is_file() else None
            return self._side[name]

    def descendants(self, offset: int, max_depth: int = 8, limit: int = 4000) -> dict[int, int]:
        """All hyponyms of a synset with their shortest distance (1 = child), breadth first."""
        dist: dict[int, int] = {}
        frontier = [offset]
        depth = 0
        while frontier and depth < max_depth and len(dist) < limit:
            depth += 1
            nxt: list[int] = []
            for off in frontier:
                for child in self.synset(off).hyponyms:
                    if child not in dist and len(dist) < limit:
                        dist[child] = depth
                        nxt.append(child)
            frontier = nxt
        return dist

    def base_forms(self, word: str) -> list[str]:
        """Noun lemmas a word form can be (WordNet's morphy for nouns: exceptions, then suffix rules)."""
        w = word.strip().lower().replace(" ", "_")
        index = self._load_index()
        out = [w] if w in index else []
        for base in self._exceptions().get(w, ()):
            if base in index and base not in out:
                out.append(base)
        for suffix, repl in _NOUN_SUFFIXES:
            if w.endswith(suffix) and len(w) > len(suffix):
                base = w[: len(w) - len(suffix)] + repl
                if base in index and base not in out:
                    out.append(base)
        return out

    def verb_forms(self, word: str) -> list[str]:
        """Verb lemmas a word form can be (morphy for verbs: "cooked" → cook, "ate" → eat); [] when
        WordNet knows no such verb or has no verb index."""
        w = word.strip().lower().replace(" ", "_")
        index = self._side_index("index.verb")
        if index is None:
            return []
        bases = [w, *self._verb_exceptions().get(w, ())]
        bases += [
            w[: len(w) - len(s)] + r for s, r in _VERB_SUFFIXES if w.endswith(s) and len(w) > len(s) + 1
        ]
        return [b for b in dict.fromkeys(bases) if b in index]

    def is_verb(self, word: str) -> bool:
        """Whether the word is a verb as written ("mark") or an irregular form of one ("rose"); not
        by a regular ending taken off ("james" is no form of "jam")."""
        w = word.strip().lower().replace(" ", "_")
        index = self._side_index("index.verb")
        if index is None:
            return False
        return w in index or any(base in index for base in self._verb_exceptions().get(w, ()))

    def _verb_exceptions(self) -> dict[str, tuple[str, ...]]:
        """verb.exc: irregular verb forms → their lemmas ("ate" → eat), read once."""
        with self._lock:
            if self._verb_exc is None:
                self._verb_exc = _read_exceptions(self.dir / "verb.exc")
            return self._verb_exc

    def senses(self, word: str) -> tuple[int, ...]:
        """Noun synsets of a word form through its base forms ("dogs" → dog's), each once, in the
        order `base_forms` and `lookup` give them."""
        return tuple(dict.fromkeys(o for base in self.base_forms(word) for o in self.lookup(base)))

    def _exceptions(self) -> dict[str, tuple[str, ...]]:
        if self._exc is None:
            self._exc = _read_exceptions(self.dir / "noun.exc")
        return self._exc

    def first_sense(self, names: tuple[str, ...] | list[str]) -> int | None:
        """The most frequent noun sense of the first of `names` WordNet knows (a scene's "broadleaf
        forest", else "forest"), or None."""
        return next((offsets[0] for name in names if (offsets := self.lookup(name))), None)

    def match_labels(self, labels: list[str]) -> list[int | None]:
        """Map classifier labels ("tabby, tabby cat") to synset offsets.

        A label lists a synset's lemmas. Candidates are the synsets that hold all its lemmas
        (falling back to the first lemma's). ImageNet classes are sorted by WordNet id, so when
        labels come in that order an ambiguous label ("crane": bird or machine) is resolved by
        picking the smallest candidate above the previous class.
        """
        cands: list[list[int]] = []
        for label in labels:
            words = [w.strip() for w in label.split(",") if w.strip()]
            sets = [set(self.lookup(w)) for w in words]
            sets = [s for s in sets if s]
            if not sets:
                cands.append([])
                continue
            common = set.intersection(*sets)
            cands.append(sorted(common or sets[0]))
        out: list[int | None] = []
        prev = -1
        for cand in cands:
            above = [c for c in cand if c > prev]
            pick = above[0] if above else (cand[0] if cand else None)
            out.append(pick)
            if pick is not None and above:
                prev = pick
        return out


_shared: dict[Path, WordNet] = {}
_default: dict[tuple[str, str], WordNet] = {}  # (WORDNET_DIR, WNHOME) -> the reader get_wordnet() gives
_shared_lock = threading.Lock()


def get_wordnet(directory: str | Path | None = None) -> WordNet:
    """A process-wide reader for the installed WordNet (the default one looked for once per
    WORDNET_DIR / WNHOME: a plan of thousands of concepts asked for it thousands of times)."""
    if directory is None:
        key = (os.environ.get("WORDNET_DIR", ""), os.environ.get("WNHOME", ""))
        with _shared_lock:
            hit = _default.get(key)
        if hit is not None:
            return hit
        reader = get_wordnet(find_wordnet_dir(None))
        with _shared_lock:
            _default[key] = reader
        return reader
    d = find_wordnet_dir(directory)
    with _shared_lock:
        if d not in _shared:
            _shared[d] = WordNet(d)
        return _shared[d]
