"""How many embedding neighbours a concept searches, given how many photos its labels already found."""

from photosearch.query.resolvers.concept import (
    FIRST_NEIGHBOURS,
    LABELLED_ENOUGH,
    MAX_NEIGHBOURS,
    neighbour_counts,
)


def test_a_rare_concept_starts_small_and_may_widen():
    assert neighbour_counts(0, 1_000_000) == (FIRST_NEIGHBOURS, MAX_NEIGHBOURS)
    assert neighbour_counts(10, 1_000_000) == (FIRST_NEIGHBOURS, MAX_NEIGHBOURS)


def test_a_common_concept_asks_for_what_the_labels_found_in_one_search():
    assert neighbour_counts(2500, 1_000_000) == (2500, MAX_NEIGHBOURS)
    assert neighbour_counts(LABELLED_ENOUGH - 1, 1_000_000) == (MAX_NEIGHBOURS, MAX_NEIGHBOURS)


def test_a_concept_the_labels_cover_widely_only_ranks_its_strongest_embedding_matches():
    assert neighbour_counts(LABELLED_ENOUGH, 1_000_000) == (FIRST_NEIGHBOURS, FIRST_NEIGHBOURS)


def test_never_more_than_the_index_holds():
    assert neighbour_counts(5000, 300) == (300, 300)
    assert neighbour_counts(LABELLED_ENOUGH, 300) == (300, 300)
