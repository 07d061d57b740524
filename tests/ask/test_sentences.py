"""The local answer's sentences: what the evidence supports, ordered by the question, deterministic."""

from __future__ import annotations

from datetime import datetime

import pytest

from photosearch.ask.evidence import PhotoEvidence, Tag, Thing
from photosearch.ask.sentences import (
    NOTHING_YET,
    article,
    asks_for,
    compose,
    own_words,
    plural,
    position,
    what_it_is,
    where_things_are,
)

P = "\u00a0%"
DOG_TAGS = [
    Tag("redbone", 0.36),
    Tag("bloodhound", 0.12),
    Tag("beagle", 0.02),  # under the 5 % floor: not a candidate worth saying
    Tag("hound", 0.61, True),
    Tag("dog", 0.93, True, ("dog", "domestic dog")),
    Tag("organism", 0.99, True),
]


def test_the_tagger_speaks_with_its_confidence_under_the_everyday_word():
    ev = PhotoEvidence(1, tags=DOG_TAGS, things=[Thing("dog", 0.9, (0.3, 0.2, 0.7, 0.9))])
    assert what_it_is(ev) == f"A dog — most likely a redbone (36{P}), or a bloodhound (12{P})."
    # no detection to lean on: the narrowest broader word that is over one half
    ev.things = []
    assert what_it_is(ev).startswith(f"A hound — most likely a redbone (36{P})")
    # a broader word never names it when it is too broad to help
    only_broad = [Tag("redbone", 0.36), Tag("organism", 0.99, True)]
    assert what_it_is(PhotoEvidence(1, tags=only_broad)) == f"Most likely a redbone (36{P})."
    unsure = [Tag("tray", 0.09), Tag("plate", 0.07)]
    assert (
        what_it_is(PhotoEvidence(1, tags=unsure))
        == f"Hard to say what it is: perhaps a tray (9{P}), or a plate (7{P})."
    )


@pytest.mark.parametrize(
    ("box", "words"),
    [
        ((0.0, 0.3, 0.2, 0.7), "on the left"),
        ((0.4, 0.3, 0.6, 0.7), "in the centre"),
        ((0.8, 0.3, 1.0, 0.7), "on the right"),
        ((0.0, 0.0, 0.2, 0.2), "at the top left"),
        ((0.4, 0.8, 0.6, 1.0), "at the bottom"),
        ((0.0, 0.0, 1.0, 0.9), "filling most of the photo"),
    ],
)
def test_where_a_box_lies_in_words(box, words):
    assert position(box) == words


def test_objects_say_where_they_are_and_group_by_place():
    things = [
        Thing("person", 0.9, (0.0, 0.3, 0.2, 0.8)),
        Thing("person", 0.8, (0.1, 0.3, 0.3, 0.8)),
        Thing("bicycle", 0.7, (0.4, 0.3, 0.6, 0.7)),
        Thing("bus", 0.6, (0.8, 0.3, 1.0, 0.7)),
        Thing("kite", 0.2, (0.4, 0.0, 0.5, 0.1)),  # not confident enough to say
    ]
    said = where_things_are(PhotoEvidence(1, things=things))
    assert said == "In the photo: two people on the left, a bicycle in the centre and a bus on the right."
    things.append(Thing("cup", 0.6, (0.45, 0.4, 0.55, 0.6)))
    said = where_things_are(PhotoEvidence(1, things=things))
    assert (
        said == "In the photo: two people on the left; a bicycle and a cup in the centre; a bus on the right."
    )
    assert [article(w) for w in ("uniform", "umbrella", "hourglass", "orange", "European robin")] == [
        "a uniform",
        "an umbrella",
        "an hourglass",
        "an orange",
        "a European robin",
    ]
    assert [plural(w) for w in ("person", "bus", "knife", "wine glass", "skis", "cherry")] == [
        "people",
        "buses",
        "knives",
        "wine glasses",
        "skis",
        "cherries",
    ]


