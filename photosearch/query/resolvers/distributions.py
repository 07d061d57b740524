"""Concept evidence from the models' full class distributions (ConSE-style).

The tagger keeps each photo's whole ImageNet softmax (space "imagenet") and the detector every COCO
class's best score (space "coco"), not only the labels above a threshold. A concept is scored
against them as a convex combination over classes (Norouzi et al., ConSE, 2014):

    evidence(photo) = Σ_{t ≤ T} p_t · A(c_t)

over the photo's top-T classes c_t with probabilities p_t, where A(c) in 0..1 is the concept's
affinity to class c: the best of (a) the WordNet route weight of a query word to the class name
(exact 1 > synonym > hyponym > hypernym, `photosearch.query.expansion`) and (b) the class name's
embedding similarity to the query (MiniLM), calibrated like every embedding signal: z-scored
against the class's similarity to unrelated reference texts, counted only above the calibrated
threshold. A class the model gave 0.2 still counts for what it is, so a modest but right
prediction is not lost; a confident prediction of an unrelated class adds nothing.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass, field

import numpy as np

from photosearch.cache_problems import cache_problem
from photosearch.models.labels import (
    COCO_CLASS_IDS,
    COCO_LABELS,
    COCO_SPACE,
    COCO_WORDNET,
    IMAGENET_SPACE,
    PLACES_SPACE,
    SUN_ATTRIBUTES,
    SUN_SPACE,
    decode_scores,
    imagenet_class_synsets,
    imagenet_labels_path,
    places_categories,
)
from photosearch.query.calibration import REFERENCE_TEXTS, build_null, evidence
from photosearch.query.expansion import NOT_ITSELF, Route, expand, naming_words_meant, shared_wordnet
from photosearch.query.resolvers.compounds import (
    MODIFIER_WEIGHT,
    SHARED_WORD,
    head_word,
    is_compound_noun,
    shares_only_a_word,
)
from photosearch.query.resolvers.kinds import another_kind
from photosearch.query.resolvers.text import fold, naming_tokens, tokens
from photosearch.query.senses import names_one_thing

log = logging.getLogger(__name__)

#: Top classes per photo that take part in the combination.
TOP_T = 10
#: Embedding affinity counts at most this much (a WordNet route or exact name can reach 1).
EMBEDDING_AFFINITY = 0.8
#: A class name counts as similar to the query only this far (in null spreads) above the cut-off.
EMBEDDING_MARGIN = 3.0
#: A class reached only as broader than a word that names a class of the same model counts this much.
OWN_CLASS_PARENT = 0.5
#: Distribution evidence below this is dropped.
MIN_EVIDENCE = 0.01
#: Ranking the closest matches, a softmax's probability counts as p ** RANK_POWER: over 365 scenes or
#: 1,000 things, 0.13 on the very class asked for (the scene model's second guess for a parking ramp)
#: says more than the raw number does beside a guess of a thing only similar by name.
RANK_POWER = 0.7


@dataclass
class ClassSpace:
    """One model's classes: the vector space they are stored in and their names."""

    space: str
    names: list[tuple[str, ...]]  # per class: its names, first is the label
    kind: str  # "softmax" (sums to 1) | "scores" (score_vector with a trailing 1) | "degrees" (0..1 each)
    #: Per class names: the WordNet synset they name, where known (ImageNet's classes by their own
    #: ids, `labels.imagenet_class_synsets`).
    synsets: dict[tuple[str, ...], int] = field(default_factory=dict)

    def decode(self, vecs: np.ndarray) -> np.ndarray:
        vecs = np.atleast_2d(np.asarray(vecs, np.float32))
        if self.kind == "scores":
            return decode_scores(vecs)
        if self.kind == "degrees":
            return np.clip(vecs, 0.0, 1.0)
        total = vecs.sum(axis=1, keepdims=True)
        return np.clip(vecs / np.where(total > 0, total, 1.0), 0.0, 1.0)

    @property
    def labels(self) -> list[str]:
        return [n[0] for n in self.names]


_spaces_lock = threading.Lock()
_spaces: dict[str, ClassSpace] = {}


def _named_synsets(names: list[tuple[str, ...]], lines: list[str]) -> dict[tuple[str, ...], int]:
    wn = shared_wordnet()
    if wn is None:
        return {}
    return {
        n: off for n, off in zip(names, imagenet_class_synsets(lines, wn), strict=True) if off is not None
    }


#: The class space of the model that writes each kind of fact (the tagger's for the rest: its `tag`
#: facts carry its class names; a keyword or caption is looked up by its words).
KIND_SPACES = {"object": COCO_SPACE, "scene": PLACES_SPACE}


