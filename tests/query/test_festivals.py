"""Festivals of other calendars are their days: "chinese new year", "diwali", "eid", "hanukkah",
"ramadan", and the movable Christian days beside Easter. The expected days are the festivals' own
(as calendars publish them), not computed here."""

from __future__ import annotations

from datetime import date

import pytest

from photosearch.query.parser import parse_request

NOW = date(2026, 6, 15)


def _days(request: str) -> list[tuple[str, str]]:
    plan, _, _ = parse_request(request, now=NOW)
    where = plan["where"]
    parts = where.get("or", [where])
    return [(p["date"]["from"], p["date"]["to"]) for p in parts if "date" in p]


@pytest.mark.parametrize(
    ("request_text", "first", "last"),
    [
        ("chinese new year 2024", "2024-02-09", "2024-02-12"),  # the eve (9 Feb) to the third day
        ("lunar new year 2023", "2023-01-21", "2023-01-24"),  # not New Year's Eve of 2022
        ("diwali 2024", "2024-10-30", "2024-11-01"),
        ("holi 2024", "2024-03-24", "2024-03-25"),
        ("eid 2024", "2024-04-09", "2024-04-12"),  # Eid al-Fitr: 10 April, from its eve
        ("eid al-adha 2024", "2024-06-15", "2024-06-18"),
        ("ramadan 2024", "2024-03-11", "2024-04-09"),
        ("hanukkah 2024", "2024-12-25", "2025-01-02"),  # eight nights from the first candle
        ("passover 2024", "2024-04-22", "2024-04-29"),  # from the seder night
        ("rosh hashanah 2024", "2024-10-02", "2024-10-04"),
        ("yom kippur 2024", "2024-10-11", "2024-10-12"),
        ("mid-autumn festival 2024", "2024-09-17", "2024-09-17"),
        ("mardi gras 2024", "2024-02-13", "2024-02-13"),
        ("orthodox easter 2024", "2024-05-03", "2024-05-06"),  # Easter Sunday on 5 May
        ("pentecost 2024", "2024-05-19", "2024-05-19"),
    ],
)
def test_a_festival_of_a_year_is_its_days(request_text, first, last):
    assert _days(request_text) == [(first, last)]


def test_a_festival_without_a_year_is_every_year_and_last_is_the_latest():
    every = _days("photos from hanukkah")
    assert ("2025-12-14", "2025-12-22") in every and ("2023-12-07", "2023-12-15") in every
    assert _days("last hanukkah") == [("2025-12-14", "2025-12-22")]
    assert _days("last chinese new year") == [("2026-02-16", "2026-02-19")]


def test_festival_words_are_not_spelled_into_other_words():
    """ "holi" was read as "hold", "yom kippur" as "yom kipper"."""
    for request in ("holi", "yom kippur", "chuseok", "purim"):
        plan, _, notes = parse_request(request, now=NOW)
        assert "date" in str(plan["where"]) and not any("was read as" in n for n in notes), (request, plan)


def test_a_year_its_calendar_does_not_reach_looks_for_the_festival_and_says_so():
    plan, _, notes = parse_request("holi 1995", now=NOW)
    assert plan["where"] == {"concept": "holi"}
    assert "no date of holi is known for 1995: photos that look like it" in notes


def test_festival_things_stay_things():
    for request, concept in (("diwali lights", "diwali light"), ("eid party", "eid party")):
        plan, _, _ = parse_request(request, now=NOW)
        assert plan["where"] == {"concept": concept}
