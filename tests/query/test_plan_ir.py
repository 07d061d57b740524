"""The plan IR: validation, normalisation, walking, text, stable JSON."""

from __future__ import annotations

import json

import pytest

from photosearch.query.plan import (
    PLAN_SCHEMA,
    PlanError,
    atoms,
    canonical_plan,
    default_compose,
    dumps_plan,
    filter_atoms,
    make_plan,
    map_nodes,
    plan_to_text,
    plans_equal,
    signed_atoms,
    validate_plan,
)
from tests.required import require

PLAN = {
    "version": 1,
    "where": {
        "and": [
            {"person": "Anna"},
            {"concept": " dog "},
            {"date": {"from": "2023-06-01", "to": "2023-08-31"}},
            {"not": {"quality": "blurry"}},
            {"faces": {"min": 3}},
        ]
    },
    "compose": {"limit": 20},
}


def test_validate_normalises_defaults_and_values():
    p = validate_plan(PLAN)
    assert p["compose"] == {**default_compose(), "limit": 20}
    assert {"concept": "dog"} in p["where"]["and"]
    assert {"faces": {"min": 3, "max": None}} in p["where"]["and"]
    assert validate_plan({"where": {"and": [{"tag": "x"}]}})["where"] == {
        "tag": "x"
    }  # single child collapses


def test_round_trip_is_stable():
    p = validate_plan(PLAN)
    text = dumps_plan(p)
    assert validate_plan(text) == p
    assert dumps_plan(validate_plan(json.loads(text))) == text
    assert list(json.loads(text)) == ["version", "where", "compose"]


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"where": {"dog": "x"}}, "unknown key 'dog'"),
        ({"where": {"person": ""}}, "non-empty string"),
        ({"where": {"date": {"from": "2020-02-30", "to": "2020-03-01"}}}, "not a valid date"),
        ({"where": {"date": {"from": "2021-01-01", "to": "2020-01-01"}}}, "is after"),
        ({"where": {"date": {"from": "2021-01-01"}}}, "both 'from' and 'to'"),
        ({"where": {"faces": {"min": 3, "max": 1}}}, "greater than max"),
        ({"where": {"faces": {"min": -1}}}, ">= 0"),
        ({"where": {"kind": "video"}}, "expected one of"),
        ({"where": {"or": []}}, "at least one"),
        ({"where": {"person": "A", "concept": "b"}}, "exactly one key"),
        ({"where": {"person": "A"}, "compose": {"sort": "random"}}, "compose.sort"),
        ({"where": {"person": "A"}, "compose": {"limit": 0}}, ">= 1"),
        ({"where": {"person": "A"}, "compose": {"per": "fortnight"}}, "compose.per"),
        ({"where": {"person": "A"}, "compose": {"diverse": "yes"}}, "true or false"),
        ({"where": {"person": "A"}, "version": 2}, "unsupported plan version"),
        ({"compose": {}}, "missing 'where'"),
        ("{not json", "not valid JSON"),
        ([1, 2], "JSON object"),
    ],
)
def test_validation_errors_say_where_and_why(bad, message):
    with pytest.raises(PlanError, match=message):
        validate_plan(bad)


def test_atoms_text_and_equality():
    p = validate_plan(PLAN)
    assert [next(iter(a)) for a in atoms(p)] == ["person", "concept", "date", "quality", "faces"]
    text = plan_to_text(p)
    assert 'person:"Anna"' in text and "NOT quality:blurry" in text and "top 20" in text
    shuffled = make_plan(
        {
            "and": [
                {"not": {"quality": "blurry"}},
                {"and": [{"concept": "dog"}, {"person": "Anna"}]},
                {"faces": {"min": 3}},
                {"date": {"from": "2023-06-01", "to": "2023-08-31"}},
            ]
        },
        {"limit": 20},
    )
    assert plans_equal(p, shuffled)
    assert not plans_equal(p, make_plan({"person": "Anna"}))
    assert canonical_plan(p) == canonical_plan(shuffled)
    assert plan_to_text(make_plan({"and": []})) == "everything"


def test_schema_compiles_to_a_llama_grammar():
    llama_cpp = require("llama_cpp")
    from photosearch.query.llm_planner import LLM_SCHEMA

    grammar = llama_cpp.LlamaGrammar.from_json_schema(json.dumps(PLAN_SCHEMA), verbose=False)
    assert grammar is not None
    assert llama_cpp.LlamaGrammar.from_json_schema(json.dumps(LLM_SCHEMA), verbose=False) is not None


