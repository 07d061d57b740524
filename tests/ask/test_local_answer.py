"""The local answer over a real catalog: steps in order as they happen, Stop between steps, the place
from GPS through the real offline geocoder, and `photosearch ask` saying the same sentences."""

from __future__ import annotations

import json

import pytest

from photosearch.ask.local import STEPS, answer_locally
from photosearch.errors import Cancelled

P = "\u00a0%"


def test_steps_stream_before_the_answer_and_the_sentences_hold_the_evidence(evidence):
    core, ids = evidence
    events: list[tuple] = []
    data = answer_locally(core.store, core.settings, ids["chelsea"], "what is this?", progress=events.append)
    assert [e[1] for e in events if e[0] == "step"] == list(STEPS)
    assert [e[0] for e in events] == ["step", "found"] * len(STEPS), "each step says when it starts and ends"
    assert data["photo_id"] == ids["chelsea"] and data["answer_method"] == "evidence"
    assert data["sentences"] == [
        f"A cat — most likely a tabby (36{P}), or a tiger cat (22{P}).",
        "In the photo: a cat on the left.",
        "Taken on Saturday 5 June 2021 at 16:40 in Lisbon, Portugal.",
    ]
    assert data["answer"] == " ".join(data["sentences"])
    found = {name: what for name, _s, what in data["steps"]}
    assert found["Finding when and where…"] == "05 Jun 2021; Lisbon, Portugal"


def test_people_text_and_signs(evidence):
    core, ids = evidence
    who = answer_locally(core.store, core.settings, ids["astronaut"], "who is this?")["sentences"]
    # the unnamed face is said as what it looks like (the face model's surest word, from 0.5)
    assert who[0] == "Eileen Collins is in the photo. One other face, a man, has no name yet."
    assert "The sign reads “STOP”." in who and "Taken on Thursday 1 January 1998." in who
    rocket = answer_locally(core.store, core.settings, ids["rocket"], "what does it say?")["sentences"]
    assert rocket[0] == "The text in the photo reads “NASA”."
    assert "In the photo: two people at the bottom left." in rocket
    where = answer_locally(core.store, core.settings, ids["rocket"], "where was this taken?")["sentences"]
    assert where[1] == f"The place looks like an industrial area (58{P}) or a tower (14{P}), outdoors."
    nothing = answer_locally(core.store, core.settings, ids["coffee"], "what is this?")["sentences"]
    assert nothing[0].startswith("Nothing in it has been recognised yet")


def test_cancel_stops_between_steps(evidence):
    core, ids = evidence
    started: list[str] = []
    with pytest.raises(Cancelled):
        answer_locally(
            core.store,
            core.settings,
            ids["chelsea"],
            "what is this?",
            progress=lambda e: started.append(e[1]) if e[0] == "step" else None,
            cancel=lambda: len(started) >= 2,
        )
    assert started == list(STEPS[:2]), "no step starts once cancelled"


def test_the_cli_says_the_same_sentences(evidence, capsys):
    from photosearch.cli import main

    core, ids = evidence
    base = ["--data-dir", str(core.settings.data_dir)]
    assert main([*base, "ask", str(ids["chelsea"]), "what is this?"]) == 0
    out, err = capsys.readouterr()
    expected = answer_locally(core.store, core.settings, ids["chelsea"], "what is this?")["sentences"]
    assert out.splitlines()[: len(expected)] == expected
    assert err.splitlines() == list(STEPS), "the steps stream on stderr"
    assert main([*base, "--json", "ask", str(ids["chelsea"]), "what is this?"]) == 0
    assert json.loads(capsys.readouterr().out)["sentences"] == expected
