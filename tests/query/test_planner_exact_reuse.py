"""An exact golden pair is reused only when it can be adapted to this catalog and date: its own
birthdays, owner and dates never leak into another catalog's plan (review finding 2.1)."""

from __future__ import annotations

import json
from datetime import date

from photosearch.query.parser import PlanContext
from photosearch.query.planner import Planner

from .conftest import NOW

LATER = date(2024, 6, 15)


def _planner(ngram_library) -> Planner:
    return Planner(library=ngram_library, use_llm=False)


def test_birthday_pair_without_a_known_birthday_gives_no_golden_dates(ngram_library):
    for now in (NOW, LATER):  # the golden pair's own date, and another
        for request in ("on my birthday", "Anna on my birthday"):
            r = _planner(ngram_library).plan(request, now=now, context=PlanContext(people=["Anna", "Tom"]))
            text = json.dumps(r.plan["where"])
            assert "06-03" not in text and '"date"' not in text, (request, now, text)
            assert r.source == "parser"
            assert any("no birthday is known for you" in n for n in r.remarks)  # said to the person


def test_birthday_pair_adapts_to_the_owners_birthday(ngram_library):
    ctx = PlanContext(
        people=["Anna", "Oleg"], owner="Oleg", birthdays={"Oleg": date(1985, 1, 20)}, years=(2020, 2024)
    )
    r = _planner(ngram_library).plan("on my birthday", now=LATER, context=ctx)
    dates = [c["date"]["from"] for c in r.plan["where"]["or"]]
    assert dates == [f"{y}-01-20" for y in range(2020, 2025)] and r.source == "golden"


def test_me_and_anna_without_an_owner_keeps_the_parsers_note(ngram_library):
    for now in (NOW, LATER):
        r = _planner(ngram_library).plan("me and Anna", now=now, context=PlanContext(people=["Anna", "Tom"]))
        assert r.plan["where"] == {"person": "Anna"}
        assert '"me"' not in json.dumps(r.plan)
        assert any(n.startswith("“me” is nobody in your library yet") for n in r.remarks)


def test_me_and_anna_with_an_owner_uses_the_owner(ngram_library):
    ctx = PlanContext(people=["Anna", "Oleg"], owner="Oleg")
    r = _planner(ngram_library).plan("me and Anna", now=LATER, context=ctx)
    assert r.plan["where"] == {"and": [{"person": "Oleg"}, {"person": "Anna"}]}


def test_exact_pair_in_its_own_context_is_still_reused(ngram_library, ctx):
    r = _planner(ngram_library).plan("on my birthday", now=NOW, context=ctx)
    assert r.source == "golden" and r.plan["where"]["or"][0] == {
        "date": {"from": "2015-06-03", "to": "2015-06-03"}
    }
