"""Scene words (`resources/scenes.yaml`) reach the classes of things seen there: every class exists
in its model's label space, and each word finds a photo the tagger or detector saw its best class in."""

from __future__ import annotations

from datetime import datetime

import pytest
import yaml

from photosearch.catalog.models import Folder
from photosearch.config import Settings
from photosearch.models.labels import COCO_LABELS, imagenet_labels_path, places_categories
from photosearch.query.expansion import NEVER_SURE, SCENES_FILE, never_sure, scene_weight
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord
from photosearch.vision.face_traits import WORDS as FACE_WORDS

from .gallery import add_photo

RAW_SCENES = yaml.safe_load(SCENES_FILE.read_text(encoding="utf-8"))
#: word -> space -> class -> weight (a class's companion attribute left out)
SCENES = {
    word: {
        space: {name: scene_weight(e)[0] for name, e in classes.items()}
        for space, classes in spaces.items()
        if space != NEVER_SURE
    }
    for word, spaces in RAW_SCENES.items()
}
ISSUE_WORDS = {"forest", "woods", "desert", "dune", "beach", "coast", "mountain", "snow", "city street"}
ISSUE_WORDS |= {"countryside", "park", "garden", "living room", "kitchen", "underwater", "fairground"}
ISSUE_WORDS |= {"sunset", "night sky", "outdoor", "indoor"}


def _imagenet_names() -> dict[str, list[str]]:
    lines = imagenet_labels_path(Settings()).read_text(encoding="utf-8").splitlines()
    return {ln.split(",")[0].strip(): [n.strip() for n in ln.split(",")] for ln in lines if ln.strip()}


def _place_names() -> dict[str, list[str]]:
    return {names[0]: list(names) for names in places_categories(Settings())}


def test_every_scene_class_is_a_class_of_its_model():
    from photosearch.vision.attributes import ATTRIBUTES

    imagenet, coco = _imagenet_names(), set(COCO_LABELS.values())
    assert set(SCENES) >= ISSUE_WORDS
    for word, spaces in SCENES.items():
        assert set(spaces) <= {"imagenet", "coco", "places", "attribute", "faces"}, word
        assert set(spaces.get("faces", {})) <= set(FACE_WORDS), word
        assert set(spaces.get("imagenet", {})) <= set(imagenet), word
        assert set(spaces.get("places", {})) <= set(_place_names()), word
        assert set(spaces.get("coco", {})) <= coco, word
        assert set(spaces.get("attribute", {})) <= set(ATTRIBUTES), word
        assert all(0 < w <= 1 for classes in spaces.values() for w in classes.values()), word
        companions = {scene_weight(e)[1] for c in SCENES[word].values() for e in c.values()}
        assert RAW_SCENES[word].get(NEVER_SURE, True) is True, word  # the flag is `true` or absent
        assert companions - {""} <= set(ATTRIBUTES), word


@pytest.mark.parametrize("word", sorted(SCENES))
def test_each_scene_word_finds_a_photo_of_its_best_class(store, settings, word):
    spaces = SCENES[word]
    space, classes = max(((s, c) for s, c in spaces.items()), key=lambda sc: max(sc[1].values()))
    best = max(classes, key=classes.get)
    known = {"imagenet": _imagenet_names, "places": _place_names}
    names = known[space]().get(best, [best]) if space in known else [best]
    kind = {"imagenet": "tag", "coco": "object", "places": "scene", "attribute": "attribute", "faces": "face"}
    kind = kind[space]
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        scene = add_photo(s, folder, "scene.jpg")
        other = add_photo(s, folder, "teapot.jpg")
        fact = FactRecord(kind, names[0], 0.9, data={"names": names})
        store.write_analysis(s, scene.id, "tagger", 1, AnalysisResult(facts=[fact]))
        if space == "faces":  # a face's look is sure where the detector boxed a person too
            person = FactRecord("object", "person", 0.9, box=[0.2, 0.1, 0.5, 0.8])
            store.write_analysis(s, scene.id, "detector", 1, AnalysisResult(facts=[person]))
        store.write_analysis(
            s, other.id, "tagger", 1, AnalysisResult(facts=[FactRecord("tag", "teapot", 0.9)])
        )
    res = search(store, settings, plan={"version": 1, "where": {"concept": word}, "compose": {}}, signals=[])
    confident = [r for r in res["results"] if not r["below_cutoff"]]
    if never_sure(word):  # a make of car: the closest, never sure, and the page says why
        assert confident == [] and res["results"][0]["path"] == "/pics/scene.jpg", res["explain"]
        assert any("cannot tell one make from another" in r for r in res["explain"]["remarks"])
        return
    assert [r["path"] for r in confident] == ["/pics/scene.jpg"], res["explain"]
    # `why` names the route, unless the class is named by the word itself ("park bench", "sea-coast")
    own = any(word.split()[-1] in n.lower().replace("-", " ").split() for n in names)
    assert own or any(" ≈ " in str(w.get("text", "")) for w in confident[0]["why"]), confident[0]["why"]


