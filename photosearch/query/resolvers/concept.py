"""The `concept` atom: fused lexical + embedding evidence with a calibrated cut-off.

Lexical evidence: each content word of the concept is matched (folded, plural-stemmed) against
the labels and synonyms of tag (incl. WordNet hypernyms), object, caption, knowledge and OCR
text facts, weighted by kind; WordNet routes of each word (synonyms, hyponyms, hypernyms, see
`photosearch.query.expansion`) and compounds ("lake" -> "lakeside") reach the model label spaces
(tags, objects, knowledge) at a lower weight and are named in `why`; a photo's lexical score is the mean over words of its best
evidence per word. Embedding evidence: for each pluggable `EmbeddingSignal` (facts_text through
the MiniLM text embedder; clip:* when a CLIP text encoder is given) the query vector's nearest
photos are z-scored against a per-photo null and cut per atom (see `photosearch.query.calibration`).
Distribution evidence: the concept against each photo's full class distributions, ConSE-style
(`photosearch.query.resolvers.distributions`). Evidence is fused by noisy-OR: fused = 1 − Π(1 − e_i).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from photosearch.models.labels import CLAIM_SCORES, INDOORS
from photosearch.query.calibration import build_null, evidence, select
from photosearch.query.expansion import (
    COMPOUND,
    NOT_ITSELF,
    OTHER_KIND,
    OTHER_SENSE,
    PART_OF,
    PLACE_PART,
    SAME_LOOK,
    SYNONYM,
    WEIGHT_ROUNDING,
    Route,
    compound_of,
    expand,
    naming_words_meant,
    never_sure,
    read_as,
    shared_wordnet,
    synset_of,
)
from photosearch.query.quantities import Count, count_of, count_words, uncounted
from photosearch.query.resolvers.agreement import MODELS, concept_synset, contradicted, models_agree
from photosearch.query.resolvers.base import AtomResult, EmbeddingSignal, ExecContext, ScoredSet, position
from photosearch.query.resolvers.boxes import boxes_of, faces_read_as
from photosearch.query.resolvers.compounds import (
    MODIFIER_WEIGHT,
    SHARED_WORD,
    head_word,
    is_compound_noun,
    only_modifies,
    shares_only_a_word,
)
from photosearch.query.resolvers.distributions import (
    affinity,
    class_spaces,
    distribution_evidence,
    explain_row,
    label_synsets,
    ranking_evidence,
    top_classes,
    whole_evidence,
)
from photosearch.query.resolvers.filters import (
    hours_taken,
    people_words,
    person_box_scores,
    person_boxes,
)
from photosearch.query.resolvers.kinds import another_kind
from photosearch.query.resolvers.selfies import explain_selfie, is_selfie_word, selfie_evidence
from photosearch.query.resolvers.snapshot import CONCEPT_KINDS, Group, rows_with
from photosearch.query.resolvers.text import fold, naming_tokens, tokens
from photosearch.query.senses import is_person_sense
from photosearch.query.times_of_day import hours_ruled_out, names_night

HYPERNYM_WEIGHT = 0.9
#: Fact kinds whose labels are a model's class names (compounds with a head); a keyword, a caption or
#: a word read in the photo counts whole for each of its words.
HEADED_KINDS = ("tag", "object", "scene")
#: Of a request of several words, a confident photo has at least this much evidence that names all
#: of it: a "cake" alone is no birthday cake, while a tagger that says "Egyptian cat" and a little
#: "tabby" (0.04: fine kinds share its probability) still reads a tabby cat.
WHOLE_MIN = 0.02
EXACT_SEARCH_MAX = 20000
MAX_WHY_PER_WORD = 4
#: Embedding neighbours searched first per signal, widened x4 while the last one still passes the cut.
FIRST_NEIGHBOURS = 1024
#: Embedding neighbours examined at most per signal; beyond this, lexical evidence still counts.
MAX_NEIGHBOURS = 4096
#: With this many photos already found by their labels, the embedding search ranks rather than finds:
#: one search of FIRST_NEIGHBOURS (the strongest embedding matches; at 1M photos a 4096-neighbour
#: search inside a concept of 250k near-alike photos cost 52 ms, the 1024 one a third of that).
LABELLED_ENOUGH = 4 * MAX_NEIGHBOURS


def neighbour_counts(expected: int, total: int) -> tuple[int, int]:
    """(first, most) neighbours to search per signal, given how many photos the labels found."""
    if expected >= LABELLED_ENOUGH:
        return min(total, FIRST_NEIGHBOURS), min(total, FIRST_NEIGHBOURS)
    return min(total, max(FIRST_NEIGHBOURS, min(expected, MAX_NEIGHBOURS))), min(total, MAX_NEIGHBOURS)


#: WordNet's routes between kinds of things: they reach no measured attribute ("painting" ≈ a
#: monochrome, a painting in one colour, is no black-and-white photo).
KIND_ROUTES = frozenset({"hyponym", "hypernym", PART_OF, PLACE_PART, "compound"})
#: Fact kinds whose labels WordNet routes are matched against (model label spaces, not free text).
EXPANDED_KINDS = ("tag", "object", "scene", "knowledge", "attribute", "keyword", "face")


def _label_index(snap) -> tuple[dict[str, list[Group]], dict[str, list[Group]]]:
    """(folded label or name -> groups, label word -> groups) over the expandable kinds (cached)."""
    key = ("label_index",)
    if key not in snap.cache:
        phrases: dict[str, list[Group]] = {}
        words: dict[str, list[Group]] = {}
        for kind in EXPANDED_KINDS:
            for g in snap.groups.get(kind, {}).values():
                names = {fold(g.label), *(fold(nm) for nm in g.names)}
                for nm in names:
                    phrases.setdefault(nm, []).append(g)
                    for w in nm.replace("-", " ").split():
                        if g not in words.setdefault(w, []):
                            words[w].append(g)
        snap.cache[key] = (phrases, words)
    return snap.cache[key]


#: Per fact kind, the synsets its labels name where a model's class list says (`label_synsets`).
KnownSynsets = Mapping[str, Mapping[tuple[str, ...], int]]


def known_synsets(settings) -> KnownSynsets:
    return {kind: label_synsets(settings, kind) for kind in HEADED_KINDS}


def _synsets_of(g: Group, known: KnownSynsets | None) -> Mapping[tuple[str, ...], int]:
    """The known synsets for a label of `g`'s kind (the detector's "mouse" is the computer mouse)."""
    if not known:
        return {}
    return known.get(g.kind, known.get("tag", {}))


def _class_names(g: Group) -> tuple[str, ...]:
    """The names of a model class's label (a detector object has only its label); () for words people
    wrote, which are looked up by their words."""
    return tuple(g.names) or ((g.label,) if g.kind in HEADED_KINDS else ())


def _routes(
    word: str, snap, sense: dict | None = None, known: KnownSynsets | None = None
) -> list[tuple[Group, Route]]:
    """Groups a query word reaches through WordNet routes (in the sense `sense` reads it, to labels
    of that sense; `known`: the synsets of the models' labels) or as a compound's head/tail."""
    phrases, words = _label_index(snap)
    out: list[tuple[Group, Route]] = []
    for route in expand(word, **(sense or {})):
        for g in phrases.get(route.term, ()):
            if route.route == "hypernym" and g.hypernym and not route.narrow:
                continue  # a broad class the photo was only summed into ("domestic animal" for "dog")
            if g.kind == "attribute" and route.route in KIND_ROUTES:
                continue  # a measure of the pixels is no kind of thing: a monochrome painting is
                # a kind of painting, and a black-and-white photo no painting
            if not route.fits(_class_names(g), _synsets_of(g, known)):
                continue  # the label names another sense of the word ("ostrich" the bird, not the person)
            if g.kind == "attribute" and g.label == EXPOSURE_DARK and names_night(word):
                # night is a time of day; "dark" measures exposure (a cat on black velvet): it ranks
                # a dark photo among the closest but never makes it sure, and one the scene model
                # says was taken indoors (a product on black) after those taken outdoors
                route = replace(route, route=OTHER_KIND)
                g = _dark_indoors_counts_less(g, snap)
            if route.also:
                g = _with_attribute(g, route.also, snap)
            out.append((g, route))
    for label_word, groups in words.items():
        if compound_of(word, label_word):
            # the word as the compound's tail names its kind ("boat" of "sailboat"); as its first
            # part, only a word it shares ("hammer" of "hammerhead", a shark)
            tail = label_word.endswith(word)
            for g in groups:
                if g.hypernym:
                    continue
                # ... of a model's class only where that word is the class's head: a football
                # stadium is no ball
                names_kind = tail and (g.kind not in HEADED_KINDS or head_word(fold(g.label)) == label_word)
                route, weight = ("compound", COMPOUND) if names_kind else (SHARED_WORD, MODIFIER_WEIGHT)
                out.append((g, Route(word, fold(g.label), route, weight)))
    return out


#: A dark photo taken indoors counts this much of its darkness towards "night".
DARK_INDOORS = 0.3


def _dark_indoors_counts_less(g: Group, snap) -> Group:
    """The dark photos, those the scene model says were taken indoors at `DARK_INDOORS` of their
    darkness: a night sky or a city at night is outdoors, a controller on black is not."""
    indoors = snap.groups.get("scene", {}).get(INDOORS[0])
    if indoors is None:
        return g
    inside = np.isin(g.rows, indoors.rows)
    return replace(g, scores=np.where(inside, g.scores * DARK_INDOORS, g.scores).astype(np.float32))


def _with_attribute(g: Group, attribute: str, snap) -> Group:
    """The group's photos that also have a measured attribute ("snow" ≈ white scene, with sky)."""
    other = snap.groups.get("attribute", {}).get(attribute)
    keep = np.isin(g.rows, other.rows) if other is not None else np.zeros(g.rows.shape, bool)
    return replace(g, rows=g.rows[keep], scores=g.scores[keep])


def _lexical(
    value: str, ctx: ExecContext
) -> tuple[np.ndarray, dict[str, list[tuple[Group, float, Route | None]]]]:
    snap = ctx.snapshot
    toks = naming_words_meant(value)
    phrase = fold(value)
    matched: dict[str, list[tuple[Group, float, Route | None]]] = {}
    if not toks:
        return np.zeros(snap.n, np.float32), matched
    sense = ctx.sense_context(value)
    known = known_synsets(ctx.settings)
    per_token = np.zeros((len(toks), snap.n), np.float32)
    phrase_groups: list[tuple[Group, Route | None]] = []
    if len(toks) > 1:  # a multi-word label that is the whole phrase counts for every word
        # found by its first word as written: the scene model's "snowy mountain" is no "snow mountain"
        for g in ctx.snapshot.token_index.get(naming_tokens(value)[0], []):
            if fold(g.label) == phrase or any(fold(nm) == phrase for nm in g.names):
                phrase_groups.append((g, None))
        phrase_groups.extend(_routes(phrase, snap, sense, known) if " " in phrase else [])
    whole_phrase = {id(g) for g, _ in phrase_groups}
    # one noun whose own routes reach labels here ("water bird" ≈ aquatic bird, the egret's)
    compound = len(toks) > 1 and bool(phrase_groups) and is_compound_noun(phrase)
    for i, tok in enumerate(toks):
        groups: list[tuple[Group, Route | None]] = [(g, None) for g in snap.token_index.get(tok, [])]
        groups += phrase_groups
        groups += _routes(tok, snap, sense, known)
        best: dict[int, tuple[Group, float, Route | None]] = {}  # a group reached twice counts once
        for g, route in groups:
            if compound and i < len(toks) - 1 and id(g) not in whole_phrase and g.kind in HEADED_KINDS:
                # a modifier of a compound noun ("water" of "water bird") names none of a model's
                # labels by itself; words written or read in the photo ("happy birthday") stand
                route = Route(
                    tok, fold(g.label), SHARED_WORD, MODIFIER_WEIGHT * (route.weight if route else 1.0)
                )
            elif route is None and id(g) not in whole_phrase and _shares_only(tok, g, known):
                route = Route(tok, fold(g.label), SHARED_WORD, MODIFIER_WEIGHT)
            elif (
                route is None
                and id(g) not in whole_phrase
                and (_heads_another_kind(tok, g, known) or _names_another_sense(tok, g, known, sense))
            ):
                route = Route(tok, fold(g.label), OTHER_KIND, OTHER_SENSE)
            w = CONCEPT_KINDS.get(g.kind, 0.5) * (HYPERNYM_WEIGHT if g.hypernym else 1.0)
            if route is not None:
                w *= route.weight
            if id(g) not in best or w > best[id(g)][1]:
                best[id(g)] = (g, w, route)
        row = per_token[i]
        for g, w, _route in best.values():
            rows = g.rows.astype(np.intp)  # numpy converts int32 indices on every gather and scatter
            vals = row[rows]
            np.maximum(vals, np.minimum(g.scores * w, 1.0), out=vals)
            row[rows] = vals
        matched[tok] = list(best.values())
    return (per_token[0] if len(toks) == 1 else per_token.mean(axis=0)), matched


def _label_names(g: Group) -> tuple[str, ...]:
    """The label and every name of its class."""
    return (g.label, *g.names) if g.label not in g.names else tuple(g.names)


def _shares_only(token: str, g: Group, known: KnownSynsets) -> bool:
    """Is the token only a word the label's class name shares with the request (`compounds.py`)? Of
    a broader class the photo was only summed into ("plant organ" above a fruit), a word that does not
    head its name always is: a fruit is no plant, though the gloss says "a unit of a plant"."""
    if g.kind not in HEADED_KINDS:
        return False
    names = _label_names(g)
    if g.hypernym and only_modifies(token, names):
        return True
    return shares_only_a_word(token, names, _synsets_of(g, known).get(_class_names(g)))


def _heads_another_kind(token: str, g: Group, known: KnownSynsets) -> bool:
    """Does the token head the compound name of a broader class the photo was only summed into, of
    another kind of thing than the word means ("dog" of "wild dog", a canine WordNet does not put
    under dog)? A model's own class keeps its names ("panda bear": WordNet's old taxonomy puts the
    giant panda with the raccoons, people call it a bear)."""
    if g.kind not in HEADED_KINDS or not g.hypernym:
        return False
    names = _label_names(g)
    if any(tokens(nm) == [token] for nm in names) or not any(head_word(nm) == token for nm in names):
        return False
    return another_kind(token, _class_names(g), _synsets_of(g, known).get(_class_names(g)))


def _names_another_sense(token: str, g: Group, known: KnownSynsets, sense: dict) -> bool:
    """Is the token a later name of a broader class the photo was only summed into, in a sense the
    token does not mean here, nor a kind of it? WordNet's big cats are also "cats", while "cat" is
    first a house cat or a wildcat: a lion, which the tagger sums into "big cat", is no answer to
    "cat". A model's own class keeps its names (the detector's "cake"), a class its first name (the
    solid "food"), and a class of unknown sense all of them."""
    if not g.hypernym:
        return False
    names = _class_names(g)
    if not any(tokens(nm) == [token] for nm in names[1:]) or tokens(names[0]) == [token]:
        return False  # its first name says what it is ("food, solid food" is food)
    synset = _synsets_of(g, known).get(names) or synset_of(names)  # a stored parent: by its names
    if synset is None:
        return False
    senses = read_as(token, **sense)
    if not senses or synset in senses:
        return False
    above = shared_wordnet().ancestors(synset)
    return not any(s in above for s in senses)


def _without_broader(
    matched: dict[str, list[tuple[Group, float, Route | None]]], n: int, kinds: tuple[str, ...] = ()
) -> np.ndarray:
    """Per query word (rows) and photo, the lexical evidence again without the routes to a broader
    class (WordNet hypernyms: "tiger" reaching a photo labelled "big cat"): a photo labelled only
    more generally than the request may show anything under that label. `kinds`: only facts of
    these kinds (all when empty). Its mean over the words is the request's evidence; its least, the
    evidence that names every word (a "cake" label is none of a birthday cake)."""
    per_token = np.zeros((max(1, len(matched)), n), np.float32)
    for row, hits in zip(per_token, matched.values(), strict=False):
        for g, w, route in hits:
            if _broader(route):
                continue
            if kinds and g.kind not in kinds:
                continue
            rows = g.rows.astype(np.intp)
            row[rows] = np.maximum(row[rows], np.minimum(g.scores * w, 1.0))
    return per_token


def _null_model(signal: EmbeddingSignal, index, ctx: ExecContext):
    """The space's null model plus per-row null mean/spread of every indexed photo (once per snapshot;
    read from the file a process saved for the same index and reference texts, see `null_file`)."""
    key = ("null", signal.space)
    cache = ctx.snapshot.cache
    if key not in cache:
        from photosearch.query.calibration import REFERENCE_TEXTS
        from photosearch.query.resolvers.null_file import null_dir, null_key, read_null, write_null

        cfg = ctx.calibration
        snap = ctx.snapshot
        keys = index.keys()
        keys = keys[np.isin(keys, snap.ids)]
        refs = _normalise(signal.encode(list(REFERENCE_TEXTS)))
        directory = null_dir(ctx.settings)
        file_key = null_key(signal.space, index, keys, refs, cfg) if directory is not None else None
        saved = read_null(directory, file_key, keys) if file_key is not None else None
        if saved is not None:
            null, mu_k, sd_k = saved
        else:
            mu_k = np.empty(keys.size, np.float32)
            sd_k = np.empty(keys.size, np.float32)
            for start in range(0, keys.size, 8192):
                sims = index.get_many(keys[start : start + 8192]) @ refs.T
                mu_k[start : start + sims.shape[0]] = sims.mean(axis=1)
                sd_k[start : start + sims.shape[0]] = np.maximum(sims.std(axis=1), 0.02)
            rng = np.random.default_rng(cfg.seed)
            sample = rng.choice(keys, cfg.sample, replace=False) if keys.size > cfg.sample else keys
            null = build_null(index.get_many(sample), refs, cfg)
            if file_key is not None:
                write_null(directory, file_key, null, keys, mu_k, sd_k)
        mu = np.full(snap.n, np.nan, np.float32)
        sd = np.ones(snap.n, np.float32)
        rows = snap.rows_of(keys)
        mu[rows], sd[rows] = mu_k, sd_k
        cache[key] = (null, mu, sd)
    return cache[key]


def _normalise(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, np.float32)
    n = np.linalg.norm(v, axis=-1, keepdims=True)
    n[n == 0] = 1
    return v / n


def _embedding(value: str, signal: EmbeddingSignal, ctx: ExecContext, expected: int):
    """(rows, evidence, sims, z, info) of the photos that pass this signal's calibrated cut, and
    (rows, evidence) of the searched neighbours below it (for closest matches). `expected`: how many
    photos the labels already found (see `neighbour_counts`): the first search asks for that many
    neighbours, so a common concept is searched once, not twice."""
    index = ctx.index(signal.space)
    snap = ctx.snapshot
    empty = (np.zeros(0, np.int32), np.zeros(0, np.float32), np.zeros(0, np.float32), np.zeros(0, np.float32))
    if index is None or len(index) == 0:
        return (*empty, {"space": signal.space, "skipped": "no vectors"}), empty
    null, mu, sd = _null_model(signal, index, ctx)
    q = _normalise(signal.encode([value]))[0]
    offset = null.offset(q)
    total = len(index)
    k, most = neighbour_counts(expected, total)
    while True:
        keys, sims = index.search(q, k, exact=total <= EXACT_SEARCH_MAX)
        rows, ok = snap.locate(keys)
        rows, sims = rows[ok], sims[ok]
        z = (sims - mu[rows]) / sd[rows] - offset
        keep, info = select(z, sims, null.z0, ctx.calibration, signal.min_similarity)
        # the k-th neighbour still passes: there may be more hits beyond it
        if k >= most or keep.size == 0 or not keep[-1]:
            break
        k = min(most, k * 4)
    info |= {"space": signal.space, "offset": round(offset, 3), "searched": int(k)}
    ev_all = (evidence(z, null.z0) * signal.weight).astype(np.float32)
    below = ~keep & (z >= NEAR_Z)  # clearly closer than unrelated texts, yet under the cut
    return (
        (rows[keep], ev_all[keep], sims[keep], z[keep], info),
        (rows[below], ev_all[below], sims[below], z[below]),
    )


#: Closest matches: at most this many photos below the cut-off, each with at least this evidence.
NEAR_MAX = 50
NEAR_MIN = 0.02
#: An embedding neighbour below the cut-off is a closest match only this far above its null.
NEAR_Z = 1.0


#: Evidence below the cut-off that names the concept itself this strongly makes a photo one that
#: "not <concept>" leaves out (`AtomResult.likely`).
LIKELY_MIN = 0.5


def _far_below_the_best(
    fused: np.ndarray, keep: np.ndarray, share: float, measured: np.ndarray, selfie: np.ndarray | None
) -> np.ndarray:
    """Mask of the kept photos whose evidence is below `share` of the best kept photo's
    (`calibration`, "Near the best"): a model's guess there is a closest match; a measurement, or a
    selfie's faces and lens, stands on its own."""
    if not keep.any() or share <= 0:
        return np.zeros_like(keep)
    far = keep & ~measured & (fused < share * float(fused[keep].max()))
    return far if selfie is None else far & ~(selfie > 0)


def _near(scores: np.ndarray, keep: np.ndarray) -> ScoredSet:
    """The best photos below the cut-off (never those above it), best NEAR_MAX."""
    cand = np.flatnonzero(~keep & (scores >= NEAR_MIN))
    if cand.size > NEAR_MAX:
        cand = cand[np.argsort(-scores[cand], kind="stable")[:NEAR_MAX]]
    cand = np.sort(cand).astype(np.int32)
    return ScoredSet(cand, np.clip(scores[cand], 0.0, 1.0).astype(np.float32), graded=True)


#: A photo of the thing whose count is one off ranks among the closest at this much of its evidence,
#: more than one off at the second ("two horses": one horse or three, then a herd), so that where the
#: thing is never sure ("two women", reached as people) the right count still comes first.
COUNT_OFF_BY_ONE = 0.9
COUNT_MISSED = 0.8
#: The attribute that measures a dim exposure, which WordNet's "night" (also "the dark") would reach.
EXPOSURE_DARK = "dark"
#: A photo whose clock rules out the time of day asked for (a dark photo at noon for "night", a
#: warm sky at 19:00 for "sunrise") ranks among the closest at this much.
TAKEN_AT_ANOTHER_TIME = 0.5


def _counted(count: Count, value: str, matched: dict, ctx: ExecContext) -> tuple[np.ndarray | None, bool]:
    """Per photo: the detector's boxes of the classes the concept names itself, else of the class it
    is a kind of ("two puppies" are dog boxes, "three robins" bird boxes), never of a class it only
    shares a word or another sense with; people ("two women") as the people count does, from faces
    and person boxes (and True: people were counted); None when no detector class names it."""
    objects = [(g.label, route) for hits in matched.values() for g, _w, route in hits if g.kind == "object"]
    labels = sorted({label for label, route in objects if not _broader(route)})
    if labels:
        return boxes_of(ctx, labels), False
    looks = _looks_named(matched)
    if looks:  # "two women": the faces read as a woman, not every person
        return faces_read_as(ctx, looks, CLAIM_SCORES["faces"]), False
    synset = concept_synset(value, ctx)
    if synset is not None and is_person_sense(shared_wordnet(), synset):  # "woman", "kid", "footballer"
        return np.maximum(ctx.snapshot.face_count, person_boxes(ctx)), True
    kinds = sorted({label for label, route in objects if route is not None and route.route == "hypernym"})
    if kinds:
        return boxes_of(ctx, kinds), False
    return None, False


def _looks_named(matched: dict) -> list[str]:
    """The face model's words the concept itself names ("women", "lady" ≈ woman), not through a
    kind of it ("people" reaches "woman" as a hyponym, and counts every person)."""
    return sorted(
        {
            g.label
            for hits in matched.values()
            for g, _w, route in hits
            if g.kind == "face" and (route is None or route.route in ("synonym", SAME_LOOK))
        }
    )


#: Per embedding space: the rows it found, their similarities and z-scores.
_SpaceHits = dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]


