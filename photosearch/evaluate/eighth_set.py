"""The eighth set: a test part from packages no other set, and no tuning, has read. Score it once.

The seventh set (`seventh_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. All are Debian packages:

* `marble-qt-data`: the photos of the globe's "best of OpenStreetMap" tour (`tour.kml`), each
  described by its place's name, the title the tour shows over it, the Wikimedia Commons title it
  credits ("Vesuvius from Naples at sunset") and the first paragraph of the Wikipedia text the tour
  quotes ("Mount Vesuvius is a stratovolcano in the Gulf of Naples").
* `libjs-jquery-ui-docs`: the photos of the widget demos, described by their alt texts ("The
  chalet at the Green mountain lake", "Tower Bridge", "St. Stephen's Cathedral"); a large photo
  takes the alt text of its `_min` thumbnail.
* `python-xraylarch-doc`: the portraits of the X-ray table example, named by their files
  (Marie_Curie, Dmitri_Mendeleev), read as photos of those people.
* `facedetect`, `xfig-libs`, `python-cherrypy3-doc`, `libjs-pdf`, `libqcustomplot-doc`,
  `python-pytest-doc`, `toybox`, `goby`, `python3-pyglet`, `libjs-cropper`,
  `golang-github-geertjohan-go.rice-dev`, `libjs-flotr`, `r-cran-pkgdown`, `node-mithril`,
  `libvigraimpex-doc`, `golang-github-bep-gowebp-dev`, `puzzle-jigsaw`, `libplack-perl`,
  `librust-jpeg-decoder-dev`, `libwebsockets-test-server-common`, `librsvg2-tests`,
  `r-cran-isoband`, `r-cran-spatstat.data`, `r-cran-cowplot`, `r-cran-partykit`: example and test
  photos named by their files (grace_hopper, IceBlockNearJoekullsarlon, icebergs, sushibelt, fish,
  solarpanels, freiburg2, towel, lionfish, squilla, kitten, poppy, castle, doge, butterfly, flowers,
  bears, sunset, cat-animal-cat-portrait-mackerel, baybridge, tower, leaf, townsville, tree,
  ocean-cat, sandholes, cow, airport, forest).
* `libelementary-data`, `projectm-data`: the toolkit's test photos and the visualiser's preset
  photos, named by their files (sky_01, rock_01, plant_01, wood_01; sky, sunrise, seaweed, lichen,
  manyfish).

Left out before any request was written, by these rules: the tour's places without a photo in the
package (Spiral Jetty, Palm Jebel Ali, the geoglyph for Lenin, Hexagon, the UTA memorial); the
jQuery UI demos' `flight` and `rocket` (renders) and the thumbnails (copies under 250 px);
facedetect's other files; cherrypy's, qcustomplot's (`balboa`: a park's name over a flower) and
pytest's other images (diagrams, logos); toybox's `toycans-big` (a name that says little); EFL's
`panel_01`, `static_webp_image`, `insanely_huge_test_image` (names that say nothing), `mystrale`
and `mystrale_2` (a dog's name only), `twofish` (a man beside one painted fish) and its other
images (icons, under 250 px); projectM's other presets' images (textures, drawings, renders, under
250 px, `kaite` a name only, `onefish` a close-up of skin, `heart` a light trail, `ruin` a render);
gowebp's `source` and jpeg-decoder's `large_image` (names that say nothing) and their re-encodings;
puzzle-jigsaw's `pexels-photo-302304` (a number only); librsvg's `image1` (a name that says
nothing). Not used at all: the `twentytwentytwo` WordPress theme's birds (illustrations),
jsxgraph's pictures (drawings, a portrait named only), inkscape's `oldguitar` (a painting), ospics'
penguin (drawn), moon-lander's backgrounds (renders among the photos), emayili's `cats` (a grid of
photos), googledrive's `chicken` (noised), cura's `kitten` (a montage) and `moai` (a test chart),
prawn's pigs (removed from the package), lookatme's `nasa_orion` (a name that could mean a
spacecraft or a nebula), tklib's `morgens` ("in the morning") and streamdeck's `Harold` (a first
name), and the photos under 250 px of lazarus (mushrooms), libtiff, httpbin and supercollider.
Photos were opened only to see that they are photos, not drawings, renders or grids, and at least
250 px.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. The names are read as what they plainly are: a kitten, a doge and a mackerel cat
are cats and a dog; a lionfish is a fish, a squilla a mantis shrimp; Vesuvius, Taranaki and
Klyuchevskaya Sopka are volcanoes (the tour's text says stratovolcano); Dunnottar Castle, the
Kremlin, Alcatraz and the Great Wall are what the tour's text calls them; Marie Curie, Mendeleev,
Moseley, Barkla and Grace Hopper are people. The tour's aerial and satellite photos (Nazca Lines,
Marree Man, Palm Jumeirah, The World, Desert Breath, Shuttle Landing Facility) are judged by the
tour's words only: no request asks for a figure a geoglyph draws. Requests for things nearly every
photo of a kind shows (sky, trees, water, buildings, people at large) are not asked unless the
words name them. No negation asks to leave out a thing the words would not mention. No dates or
people the words do not give are asked: the photos have no GPS, caption or date, as in the earlier
sets. Some pins are Debian security or point-release versions (`librsvg2-tests`): should the
mirror drop one, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.eighth_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import html
import re
import unicodedata
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import alt_texts, file_title, gallery_stem, image_size, is_big_enough
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, said, words

PART = "test"
DEBS = {
    "marble-qt-data": "4:22.12.3-1",
    "libjs-jquery-ui-docs": "1.13.2+dfsg-1",
    "python-xraylarch-doc": "0.9.58+ds1-5",
    "facedetect": "0.1-3+b4",
    "xfig-libs": "1:3.2.8b-2",
    "python-cherrypy3-doc": "18.8.0-2",
    "libjs-pdf": "2.14.305+dfsg-2",
    "libqcustomplot-doc": "2.1.0+dfsg1-3.1",
    "python-pytest-doc": "7.2.1-2",
    "toybox": "0.8.9+dfsg-1",
    "goby": "1.1+0.20180214-6",
    "libelementary-data": "1.26.3-1",
    "python3-pyglet": "1.5.27+ds-2",
    "libjs-cropper": "1.2.2-1.1",
    "golang-github-geertjohan-go.rice-dev": "1.0.2-1",
    "libjs-flotr": "0.2.1~r301-1.1",
    "r-cran-pkgdown": "2.0.7-1",
    "node-mithril": "1.1.6-2.1",
    "libvigraimpex-doc": "1.11.1+dfsg-11",
    "golang-github-bep-gowebp-dev": "0.2.0+dfsg-2",
    "puzzle-jigsaw": "1.0.2+git20201007.527c529+dfsg-4+b1",
    "libplack-perl": "1.0050-1",
    "librust-jpeg-decoder-dev": "0.2.6-1",
    "projectm-data": "3.1.12-3",
    "libwebsockets-test-server-common": "4.1.6-3",
    "librsvg2-tests": "2.54.7+dfsg-1~deb12u2",
    "r-cran-isoband": "0.2.7-1",
    "r-cran-spatstat.data": "3.0-0-1",
    "r-cran-cowplot": "1.1.1+dfsg-1",
    "r-cran-partykit": "1.2-16-1",
}

MARBLE_TOUR = "usr/share/marble/data/maps/earth/openstreetmap"
JQUERY_UI = "usr/share/doc/libjs-jquery-ui-docs/examples"
#: The jQuery UI demo photos that are renders, not photos.
JQUERY_LEFT_OUT = frozenset({"flight.jpg", "rocket.jpg"})
XRAYLARCH = "usr/share/doc/python-xraylarch-doc/examples/xraytable/images"
#: Photos named by their files: (source, path in the unpacked packages).
NAMED = (
    ("facedetect", "usr/share/doc/facedetect/examples/grace_hopper_512x512.jpg"),
    ("facedetect", "usr/share/doc/facedetect/examples/640px-IceBlockNearJoekullsarlon.jpg"),
    ("xfig", "usr/share/xfig/Libraries/Examples/icebergs.jpg"),
    ("cherrypy", "usr/share/doc/python-cherrypy3-doc/html/_static/images/sushibelt.JPG"),
    ("pdfjs", "usr/share/doc/libjs-pdf/examples/image_decoders/fish.jpg"),
    ("qcustomplot", "usr/share/doc/libqcustomplot-dev/examples/plots/solarpanels.jpg"),
    ("pytest", "usr/share/doc/python-pytest-doc/html/_images/freiburg2.jpg"),
    ("toybox", "usr/share/doc/toybox/www/towel.jpg"),
    ("goby", "usr/share/doc/goby/examples/lionfish.jpg"),
    ("goby", "usr/share/doc/goby/examples/squilla.jpg"),
    ("pyglet", "usr/share/doc/python3-pyglet/examples/programming_guide/kitten.jpg"),
    ("cropper", "usr/share/doc/libjs-cropper/tests/poppy.jpg"),
    ("cropper", "usr/share/doc/libjs-cropper/tests/castle.jpg"),
    ("go.rice", "usr/share/doc/golang-github-geertjohan-go.rice-dev/examples/example-files/img/doge.jpg"),
    ("flotr", "usr/share/doc/libjs-flotr/examples/images/butterfly.jpg"),
    ("pkgdown", "usr/share/doc/r-cran-pkgdown/tests/testthat/assets/man-figures/man/figures/kitten.jpg"),
    ("pkgdown", "usr/share/doc/r-cran-pkgdown/tests/testthat/assets/man-figures/vignettes/another-kitten.jpg"),
    ("mithril", "usr/share/doc/node-mithril/examples/animation/flowers.jpg"),
    ("vigra", "usr/share/doc/libvigraimpex-dev/html/bears.jpg"),
    ("gowebp", "usr/share/gocode/src/github.com/bep/gowebp/test_data/images/sunset.jpg"),
    ("puzzle-jigsaw", "usr/share/puzzle-jigsaw/samples/cat-animal-cat-portrait-mackerel.jpg"),
    ("plack", "usr/share/perl5/auto/share/dist/Plack/baybridge.jpg"),
    ("jpeg-decoder", "usr/share/cargo/registry/jpeg-decoder-0.2.6/benches/tower.jpg"),
    ("libwebsockets", "usr/share/libwebsockets-test-server/leaf.jpg"),
    ("librsvg", "usr/libexec/installed-tests/RSVG/fixtures/reftests/svg1.1/images/townsville.jpg"),
    ("librsvg", "usr/libexec/installed-tests/RSVG/fixtures/reftests/svg1.1/resources/tree.jpg"),
    ("isoband", "usr/lib/R/site-library/isoband/extdata/ocean-cat.jpg"),
    ("spatstat", "usr/lib/R/site-library/spatstat.data/rawdata/sandholes/sandholes.jpg"),
    ("cowplot", "usr/lib/R/site-library/cowplot/extdata/cow.jpg"),
    ("partykit", "usr/lib/R/site-library/partykit/ULGcourse-2020/airport_20200412.jpg"),
    ("partykit", "usr/lib/R/site-library/partykit/ULGcourse-2020/airport_20200413.jpg"),
    ("partykit", "usr/lib/R/site-library/partykit/ULGcourse-2020/forest.jpg"),
    ("elementary", "usr/share/elementary/images/sky_01.jpg"),
    ("elementary", "usr/share/elementary/images/sky_02.jpg"),
    ("elementary", "usr/share/elementary/images/sky_03.jpg"),
    ("elementary", "usr/share/elementary/images/sky_04.jpg"),
    ("elementary", "usr/share/elementary/images/rock_01.jpg"),
    ("elementary", "usr/share/elementary/images/rock_02.jpg"),
    ("elementary", "usr/share/elementary/images/plant_01.jpg"),
    ("elementary", "usr/share/elementary/images/wood_01.jpg"),
    ("projectm", "usr/share/projectM/presets/presets_tryptonaut/sky.jpg"),
    ("projectm", "usr/share/projectM/presets/presets_tryptonaut/sunrise.jpg"),
    ("projectm", "usr/share/projectM/presets/presets_tryptonaut/seaweed.jpg"),
    ("projectm", "usr/share/projectM/presets/presets_tryptonaut/lichen.jpg"),
    ("projectm", "usr/share/projectM/presets/presets_tryptonaut/manyfish.jpg"),
)  # fmt: skip
FOLDERS = {"places": "places", "textures": "pictures", "other": "downloads"}
PLACES = frozenset({"marble", "jquery-ui"})
TEXTURES = frozenset({"elementary", "projectm"})


# ------------------------------------------------------------------------------ descriptions


def _plain(fragment: str) -> str:
    """An HTML fragment's text: tags dropped, entities decoded, accents dropped, spaces collapsed
    ('Bras&iacute;lia' -> 'Brasilia')."""
    text = unicodedata.normalize("NFKD", html.unescape(re.sub(r"<[^>]+>", " ", fragment)))
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).split())


def tour_places(kml_text: str) -> dict[str, tuple[str, str]]:
    """A Marble tour's photos: image file -> (its place's name, the title shown over it and the
    Commons title its credit gives; the first paragraph of the text quoted about it). A place
    without an image is not taken."""
    out: dict[str, tuple[str, str]] = {}
    pattern = (
        r"<Placemark id=\"[^\"]+\">\s*<name>(.*?)</name>\s*<description><!\[CDATA\[(.*?)\]\]></description>"
    )
    for name, desc in re.findall(pattern, kml_text, re.S):
        img = re.search(r'<img src="([^"]+)"', desc)
        if not img:
            continue
        title = re.search(r'<p style="font-size: x-large[^"]*">(.*?)</p>', desc, re.S)
        credits = re.findall(r'<p style="font-style:italic; font-size: smaller">"<a [^>]*>(.*?)</a>"', desc)
        paragraphs = re.findall(r"<p>(.*?)</p>", desc, re.S)
        said_text = " ".join(_plain(t) for t in [name, title.group(1) if title else "", *credits])
        out[img.group(1)] = (said_text, _plain(paragraphs[0]) if paragraphs else "")
    return out


def thumbnail_alts(html_text: str) -> dict[str, str]:
    """A page's photos with their alt texts, a large photo taking its `_min` thumbnail's
    ('high_tatras2_min.jpg' -> 'high_tatras2.jpg')."""
    out: dict[str, str] = {}
    for name, alt in alt_texts(html_text).items():
        stem, dot, ext = name.rpartition(".")
        if stem.endswith("_min"):
            out[f"{stem[: -len('_min')]}{dot}{ext}"] = alt
        elif alt:
            out.setdefault(name, alt)
    return out


def portrait_name(stem: str) -> str:
    """A portrait's file name as the person's name: 'Marie_Curie' -> 'marie curie'."""
    return heldout.words_of(stem.replace("_", " "))


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def _photo(source: str, path: Path, text: str, about: str = "") -> Photo | None:
    """The photo at `path` with its words, or None when it is under the smallest size taken."""
    if not is_big_enough(image_size(path)):
        return None
    kind = "places" if source in PLACES else "textures" if source in TEXTURES else "other"
    rel = f"{FOLDERS[kind]}/{gallery_stem(path.stem)}"
    return Photo(rel, text, source, PART, fetched.decoded(path.read_bytes()), about=about)


def named_photos(root: Path) -> list[Photo | None]:
    return [_photo(source, root / member, file_title(Path(member).stem)) for source, member in NAMED]


def marble_photos(root: Path) -> list[Photo | None]:
    folder = root / MARBLE_TOUR
    places = tour_places((folder / "tour.kml").read_text(encoding="utf-8"))
    if not places:
        raise ValueError("Marble's tour no longer describes its photos")
    out = []
    for name, (text, about) in sorted(places.items()):
        if (folder / name).is_file():  # places whose photo the package leaves out are not taken
            out.append(_photo("marble", folder / name, heldout.words_of(text), heldout.words_of(about)))
    return out


def jquery_photos(root: Path) -> list[Photo | None]:
    alts: dict[str, str] = {}
    for page in sorted((root / JQUERY_UI).rglob("*.html")):
        alts.update(thumbnail_alts(page.read_text(encoding="utf-8", errors="replace")))
    out = []
    for path in sorted((root / JQUERY_UI).rglob("images/*.jpg")):
        if path.name in alts and path.name not in JQUERY_LEFT_OUT and not path.stem.endswith("_min"):
            text = heldout.words_of(file_title(path.stem), alts[path.name])
            out.append(_photo("jquery-ui", path, text))
    return out


def xraylarch_photos(root: Path) -> list[Photo | None]:
    folder = root / XRAYLARCH
    return [_photo("xraylarch", p, portrait_name(p.stem)) for p in sorted(folder.glob("*.jpg"))]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = marble_photos(root) + jquery_photos(root) + xraylarch_photos(root) + named_photos(root)
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


CAT = words("cat", "kitten")
DOG = words("doge")
FISH = words("fish", "lionfish", "manyfish")
SHRIMP = words("squilla")
ANIMAL = either(CAT, DOG, FISH, SHRIMP, words("bears", "cow", "butterfly"))
CASTLE = words("castle", "sleepingbeautycastle")
CHURCH = either(words("church", "basilica", "cathedral"), said("church"))
VOLCANO = said("volcano", "stratovolcano")
MOUNTAIN = either(words("tatras", "mountain", "mount"), said("mountain", "mount"))
ISLAND = either(words("alcatraz island"), said("is an island", "archipelago"))
FLOWER = words("flowers", "poppy")
SKY = words("sky")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "alcatraz",
            "eiffel tower",
            "taj mahal",
            "stonehenge",
            "santorini",
            "vesuvius",
            "kremlin",
            "great wall of china",
            "sydney opera house",
            "disneyland",
            "death valley",
            "pyramid",
            "palace",
            "cathedral",
            "tower",
            "high tatras",
            "chalet",
            "earth",
            "marie curie",
            "mendeleev",
            "grace hopper",
            "icebergs",
            "kitten",
            "cow",
            "butterfly",
            "poppy",
            "leaf",
            "tree",
            "forest",
            "plant",
            "rock",
            "wood",
            "lichen",
            "seaweed",
            "towel",
            "sunset",
            "sunrise",
            "airport",
            "freiburg",
        )
    ],  # fmt: skip
    ("cat", CAT, "word"),
    ("dog", DOG, "word"),
    ("fish", FISH, "word"),
    ("bear", words("bears"), "word"),
    ("castle", CASTLE, "word"),
    ("church", CHURCH, "word"),
    ("bridge", words("tower bridge", "baybridge"), "word"),
    ("volcano", VOLCANO, "word"),
    ("mountains", MOUNTAIN, "word"),
    ("desert", either(words("desert"), said("desert")), "word"),
    ("island", ISLAND, "word"),
    ("park", words("park"), "word"),
    ("garden", said("garden"), "word"),
    ("prison", said("prison"), "word"),
    ("sushi", words("sushibelt"), "word"),
    ("ice", words("ice", "icebergs"), "word"),
    ("sky", SKY, "word"),
    ("sand", words("sand", "sandholes"), "word"),
    ("solar panels", words("solarpanels"), "word"),
    ("geoglyph", said("geoglyph"), "word"),
    # synonyms and everyday variants
    ("kitty", CAT, "synonym"),
    ("cattle", words("cow"), "synonym"),
    ("mantis shrimp", SHRIMP, "synonym"),
    ("mountain hut", words("chalet"), "synonym"),
    ("mountain summit", words("on top of"), "synonym"),
    ("fortress", said("fortress", "fortified", "fortifications"), "synonym"),
    ("sand dunes", words("dunes"), "synonym"),
    ("artificial islands", said("artificial archipelago"), "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("pets", either(CAT, DOG), "category"),
    ("sea creatures", either(FISH, SHRIMP), "category"),
    ("insect", words("butterfly"), "category"),
    ("flowers", FLOWER, "category"),
    ("places of worship", CHURCH, "category"),
    ("famous people", words("marie curie", "mendeleev", "moseley", "barkla", "grace hopper"), "category"),
    # counts (the names say them)
    ("many fish", words("manyfish"), "count"),
    ("several bears", words("bears"), "count"),
    # scenes
    ("sydney opera house at sunset", both(words("opera house"), words("sunset")), "scene"),
    ("volcano at sunset", both(VOLCANO, words("sunset")), "scene"),
    ("chalet by a mountain lake", both(words("chalet"), words("lake")), "scene"),
    ("castle on a rocky headland", both(CASTLE, said("headland")), "scene"),
    ("sand dunes in the desert", both(words("dunes"), said("desert")), "scene"),
    ("cat by the ocean", words("ocean cat"), "scene"),
    # negation
    ("cats but not kittens", but_not(CAT, words("kitten")), "negation"),
    ("churches but not St Peter's", but_not(CHURCH, words("peter's")), "negation"),
    ("volcanoes except Vesuvius", but_not(VOLCANO, words("vesuvius")), "negation"),
    ("fish but not the lionfish", but_not(FISH, words("lionfish")), "negation"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "elephant", "penguin", "pizza", "birthday cake", "hamburger", "ice cream", "piano", "guitar",
        "christmas tree", "fireworks", "snowman", "tennis racket", "skateboard", "teddy bear",
        "wedding dress", "toothbrush", "giraffe", "zebra", "laptop", "hot air balloon",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "eighth_set", name="eighth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "eighth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
