"""The words people wrote into their photos are searchable: indexed through the real `embedded`
analyzer (exiftool writes the files), searched with requests, `why` naming where each word was."""

from __future__ import annotations

import time

import pytest
from PIL import Image
from sqlalchemy import select

from photosearch.catalog import Store
from photosearch.catalog.models import Fact
from photosearch.cli.search import _why_text
from photosearch.config import Settings
from photosearch.ingest.indexer import Indexer
from photosearch.metadata.analyzer import EmbeddedMetadataAnalyzer
from photosearch.query.search import search
from tests.metadata import exiftool
from tests.metadata.galleries import embedded_gallery

#: name -> (photo, exiftool arguments): a cat with Lightroom's place keywords (the models would never
#: say "Lisbon"), a coffee with IPTC place names, a photo that says nothing, one with a sidecar.
PHOTOS = {
    "lisbon.jpg": (
        "chelsea",
        (
            "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon",
            "-XMP-dc:Title=Grandma’s 80th",
            "-XMP-xmp:Rating=4",
            "-XMP-xmp:Label=Red",
        ),
    ),
    "porto.png": (
        "coffee",
        ("-XMP-photoshop:City=Porto", "-XMP-photoshop:Country=Portugal", "-XMP-xmp:Rating=2")
        + ("-XMP-xmp:Label=Green", "-EXIF:ImageDescription=Espresso by the river"),
    ),
    "plain.jpg": ("rocket", ()),
    "sintra.jpg": ("flower", ()),
}


@pytest.fixture
def catalog(tmp_path, real_photos):
    sidecar = {"sintra.jpg.xmp": ("-XMP-dc:Subject=Sintra", "-XMP-xmp:Rating=5")}
    return embedded_gallery(tmp_path, real_photos, PHOTOS, sidecar)


def _names(res) -> list[str]:
    return sorted(r["path"].rsplit("/", 1)[-1] for r in res["results"] if not r["below_cutoff"])


def _why(res, name: str) -> str:
    (hit,) = [r for r in res["results"] if r["path"].endswith("/" + name)]
    return _why_text(hit["why"])


def test_keyword_is_found_and_why_says_it_is_the_files_word(catalog):
    store, settings, _, _ = catalog
    res = search(store, settings, "Lisbon", signals=[])
    assert _names(res) == ["lisbon.jpg"]
    assert "keyword: Lisbon (in the file)" in _why(res, "lisbon.jpg")
    tagged = search(store, settings, "tagged Lisbon", signals=[])
    assert _names(tagged) == ["lisbon.jpg"]


def test_a_hierarchical_keyword_matches_at_every_level_and_file_places_join_the_place_index(catalog):
    store, settings, _, _ = catalog
    res = search(store, settings, "Portugal", signals=[])
    assert _names(res) == ["lisbon.jpg", "porto.png"]
    assert "keyword: Portugal (in the file)" in _why(res, "lisbon.jpg")
    assert "place: Porto, Portugal (in the file)" in _why(res, "porto.png")
    assert _names(search(store, settings, "photos from Porto", signals=[])) == ["porto.png"]


def test_titles_and_captions_are_searchable_text(catalog):
    store, settings, _, _ = catalog
    res = search(store, settings, "grandma’s 80th", signals=[])
    assert _names(res) == ["lisbon.jpg"]
    assert "title: Grandma’s 80th (in the file)" in _why(res, "lisbon.jpg")
    res = search(store, settings, "espresso river", signals=[])
    assert _names(res) == ["porto.png"]
    assert "caption: Espresso by the river (in the file)" in _why(res, "porto.png")


def test_ratings_and_colour_labels_are_filters(catalog):
    store, settings, _, _ = catalog
    assert _names(search(store, settings, "rated 4 or more", signals=[])) == ["lisbon.jpg", "sintra.jpg"]
    assert _names(search(store, settings, "5 stars", signals=[])) == ["sintra.jpg"]
    assert _names(search(store, settings, "red label", signals=[])) == ["lisbon.jpg"]
    assert _names(search(store, settings, "photos labelled green", signals=[])) == ["porto.png"]
    res = search(store, settings, "rated 4 or more", signals=[])
    assert "rating: 5 (in sintra.jpg.xmp)" in _why(res, "sintra.jpg")
    res = search(store, settings, "red label", signals=[])
    assert "label: Red (in the file)" in _why(res, "lisbon.jpg")
    (hit,) = res["results"]
    assert hit["why"][0]["text"] == "label: Red (in the file)"  # what the app's result tooltip shows


def test_a_sidecar_keyword_says_which_sidecar(catalog):
    store, settings, _, _ = catalog
    res = search(store, settings, "Sintra", signals=[])
    assert _names(res) == ["sintra.jpg"]
    assert "keyword: Sintra (in sintra.jpg.xmp)" in _why(res, "sintra.jpg")


def test_a_changed_sidecar_is_read_again_by_the_next_index_run(catalog):
    store, settings, gallery, indexer = catalog
    time.sleep(0.01)
    (gallery / "sintra.jpg.xmp").unlink()
    exiftool.make_sidecar(gallery / "sintra.jpg.xmp", "-XMP-dc:Subject=Pena Palace")
    report = indexer.run()
    assert report.failed == 0
    assert _names(search(store, settings, "Sintra", signals=[])) == []
    assert _names(search(store, settings, "Pena Palace", signals=[])) == ["sintra.jpg"]
    (gallery / "sintra.jpg.xmp").unlink()  # a removed sidecar takes its words with it
    indexer.run()
    assert _names(search(store, settings, "Pena Palace", signals=[])) == []
    again = indexer.run()  # nothing changed: nothing is read again
    assert again.analysed == 0 and again.unchanged == 4
    with store.session() as s:
        assert not list(s.scalars(select(Fact).where(Fact.kind == "sidecar")))


@pytest.mark.slow
def test_a_keyword_the_models_contradict_is_still_found_as_the_files_word(tmp_path, real_photos, vsettings):
    from photosearch.vision.registry import bundled_analyzers

    (tagger,) = bundled_analyzers(vsettings, ["tagger"])
    gallery = tmp_path / "gallery"
    gallery.mkdir()
    Image.fromarray(real_photos["chelsea"]).save(gallery / "chelsea.jpg")
    exiftool.make_sidecar(gallery / "chelsea.jpg.xmp", "-XMP-dc:Subject=dog")
    settings = Settings(data_dir=tmp_path / "data")
    settings.ensure_dirs()
    store = Store(settings.database_url)
    store.add_folder(gallery)
    Indexer(store, settings, [EmbeddedMetadataAnalyzer(settings), tagger]).run()
    with store.session() as s:
        seen = set(s.scalars(select(Fact.label).where(Fact.kind == "tag", Fact.analyzer == "tagger")))
    assert "cat" in seen and "dog" not in seen  # the model sees a cat
    res = search(store, settings, "dog", signals=[])
    assert _names(res) == ["chelsea.jpg"]
    assert "keyword: dog (in chelsea.jpg.xmp)" in _why(res, "chelsea.jpg")
    cat = search(store, settings, "cat", signals=[])
    assert _names(cat) == ["chelsea.jpg"] and "(in " not in _why(cat, "chelsea.jpg")