def resolve_concept(atom: dict, ctx: ExecContext) -> AtomResult:
    value = str(atom["concept"])
    snap = ctx.snapshot
    lexical, matched = _lexical(value, ctx)
    miss = np.ones(snap.n, np.float32) - lexical
    # the same fusion again ranks the closest matches, with the evidence below each cut-off too
    miss_below = miss.copy()
    try:
        dist, dist_explain = distribution_evidence(value, ctx)
        miss *= 1.0 - dist
        miss_below *= 1.0 - ranking_evidence(dist_explain, snap.n)
    except Exception as exc:  # noqa: BLE001 - labels above the threshold still answer
        ctx.notes.append(f"class distributions unavailable: {exc}")
        dist, dist_explain = np.zeros(snap.n, np.float32), {}
    selfie, selfie_near = selfie_evidence(ctx) if is_selfie_word(value) else (None, None)
    if selfie is not None:  # measured from faces and the lens, not labelled by a model
        miss *= 1.0 - selfie
        miss_below *= 1.0 - selfie
    if selfie_near is not None:
        miss_below *= 1.0 - selfie_near
    # photos that already match by their labels and class scores alone (past the fused cut-off)
    labelled = int(np.count_nonzero(miss <= 1.0 - ctx.calibration.min_fused))
    emb_hits, emb_below, infos = _fuse_embeddings(value, ctx, miss, miss_below, labelled)
    fused = 1.0 - miss
    keep = fused >= ctx.calibration.min_fused
    corroborated = ctx.calibration.corroborate and any("skipped" not in i for i in infos)
    measured = _measured(matched, snap.n)
    # labels no broader than the request ("tiger" ≈ "big cat" is no evidence), and evidence that
    # names all of it: a label that names part of a request of several words ("cake" of "birthday
    # cake", "lion" of "sea lion") is not enough (WHOLE_MIN)
    per_word = _without_broader(matched, snap.n)
    whole = (1.0 - per_word.min(axis=0)) * (1.0 - whole_evidence(dist_explain, snap.n))
    if corroborated:  # two kinds of evidence must agree; one alone is a closest match
        # and where two models can name the concept, from both
        specific = (1.0 - per_word.mean(axis=0)) * (1.0 - dist)
        labelled_mask = (specific <= 1.0 - ctx.calibration.min_fused) & (whole <= 1.0 - WHOLE_MIN)
        sure_by_labels, two_models = _written_or_agreed(value, matched, dist_explain, ctx)
        labelled_mask &= sure_by_labels
        # or the detector and the tagger both name it: two models trained apart corroborate each other
        keep &= _agreed(emb_hits, labelled_mask, snap) | measured | (labelled_mask & two_models)
    if selfie is not None:
        keep |= selfie > 0
    closeness = 1.0 - miss_below
    ruled_out = hours_ruled_out(value)
    if ruled_out:  # the clock overrules the pixels: no night at noon, no sunset in the morning
        wrong_time = np.isin(hours_taken(snap), ruled_out)
        keep &= ~wrong_time
        closeness = closeness * np.where(wrong_time, TAKEN_AT_ANOTHER_TIME, 1.0)
    count = count_of(value)
    boxes, counts_people = _counted(count, value, matched, ctx) if count is not None else (None, False)
    if boxes is not None:  # "two horses": the detector's horse boxes say how many
        met = count.holds(boxes)
        keep &= met
        closeness = closeness * np.where(
            met, 1.0, np.where(count.off_by_one(boxes), COUNT_OFF_BY_ONE, COUNT_MISSED)
        )
    elif count is not None:  # a count no model can check is never sure: they are closest matches
        ctx.remarks.append(f"“{count.word}” was not counted: no model here can count {uncounted(value)}")
        keep[:] = False
    _none_sure_of_a_make(value, keep, ctx)
    share = ctx.calibration.near_the_best if corroborated else 0.0  # where every signal was fused
    far_below = _far_below_the_best(fused, keep, share, measured, selfie)
    keep &= ~far_below
    result = ScoredSet.from_dense(fused, keep)
    near = _near(closeness, keep)
    names_it = 1.0 - whole
    # a photo left out for being far below the best still counts against a "not" of the concept
    likely = ScoredSet.from_dense(
        np.maximum(names_it, fused * far_below), ~keep & ((names_it >= LIKELY_MIN) | far_below)
    )

    def explain(row: int) -> list[dict]:
        out = _lexical_whys(row, value, matched)
        if boxes is not None and boxes[row] > 0:
            n = int(boxes[row])
            said = people_words(n, n) if counts_people else count_words(n, value)
            out.append({"atom": "concept", "query": value, "fact": "count", "count": n, "text": said})
        if selfie is not None and selfie_near[row] > 0:
            out += explain_selfie(ctx, row)
        if dist[row] > 0:
            for why in explain_row(row, value, dist_explain):
                if why not in out:
                    out.append(why)
        return out + _embedding_whys(row, value, emb_hits, emb_below)

    return AtomResult(
        atom,
        result,
        explain,
        near=near,
        likely=likely,
        info={
            "lexical_hits": int(np.count_nonzero(lexical)),
            "distribution_hits": int(np.count_nonzero(dist)),
            "embedding": infos,
            "min_fused": ctx.calibration.min_fused,
            "corroborated": corroborated,
        },
    )


