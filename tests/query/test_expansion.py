"""Query-side WordNet expansion (real WordNet 3.0 files): routes, weights, and `why`."""

from __future__ import annotations

from datetime import datetime

import pytest

from photosearch.catalog.models import Folder
from photosearch.query.expansion import EXACT, HYPERNYM, HYPONYM, NOT_ITSELF, PLACE_PART, SYNONYM, expand
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo


def terms(word: str) -> dict[str, str]:
    """The labels a word reaches: a label named by the term alone (`Route.fits`)."""
    return {r.term: r.route for r in expand(word) if r.fits((r.term,))}


def test_route_weights_are_ordered():
    assert EXACT > SYNONYM > HYPONYM > max(HYPERNYM)


def test_kitty_reaches_domestic_cat_and_puppies_reach_dog():
    kitty = {r.term: r for r in expand("kitty")}
    assert kitty["kitten"].route == "synonym"
    assert kitty["domestic cat"].route == "hypernym" and kitty["domestic cat"].narrow
    assert terms("puppies")["dog"] == "hypernym"  # plural reduced by morphy
    assert terms("mice")["house mouse"] == "hyponym"  # noun.exc: mice -> mouse
    assert expand("kitty")[0].text().startswith("kitty ≈ ")


@pytest.mark.parametrize(
    ("young", "grown"),
    [
        ("lambs", "sheep"),
        ("kitten", "domestic cat"),
        ("calf", "cattle"),
        ("foal", "horse"),
        ("piglet", "pig"),
    ],
)
def test_a_young_animal_is_a_kind_of_the_animal_it_grows_into(young, grown):
    """WordNet files a lamb, a kitten or a calf under "young mammal" only, as it files the puppy under
    dog too: "lambs" reached no sheep, "calf" no cattle. Its gloss ("young sheep") names the animal."""
    route = {r.term: r for r in expand(young)}[grown]
    assert route.route == "hypernym" and route.depth == 1
    assert "mammal" not in terms("cub")  # "the young of certain carnivorous mammals": no one animal


def test_rare_senses_do_not_leak():
    assert "cat" not in terms("vehicle")  # cat is also a Caterpillar tractor
    assert "hot dog" not in terms("dog")  # dog is the 5th lemma of the frankfurter synset
    assert "person" not in terms("dog")  # "dog" as slang for a man reaches its parent only
    assert terms("woman")["person"] == "hypernym"
    assert terms("dog")["golden retriever"] == "hyponym"
    # the kinds of a later sense rank and never alone make a photo sure: "reading" is also a
    # meter's, and one kind of that reading is the time of day the sun sets
    assert terms("reading")["sunset"] == "other sense"


def test_an_activity_reaches_its_gear_and_its_places():
    """WordNet has "skiing" and "camping" as acts, which no model labels; scenes.yaml gives them what
    their photos show."""
    assert {"skis", "ski", "ski slope"} <= set(terms("skiing"))
    assert {"mountain tent", "campsite"} <= set(terms("camping"))
    assert terms("biking")["bicycle"] == "scene hint"  # a bike alone is no ride
    assert terms("gym")["gymnasium"] == "scene hint"  # WordNet's "gymnasium" is first a school; a place hints
    assert terms("birthday")["cake"] not in ("scene", "hyponym", "synonym")  # a cake is a hint


def _catalog(store, facts_by_name: dict[str, list[FactRecord]]) -> dict[str, int]:
    ids = {}
    with store.session() as s:
        f = Folder(path="/photos/x")
        s.add(f)
        s.flush()
        for i, (name, facts) in enumerate(facts_by_name.items()):
            p = add_photo(s, f, name, taken=datetime(2022, 1, 1 + i))
            ids[name] = p.id
            store.write_analysis(s, p.id, "tagger", 1, AnalysisResult(facts=facts))
    return ids


def _tag(label, score, hypernym=False):
    return FactRecord("tag", label, score, data={"hypernym": hypernym, "names": [label]})


def _names(res):
    return [r["path"].rsplit("/", 1)[-1] for r in res["results"]]


