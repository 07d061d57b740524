"""WordNet's noun index is binary-searched in place; it answers exactly what a full parse answers."""

from __future__ import annotations

import random

import pytest

from photosearch.vision.wordnet import NounIndex, WordNet, WordNetUnavailable, find_wordnet_dir


def _parse_whole(path) -> dict[str, tuple[tuple[int, ...], int]]:
    """The reference: every line of index.noun as lemma -> (offsets, tagged sense count)."""
    out = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(" "):
                continue
            parts = line.split()
            n = int(parts[2])
            out[parts[0]] = (tuple(int(p) for p in parts[-n:]), int(parts[-n - 1]))
    return out


@pytest.fixture(scope="module")
def wordnet_dir():
    try:
        return find_wordnet_dir()
    except WordNetUnavailable:
        pytest.fail("WordNet is a bundled model: it must be installed")


def test_the_search_finds_every_lemma_and_nothing_else(wordnet_dir):
    whole = _parse_whole(wordnet_dir / "index.noun")
    index = NounIndex(wordnet_dir / "index.noun")
    try:
        lemmas = sorted(whole)
        sample = lemmas[:50] + lemmas[-50:] + random.Random(7).sample(lemmas, 3000)
        for lemma in sample:
            assert index.get(lemma) == whole[lemma][0], lemma
            assert index.tagged(lemma) == whole[lemma][1], lemma
        for missing in ("", "zzzzz", "aaaaaa_not_a_word", "tabby_catz", "'", "cat s", "~"):
            assert missing not in index
            assert index.get(missing) == () and index.tagged(missing) == 0
    finally:
        index.close()


def test_wordnet_answers_through_the_index(wordnet_dir):
    wn = WordNet(wordnet_dir)
    try:
        assert wn.lookup("tabby cat") == wn.lookup("tabby_cat") != ()
        assert wn.base_forms("cats") == ["cat"]
        assert wn.base_forms("mice") == ["mouse"]
        assert wn.tagged_senses("cat") > 0
    finally:
        wn.close()


def test_verb_forms_follow_morphy_and_the_exception_list(wordnet_dir):
    """ "cooked" is a form of cook, "ate" of eat (verb.exc), "saw" of saw and see; "red" and "at"
    are no verbs."""
    wn = WordNet(wordnet_dir)
    try:
        assert wn.verb_forms("cooked") == ["cook"]
        assert wn.verb_forms("ate") == ["eat"]
        assert wn.verb_forms("saw") == ["saw", "see"]
        assert wn.verb_forms("swims") == ["swim"]
        assert wn.verb_forms("baked") == ["bake"]
        assert wn.verb_forms("red") == [] and wn.verb_forms("at") == []
    finally:
        wn.close()


def test_an_adjective_points_to_the_nouns_it_is_made_from(wordnet_dir, tmp_path):
    """Derivation ('+') and pertainym ('\\') pointers of the word itself, checked against the
    database's own lines: "rocky" is made from rock (a stone; another sense, a rocking), "urban"
    pertains to a city; a noun that is no adjective has none, nor has a copy without `data.adj`."""
    wn = WordNet(wordnet_dir)
    try:
        rocky = [name for name, _offset in wn.adjective_nouns("rocky")]
        assert "rock" in rocky and "rockiness" in rocky
        assert all(wn.synset(offset).lemmas for _name, offset in wn.adjective_nouns("rocky"))
        assert "city" in [name for name, _offset in wn.adjective_nouns("urban")]
        # "stony" shares the first synset of "rocky": its pointers, not rocky's, are stony's
        assert "rock" not in [name for name, _offset in wn.adjective_nouns("stony")]
        assert wn.adjective_nouns("dog") == ()
    finally:
        wn.close()
    for name in ("index.noun", "data.noun", "index.adj", "noun.exc"):
        (tmp_path / name).symlink_to(wordnet_dir / name)
    bare = WordNet(tmp_path)
    try:
        assert bare.adjective_nouns("rocky") == ()
    finally:
        bare.close()
    (tmp_path / "data.adj").write_bytes(b"damaged\n" * 400_000)  # a damaged adjective database
    damaged = WordNet(tmp_path)
    try:
        with pytest.raises(WordNetUnavailable, match="adjective database"):
            damaged.adjective_nouns("rocky")
    finally:
        damaged.close()


def test_the_names_a_word_heads_are_every_lemma_it_starts(wordnet_dir):
    """ "mount" heads "mount adams" ... "mount wilson": the index's lemmas that start "mount_", no
    other ("mountain" is not headed by "mount"), found by a binary search like any lemma."""
    whole = sorted(_parse_whole(wordnet_dir / "index.noun"))
    wn = WordNet(wordnet_dir)
    try:
        for word in ("mount", "lake", "a", "zygote", "genus", "zz"):
            expected = [lemma.replace("_", " ") for lemma in whole if lemma.startswith(word + "_")]
            assert wn.names_headed_by(word) == expected, word
        assert "mount rushmore" in wn.names_headed_by("Mount")
    finally:
        wn.close()


def test_a_lemmas_senses_are_counted_as_the_tagged_corpus_used_them(wordnet_dir):
    """cntlist.rev's counts by sense number, in the order `lookup` gives the senses: the dwelling is
    the house WordNet's corpus used (157 times); the theater, never; a word it never met has none."""
    wn = WordNet(wordnet_dir)
    try:
        house = wn.sense_uses("house")
        assert len(house) == len(wn.lookup("house")) and house[0] == max(house) >= 100
        theater = next(i for i, o in enumerate(wn.lookup("house")) if "theatrical" in wn.synset(o).gloss)
        assert house[theater] == 0
        assert wn.sense_uses("Chest") == wn.sense_uses("chest") and wn.sense_uses("chest")[:2] == (34, 1)
        assert wn.sense_uses("zzzz") == ()
    finally:
        wn.close()