def test_month_atom_is_validated_and_shown():
    from photosearch.query.plan import PlanError, plan_to_text, validate_plan

    plan = validate_plan({"version": 1, "where": {"not": {"month": [12, 1, 2, 1]}}})
    assert plan["where"] == {"not": {"month": [1, 2, 12]}}
    assert plan_to_text(plan) == "NOT taken in winter"
    for bad in ([], [0], [13], ["7"], [True]):
        with pytest.raises(PlanError, match="month"):
            validate_plan({"version": 1, "where": {"month": bad}})


TREE = {
    "and": [
        {"person": "Anna"},
        {"not": {"or": [{"concept": "dog"}, {"not": {"place": "Rome"}}]}},
        {"or": [{"date": {"from": "2020-01-01", "to": "2020-01-01"}}, {"kind": "photo"}]},
    ]
}


def test_signed_atoms_give_each_atom_its_polarity():
    got = list(signed_atoms({"version": 1, "where": TREE}))
    assert got == [
        ({"person": "Anna"}, False),
        ({"concept": "dog"}, True),
        ({"place": "Rome"}, False),
        ({"date": {"from": "2020-01-01", "to": "2020-01-01"}}, False),
        ({"kind": "photo"}, False),
    ]
    assert list(signed_atoms({"where": {"not": {"tag": "x"}}})) == [({"tag": "x"}, True)]
    assert list(signed_atoms({"and": []})) == []


def test_map_nodes_replaces_whole_subtrees_and_keeps_the_shape():
    date_or = TREE["and"][2]
    out = map_nodes(
        TREE,
        lambda n: {"month": [7]} if n == date_or else {"person": "Tom"} if n == {"person": "Anna"} else None,
    )
    assert out == {"and": [{"person": "Tom"}, TREE["and"][1], {"month": [7]}]}
    assert TREE["and"][0] == {"person": "Anna"}  # the input is not changed
    assert map_nodes({"and": []}, lambda n: None) == {"and": []}


def test_filter_atoms_drops_emptied_operators_and_collapses_single_children():
    assert filter_atoms(TREE, lambda a: "concept" not in a and "kind" not in a) == {
        "and": [
            {"person": "Anna"},
            {"not": {"not": {"place": "Rome"}}},
            {"date": {"from": "2020-01-01", "to": "2020-01-01"}},
        ]
    }
    assert filter_atoms(TREE, lambda a: "person" in a) == {"person": "Anna"}
    assert filter_atoms(TREE, lambda a: False) is None
    assert filter_atoms({"and": []}, lambda a: True) is None


@pytest.mark.parametrize(
    ("atom", "message"),
    [
        ({"person": "  "}, "expected a non-empty string"),
        ({"concept": "x" * 40000}, "an atom holds at most"),
        ({"date": "2020"}, 'expected {"from"'),
        ({"date": {"from": "2020-01-01", "to": "2020-01-02", "at": 1}}, "unknown field(s) ['at']"),
        ({"date": {"from": "2020-01-01"}}, "needs both 'from' and 'to'"),
        ({"date": {"from": "2020-02-01", "to": "2020-01-01"}}, "'from' 2020-02-01 is after 'to' 2020-01-01"),
        ({"date": {"from": "2020-02-30", "to": "2020-03-01"}}, "is not a valid date"),
        ({"month": [0, 5]}, "expected a list of months 1..12"),
        ({"month": []}, "expected a list of months 1..12"),
        ({"faces": 3}, 'expected {"min": int'),
        ({"faces": {}}, "faces needs 'min' and/or 'max'"),
        ({"faces": {"min": 1, "most": 2}}, "unknown field(s) ['most']"),
        ({"faces": {"min": 3, "max": 2}}, "min 3 is greater than max 2"),
        ({"faces": {"min": True}}, "expected an integer"),
        ({"kind": "video"}, "expected one of ['photo', 'screenshot', 'document']"),
        ({"quality": "ok"}, "expected one of ['sharp', 'blurry']"),
    ],
)
def test_each_atom_validator_rejects_what_its_schema_does_not_allow(atom, message):
    with pytest.raises(PlanError, match="invalid plan at where") as err:
        validate_plan({"where": atom})
    assert message in str(err.value)


def test_atom_validators_normalise():
    where = {
        "and": [
            {"similar": 42},
            {"month": 7},
            {"month": [8, 6, 8]},
            {"faces": {"max": 2}},
            {"place": "  New   York "},
            {"date": {"from": " 2020-01-01", "to": "2020-01-01"}},
        ]
    }
    assert validate_plan({"where": where})["where"]["and"] == [
        {"similar": "42"},
        {"month": [7]},
        {"month": [6, 8]},
        {"faces": {"min": 0, "max": 2}},
        {"place": "New York"},
        {"date": {"from": "2020-01-01", "to": "2020-01-01"}},
    ]