def test_synonym_near_term_and_hypernym_find_the_photo_and_why_names_the_route(store, settings):
    _catalog(
        store,
        {
            "lake.jpg": [_tag("lakeside", 0.4), _tag("shore", 0.5, True)],
            "cat.jpg": [
                _tag("tabby", 0.5),
                _tag("domestic cat", 0.8, True),
                _tag("domestic animal", 0.8, True),
            ],
            "dog.jpg": [_tag("beagle", 0.6), _tag("dog", 0.7, True), _tag("domestic animal", 0.7, True)],
            "car.jpg": [_tag("sports car", 0.7), FactRecord("object", "car", 0.9)],
        },
    )
    plan = {"version": 1, "where": {"concept": "kitty"}, "compose": {}}
    res = search(store, settings, plan=plan, signals=[])
    assert _names(res) == ["cat.jpg"]  # not the dog: "domestic animal" is too broad a parent
    why = res["results"][0]["why"]
    assert {"route": "hypernym", "text": "kitty ≈ domestic cat (hypernym)"}.items() <= why[0].items()
    res = search(store, settings, plan={**plan, "where": {"concept": "lake"}}, signals=[])
    assert _names(res) == ["lake.jpg"]
    # "lakeside" is both a compound of "lake" (0.5) and, from resources/scenes.yaml, its scene (0.8)
    assert res["results"][0]["why"][0]["route"] == "scene"
    res = search(store, settings, plan={**plan, "where": {"concept": "automobile"}}, signals=[])
    assert _names(res) == ["car.jpg"]
    assert {w["route"] for w in res["results"][0]["why"]} == {"synonym", "hyponym"}


def test_exact_outranks_routes(store, settings):
    _catalog(
        store,
        {
            "exact.jpg": [FactRecord("object", "dog", 0.6)],
            "breed.jpg": [_tag("beagle", 0.6)],
        },
    )
    res = search(store, settings, plan={"version": 1, "where": {"concept": "dog"}, "compose": {}}, signals=[])
    assert _names(res) == ["exact.jpg", "breed.jpg"]
    assert res["results"][0]["score"] > res["results"][1]["score"]


def test_compounds_are_headed_or_tailed_by_the_word():
    from photosearch.query.expansion import compound_of

    assert compound_of("lake", "lakeside") and compound_of("shore", "seashore")
    assert not compound_of("cat", "category") and not compound_of("lake", "lakes")
    # the rest must be a word too: a screwdriver has no river in it, a microphone no phone
    assert not compound_of("river", "screwdriver") and not compound_of("phone", "microphone")
    assert compound_of("snow", "snowmobile") and compound_of("boat", "boathouse")


def _route(word: str, term: str):
    return next(r for r in expand(word) if r.term == term)


def test_a_route_reaches_only_labels_of_the_sense_it_followed():
    """WordNet names the tagger's classes: "ostrich, Struthio camelus" is the bird, so "person"
    (whose kinds include "ostrich", a person who refuses to face reality) must not reach it."""
    assert not _route("person", "ostrich").fits(("ostrich", "Struthio camelus"))
    assert _route("bird", "ostrich").fits(("ostrich", "Struthio camelus"))
    assert not _route("tree", "titi").fits(("titi", "titi monkey"))  # the titi tree, not the monkey
    assert not _route("animal", "mouse").fits(("mouse", "computer mouse"))
    assert _route("dog", "dalmatian").fits(("dalmatian", "coach dog", "carriage dog"))
    # ImageNet's "hen" is WordNet's female bird, the chicken's hen a kind of chicken: the same kind of
    # thing (an animal), reached through the sense "hen" mostly means, so it fits
    from photosearch.query.expansion import shared_wordnet

    hen_bird = shared_wordnet().match_labels(["hen"])[0]
    assert _route("chicken", "hen").fits(("hen",), {("hen",): hen_bird})
    # made things are all artifacts to WordNet: the carpenter's plane the tagger names is no aircraft,
    # though an aircraft's "plane" is its word too; the fortress it calls "castle" is still a building
    # (the building's castle is a palace: both are structures, two steps apart)
    plane_tool, castle = 3954731, 2980441  # ImageNet's n03954731 and n02980441
    assert not _route("aircraft", "plane").fits(
        ("plane", "carpenter's plane"), {("plane", "carpenter's plane"): plane_tool}
    )
    assert _route("aircraft", "airliner").fits(("airliner",))
    assert _route("building", "castle").fits(("castle",), {("castle",): castle})
    # "devilfish" is an octopus only in a rare sense: the grey whale the tagger names is no octopus
    octopus = [r for r in expand("octopus") if r.term == "devilfish"]
    assert not any(
        r.fits(("grey whale", "gray whale", "devilfish", "Eschrichtius gibbosus")) for r in octopus
    )
    # animals are kin only through a near parent: the "coney" among the fish is a grouper, the
    # tagger's coney a rabbit (the rabbit photos were "fish" by it), the hen still a chicken
    rabbit = 2324045  # WordNet's rabbit, coney, cony
    assert not _route("fish", "coney").fits(
        ("rabbit", "coney", "cony"), {("rabbit", "coney", "cony"): rabbit}
    )


