"""A golden set's `people:` block: after indexing (the real detector and dlib faces models), the eval
runner names the one face of each listed photo, and queries with that name find the photo."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Face, Person, Photo
from photosearch.config import Settings
from photosearch.evaluate.golden import GoldenSetError, load_golden
from photosearch.evaluate.report import render_run_html
from photosearch.evaluate.runner import run_eval
from photosearch.vision.registry import bundled_analyzers
from tests.conftest import save_photo

GOLDEN = """name: people
gallery: .
k: [1, 3]
people:
  people/astronaut.jpg: Eileen Collins
  cats/chelsea.jpg: Chelsea          # a cat: no face to name
queries:
  - {id: name, request: Eileen Collins, relevant: [people/astronaut.jpg]}
  - {id: photos of, request: photos of eileen collins, relevant: [people/astronaut.jpg]}
"""


def test_people_are_named_and_people_queries_score(tmp_path, real_photos):
    gallery = tmp_path / "gallery"
    save_photo(gallery / "people" / "astronaut.jpg", real_photos["astronaut"])
    save_photo(gallery / "cats" / "chelsea.jpg", real_photos["chelsea"])
    save_photo(gallery / "food" / "coffee.jpg", real_photos["coffee"])
    (gallery / "golden.yaml").write_text(GOLDEN, encoding="utf-8")
    golden = load_golden(gallery / "golden.yaml")
    assert golden.people == {"people/astronaut.jpg": "Eileen Collins", "cats/chelsea.jpg": "Chelsea"}
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    analyzers = bundled_analyzers(settings, ["detector", "faces"])
    assert [a.name for a in analyzers] == ["detector", "faces"]
    run = run_eval(golden, store, settings, analyzers=analyzers)
    assert run["index"]["people"] == {
        "named": {"people/astronaut.jpg": "Eileen Collins"},
        "not_named": {"cats/chelsea.jpg": "0 faces were found in it, not one"},
    }
    with store.session() as s:
        names = s.execute(
            select(Photo.path, Person.name).join(Face, Face.photo_id == Photo.id).join(Person)
        ).all()
    assert [(p.rsplit("/", 1)[-1], n) for p, n in names] == [("astronaut.jpg", "Eileen Collins")]
    for row in run["queries"]:
        assert row["plan"]["where"] == {"person": "Eileen Collins"}, row["id"]
        assert [r["path"] for r in row["results"]] == ["people/astronaut.jpg"], row["id"]
    assert run["summary"]["hit@1"] == 1.0 and run["summary"]["empty_result_rate"] == 0.0
    assert "cats/chelsea.jpg (0 faces were found in it, not one)" in render_run_html(run, {})
    again = run_eval(golden, store, settings, reuse_catalog=True)  # a reused catalog: named already
    assert again["summary"]["hit@1"] == 1.0
    with store.session() as s:
        assert s.scalars(select(Person.name).where(Person.name.is_not(None))).all() == ["Eileen Collins"]
    store.close()


@pytest.mark.parametrize(
    "people, message",
    [("[Ada]", "people must map a photo path to a name"), ("{a.jpg: ''}", "people must map")],
)
def test_a_bad_people_block_is_a_clear_error(tmp_path, people, message):
    (tmp_path / "g.yaml").write_text(
        f"gallery: .\npeople: {people}\nqueries: [{{request: x, relevant: []}}]\n", encoding="utf-8"
    )
    with pytest.raises(GoldenSetError, match=message):
        load_golden(tmp_path / "g.yaml")


def test_a_named_photo_missing_from_the_gallery_is_a_clear_error(tmp_path):
    (tmp_path / "g.yaml").write_text(
        "gallery: .\npeople: {people/ada.jpg: Ada}\nqueries: [{request: x, relevant: []}]\n", encoding="utf-8"
    )
    with pytest.raises(GoldenSetError, match="people/ada.jpg"):
        load_golden(tmp_path / "g.yaml")