def _none_sure_of_a_make(value: str, keep: np.ndarray, ctx: ExecContext) -> None:
    """ "porsche" (resources/scenes.yaml, `never sure`): the models see kinds of car, never a badge,
    so no photo is sure of it, and the page says why."""
    if never_sure(value):
        ctx.remarks.append(
            f"“{value}”: the models here cannot tell one make from another; these are the closest"
        )
        keep[:] = False


#: Fact kinds that are words someone (or a captioning model) wrote about the photo: the facts_text
#: embedding of such a photo reads prose, not a list of model labels, and counts as evidence of its own.
WRITTEN_KINDS = ("caption", "description", "title", "keyword", "knowledge")


def _written_rows(snap) -> np.ndarray:
    """Mask of the photos that carry written text facts (cached per snapshot)."""
    return rows_with(snap, WRITTEN_KINDS)


#: Fact kinds that are words, not a model's guess at what the photo shows: what people wrote and
#: what is written in the photo (OCR); they need no second model to agree.
WORD_KINDS = ("keyword", "caption", "knowledge", "title", "description", "text", "credit")


def _analysed_by(ctx: ExecContext, kinds: tuple[str, ...], cs) -> np.ndarray:
    """Mask of the photos a labelling model looked at: it wrote facts of its `kinds` there or stored
    its class scores (`cs`'s space) there (cached per snapshot)."""
    snap = ctx.snapshot
    key = ("analysed_by", kinds, cs.space if cs is not None else None)
    if key not in snap.cache:
        mask = rows_with(snap, kinds).copy()
        top = top_classes(ctx, cs) if cs is not None else None
        if top is not None:
            mask[top[0]] = True
        snap.cache[key] = mask
    return snap.cache[key]