@pytest.mark.parametrize("word", sorted(SCENES))
def test_each_scene_word_reaches_every_class_of_its_scene(word):
    from photosearch.query.expansion import expand

    reached = {r.term: r for r in expand(word)}
    for classes in SCENES[word].values():
        for name, weight in classes.items():
            if name.lower() == word:
                continue  # "sunset" is the attribute's own name: an exact match
            route = reached[name.lower()]
            assert route.weight >= weight, (name, route)  # the scene's weight, or a closer WordNet route


def test_photo_attributes_are_words_a_request_finds_and_excludes(store, settings):
    attrs = {
        "dusk.jpg": [("sunset", 0.9), ("sky", 0.6)],
        "city_night.jpg": [("night", 0.95), ("dark", 0.9)],
        "snowfield.jpg": [("white scene", 0.8), ("bright", 0.8), ("sky", 0.9)],
        "white_backdrop.jpg": [("white scene", 1.0), ("bright", 0.9)],  # a cut-out, no sky
        "cellar.jpg": [("dark", 0.7)],
        "noon.jpg": [("bright", 0.7)],
        "balloons.jpg": [("colourful", 0.75), ("sky", 0.8)],
    }
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, found in attrs.items():
            photo = add_photo(s, folder, name)
            facts = [FactRecord("attribute", label, degree) for label, degree in found]
            store.write_analysis(s, photo.id, "quality", 3, AnalysisResult(facts=facts))

    def shown(request: str) -> list[str]:
        res = search(store, settings, request, signals=[])
        return sorted(r["path"].rsplit("/", 1)[1] for r in res["results"] if not r["below_cutoff"])

    assert shown("sunset") == ["dusk.jpg"] and shown("golden hour") == ["dusk.jpg"]
    assert shown("dark photos") == ["cellar.jpg", "city_night.jpg"]
    res = search(store, settings, "night sky", signals=[])
    assert res["results"][0]["path"].endswith("city_night.jpg")
    assert shown("snow") == ["snowfield.jpg"]  # white with sky; a white backdrop is no snow
    assert "white_backdrop.jpg" not in [
        r["path"].rsplit("/", 1)[1] for r in search(store, settings, "snow", signals=[])["results"]
    ]
    assert "cellar.jpg" not in shown("not dark") and "noon.jpg" in shown("not dark")
    assert shown("colourful photos") == shown("vibrant colors") == ["balloons.jpg"]
    assert "balloons.jpg" not in shown("not colourful") and "noon.jpg" in shown("not colourful")
    why = search(store, settings, "sunset", signals=[])["results"][0]["why"]
    assert {"fact": "attribute", "label": "sunset"}.items() <= why[0].items()


def test_a_scene_route_reaches_a_class_by_its_first_name_only():
    """ "pet" ≈ cat reaches the tagger's "cat, true cat", not "big cat, cat" (a lion), whose later
    name is also "cat"; scenes.yaml lists each class by its first name."""
    from photosearch.query.expansion import scene_routes

    cat = next(r for r in scene_routes("pet") if r.term == "cat")
    assert cat.fits(("cat", "true cat"))
    assert not cat.fits(("big cat", "cat"))
    assert cat.fits(())  # a space whose names are unknown


def test_pets_are_the_dogs_and_cats_not_the_lion(store, settings):
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        facts = {
            "tabby.jpg": [FactRecord("tag", "tabby", 0.8, data={"names": ["tabby", "tabby cat"]})],
            "lion.jpg": [
                FactRecord("tag", "big cat", 0.8, data={"names": ["big cat", "cat"], "hypernym": True})
            ],
        }
        for name, fs in facts.items():
            photo = add_photo(s, folder, name)
            store.write_analysis(s, photo.id, "tagger", 1, AnalysisResult(facts=fs))
    res = search(
        store, settings, plan={"version": 1, "where": {"concept": "pets"}, "compose": {}}, signals=[]
    )
    found = [r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"]]
    assert found == ["tabby.jpg"]


def test_a_holiday_meal_is_a_laid_table_on_the_holiday(store, settings):
    """ "christmas dinner" is dinner (a plate of food, a laid table) on Christmas: the same table in
    July, or a dog on Christmas Day, is no Christmas dinner (it was one concept no photo was sure of)."""
    table = [
        FactRecord("tag", "plate", 0.8, data={"names": ["plate"]}),
        FactRecord("object", "dining table", 0.9, box=[0.1, 0.4, 0.9, 0.95]),
    ]
    dog = [FactRecord("tag", "beagle", 0.9, data={"names": ["beagle"]})]
    photos = {
        "christmas_table.jpg": (datetime(2024, 12, 25, 19, 0), table),
        "july_table.jpg": (datetime(2024, 7, 1, 19, 0), table),
        "christmas_dog.jpg": (datetime(2024, 12, 25, 11, 0), dog),
    }
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        for name, (taken, facts) in photos.items():
            photo = add_photo(s, folder, name, taken=taken)
            store.write_analysis(s, photo.id, "tagger", 1, AnalysisResult(facts=facts))
    res = search(store, settings, "christmas dinner", signals=[])
    confident = [r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"]]
    assert confident == ["christmas_table.jpg"], res["explain"]
