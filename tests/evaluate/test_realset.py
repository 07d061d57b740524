"""The committed real golden set is what `python -m photosearch.evaluate.realset` builds from the
installed photo sources (judgements only: no photo is written)."""

from __future__ import annotations

from photosearch.evaluate import realset
from photosearch.evaluate.golden import read_golden
from tests.required import require_file


def test_rules_reproduce_the_committed_real_golden_set():
    require_file(realset.STAMPS, "tuxpaint-stamps-default")
    require_file(realset.OPENCV, "opencv-doc")
    photos = realset.all_photos()
    gold = realset.golden(photos)
    assert realset.golden_yaml(gold) == realset.REAL_GOLDEN.read_text(encoding="utf-8")
    judged = read_golden(realset.REAL_GOLDEN)
    assert len(photos) >= 150 and len(judged.queries) >= 120  # the minimum
    rels = {p.rel for p in photos}
    assert judged.all_relevant() <= rels and all(q.relevant for q in judged.queries if not q.absent)
    absent = [q for q in judged.queries if q.absent]  # requests for things no photo shows
    assert len(absent) >= 10 and not any(q.relevant for q in absent)
    assert judged.people == {
        "people/grace_hopper.jpg": "Grace Hopper",
        "people/astronaut.jpg": "Eileen Collins",
    }
    people_queries = {q.request: set(q.relevant) for q in judged.queries if q.notes == "people"}
    assert (
        people_queries["photos of grace hopper"] == {"people/grace_hopper.jpg"} and len(people_queries) >= 3
    )