def _written_or_agreed(
    value: str, matched: dict, dist_explain: dict, ctx: ExecContext
) -> tuple[np.ndarray, np.ndarray]:
    """Photos whose words reach the concept on their own, or on which the labelling models that can
    name it agree (`agreement.py`) and one of them claims it: a label or a class it scores at least
    `CLAIM_SCORES` (the detector's 0.18 "knife" on a hammer, below the 0.4 it reports objects at, or the
    tagger's 0.12 "jellyfish" on a flower, is a closest match however near the request the photo's
    words are). Where only a class the concept is a narrow kind of claims it
    ("kitty", a kind of cat), the models must agree on that class too: the detector's "cat" on a
    marmot, where the tagger sees no cat, is no kitty. Also returns where two models both claim it by
    a label or class that names it (`_two_models_name_it`)."""
    n = ctx.snapshot.n
    written = _without_broader(matched, n, WORD_KINDS).min(axis=0) >= ctx.calibration.min_fused
    own = _model_evidence(value, matched, dist_explain, ctx)
    agreed = models_agree(value, own.per_model, own.analysed, own.affinities, ctx)
    parents = _parent_classes(dist_explain) if (own.claimed & ~own.direct).any() else []
    for parent in parents:  # only where a photo is claimed through a parent class alone
        _lex, parent_matched = _lexical(parent, ctx)
        _dist, parent_explain = distribution_evidence(parent, ctx)
        of = _model_evidence(parent, parent_matched, parent_explain, ctx)
        agreed &= own.direct | models_agree(parent, of.per_model, of.analysed, of.affinities, ctx)
    sure = written | (agreed & own.claimed & ~contradicted(value, own.per_model, ctx))
    return sure, _two_models_name_it(own, ctx)


