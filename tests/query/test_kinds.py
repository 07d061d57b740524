"""`kinds.another_kind`: WordNet tells a request word from a sibling class."""

from __future__ import annotations

from photosearch.query.resolvers.kinds import another_kind


def test_siblings_are_other_kinds():
    assert another_kind("wrench", ("screwdriver",))
    assert another_kind("duck", ("goose",))
    assert another_kind("cat", ("dog", "domestic dog"))
    assert another_kind("spanner", ("hammer",))


def test_a_kind_of_the_word_or_a_word_above_it_is_not_another_kind():
    assert not another_kind("dog", ("golden retriever",))  # a kind of dog
    assert not another_kind("fruit", ("orange",))  # an orange is a fruit
    assert not another_kind("retriever", ("dog",))  # the class is broader
    assert not another_kind("dogs", ("dog",))  # the word read as its base form
    assert not another_kind("puppy", ("dog",))  # a puppy is a young dog


def test_what_wordnet_cannot_place_is_left_to_the_embedding():
    assert not another_kind("zzyzx", ("dog",))
    assert not another_kind("dog", ("qwertyuiop widget",))