def test_class_space_affinity_follows_the_sense():
    from photosearch.query.resolvers.distributions import ClassSpace, wordnet_affinity

    names = [("ballplayer", "baseball player"), ("ostrich", "Struthio camelus"), ("titi", "titi monkey")]
    lines = [", ".join(n) for n in names]
    from photosearch.query.expansion import shared_wordnet

    synsets = dict(zip(names, shared_wordnet().match_labels(lines), strict=True))
    space = ClassSpace("imagenet", names, "softmax", synsets)
    person = wordnet_affinity("person", space)
    assert person.values[0] > 0.5 and person.values[1] == 0.0  # a ballplayer is a person; an ostrich not
    assert wordnet_affinity("bird", space).values[1] > 0.5
    assert (
        wordnet_affinity("tree", space).values[2] == 0.0 and wordnet_affinity("monkey", space).values[2] > 0.5
    )


def test_class_names_in_the_plural_are_named_exactly():
    """A query word is read stemmed ("scissors" -> "scissor"): a class named in the plural is found
    as written, not only as "similar" by its embedding."""
    from photosearch.query.resolvers.distributions import ClassSpace, wordnet_affinity

    space = ClassSpace("coco", [("scissors",), ("hair drier",)], "scores", {})
    aff = wordnet_affinity("scissors", space)
    assert (
        aff.values.tolist() == [1.0, 0.0]
        and aff.routes == {0: "exact"}
        and aff.whole.tolist() == [True, False]
    )


def test_affinity_names_all_of_a_request_of_several_words():
    """`whole`: each word that names a thing reaches the class, and not as a broader class."""
    from photosearch.query.resolvers.distributions import ClassSpace, wordnet_affinity

    names = [
        ("cake",),
        ("sea lion",),
        ("lion", "king of beasts", "Panthera leo"),
        ("car", "auto", "automobile"),
    ]
    space = ClassSpace("x", names, "softmax", {})
    assert wordnet_affinity("birthday cake", space).whole.tolist() == [False, False, False, False]
    assert wordnet_affinity("sea lion", space).whole.tolist() == [False, True, False, False]
    police = wordnet_affinity("police car", space)
    assert police.values[3] > 0 and not police.whole[3]  # a car, but any car
    assert wordnet_affinity("two lions", space).whole.tolist() == [False, False, True, False]


def test_one_word_counts_whole_only_what_it_is_directly_a_kind_of():
    """ "puppy" ≈ dog names the puppy (a young dog), "kitty" ≈ cat a narrow class two steps up; "owl"
    ≈ bird is any bird, "collie" ≈ dog any dog: they rank, never whole."""
    from photosearch.query.resolvers.distributions import ClassSpace, wordnet_affinity

    space = ClassSpace("coco", [("dog",), ("bird",), ("cat",)], "scores", {})
    puppy = wordnet_affinity("puppy", space)
    assert puppy.values[0] > 0 and puppy.whole.tolist() == [True, False, False]
    owl = wordnet_affinity("owl", space)
    assert owl.values[1] > 0 and not owl.whole[1]
    assert wordnet_affinity("bird", space).whole.tolist() == [False, True, False]
    kitty = wordnet_affinity("kitty", space)
    assert kitty.values[2] > 0 and kitty.whole[2]
    collie = wordnet_affinity("collie", space)
    assert collie.values[0] > 0 and not collie.whole[0]


def test_a_person_search_does_not_find_the_ostrich(store, settings):
    def tag(label, names, score):
        return FactRecord("tag", label, score, data={"hypernym": False, "names": names})

    _catalog(
        store,
        {
            "ostrich.jpg": [tag("ostrich", ["ostrich", "Struthio camelus"], 0.8)],
            "pitcher.jpg": [tag("ballplayer", ["ballplayer", "baseball player"], 0.7)],
        },
    )
    plan = {"version": 1, "where": {"concept": "person"}, "compose": {}}
    res = search(store, settings, plan=plan, signals=[])
    assert _names(res) == ["pitcher.jpg"]
    res = search(store, settings, plan={**plan, "where": {"concept": "bird"}}, signals=[])
    assert _names(res) == ["ostrich.jpg"]