def _first_senses(names: list[tuple[str, ...]], imagenet: ClassSpace | None) -> dict[tuple[str, ...], int]:
    """Each class's WordNet sense by its names: an ImageNet class's of the same name (a castle is the
    fortress in both), else the most frequent sense of its first name WordNet knows."""
    wn = shared_wordnet()
    if wn is None:
        return {}
    by_name = {n: off for ns, off in (imagenet.synsets.items() if imagenet else ()) for n in ns}
    out: dict[tuple[str, ...], int] = {}
    for scene in names:
        shared = next((by_name[n] for n in scene if n in by_name and by_name[n] in wn.lookup(n)), None)
        sense = shared if shared is not None else wn.first_sense(scene)
        if sense is not None:
            out[scene] = sense
    return out


def label_synsets(settings, kind: str = "tag") -> dict[tuple[str, ...], int]:
    """The synset each class label of the model writing facts of `kind` names, where known: the
    detector's for `object` facts (COCO_WORDNET), the scene model's for `scene` facts
    (`_first_senses`), the tagger's for the rest."""
    space = KIND_SPACES.get(kind, IMAGENET_SPACE)
    return next((cs.synsets for cs in class_spaces(settings) if cs.space == space), {})


def class_spaces(settings) -> list[ClassSpace]:
    """The class spaces of the bundled tagger and scene model (when their label files are installed)
    and detector."""
    with _spaces_lock:
        if COCO_SPACE not in _spaces:
            names = [(COCO_LABELS[i],) for i in COCO_CLASS_IDS]
            synsets = {n: COCO_WORDNET[n[0]] for n in names if n[0] in COCO_WORDNET}
            _spaces[COCO_SPACE] = ClassSpace(COCO_SPACE, names, "scores", synsets)
        if IMAGENET_SPACE not in _spaces:
            try:
                path = imagenet_labels_path(settings)
                lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
                names = [tuple(w.strip() for w in ln.split(",") if w.strip()) for ln in lines]
                _spaces[IMAGENET_SPACE] = ClassSpace(
                    IMAGENET_SPACE, names, "softmax", _named_synsets(names, lines)
                )
            except Exception as exc:  # noqa: BLE001 - no tagger labels: the COCO space still works
                log.info("no ImageNet class names: %s", exc)
        if PLACES_SPACE not in _spaces:
            try:
                names = places_categories(settings)
                _spaces[PLACES_SPACE] = ClassSpace(
                    PLACES_SPACE, names, "softmax", _first_senses(names, _spaces.get(IMAGENET_SPACE))
                )
            except Exception as exc:  # noqa: BLE001 - no scene model: the other spaces still work
                log.info("no Places365 scene names: %s", exc)
        if SUN_SPACE not in _spaces and PLACES_SPACE in _spaces:
            names = list(SUN_ATTRIBUTES.values())
            _spaces[SUN_SPACE] = ClassSpace(SUN_SPACE, names, "degrees", _first_senses(names, None))
        return [_spaces[k] for k in (IMAGENET_SPACE, COCO_SPACE, PLACES_SPACE, SUN_SPACE) if k in _spaces]


# ------------------------------------------------------------------------- per-snapshot caches


def top_classes(ctx, cs: ClassSpace) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(rows, class indices (m, T), probabilities (m, T)) of the photos with this space's vector."""
    key = ("top_classes", cs.space)
    cache = ctx.snapshot.cache
    if key not in cache:
        index = ctx.index(cs.space)
        if index is None or len(index) == 0:
            cache[key] = None
            return None
        keys = index.keys()
        keys = keys[np.isin(keys, ctx.snapshot.ids)]
        t = min(TOP_T, len(cs.names))
        rows, idx, prob = [], [], []
        for start in range(0, keys.size, 8192):
            part = keys[start : start + 8192]
            p = cs.decode(index.get_many(part))
            if p.shape[1] != len(cs.names):
                log.warning(
                    "space %s has %d classes, its names %d: skipped", cs.space, p.shape[1], len(cs.names)
                )
                cache[key] = None
                return None
            top = np.argpartition(-p, t - 1, axis=1)[:, :t]
            rows.append(ctx.snapshot.rows_of(part))
            idx.append(top.astype(np.int32))
            prob.append(np.take_along_axis(p, top, axis=1).astype(np.float32))
        cache[key] = (np.concatenate(rows), np.vstack(idx), np.vstack(prob)) if rows else None
    return cache[key]


_emb_lock = threading.Lock()
_class_vectors: dict[tuple[str, str], tuple[np.ndarray, object]] = {}


