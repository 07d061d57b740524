"""A "not" that names a thing no photo surely or likely shows leaves nothing out, and the page says
so: "cats but not kittens", where no model tells a kitten from a cat, must not read as done."""

from __future__ import annotations

from photosearch.catalog.models import Folder
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo


def _gallery(store, emb) -> None:
    photos = {
        "tabby.jpg": FactRecord("tag", "tabby", 0.9, data={"names": ["tabby", "tabby cat"]}),
        "violin.jpg": FactRecord("tag", "violin", 0.9, data={"names": ["violin", "fiddle"]}),
    }
    with store.session() as s:
        folder = Folder(path="/g")
        s.add(folder)
        s.flush()
        for name, fact in photos.items():
            p = add_photo(s, folder, name)
            result = AnalysisResult(facts=[fact], embeddings={"facts_text": emb.embed([fact.label])[0]})
            store.write_analysis(s, p.id, "tagger", 1, result)


def test_leaving_out_a_thing_no_photo_shows_says_nothing_was_left_out(store, settings, fake_embedder):
    _gallery(store, fake_embedder)
    res = search(store, settings, "cats but not kittens", text_embedder=fake_embedder)
    assert res["plan"]["where"]["and"][1] == {"not": {"concept": "kitten"}}
    assert res["results"][0]["path"].endswith("tabby.jpg")  # the cat stays
    assert "nothing was left out for “kitten”: no photo surely shows it" in res["explain"]["remarks"]


def test_leaving_out_a_thing_a_photo_shows_says_nothing_more(store, settings, fake_embedder):
    _gallery(store, fake_embedder)
    res = search(store, settings, "not violins", text_embedder=fake_embedder)
    names = [r["path"].rsplit("/", 1)[-1] for r in res["results"]]
    assert "violin.jpg" not in names and "tabby.jpg" in names
    assert not any("left out" in r for r in res["explain"]["remarks"])
