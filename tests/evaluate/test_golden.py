"""The golden set format: parsing, defaults and clear errors."""

from __future__ import annotations

import json

import pytest

from photosearch.evaluate.golden import GoldenSetError, load_golden


def _write(tmp_path, data, name="g.yaml"):
    (tmp_path / "photos").mkdir(exist_ok=True)
    (tmp_path / "photos" / "a.jpg").write_bytes(b"x")
    (tmp_path / "photos" / "b.jpg").write_bytes(b"x")
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return p


def test_graded_and_binary_relevance_plans_and_k(tmp_path):
    p = _write(
        tmp_path,
        {
            "gallery": "photos",
            "k": [5, 1],
            "queries": [
                {
                    "id": "one",
                    "request": "cat",
                    "relevant": {"a.jpg": 2, "./b.jpg": 1},
                    "plan": {"concept": "cat"},
                },
                {"request": "dog", "relevant": ["a.jpg"], "k": 3},
                {"id": "p", "plan": {"where": {"camera": "Pixel 7"}}, "relevant": ["b.jpg"]},
            ],
        },
        "g.json",
    )
    g = load_golden(p)
    assert g.gallery == (tmp_path / "photos").resolve() and g.k == (1, 5)
    q1, q2, q3 = g.queries
    assert q1.relevant == {"a.jpg": 2.0, "b.jpg": 1.0} and q1.expected_plan == {"where": {"concept": "cat"}}
    assert q2.id == "dog" and q2.k == (3,) and q2.relevant == {"a.jpg": 1.0}
    assert q3.request is None and q3.plan == {"where": {"camera": "Pixel 7"}} and q3.expected_plan is None


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"queries": [{"request": "x"}]}, "missing 'gallery'"),
        ({"gallery": "photos", "queries": []}, "non-empty list"),
        ({"gallery": "photos", "queries": [{"relevant": ["a.jpg"]}]}, "give a 'request'"),
        ({"gallery": "photos", "queries": [{"request": "x", "relevant": {"a.jpg": "high"}}]}, "grade"),
        ({"gallery": "photos", "queries": [{"request": "x", "relevant": ["zzz.jpg"]}]}, "not in"),
        ({"gallery": "photos", "queries": [{"request": "x", "plan": {"colour": "red"}}]}, "unknown key"),
        ({"gallery": "nowhere", "queries": [{"request": "x"}]}, "not a folder"),
    ],
)
def test_bad_golden_sets_fail_clearly(tmp_path, bad, message):
    with pytest.raises(GoldenSetError, match=message):
        load_golden(_write(tmp_path, bad))


def test_unreadable_yaml(tmp_path):
    p = tmp_path / "g.yaml"
    p.write_text("queries: [unclosed")
    with pytest.raises(GoldenSetError, match="not valid YAML"):
        load_golden(p)


def test_absent_requests_are_read_and_checked(tmp_path):
    from photosearch.evaluate.golden import GoldenSetError, parse_golden

    gs = parse_golden(
        {
            "gallery": ".",
            "queries": [{"request": "zebra", "absent": True}, {"request": "cat", "relevant": ["a.jpg"]}],
        },
        tmp_path,
    )
    assert [q.absent for q in gs.queries] == [True, False]
    with pytest.raises(GoldenSetError, match="absent"):
        parse_golden(
            {"gallery": ".", "queries": [{"request": "zebra", "absent": True, "relevant": ["a.jpg"]}]},
            tmp_path,
        )
    with pytest.raises(GoldenSetError, match="true or false"):
        parse_golden({"gallery": ".", "queries": [{"request": "zebra", "absent": "yes"}]}, tmp_path)