def _two_models_name_it(own: _ModelEvidence, ctx: ExecContext) -> np.ndarray:
    """Where two models trained apart both vouch for the concept: the detector and the tagger both
    name it, or the face model names it ("woman") where the detector boxed a person (a toy car's
    front read as a woman's face has no person box)."""
    return (own.direct_by["detector"] & own.direct_by["tagger"]) | (
        own.direct_by["faces"] & (person_box_scores(ctx) > 0)
    )


def _parent_classes(dist_explain: dict) -> list[str]:
    """The classes a concept names only as what it is a kind of ("kitty" ≈ cat (hypernym), a narrow
    class or its direct parent: `Affinity.whole`), by their first names."""
    names: list[str] = []
    for cs, _rows, _idx, _prob, _contrib, aff in dist_explain.values():
        for c in np.flatnonzero(aff.whole).tolist():
            if _is_parent_route(aff.routes.get(c, "")) and cs.names[c][0] not in names:
                names.append(cs.names[c][0])
    return names


def _is_parent_route(text: str) -> bool:
    return text.endswith("(hypernym)")


@dataclass
class _ModelEvidence:
    """What the labelling models say of a concept, per photo."""

    per_model: dict[str, np.ndarray]  # each model's own evidence
    analysed: dict[str, np.ndarray]  # the photos each model looked at
    affinities: dict[str, float]  # each class space's best affinity to the concept
    claimed: np.ndarray  # a model claims it (`AGREES`)
    #: per model, where it claims it by a label or class that names it, not only a class it is a kind of
    direct_by: dict[str, np.ndarray]

    @property
    def direct(self) -> np.ndarray:
        """Where any model claims it directly."""
        return np.logical_or.reduce(list(self.direct_by.values()))


