"""A place where no photo was taken: the photos that look like it (its sights, what it is) are the
closest matches, never sure, and `why` names the sight; without that the page held every photo in
no order."""

from __future__ import annotations

from photosearch.catalog.models import Folder
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo


def _gallery(store, emb) -> None:
    photos = {
        "skyline.jpg": [FactRecord("scene", "skyscraper", 0.8)],
        "bridge.jpg": [FactRecord("tag", "suspension bridge", 0.7, data={"names": ["suspension bridge"]})],
        "cat.jpg": [FactRecord("tag", "tabby", 0.9, data={"names": ["tabby", "tabby cat"]})],
        "soup.jpg": [FactRecord("tag", "consomme", 0.9, data={"names": ["consomme"]})],
        "violin.jpg": [FactRecord("tag", "violin", 0.9, data={"names": ["violin", "fiddle"]})],
    }
    with store.session() as s:
        folder = Folder(path="/g")
        s.add(folder)
        s.flush()
        for name, facts in photos.items():
            p = add_photo(s, folder, name)
            text = facts[0].label
            store.write_analysis(
                s,
                p.id,
                "tagger",
                1,
                AnalysisResult(facts=facts, embeddings={"facts_text": emb.embed([text])[0]}),
            )


def test_a_place_no_photo_was_taken_at_shows_its_sights_first(store, settings, fake_embedder):
    _gallery(store, fake_embedder)
    res = search(store, settings, "New York", text_embedder=fake_embedder)
    assert res["plan"]["where"] == {"place": "New York"}
    names = [r["path"].rsplit("/", 1)[-1] for r in res["results"]]
    assert set(names[:2]) == {"skyline.jpg", "bridge.jpg"}  # the Empire State Building, its bridges
    assert all(r["below_cutoff"] for r in res["results"])  # never sure: a skyscraper may be anywhere
    why = " ".join(w.get("text", "") for r in res["results"][:2] for w in r["why"])
    assert "sight of the place" in why
    assert any("New York" in u for u in res["explain"]["unmet"])  # and the page says none was taken there


def test_leaving_a_place_out_does_not_look_for_its_sights(store, settings, fake_embedder, monkeypatch):
    """What a place looks like is only closest matches for finding it; "not in Paris" never needs it."""
    from photosearch.query.resolvers import concept

    _gallery(store, fake_embedder)
    asked: list[str] = []
    real = concept.resolve_concept

    def recording(atom, ctx):
        asked.append(str(atom["concept"]).lower())
        return real(atom, ctx)

    monkeypatch.setattr(concept, "resolve_concept", recording)
    res = search(store, settings, "violin not in Paris", text_embedder=fake_embedder)
    assert res["plan"]["where"]["and"][1] == {"not": {"place": "Paris"}}
    assert "paris" not in asked
    assert [r["path"].rsplit("/", 1)[-1] for r in res["results"]][:1] == ["violin.jpg"]
    search(store, settings, "Paris", text_embedder=fake_embedder)
    assert "paris" in asked  # finding the place still looks for what it looks like
