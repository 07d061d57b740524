"""What is known of a thing no photo model has a class for ("cherries", "plums", "deer"): what it is
directly a kind of, which the tagger sums photos into ("edible fruit", "ruminant"). It only ranks the
closest matches: a hypernym never says the photo shows the thing."""

from __future__ import annotations

from dataclasses import replace

from photosearch.query.expansion import Route, expand, read_as, shared_wordnet
from photosearch.query.resolvers.snapshot import Group, Snapshot
from photosearch.query.senses import is_physical, labelled_and_above

#: What an unseen thing is directly a kind of counts this much of its route's weight: it orders the
#: closest matches, below what a photo's own description says of it...
UNSEEN_PARENT = 0.5
#: ...and nothing where this share of the library is summed into it: among photos of fruit, that a
#: photo is one tells nothing of which fruit (the share between counts in proportion).
COMMON_PARENT_SHARE = 0.5


def unseen_sense(word: str, sense: dict | None = None) -> int | None:
    """The sense `word` is read in, where it is a thing no class of the photo models is, nor a kind
    of ("cherries": the tagger knows strawberries, figs and oranges, no cherry); else None."""
    wn = shared_wordnet()
    senses = read_as(word, **(sense or {}))
    if wn is None or not senses or not is_physical(wn, senses[0]) or senses[0] in labelled_and_above(wn):
        return None
    return senses[0]


def what_an_unseen_thing_is(
    word: str, snap: Snapshot, phrases: dict[str, list[Group]], sense: dict | None = None
) -> list[tuple[Group, Route]]:
    """Where a word reaches no label here and no model has a class for it, the photos summed into
    what it is directly a kind of ("edible fruit" for "cherries", "ruminant" for "deer"), the less
    the more of the library they are (`phrases`: folded label → its groups)."""
    offset = unseen_sense(word, sense)
    if offset is None:
        return []
    parents = frozenset(shared_wordnet().synset(offset).hypernyms)
    found: list[tuple[Group, Route]] = []
    for route in expand(word, **(sense or {})):
        if route.route != "hypernym" or parents.isdisjoint(route.synsets):
            continue
        for g in phrases.get(route.term, ()):
            telling = 1.0 - len(g.rows) / max(snap.n, 1) / COMMON_PARENT_SHARE
            if g.hypernym and telling > 0:
                found.append((g, replace(route, weight=route.weight * UNSEEN_PARENT * telling)))
    return found