def test_the_question_decides_what_comes_first():
    ev = PhotoEvidence(
        1,
        tags=DOG_TAGS,
        things=[Thing("dog", 0.9, (0.3, 0.2, 0.7, 0.9)), Thing("person", 0.8, (0.0, 0.2, 0.2, 0.9))],
        text_lines=["BEWARE OF", "THE DOG"],
        people=["Ana Silva"],
        unnamed_faces=1,
        taken_at=datetime(2023, 3, 4, 10, 30),
        place="Lisbon, Portugal",
    )
    what = compose(ev, "what is this?")
    assert what[0].startswith("A dog — most likely a redbone")
    assert "In the photo: a dog in the centre and a person on the left." in what
    assert "The text in the photo reads “BEWARE OF THE DOG”." in what
    assert "Ana Silva is in the photo. One other face has no name yet." in what
    assert what[-1] == "Taken on Saturday 4 March 2023 at 10:30 in Lisbon, Portugal."
    assert compose(ev, "who is this?")[0].startswith("Ana Silva is in the photo")
    assert compose(ev, "what does the sign say?")[0] == "The text in the photo reads “BEWARE OF THE DOG”."
    assert compose(ev, "where was this taken?")[0].endswith("in Lisbon, Portugal.")
    assert compose(ev, "how many people are there?")[0] == "One person is detected in the photo."
    assert compose(ev, "what is this?") == what, "deterministic"


def test_what_is_not_known_is_said_and_nothing_is_made_up():
    ev = PhotoEvidence(1, things=[Thing("stop sign", 0.8, (0.0, 0.0, 0.3, 0.3))], text_lines=["STOP"])
    assert "The sign reads “STOP”." in compose(ev)
    said = compose(ev, "where was this taken?")
    assert said[0] == "Where it was taken is not known: it has no location and its file names no place."
    assert compose(ev, "when was this taken?")[0] == "The photo does not say when it was taken."
    nobody = compose(PhotoEvidence(1, unnamed_faces=2), "who is this?")
    assert nobody[0] == "Two faces have no name yet. Name faces in People and the answer will say who it is."
    # what the faces look like, where the face model is sure of each; counts where it is not
    looks = PhotoEvidence(1, unnamed_faces=3, unnamed_looks=["man", "woman", "man"])
    assert compose(looks, "who is this?")[0].startswith("Two men and a woman have no name yet.")
    unsure = PhotoEvidence(1, people=["Ana"], unnamed_faces=2, unnamed_looks=["girl"])
    assert compose(unsure, "who is this?")[0] == "Ana is in the photo. Two others have no name yet."
    assert compose(PhotoEvidence(1)) == [NOTHING_YET]
    assert (
        compose(PhotoEvidence(1, tags=DOG_TAGS), "what does it say?")[0] == "No text was read in this photo."
    )


def test_questions_are_read_for_what_they_want():
    assert [
        asks_for(q)
        for q in ("who is she?", "what does it say", "when was it", "where is this", "how many dogs", "what?")
    ] == [
        "person",
        "text",
        "date",
        "place",
        "count",
        "what",
    ]


def test_the_files_own_words_are_quoted_as_its_own():
    ev = PhotoEvidence(
        1, own_words={"title": ["Chelsea"], "keyword": ["dog", "pets"], "user_tag": ["favourite"]}
    )
    said = own_words(ev)
    assert said[0] == "Its title is “Chelsea”."
    assert said[-1] == "Its tags: “dog”, “pets” and “favourite”."  # the file's claim, not PhotoSearch's


def test_the_scene_model_names_the_place_only_where_it_is_likely():
    beach = PhotoEvidence(
        1, tags=DOG_TAGS, scenes=[Tag("beach", 0.47), Tag("lagoon", 0.12)], setting="outdoors"
    )
    said = compose(beach)
    assert said[1] == f"The place looks like a beach (47{P}) or a lagoon (12{P}), outdoors."
    where = compose(beach, "where was this taken?")
    assert where[0].startswith("Where it was taken is not known") and where[1].startswith(
        "The place looks like"
    )
    unsure = PhotoEvidence(1, tags=DOG_TAGS, scenes=[Tag("bowling alley", 0.2)], setting="indoors")
    assert "Taken indoors." in compose(unsure) and not any("bowling" in s for s in compose(unsure))
    assert (
        compose(PhotoEvidence(1, scenes=[Tag("forest path", 0.8)]))[0]
        == f"The place looks like a forest path (80{P})."
    )