_fingerprints: dict[int, tuple[object, str]] = {}


def _fingerprint(encode) -> str:
    """What an encoder makes of a probe text: keys the class-name vectors (once per encoder)."""
    hit = _fingerprints.get(id(encode))
    if hit is not None and hit[0] is encode:
        return hit[1]
    probe = np.asarray(encode(["photosearch class-name cache probe"]), np.float32)
    fp = hashlib.sha1(np.round(probe, 4).tobytes()).hexdigest()[:16]
    with _emb_lock:
        _fingerprints[id(encode)] = (encode, fp)
    return fp


def class_vectors(cs: ClassSpace, encode, cache_dir=None):
    """(class-name vectors (C, d), null model over them) for an encoder; cached in memory and on disk."""
    fp = _fingerprint(encode)
    key = (cs.space, fp)
    with _emb_lock:
        hit = _class_vectors.get(key)
    if hit is not None:
        return hit
    labels_sha = hashlib.sha1("\n".join(", ".join(n) for n in cs.names).encode()).hexdigest()[:16]
    path = None
    vecs = None
    if cache_dir is not None:
        path = cache_dir / f"classes-{cs.space}-{labels_sha}-{fp}.npy"
        try:
            vecs = np.load(path) if path.is_file() else None
        except OSError as exc:
            cache_problem(path, exc)
            vecs = None
        except ValueError:  # damaged: made again
            vecs = None
    if vecs is None:
        vecs = _unit(np.asarray(encode([", ".join(n[:3]) for n in cs.names]), np.float32))
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                np.save(path, vecs)
            except OSError as exc:
                cache_problem(path, exc)
    from photosearch.query.calibration import CalibrationConfig

    refs = _unit(np.asarray(encode(list(REFERENCE_TEXTS)), np.float32))
    null = build_null(vecs, refs, CalibrationConfig())
    with _emb_lock:
        _class_vectors[key] = (vecs, null)
    return vecs, null


