"""The document kind: a page of words, not any page-like look."""

from __future__ import annotations

from photosearch.catalog.models import Folder
from photosearch.query.search import search
from photosearch.records import AnalysisResult, FactRecord

from .gallery import add_photo, add_photos_with_facts


def _names(res, *, closest: bool) -> list[str]:
    return [r["path"].rsplit("/", 1)[1] for r in res["results"] if r["below_cutoff"] == closest]


def test_a_document_needs_words_where_ocr_read_it(store, settings):
    """A page-like drawing on white in which OCR read no line is no document; a page OCR read is,
    and so is a page OCR never looked at (a library indexed without it)."""
    with store.session() as s:
        folder = Folder(path="/pics")
        s.add(folder)
        s.flush()
        pages = {
            "letter.png": [FactRecord("text", "Dear Anna", 0.9), FactRecord("ocr_gate", "ran", 1.0)],
            "drawing.png": [FactRecord("ocr_gate", "ran", 1.0)],
            "unread.png": [],
        }
        for name, facts in pages.items():
            photo = add_photo(s, folder, name)
            kind = FactRecord("kind", "document", 0.8)
            store.write_analysis(s, photo.id, "quality", 1, AnalysisResult(facts=[kind, *facts]))
    res = search(store, settings, plan={"version": 1, "where": {"kind": "document"}, "compose": {}})
    assert sorted(_names(res, closest=False)) == ["letter.png", "unread.png"]


def test_papers_people_keep_are_searched_among_documents(store, settings):
    """No photo model labels a receipt or a ticket: the request finds the documents first, and says
    that none was seen to be the receipt itself."""
    found = {
        "scan.png": [FactRecord("kind", "document", 0.9), FactRecord("text", "TOTAL 12.40", 0.9)],
        "beach.jpg": [FactRecord("kind", "photo", 0.9)],
        "shot.png": [FactRecord("kind", "screenshot", 0.9)],
    }
    add_photos_with_facts(store, found, analyzer="quality")
    for request in ("receipts", "my train tickets", "the boarding pass"):
        res = search(store, settings, request, signals=[])
        assert [r["path"].rsplit("/", 1)[1] for r in res["results"]][:1] == ["scan.png"], request
        assert res["explain"]["unmet"], request  # the thing itself: no model saw it