def test_a_broader_class_counts_less_where_the_model_has_a_class_for_the_word():
    """ "canyon" is a scene class of its own: the scene model tells a canyon from a valley, so a
    valley (what a canyon is a kind of) counts half beside it. Where no class names the word, the
    broader one keeps its full weight."""
    from photosearch.query.resolvers.distributions import OWN_CLASS_PARENT, ClassSpace, wordnet_affinity

    with_own = ClassSpace("places", [("canyon",), ("valley",), ("kitchen",)], "softmax", {})
    without = ClassSpace("places", [("valley",), ("kitchen",)], "softmax", {})
    own = wordnet_affinity("canyon", with_own)
    alone = wordnet_affinity("canyon", without)
    assert own.values[0] == 1.0 and own.values[2] == 0.0
    assert 0 < alone.values[0] < 1.0
    assert own.values[1] < alone.values[0]
    assert own.values[1] == pytest.approx(alone.values[0] * OWN_CLASS_PARENT)


def test_a_part_reaches_the_things_it_is_part_of():
    """ "sails" reaches sailing vessels and their kinds (WordNet's part holonyms), "antlers" deer. A
    place is no such whole: a beach is part of a shore, and a lakeside shows no beach."""
    from photosearch.query.expansion import PART_OF

    sails = {r.term: r for r in expand("sails")}
    assert sails["sailing vessel"].route == PART_OF and sails["schooner"].route == PART_OF
    assert "deer" in {r.term for r in expand("antlers")}
    assert not [r for r in expand("beach") if r.route == PART_OF]


def test_a_plant_word_does_not_reach_another_plant_part_of_the_same_name():
    """The tagger's "buckeye" is the horse chestnut's seed; "tree" reaches the buckeye tree. Both are
    in WordNet's plant file, which is as broad as the made things': kin only with a common parent,
    so a photo of nuts is no tree, while a daisy is still a flower."""
    from photosearch.query.expansion import shared_wordnet
    from photosearch.query.resolvers.distributions import ClassSpace, wordnet_affinity

    names = [("buckeye", "horse chestnut", "conker"), ("daisy",)]
    lines = [", ".join(n) for n in names]
    synsets = dict(zip(names, shared_wordnet().match_labels(lines), strict=True))
    space = ClassSpace("imagenet", names, "softmax", synsets)
    assert wordnet_affinity("tree", space).values[0] == 0.0
    assert wordnet_affinity("flower", space).values[1] > 0.5


def test_a_broad_word_reaches_its_deep_kinds():
    """A sheep is nine steps below "animal" in WordNet, a goldfish ten, an ox eleven: the detector's
    sheep and the tagger's ox and goldfish are animals."""
    terms = {r.term: r for r in expand("animal")}
    for kind in ("sheep", "goldfish", "ox", "cow", "tabby"):
        assert terms[kind].route == "hyponym", kind


def test_a_place_reaches_its_sights_as_hints():
    """WordNet lists Paris's parts: the Eiffel Tower, the Louvre... A place reaches those that are
    things to see, and what each is (a tower, a museum), by a route that never makes a photo sure;
    its districts (Montmartre) are places, not sights."""
    routes = {r.term: r for r in expand("paris")}
    for sight in ("eiffel tower", "tower", "louvre", "museum"):
        assert routes[sight].route == PLACE_PART and routes[sight].route in NOT_ITSELF, sight
    assert "montmartre" not in routes
    assert {r.term for r in expand("rome") if r.route == PLACE_PART} >= {"colosseum", "amphitheater"}
    assert not [r for r in expand("dog") if r.route == PLACE_PART]  # only places have sights


def test_a_named_thing_is_not_its_class(settings):
    """Vesuvius is a volcano, but a volcano is not Vesuvius: the class a proper noun is an instance of
    is evidence of it, never the thing itself (so "volcanoes except Vesuvius" keeps every volcano),
    while a puppy's dog class still is (`Affinity.whole`)."""
    from photosearch.models.labels import imagenet_class_synsets, imagenet_labels_path
    from photosearch.query.expansion import shared_wordnet
    from photosearch.query.resolvers.distributions import ClassSpace, wordnet_affinity

    lines = [ln.strip() for ln in imagenet_labels_path(settings).read_text().splitlines() if ln.strip()]
    offsets = imagenet_class_synsets(lines, shared_wordnet())
    names = [("volcano",)]
    space = ClassSpace("imagenet", names, "softmax", {names[0]: offsets[lines.index("volcano")]})
    vesuvius = wordnet_affinity("vesuvius", space)
    assert vesuvius.values[0] > 0 and not vesuvius.whole[0]
    assert wordnet_affinity("volcano", space).whole[0]