def _model_evidence(value: str, matched: dict, dist_explain: dict, ctx: ExecContext) -> _ModelEvidence:
    n = ctx.snapshot.n
    found = _ModelEvidence({}, {}, {}, np.zeros(n, bool), {})
    spaces = {cs.space: cs for cs in class_spaces(ctx.settings)}
    for model, (kinds, space) in MODELS.items():
        miss = 1.0 - _without_broader(matched, n, kinds).mean(axis=0)
        labelled = _claimed(matched, n, kinds, CLAIM_SCORES[model])
        found.claimed |= labelled
        direct = labelled.copy()
        found.analysed[model] = _analysed_by(ctx, kinds, spaces.get(space))
        if space in dist_explain:
            cs, rows, idx, prob, contrib, aff = dist_explain[space]
            miss[rows] *= 1.0 - np.clip(contrib.sum(axis=1), 0.0, 1.0)
            sure = np.where(contrib > 0, prob, 0.0) >= CLAIM_SCORES[model]
            found.claimed[rows] |= sure.any(axis=1)
            parent = np.zeros(len(cs.names), bool)
            parent[[c for c, text in aff.routes.items() if _is_parent_route(text)]] = True
            direct[rows] |= (sure & ~parent[idx]).any(axis=1)
        elif space in spaces:  # no photo holds this model's scores: whether it can name the concept
            aff = affinity(value, spaces[space], ctx)
        else:
            aff = None
        if aff is not None:
            found.affinities[space] = float(aff.values.max(initial=0.0))
        found.per_model[model] = 1.0 - miss
        found.direct_by[model] = direct
    return found