def _unit(v: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    return v / np.where(n == 0, 1, n)


# ------------------------------------------------------------------------- affinity and evidence


@dataclass
class Affinity:
    values: np.ndarray  # (C,) 0..1
    routes: dict[int, str]  # class -> "exact" / route text / "similar"
    #: (C,) the class names all of the concept: of a request of several words that name a thing
    #: (`naming_tokens`), each reaches it, and not as a broader class ("cake" is part of "birthday
    #: cake", "lion" of "sea lion", "car" broader than "police car")
    whole: np.ndarray


_class_name_indexes: dict[int, tuple[ClassSpace, dict[str, list[int]]]] = {}


def class_name_index(cs: ClassSpace) -> dict[str, list[int]]:
    """Folded class name -> its classes, built once per class space (a plan of 5,000 concepts
    must not fold 1,000 classes' names 10,000 times)."""
    hit = _class_name_indexes.get(id(cs))
    if hit is not None and hit[0] is cs:
        return hit[1]
    index: dict[str, list[int]] = {}
    for c, names in enumerate(cs.names):
        for nm in names:
            # as written and as query words are read ("scissors" is looked up as "scissor")
            for key in dict.fromkeys((fold(nm), " ".join(tokens(nm)))):
                index.setdefault(key, []).append(c)
    with _spaces_lock:
        _class_name_indexes[id(cs)] = (cs, index)
    return index


def wordnet_affinity(value: str, cs: ClassSpace, sense: dict | None = None) -> Affinity:
    """Per class: mean over the concept's words of the best route weight to one of its names (each
    word read in the sense `sense` gives, see `ExecContext.sense_context`)."""
    toks = naming_words_meant(value)
    phrase = fold(value)
    index = class_name_index(cs)
    out = np.zeros(len(cs.names), np.float32)
    routes: dict[int, str] = {}
    if " " in phrase and phrase in index:  # the whole phrase names a class ("golden retriever")
        for c in index[phrase]:
            out[c] = 1.0
            routes[c] = "exact"
        return Affinity(out, routes, out > 0)
    if not toks:
        return Affinity(out, routes, out > 0)
    per = np.zeros((len(toks), len(cs.names)), np.float32)
    named = np.zeros(per.shape, bool)  # reached by a route no broader than the word
    parent = np.zeros(per.shape, bool)  # reached one step up, or as a narrow class
    wn = shared_wordnet()
    for i, tok in enumerate(toks):
        one_thing = wn is not None and names_one_thing(wn, tok)  # its class is never the thing itself
        for c in index.get(tok, ()):
            if shares_only_a_word(tok, cs.names[c], cs.synsets.get(cs.names[c])):  # "toy" of "toy dog"
                per[i, c] = max(per[i, c], MODIFIER_WEIGHT)
                routes.setdefault(c, f"{tok} ≈ {cs.names[c][0]} ({SHARED_WORD})")
                continue
            per[i, c] = 1.0
            named[i, c] = True
            routes.setdefault(c, "exact")
        for r in expand(tok, **(sense or {})):
            for c in index.get(r.term, ()):
                if r.fits(cs.names[c], cs.synsets):
                    named[i, c] |= r.route not in NOT_ITSELF
                    parent[i, c] |= (r.depth == 1 or r.narrow) and not one_thing
                    if r.weight > per[i, c]:
                        per[i, c] = r.weight
                        if routes.get(c) != "exact":
                            routes[c] = r.text()
    if " " in phrase:
        _count_the_phrase(per, named, routes, _phrase_routes(phrase, cs, index, sense), phrase)
    _below_its_own_class(per, named, routes)
    out = per.mean(axis=0)
    # one word: what it is directly a kind of counts ("puppy" ≈ dog, "kitty" ≈ domestic cat), or a
    # narrow class ("kitty" ≈ cat), not a broad one further up ("owl" ≈ bird is any bird); several:
    # each word by itself, none by a broader class ("police car" ≈ car is any car)
    whole = (named | parent)[0] & (out > 0) if len(toks) <= 1 else named.all(axis=0)
    return Affinity(out, {c: t for c, t in routes.items() if out[c] > 0}, whole)


def _below_its_own_class(per: np.ndarray, named: np.ndarray, routes: dict[int, str]) -> None:
    """Where a word names a class of this model itself ("canyon", a Places scene), the classes it
    reaches only as something broader ("valley") count `OWN_CLASS_PARENT` of their weight: the model
    tells the two apart, and said the broader one."""
    exact = [c for c, text in routes.items() if text == "exact"]
    if not exact:
        return
    own = np.zeros(per.shape[1], bool)
    own[exact] = True
    for i in range(per.shape[0]):
        if (per[i, own] >= 1.0).any():
            broader = ~named[i] & ~own & (per[i] > 0)
            per[i, broader] *= OWN_CLASS_PARENT


def _count_the_phrase(
    per: np.ndarray, named: np.ndarray, routes: dict[int, str], reached: list[tuple[int, Route]], phrase: str
) -> None:
    """The classes a phrase's own routes reach count for each of its words. Where the phrase is one
    noun whose routes reach this model's classes ("water bird" ≈ egret), a modifier names nothing of
    it by itself: "water" ≈ a lake does not make an eagle by a lake a water bird."""
    if per.shape[0] > 1 and reached and is_compound_noun(phrase):
        per[:-1] *= MODIFIER_WEIGHT
        named[:-1] = False
    for c, r in reached:
        named[:, c] |= r.route not in NOT_ITSELF
        if r.weight > per[:, c].min():
            per[:, c] = np.maximum(per[:, c], r.weight)
            routes.setdefault(c, r.text())


def _phrase_routes(phrase: str, cs: ClassSpace, index: dict, sense: dict | None) -> list[tuple[int, Route]]:
    """The classes a phrase's own routes reach ("living room" ≈ studio couch, a scene), which count
    for each of its words."""
    return [
        (c, r)
        for r in expand(phrase, **(sense or {}))
        for c in index.get(r.term, ())
        if r.fits(cs.names[c], cs.synsets)
    ]


def affinity(value: str, cs: ClassSpace, ctx) -> Affinity:
    """WordNet routes, or the calibrated embedding similarity of the class names, whichever is higher."""
    aff = wordnet_affinity(value, cs, ctx.sense_context(value))
    signal = next((s for s in ctx.signals if s.space == "facts_text"), None)
    if signal is None:
        return aff
    try:
        cache_dir = getattr(ctx.settings, "cache_dir", None)
        vecs, null = class_vectors(cs, signal.encode, cache_dir)
        q = _unit(np.asarray(signal.encode([value]), np.float32))[0]
    except Exception as exc:  # noqa: BLE001 - routes still work without the encoder
        ctx.notes.append(f"class-name embeddings unavailable: {exc}")
        return aff
    z = (vecs @ q - null.sample_mu) / null.sample_sd - null.offset(q)
    cut = null.z0 + EMBEDDING_MARGIN
    emb = np.where(z >= cut, evidence(z, cut) / 0.9 * EMBEDDING_AFFINITY, 0.0).astype(np.float32)
    shared = shares_a_word(naming_tokens(value), cs, emb > 0)
    emb[shared] *= MODIFIER_WEIGHT
    better = emb > aff.values
    values = np.maximum(aff.values, emb)
    routes = dict(aff.routes)
    for c in np.flatnonzero(better).tolist():
        routes[c] = f"{value} ~ {cs.names[c][0]} (similar)"
    whole = aff.whole
    toks = naming_tokens(value)
    if len(toks) <= 1:  # of a request of several words it names a part ("cake")
        # a sibling WordNet tells apart is a closest match only ("wrench" ~ screwdriver)
        whole = whole | (better & ~_other_kinds(toks, cs, better))
    # a name that only shares a word with the request does not name it ("sea" of "sea lion")
    return Affinity(values, routes, whole & ~(shared & better))


def _other_kinds(toks: list[str], cs: ClassSpace, candidates: np.ndarray) -> np.ndarray:
    """Per class, whether it is another kind of thing than the one request word (`kinds.py`)."""
    out = np.zeros(len(cs.names), bool)
    for c in np.flatnonzero(candidates).tolist() if toks else ():
        names = cs.names[c]
        out[c] = another_kind(toks[0], names, cs.synsets.get(names))
    return out


def shares_a_word(toks: list[str], cs: ClassSpace, candidates: np.ndarray) -> np.ndarray:
    """Per class, whether a request word is only a word its name shares (`compounds.py`: "water"
    and "water ouzel") and no request word is its head. Only the `candidates` are looked at."""
    out = np.zeros(len(cs.names), bool)
    for c in np.flatnonzero(candidates).tolist():
        names = cs.names[c]
        if any(head_word(nm) in toks for nm in names):
            continue
        out[c] = any(shares_only_a_word(t, names, cs.synsets.get(names)) for t in toks)
    return out


def distribution_evidence(value: str, ctx) -> tuple[np.ndarray, dict[str, tuple]]:
    """Dense (n,) evidence of a concept from every class space, and what to explain per space."""
    snap = ctx.snapshot
    total_miss = np.ones(snap.n, np.float32)
    explain: dict[str, tuple] = {}
    for cs in class_spaces(ctx.settings):
        top = top_classes(ctx, cs)
        if top is None:
            continue
        rows, idx, prob = top
        aff = affinity(value, cs, ctx)
        if not aff.values.any():
            continue
        contrib = prob * aff.values[idx]
        ev = np.clip(contrib.sum(axis=1), 0.0, 1.0)
        ok = ev >= MIN_EVIDENCE
        total_miss[rows[ok]] *= 1.0 - ev[ok]
        explain[cs.space] = (cs, rows[ok], idx[ok], prob[ok], contrib[ok], aff)
    return 1.0 - total_miss, explain


def ranking_evidence(explain: dict[str, tuple], n: int) -> np.ndarray:
    """The distribution evidence that ranks closest matches: each softmax's probabilities raised to
    `RANK_POWER` (a confident answer still needs the raw evidence, `distribution_evidence`)."""
    miss = np.ones(n, np.float32)
    for cs, rows, idx, prob, contrib, aff in explain.values():
        if cs.kind == "softmax":
            contrib = prob**RANK_POWER * aff.values[idx]
        miss[rows] *= 1.0 - np.clip(contrib.sum(axis=1), 0.0, 1.0)
    return 1.0 - miss


def whole_evidence(explain: dict[str, tuple], n: int) -> np.ndarray:
    """The distribution evidence again from only the classes that name all of the concept
    (`Affinity.whole`): a photo scored "cake" may show a birthday cake, or any other."""
    miss = np.ones(n, np.float32)
    for _cs, rows, idx, _prob, contrib, aff in explain.values():
        ev = np.clip((contrib * aff.whole[idx]).sum(axis=1), 0.0, 1.0)
        miss[rows] *= 1.0 - ev
    return 1.0 - miss


def explain_row(row: int, value: str, explain: dict[str, tuple]) -> list[dict]:
    """The class that contributed most to a row's distribution evidence, per space."""
    out = []
    for space, (cs, rows, idx, prob, contrib, aff) in explain.items():
        i = np.flatnonzero(rows == row)
        if not i.size:
            continue
        j = int(np.argmax(contrib[i[0]]))
        c = int(idx[i[0], j])
        why = {
            "atom": "concept",
            "query": value,
            "fact": space,
            "label": cs.names[c][0],
            "p": round(float(prob[i[0], j]), 3),
            "affinity": round(float(aff.values[c]), 3),
        }
        route = aff.routes.get(c)
        if route:
            why["text"] = route if route != "exact" else f"{value} = {cs.names[c][0]}"
        out.append(why)
    return out
