"""No request crashes the parser: word salads drawn (seeded) from the words its claim passes react
to, each must give a valid plan. ("…the photo of the two of us" once raised ValueError in the pass
that reads names with "of".)"""

from __future__ import annotations

import random

from photosearch.query.parser import parse_request
from photosearch.query.plan import validate_plan

from .conftest import NOW

WORDS = [
    "of",
    "the",
    "a",
    "two",
    "us",
    "at",
    "beach",
    "dog",
    "cat",
    "photos",
    "of",
    "in",
    "on",
    "with",
    "without",
    "not",
    "no",
    "-",
    "and",
    "or",
    "but",
    "from",
    "to",
    "2019",
    "2020",
    "christmas",
    "last",
    "year",
    "ago",
    "this",
    "day",
    "week",
    "one",
    "person",
    "people",
    "red",
    "blue",
    "light",
    "dark",
    "view",
    "edge",
    "pair",
    "painting",
    "receipt",
    "ticket",
    "raw",
    "files",
    "canon",
    "camera",
    "iphone",
    "12",
    "my",
    "favourite",
    "mug",
    "time",
    "how",
    "many",
    "going",
    "skiing",
    "working",
    "laptop",
    "phone",
    "hot",
    "air",
    "balloon",
    "t",
    "shirt",
    "me",
    "anna",
    "tom",
    "alone",
    "only",
    "just",
    "every",
    "all",
    "'",
    "s",
    ",",
    "/",
    "~/pics",
    "/home",
    "cornwall",
    "beaches",
    "scotland",
    "wales",
    "thank",
    "you",
    "card",
    "trick",
    "treating",
    "sun",
    "setting",
    "fair",
    "husky",
    "peacock",
    "family",
    "dinner",
    "kids",
    "swimming",
    "new",
    "years",
    "eve",
    "the",
    "weekend",
    "before",
    "last",
    "on",
    "this",
    "day",
    "until",
    "now",
    "winter",
    "2020/21",
]


def test_the_photo_of_the_two_of_us_is_read():
    plan = parse_request("where's the photo of the two of us at the beach", now=NOW, people=[])[0]
    assert plan["where"] == {"and": [{"faces": {"min": 2, "max": 2}}, {"concept": "beach"}]}


def test_word_salads_give_valid_plans():
    rng = random.Random(7)
    for _ in range(3000):
        request = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9)))
        plan, confidence, _notes = parse_request(request, now=NOW, people=["Anna", "Tom"])
        validate_plan(plan)
        assert 0.0 <= confidence <= 1.0, request