def _broader(route: Route | None) -> bool:
    """A route that reaches a label without meaning the word itself: a broader class, another sense,
    or a word the label only shares."""
    return route is not None and route.route in (*NOT_ITSELF, SHARED_WORD)


def _claimed(matched: dict, n: int, kinds: tuple[str, ...], floor: float) -> np.ndarray:
    """Photos with a label of these kinds, at a score of at least `floor`, that reaches a word of the
    concept by a route no broader than it (`_without_broader`)."""
    per_word = np.zeros((max(1, len(matched)), n), bool)
    for row, hits in zip(per_word, matched.values(), strict=False):
        for g, _w, route in hits:
            if g.kind in kinds and not _broader(route):
                row[g.rows[g.scores >= floor].astype(np.intp)] = True
    return per_word.any(axis=0)


#: A photo attribute measured from the pixels (`vision/attributes.py`: dark, night, sunset, sky...)
#: is stored only where it holds, at a degree of 0.5 at its calibrated threshold: reached by its own
#: name or a synonym (at least this: that degree, what an attribute label counts, a synonym's
#: weight), it is a measurement, not a model's guess, and stands on its own. A scene word's route
#: to it ("clouds" ≈ sky) counts less and needs a clearer measure.
MEASURED_MIN = 0.5 * CONCEPT_KINDS["attribute"] * SYNONYM


