"""Analyzer registry (skips what cannot run) and the WordNet reader."""

from __future__ import annotations

import logging

import pytest

from photosearch.models import manifest
from photosearch.vision import registry
from photosearch.vision.analyzer import is_facts_analyzer
from photosearch.vision.wordnet import get_wordnet, parse_data_line


def test_bundled_analyzers_in_run_order(vsettings):
    names = [a.name for a in registry.bundled_analyzers(vsettings)]
    assert names[-1] == "quality"
    order = list(registry.BUNDLED)
    assert names == sorted(names, key=order.index)
    assert [a.name for a in registry.bundled_analyzers(vsettings, include=["quality"])] == ["quality"]
    with pytest.raises(ValueError, match="unknown analyzer"):
        registry.bundled_analyzers(vsettings, include=["telepathy"])


def test_broken_or_missing_analyzers_are_skipped(vsettings, monkeypatch, tmp_path, caplog):
    monkeypatch.setitem(registry.BUNDLED, "ocr", ("photosearch.vision.no_such_module", "X"))
    monkeypatch.setattr(manifest, "BUNDLED_MANIFEST_DIR", tmp_path)  # no manifests: models "missing"
    with caplog.at_level(logging.WARNING):
        names = [a.name for a in registry.bundled_analyzers(vsettings, include=["tagger", "ocr", "quality"])]
    assert names == ["quality"]
    assert "skipping analyzer ocr" in caplog.text and "skipping analyzer tagger" in caplog.text


def test_facts_text_analyzer_available(vsettings, embedder):
    ft = registry.facts_text_analyzer(vsettings)
    assert ft is not None and ft.name == "facts_text" and is_facts_analyzer(ft)


def test_wordnet_hierarchy():
    try:
        wn = get_wordnet()
    except Exception as exc:  # noqa: BLE001
        pytest.fail(f"WordNet not installed: {exc}")
    tabby = wn.synset(2123045)
    assert tabby.name == "tabby" and tabby.wnid == "n02123045"
    names = {wn.synset(o).name for o in wn.ancestors(tabby.offset)}
    assert {"cat", "feline", "mammal", "animal", "entity"} <= names
    # ImageNet has two "crane" classes (bird, lifting device): order by wnid picks one of each.
    bird, machine = wn.match_labels(["crane", "crane"])
    assert bird < machine
    assert "bird" in {wn.synset(o).name for o in wn.ancestors(bird)}
    assert "lifting device" in {wn.synset(o).name for o in wn.ancestors(machine)}


def test_parse_data_line():
    line = "02123045 05 n 02 tabby 1 tabby_cat 0 001 @ 02121808 n 0000 | a cat with a grey coat  \n"
    s = parse_data_line(line)
    assert s.lemmas == ("tabby", "tabby_cat") and s.hypernyms == (2121808,) and s.gloss.startswith("a cat")


def test_parse_data_line_reads_parts_and_wholes():
    line = (
        "08932568 15 n 01 Paris 0 003 @i 08929922 n 0000 %p 03302121 n 0000 #p 08929922 n 0000"
        " | the capital of France  \n"
    )
    s = parse_data_line(line)
    assert s.parts == (3302121,) and s.part_of == (8929922,) and s.lexfile == 15
    wn = get_wordnet()
    paris = wn.synset(wn.lookup("Paris")[0])
    assert "Eiffel_Tower" in {lemma for part in paris.parts for lemma in wn.synset(part).lemmas}
