"""The whole product through the CLI with the real bundled models: index, search, similar,
duplicates, people, plan — what a user does on day one."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from tests.conftest import save_photo

pytestmark = pytest.mark.slow


def _font(size: int):
    import matplotlib.font_manager as fm

    return ImageFont.truetype(fm.findfont("DejaVu Sans:bold"), size)


def _sign(path: Path, words: str) -> Path:
    img = Image.new("RGB", (900, 600), (30, 110, 40))
    draw = ImageDraw.Draw(img)
    draw.rectangle((120, 180, 780, 420), fill=(250, 250, 250))
    draw.text((170, 230), words, font=_font(120), fill=(10, 10, 10))
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, quality=92)
    return path


@pytest.fixture(scope="module")
def indexed(tmp_path_factory, real_photos_module):
    root = tmp_path_factory.mktemp("e2e")
    gallery = root / "Pictures"
    photos = real_photos_module
    save_photo(
        gallery / "pets" / "chelsea.jpg",
        photos["chelsea"],
        taken_at=datetime(2023, 7, 14, 10),
        make="Google",
        model="Pixel 7",
        gps=(43.7696, 11.2558),
    )
    save_photo(gallery / "pets" / "chelsea copy.png", photos["chelsea"][::2, ::2])
    save_photo(gallery / "kitchen" / "coffee.jpg", photos["coffee"], taken_at=datetime(2021, 3, 2, 8))
    save_photo(gallery / "space" / "astronaut.jpg", photos["astronaut"])
    save_photo(gallery / "space" / "rocket.jpg", photos["rocket"])
    save_photo(gallery / "trips" / "china.jpg", photos["china"], taken_at=datetime(2019, 5, 1, 12))
    save_photo(gallery / "people" / "grace.jpg", photos["grace_hopper"])
    _sign(gallery / "street" / "sign.jpg", "EXIT 42")
    crop = root / "outside" / "cat_crop.jpg"  # not in the gallery: a query by example
    save_photo(crop, photos["chelsea"][30:280, 60:400])
    data = root / "data"
    from tests.conftest import run_cli, run_cli_json

    run_cli(data, "add", str(gallery))
    report = run_cli_json(data, "index", timeout=900)
    return {"data": data, "gallery": gallery, "crop": crop, "report": report}


@pytest.fixture(scope="module")
def real_photos_module():
    from tests.conftest import _real_photos

    return _real_photos()


def _paths(result: dict) -> list[str]:
    return [Path(r["path"]).name for r in result["results"]]


def test_index_ran_every_bundled_model(indexed):
    report = indexed["report"]
    assert report["added"] == 8 and report["failed"] == 0 and report["analysis_failed"] == 0
    for model in ("tagger", "detector", "ocr", "faces", "quality", "facts_text"):
        assert f"model:{model}" in report["stage_ms"], model
    # after the models: people clustered, GPS geocoded, vector indexes written for the first search
    assert report["post"]["places"] == {"geocoded": 1}
    assert report["post"]["vectors"]["image"] == 8 and report["post"]["vectors"]["facts_text"] == 8
    assert report["post"]["people"]["new_people"] >= 2


def test_search_cat_finds_the_cat_and_says_why(indexed, cli_json):
    result = cli_json(indexed["data"], "search", "tabby cat", "--limit", "5")
    names = _paths(result)
    assert names and names[0] in ("chelsea.jpg", "chelsea copy.png")
    assert set(names[:2]) == {"chelsea.jpg", "chelsea copy.png"}
    assert "coffee.jpg" not in names and "rocket.jpg" not in names  # calibrated cut-off, no tail
    why = str(result["results"][0]["why"]).lower()
    assert "cat" in why
    assert "timing_ms" in result


def test_search_words_in_the_photo(indexed, cli_json):
    result = cli_json(indexed["data"], "search", '"EXIT"')
    assert _paths(result)[:1] == ["sign.jpg"]
    result = cli_json(indexed["data"], "search", "exit sign")
    assert "sign.jpg" in _paths(result)[:2]


def test_search_coffee_and_person(indexed, cli_json):
    assert _paths(cli_json(indexed["data"], "search", "coffee cup"))[:1] == ["coffee.jpg"]
    people = _paths(cli_json(indexed["data"], "search", "person"))
    assert "astronaut.jpg" in people


def test_similar_to_a_crop_returns_the_original_first(indexed, cli_json):
    result = cli_json(indexed["data"], "similar", str(indexed["crop"]), "--limit", "3")
    assert _paths(result)[0] in ("chelsea.jpg", "chelsea copy.png")
    assert set(_paths(result)[:2]) == {"chelsea.jpg", "chelsea copy.png"}


def test_duplicates_groups_the_resized_copy(indexed, cli_json):
    result = cli_json(indexed["data"], "duplicates")
    groups = result.get("groups", result)
    names = [
        sorted(Path(p["path"] if isinstance(p, dict) else p).name for p in g.get("photos", g))
        if isinstance(g, dict)
        else sorted(Path(p).name for p in g)
        for g in groups
    ]
    assert ["chelsea copy.png", "chelsea.jpg"] in names


def test_faces_become_people_and_can_be_named(indexed, cli_json):
    people = cli_json(indexed["data"], "people", "list")
    rows = people.get("people", people) if isinstance(people, dict) else people
    assert len(rows) >= 2  # the astronaut and Grace Hopper
    first = rows[0]
    cli_json(indexed["data"], "people", "name", str(first["id"]), "Eileen")
    result = cli_json(indexed["data"], "search", "photos of Eileen")
    assert result["plan"]["where"] == {"person": "Eileen"} or "Eileen" in str(result["plan"])
    assert len(result["results"]) >= 1


def test_plan_then_run_the_edited_plan(indexed, cli_json, tmp_path):
    plan = cli_json(
        indexed["data"], "plan", "cat or coffee but not blurry, newest first", "--now", "2024-01-01"
    )
    assert (
        plan["plan"]["compose"]["sort"] == "date_desc"
        if "plan" in plan
        else plan["compose"]["sort"] == "date_desc"
    )
    edited = plan.get("plan", plan)
    edited["where"] = {"concept": "coffee"}
    path = tmp_path / "plan.json"
    import json

    path.write_text(json.dumps(edited))
    result = cli_json(indexed["data"], "search", "--plan", str(path))
    assert _paths(result)[:1] == ["coffee.jpg"]


def test_status_after_indexing(indexed, cli_json):
    status = cli_json(indexed["data"], "status")
    assert status["photos"] == 8 and status["analysed"] == 8 and status["failed"] == 0
    assert np.isfinite(len(status["folders"]))