def _measured(matched: dict, n: int) -> np.ndarray:
    """Photos where a measured attribute names every word of the concept ("dark photos")."""
    return _without_broader(matched, n, ("attribute",)).min(axis=0) >= MEASURED_MIN - WEIGHT_ROUNDING


def _agreed(emb_hits: _SpaceHits, labelled: np.ndarray, snap) -> np.ndarray:
    """Photos with two kinds of evidence that agree (calibration.py, "Corroboration"): an embedding
    signal past its cut and labels past `min_fused`, or two embedding spaces, or an embedding of
    written text (a caption, description, keyword)."""
    passes = np.zeros(snap.n, np.int32)
    for rows, _sims, _z in emb_hits.values():
        passes[rows] += 1
    return (passes > 0) & (labelled | (passes > 1) | _written_rows(snap))


def _fuse_embeddings(
    value: str, ctx: ExecContext, miss: np.ndarray, miss_below: np.ndarray, expected: int
) -> tuple[_SpaceHits, _SpaceHits, list[dict]]:
    """Each embedding signal's evidence multiplied into `miss` (hits) and `miss_below` (hits and
    closest matches below the cut-off), in place; returns the hits, the matches below and infos."""
    emb_hits: _SpaceHits = {}
    emb_below: _SpaceHits = {}
    infos = []
    for signal in ctx.signals:
        try:
            (rows, ev, sims, z, info), (rows_below, ev_below, sims_below, z_below) = _embedding(
                value, signal, ctx, expected
            )
        except Exception as exc:  # noqa: BLE001 - a failing encoder leaves lexical evidence
            ctx.notes.append(f"{signal.space}: embedding signal failed: {exc}")
            continue
        infos.append(info)
        miss[rows] *= 1.0 - np.clip(ev, 0, 1)
        miss_below[rows] *= 1.0 - np.clip(ev, 0, 1)
        miss_below[rows_below] *= 1.0 - np.clip(ev_below, 0, 1)
        emb_hits[signal.space] = (rows, sims, z)
        emb_below[signal.space] = (rows_below, sims_below, z_below)
    return emb_hits, emb_below, infos


def _lexical_whys(row: int, value: str, matched: dict) -> list[dict]:
    """Why `row` matched lexically: its best facts per query word, with the route that reached them."""
    out: list[dict] = []
    for _tok, hits in matched.items():
        found = []
        for g, w, route in hits:
            i = position(g.rows, row)
            if i < g.rows.size and g.rows[i] == row:
                found.append((float(g.scores[i]) * w, g, float(g.scores[i]), route))
        found.sort(key=lambda t: -t[0])
        for _ws, g, s, route in found[:MAX_WHY_PER_WORD]:
            why = {"atom": "concept", "query": value, "fact": g.kind, "label": g.label, "score": round(s, 3)}
            if g.hypernym:
                why["hypernym"] = True
            if route is not None and fold(route.word) != fold(g.label):  # never "cat ≈ cat"
                why |= {
                    "route": route.route,
                    "weight": route.weight,
                    "text": f"{route.word} ≈ {g.label} ({route.route})",
                }
            if why not in out:
                out.append(why)
    return out


def _embedding_whys(row: int, value: str, emb_hits: _SpaceHits, emb_below: _SpaceHits) -> list[dict]:
    """Why `row` matched by embedding: its similarity in each space, marked when below the cut-off."""
    out = []
    for hits, below in ((emb_hits, False), (emb_below, True)):
        for space, (rows, sims, z) in hits.items():
            i = np.flatnonzero(rows == row)
            if i.size:
                why = {
                    "atom": "concept",
                    "query": value,
                    "fact": space,
                    "similarity": round(float(sims[i[0]]), 3),
                    "z": round(float(z[i[0]]), 2),
                }
                out.append(why | ({"below_cutoff": True} if below else {}))
    return out
