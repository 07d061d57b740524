"""Emoji in a request are the words they stand for (they were dropped, and "🐶" searched everything)."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.emoji_words import emoji_as_words
from photosearch.query.parser import parse_request

NOW = date(2026, 6, 1)


@pytest.mark.parametrize(
    "typed,words",
    [
        ("🐶", "dog"),  # an animal's face is the animal
        ("🐶 on the beach", "dog, on the beach"),  # a thing of its own
        ("🏖", "beach"),  # "beach with umbrella": the beach
        ("❤️ photos", "favourites, photos"),
        ("👨‍👩‍👧", "family"),  # one emoji of several joined
        ("😀", ""),  # a mood: nothing to search by
        ("dogs 🐕", "dogs"),  # said in words already
        ("🍕🍕", "pizza"),
        ("beach", "beach"),  # no emoji: as typed
    ],
)
def test_emoji_are_the_words_they_stand_for(typed, words):
    assert emoji_as_words(typed) == words


@pytest.mark.parametrize(
    "typed,where",
    [
        ("🐶 on the beach", {"and": [{"concept": "dog"}, {"concept": "beach"}]}),
        ("🎂", {"concept": "birthday cake"}),
        ("❤️ photos", {"tag": "favourite"}),
        ("🐶🐱", {"and": [{"concept": "dog"}, {"concept": "cat"}]}),
        ("cats 😍", {"concept": "cat"}),
    ],
)
def test_a_request_with_emoji_plans_as_in_words(typed, where):
    assert parse_request(typed, now=NOW, people=[])[0]["where"] == where
