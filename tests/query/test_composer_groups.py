"""`per` without a limit means one per group, and the candidate cut never drops a whole group
(review finding 2.2)."""

from __future__ import annotations

import time
from types import SimpleNamespace

import numpy as np
import pytest

from photosearch.query.composer import ComposeOptions, compose, group_best

from .test_composer import _burst_gallery, _run


def _snap(day: np.ndarray, person_of_row: dict | None = None) -> SimpleNamespace:
    n = day.size
    return SimpleNamespace(
        taken=day.astype(np.int64) * 86400,
        day=day,
        month=np.where(day >= 0, day // 30, -1),
        ids=np.arange(n),
        has_phash=np.zeros(n, bool),
        phash=np.zeros(n, np.uint64),
        place_code=-np.ones(n, np.int32),
        lat=np.full(n, np.nan),
        lon=np.full(n, np.nan),
        person_of_row=person_of_row or {},
        places=[],
    )


def _skewed(n: int = 1000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """n candidates over 10 days; 90% of them (and all the strongest) on days 0..2."""
    split = int(n * 0.9)
    day = np.array([i % 3 if i < split else 3 + (i % 7) for i in range(n)], np.int32)
    scores = np.where(np.arange(n) < split, 0.9, 0.2).astype(np.float32) - np.arange(n) * 1e-5
    return np.arange(n, dtype=np.int32), scores.astype(np.float32), day


@pytest.mark.parametrize("force_greedy", [False, True])
@pytest.mark.parametrize(
    "block",
    [
        {"per": "day"},
        {"per": "day", "limit": 10},
        {"per": "day", "limit": 10, "diverse": True},
        {"per": "day", "exclude_near_duplicates": True},
    ],
)
def test_per_day_covers_every_day_of_1000_candidates(block, force_greedy):
    rows, scores, day = _skewed()
    out, out_scores, info = compose(
        rows, scores, block, _snap(day), options=ComposeOptions(force_greedy=force_greedy)
    )
    assert len(out) == 10, info
    assert sorted(day[out].tolist()) == list(range(10))
    assert info["covered_groups"] == 10 and info["groups"] == 10
    assert info["truncated_to"] < 1000  # the cut still happened; the groups' best survived it
    # each day's pick is that day's best candidate (no other constraint competes)
    for r in out.tolist():
        same_day = rows[day == day[r]]
        assert scores[r] == scores[same_day].max()


def test_per_with_an_explicit_limit_keeps_it():
    rows, scores, day = _skewed()
    out, _, info = compose(rows, scores, {"per": "day", "limit": 25}, _snap(day))
    assert len(out) == 25 and set(day[out].tolist()) == set(range(10))
    assert "limit_from_groups" not in info


def test_per_month_and_person_without_limit():
    rows, scores, day = _skewed()
    day = day * 20  # days 0..180 → months 0..6
    out, _, info = compose(rows, scores, {"per": "month"}, _snap(day))
    assert sorted((day[out] // 30).tolist()) == sorted(set((day // 30).tolist()))
    people = {int(r): ["Anna" if r % 2 else "Tom"] for r in rows[-20:]}  # only weak candidates have people
    out, _, info = compose(rows, scores, {"per": "person"}, _snap(day, people))
    assert len(out) == 2 and {people[int(r)][0] for r in out} == {"Anna", "Tom"}


def test_per_year_covers_every_year_with_its_best():
    """ "anna from every year": one photo of each year (a month key is year*12+month-1)."""
    rows, scores, day = _skewed()
    day = day * 400  # days 0..3600 → months 0..120 → years 0..9
    snap = _snap(day)
    years = snap.month // 12
    out, _, info = compose(rows, scores, {"per": "year"}, snap)
    assert sorted(years[out].tolist()) == sorted(set(years.tolist())) and info["covered_groups"] == len(out)
    for r in out.tolist():
        assert scores[r] == scores[rows[years == years[r]]].max()
    assert group_best("year", rows[:3], snap).tolist() == [0, 1, 2]  # days 0, 400, 800: three years


def test_per_week_is_monday_to_sunday():
    """ "one photo per week": days 0..20 (1 January 1970 was a Thursday) make four weeks, Monday to
    Sunday, each with its best photo; an undated photo is in none."""
    from datetime import date, timedelta

    day = np.array([*range(21), -1], np.int32)
    rows, scores = np.arange(day.size, dtype=np.int32), np.linspace(0.9, 0.1, day.size).astype(np.float32)
    out, _, info = compose(rows, scores, {"per": "week"}, _snap(day))
    mondays = [date(1970, 1, 1) + timedelta(days=int(d)) for d in day[out]]
    assert [m.isoformat() for m in mondays] == ["1970-01-01", "1970-01-05", "1970-01-12", "1970-01-19"]
    assert all(m.weekday() == 0 for m in mondays[1:]) and info["groups"] == 4


def test_undated_candidates_keep_the_old_behaviour():
    rows = np.arange(50, dtype=np.int32)
    out, _, info = compose(rows, np.ones(50, np.float32), {"per": "day"}, _snap(-np.ones(50, np.int32)))
    assert len(out) == 50 and info["groups"] == 0


def test_group_best_is_each_groups_first_in_relevance_order():
    day = np.array([5, 3, 5, -1, 3, 7], np.int32)
    rows = np.arange(6)
    assert group_best("day", rows, _snap(day)).tolist() == [0, 1, 5]
    people = {2: ["Anna"], 4: ["Anna", "Tom"]}
    assert group_best("person", rows, _snap(day, people)).tolist() == [2, 4]


def test_per_day_without_limit_through_search(store, settings):
    rows = _burst_gallery(store)
    day_of = {pid: d for pid, d, _b, _h in rows}
    res = _run(store, settings, per="day")
    assert sorted(day_of[r["id"]] for r in res["results"]) == [0, 1, 2]


def test_one_per_day_stays_one_per_day_under_a_page_cap(store, settings):
    """The app asks with a page of 5,000 and the CLI with 50: "one per day" is still one photo a day
    (the cap once became the limit, and the page filled up with every photo); a smaller cap takes
    that many days."""
    from photosearch.core import Core

    rows = _burst_gallery(store)
    day_of = {pid: d for pid, d, _b, _h in rows}
    core = Core(settings, store=store)
    plan = {"version": 1, "where": {"concept": "beach"}, "compose": {"per": "day"}}
    res = core.search(plan=plan)  # the app's default page: 5,000
    assert sorted(day_of[r["id"]] for r in res["results"]) == [0, 1, 2]
    res = core.search(plan=plan, limit=2)
    assert len({day_of[r["id"]] for r in res["results"]}) == 2 == len(res["results"])
    own = {**plan, "compose": {"per": "day", "limit": 5}}  # a limit of the plan's own: cover, then fill
    assert len(core.search(plan=own)["results"]) == 5
    # the request's own limit wins over the page: "top 2" is two photos in the app, not 5,000
    res = core.search("top 2 beach photos")
    assert res["plan"]["compose"]["limit"] == 2 and len(res["results"]) == 2
    assert len(core.search("top 2 beach photos", limit=1)["results"]) == 1  # a smaller page still caps


def test_100k_candidates_stay_fast(capsys):
    """Prints the time (no wall-clock assertion); asserts the answer."""
    n = 100_000
    rng = np.random.default_rng(0)
    day = rng.integers(0, 365, n).astype(np.int32)
    scores = rng.random(n).astype(np.float32)
    t = time.perf_counter()
    out, _, info = compose(np.arange(n, dtype=np.int32), scores, {"per": "day"}, _snap(day))
    with capsys.disabled():
        print(
            f"\ncompose per day, 100k candidates, 365 days: {time.perf_counter() - t:.3f}s ({info['solver']})"
        )
    assert len(out) == 365 and len(set(day[out].tolist())) == 365


def test_cut_adds_only_the_groups_the_limit_can_cover():
    rows, scores, day = _skewed()
    out, _, info = compose(rows, scores, {"per": "day", "limit": 2}, _snap(day))
    assert info["truncated_to"] == 400  # the top 400 already hold 3 days: nothing to add
    assert len(out) == 2 and len(set(day[out].tolist())) == 2 and set(day[out].tolist()) <= {0, 1, 2}
    out, _, info = compose(rows, scores, {"per": "day", "limit": 5}, _snap(day))
    assert 400 < info["truncated_to"] <= 404  # 2 more days needed (+ slack)
    assert len(set(day[out].tolist())) == 5
