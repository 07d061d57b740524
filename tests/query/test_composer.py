"""Composer constraints hold in the returned set; the ILP beats greedy on constructed cases."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np

from photosearch.catalog.models import Folder, Person
from photosearch.query.composer import (
    ComposeOptions,
    Problem,
    feasible,
    objective,
    solve_greedy,
    solve_highs,
)
from photosearch.query.search import duplicates, search
from photosearch.records import AnalysisResult, FaceRecord, FactRecord

from .gallery import add_photo


def test_ilp_beats_greedy_on_duplicates():
    # a conflicts with b and c (b, c are not duplicates of each other): greedy takes a (0.9) alone,
    # the ILP takes b + c (1.6)
    p = Problem(np.array([0.9, 0.8, 0.8]), limit=2, pairs=[(0, 1), (0, 2)], cover=[], caps=[])
    g = solve_greedy(p)
    h, reason = solve_highs(p, 5.0)
    assert reason is None and feasible(p, g) and feasible(p, h)
    assert sorted(h) == [1, 2] and objective(p, h)[1] > objective(p, g)[1]


def test_ilp_beats_greedy_on_coverage():
    # people groups: Anna {0, 2}, Tom {1, 2}, Eve {2, 3}; limit 2. Greedy covers best-first
    # (0 for Anna, 1 for Tom) and runs out; the ILP covers all three with 2 (the group photo) + 0.
    p = Problem(np.array([0.9, 0.8, 0.5, 0.6]), limit=2, pairs=[], cover=[[0, 2], [1, 2], [2, 3]], caps=[])
    g = solve_greedy(p)
    h, _ = solve_highs(p, 5.0)
    assert objective(p, h)[0] == 3 and objective(p, g)[0] == 2


def _burst_gallery(store):
    """12 photos over 3 days; per day near-duplicate bursts (same phash), tagged 'beach'."""
    rows = []
    with store.session() as s:
        f = Folder(path="/burst")
        s.add(f)
        s.flush()
        anna, tom = Person(name="Anna"), Person(name="Tom")
        s.add_all([anna, tom])
        s.flush()
        for i in range(12):
            day = i // 4
            burst = i // 2  # pairs share a phash -> near-duplicates
            ph = f"{(0x0F0F0F0F0F0F0F0F * (burst + 1)) & 0xFFFFFFFFFFFFFFFF:016x}"
            p = add_photo(
                s, f, f"b{i}.jpg", taken=datetime(2024, 5, 1 + day, 10) + timedelta(minutes=i), phash=ph
            )
            score = 0.95 - 0.05 * i if day < 2 else 0.3
            store.write_analysis(
                s, p.id, "tagger", 1, AnalysisResult(facts=[FactRecord("tag", "beach", score)])
            )
            faces = [FaceRecord([0, 0, 0.1, 0.1])] if i in (3, 11) else []
            store.write_analysis(s, p.id, "faces", 1, AnalysisResult(faces=faces))
            rows.append((p.id, day, burst, ph))
        s.flush()
        from sqlalchemy import select

        from photosearch.catalog.models import Face

        for face in s.scalars(select(Face)):
            face.person_id = anna.id if face.photo_id == rows[3][0] else tom.id
    return rows


def _run(store, settings, **compose):
    plan = {"version": 1, "where": {"concept": "beach"}, "compose": compose}
    return search(store, settings, plan=plan, signals=[])


def test_limit_and_dedupe_hold(store, settings):
    rows = _burst_gallery(store)
    burst_of = {pid: b for pid, _d, b, _h in rows}
    res = _run(store, settings, limit=5, exclude_near_duplicates=True)
    got = [r["id"] for r in res["results"]]
    assert len(got) == 5 and res["composer"]["solver"] == "highs"
    assert len({burst_of[i] for i in got}) == 5  # no two from one burst
    scores = [r["score"] for r in res["results"]]
    assert scores == sorted(scores, reverse=True)


def test_per_day_coverage_and_diversity(store, settings):
    rows = _burst_gallery(store)
    day_of = {pid: d for pid, d, _b, _h in rows}
    plain = _run(store, settings, limit=3)
    assert {day_of[r["id"]] for r in plain["results"]} != {0, 1, 2}  # relevance alone misses day 2
    res = _run(store, settings, limit=3, per="day")
    assert sorted(day_of[r["id"]] for r in res["results"]) == [0, 1, 2]
    div = _run(store, settings, limit=6, diverse=True)
    counts = np.bincount([day_of[r["id"]] for r in div["results"]], minlength=3)
    assert counts.max() <= 2 and len(div["results"]) == 6


def test_per_person_and_date_sort(store, settings):
    rows = _burst_gallery(store)
    res = _run(store, settings, limit=2, per="person", sort="date_desc")
    got = {r["id"] for r in res["results"]}
    assert got == {rows[3][0], rows[11][0]}  # Anna's and Tom's photos, even though weaker
    dates = [r["taken_at"] for r in res["results"]]
    assert dates == sorted(dates, reverse=True)


def test_newest_first_with_one_per_day_or_no_duplicates_takes_the_latest(store, settings):
    """ "one per day, newest first" with room for two days: the two latest days (day 2 scores lowest);
    "no duplicates, newest first": the latest photo of each burst, newest bursts first."""
    rows = _burst_gallery(store)
    day_of = {pid: d for pid, d, _b, _h in rows}
    burst_of = {pid: b for pid, _d, b, _h in rows}
    res = _run(store, settings, limit=2, per="day", sort="date_desc")
    assert [day_of[r["id"]] for r in res["results"]] == [2, 1]
    res = _run(store, settings, limit=3, exclude_near_duplicates=True, sort="date_desc")
    assert [burst_of[r["id"]] for r in res["results"]] == [5, 4, 3]
    res = _run(store, settings, limit=2, per="day", sort="date_asc")
    assert [day_of[r["id"]] for r in res["results"]] == [0, 1]


def test_timeout_falls_back_to_greedy(store, settings):
    _burst_gallery(store)
    plan = {
        "version": 1,
        "where": {"concept": "beach"},
        "compose": {"limit": 3, "per": "day", "exclude_near_duplicates": True},
    }
    res = search(store, settings, plan=plan, signals=[], compose_options=ComposeOptions(time_limit_s=1e-9))
    comp = res["composer"]
    assert comp["solver"] == "greedy" and "time limit" in comp["fallback_reason"]
    assert len(res["results"]) == 3


def test_duplicates_groups(store, settings):
    rows = _burst_gallery(store)
    groups = duplicates(store, settings)
    assert len(groups) == 6
    by_burst = {}
    for pid, _d, b, _h in rows:
        by_burst.setdefault(b, set()).add(pid)
    assert sorted(map(sorted, by_burst.values())) == sorted(
        sorted(p["id"] for p in g["photos"]) for g in groups
    )


def test_page_without_constraints_is_the_full_sort_head():
    """The plain top-k page (partial selection) equals the head of the full relevance sort, ties by row."""
    from types import SimpleNamespace

    from photosearch.query.composer import compose

    rng = np.random.default_rng(5)
    rows = np.sort(rng.choice(10_000, 3000, replace=False)).astype(np.int32)
    scores = rng.choice([1.0, 0.5, 0.25, 0.125], rows.size).astype(np.float32)  # many ties
    snap = SimpleNamespace(taken=np.zeros(10_000, np.int64))
    for limit in (1, 7, 50, 2999, 3000, 5000):
        got, got_scores, info = compose(rows, scores, {"limit": limit}, snap)
        order = np.lexsort((rows, -scores))[:limit]
        assert got.tolist() == rows[order].tolist() and info["solver"] == "topk"
        assert got_scores.tolist() == scores[order].tolist()


def test_a_date_sorted_page_holds_the_newest_matches_not_the_best_scored():
    """ "the 3 newest": the page is the three latest photos, however they scored; undated ones last."""
    from photosearch.query.composer import compose
    from photosearch.query.resolvers.snapshot import NO_DATE, Snapshot

    snap = Snapshot.__new__(Snapshot)
    day = 86400
    snap.taken = np.array([5 * day, 1 * day, NO_DATE, 9 * day, 7 * day, 3 * day], dtype=np.int64)
    rows = np.arange(6, dtype=np.int32)
    scores = np.array([0.9, 1.0, 1.0, 0.2, 0.5, 0.8], dtype=np.float32)  # the newest scored lowest
    got, _, _ = compose(rows, scores, {"limit": 3, "sort": "date_desc"}, snap)
    assert got.tolist() == [3, 4, 0]
    got, _, _ = compose(rows, scores, {"limit": 2, "sort": "date_asc"}, snap)
    assert got.tolist() == [1, 5]
    got, _, _ = compose(rows, scores, {"limit": 6, "sort": "date_desc"}, snap)
    assert got.tolist()[-1] == 2  # undated last


def test_duplicates_as_a_request_lists_each_group_side_by_side(store, settings):
    """ "duplicates" is every photo with a near-duplicate (the similar atom's "*"), each group's photos
    next to each other and saying which they repeat; a photo with none is not among them."""
    rows = _burst_gallery(store)
    with store.session() as s:
        f = s.query(Folder).one()
        add_photo(s, f, "alone.jpg", taken=datetime(2024, 5, 9, 10), phash="123456789abcdef0")
    res = search(store, settings, "duplicates", signals=[])
    assert res["plan"]["where"] == {"similar": "*"}
    names = [r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"]]
    assert sorted(names) == sorted(f"b{i}.jpg" for i in range(12))  # not alone.jpg
    pairs = [sorted(names[i : i + 2]) for i in range(0, 12, 2)]
    assert all(int(a[1:-4]) // 2 == int(b[1:-4]) // 2 for a, b in pairs), names  # each burst together
    first = res["results"][0]
    partner = next(n for n in pairs[0] if n != first["path"].rsplit("/", 1)[-1])
    assert first["why"] == [{"atom": "similar", "to": "*", "text": f"a near-duplicate of {partner}"}]
    assert len(rows) == 12
    # beside what else is asked, and never a chip or a line that shows a bare "*"
    assert search(store, settings, "duplicate photos of the beach", signals=[])["plan"]["where"] == {
        "and": [{"similar": "*"}, {"concept": "beach"}]
    }
    from photosearch.query.unmet import describe

    assert describe({"similar": "*"}) == "with a near-duplicate"
