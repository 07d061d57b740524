"""The twelfth set: a test part from packages no other set, and no tuning, has read. Score it once.

The eleventh set (`eleventh_set.py`) is spent like the sets before it. This set is built the same
way from other packages, fetched pinned and never installed, and its judgements come from what
each package says about its photos, never from a model. Source archives are checked against their
sha256, the Debian packages by apt against the archive's signed hashes:

* `thumbor` 7.8.0 (PyPI sdist): the image server's test and filter photos that are titled, as on
  Wikimedia Commons, by the person they show ("Christophe_Henner_-_June_2016",
  "Giunchedi,_Filippo_January_2015_01", "800px-Katherine_Maher", "800px-Guido-portrait-2014").
* `face_recognition` 1.3.0 (PyPI sdist): the library's test photos, named by the person they
  show (obama, obama2, obama3, biden).
* `castle-game-engine-src` (Debian): the Vampyre imaging library's demo photo `Tigers`.
* `sddm-theme-maldives` (Debian): the login theme's background photo, read by the theme's name
  (`maldives`).

Left out before any request was written, by these rules: thumbor's `maracujá` (seen, while
checking that it is a photo, to be a colour gradient, not a passion fruit), `image`, `source`
(a copy of the Katherine Maher photo), `no_face`, `alabama1_ap620é`, `20x20`, `cmyk*`,
`grayscale*`, `gradient*` and the other fixtures named by a size, a format or a test (names that
say nothing of what they show), `10_years_of_Wikipedia_by_Guillaume_Paumier` (an event's title and
its photographer: it does not say what is shown), `15967251_..._АгатавЗоопарке` (numbers and a
first name), the other copies of the Giunchedi photo (its CMYK, grey and PNG variants) and the
filter outputs and documentation pictures (`tom_after_*`, `fill*`, `watermark*`: copies through a
filter, diagrams, logos); face_recognition's `obama_partial_face*` (crops of `obama`) and `32bit`
(a format); the Maldives theme's `maldives.jpg` (a screenshot of the login screen over the same
photo); the engine's `Tigers.png` (the same photo again). Not used at all, after looking at their
names or sizes: `python-docx` (its `jfif-iguana` is 100 px wide; `court-exif` a throne room that a
"court" request would misjudge; `lena_std` a retired test portrait), `python-pptx`, `pilgram`
(screenshots), `ruby-prawn` (its `pigs.jpg` is replaced in Debian by a notice), `manuskript`
(`writingdesk` a wood texture, `spacedreams` a nebula named for a mood), `r-cran-magick`,
`wx3.2-examples`, `imagemagick-6-doc`, `supercollider-common`, `python3-pyclustering` (photos
under 250 px), `cinnamon-common`, `budgie-control-center-data`, `mate-user-admin` (account
pictures of 96 px, or GNOME's that the sixth set read), `wordpress-theme-twentytwentyone`
(paintings), `libjs-spectre-docs` (wallpapers named for operating systems), `qt5-quick-demos`
(named for news sections), `pyqt5-examples` (Qt's own example photos, which the fresh set read),
`fotoxx-common`, `tdiary-theme` (textures, screenshots, theme headers), `cimg-doc` (numbered
postcards, screenshots), `fomantic-ui`, `froala-editor`, `officegen` (avatars by first name,
numbered photos) and the npm sliders, galleries, editors and image libraries that ship no photo.
Photos were opened only to see that they are photos, not drawings, renders, gradients or
screenshots, and at least 250 px on their short side. The set is small (10 photos): few packages
that no earlier set read say what their photos show.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. A photo titled or named by a person's name shows that person: a person, a face, and
that person's name (Obama, Biden, Guido, Katherine Maher ...); "joe biden" and "barack obama" are
the plain full names of Biden and Obama. No gender, age, clothing, setting or flag is asked: the
names do not say them (the Obama photos have flags and rooms that their words never mention).
Tigers are tigers, big cats and animals; the Maldives theme's photo answers "maldives" only (its
beach, jetty and palms are not in its words). No dates are asked: the titles' dates ("June
2016") are when the photos were taken, and the gallery's files carry none. Should a pinned package
change or vanish, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.twelfth_set DIR       # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import file_title, gallery_stem
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, source, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: PyPI source archive -> (exact version, the archive's sha256).
SDISTS = {
    "thumbor": ("7.8.0", "3211d7b3210864fae09a67a822e69851aa54ac6137d8a35c1a4047881e3c6dfc"),
    "face_recognition": ("1.3.0", "5e5efdd1686aa566af0d3cc1313b131e4b197657a8ffd03669e6d3fad92705ec"),
}
DEBS = {
    "castle-game-engine-src": "7.0~alpha.2+dfsg1-5",
    "sddm-theme-maldives": "0.19.0-5",
}
#: Photos named by their files: (source, member of its source archive, without the top folder).
SDIST_PHOTOS = (
    ("thumbor", "tests/fixtures/images/Christophe_Henner_-_June_2016.jpg"),
    ("thumbor", "tests/fixtures/images/Giunchedi%2C_Filippo_January_2015_01.jpg"),
    ("thumbor", "thumbor/fixtures/filters/800px-Katherine_Maher.jpg"),
    ("thumbor", "thumbor/fixtures/filters/800px-Guido-portrait-2014.jpg"),
    ("face_recognition", "tests/test_images/obama.jpg"),
    ("face_recognition", "tests/test_images/obama2.jpg"),
    ("face_recognition", "tests/test_images/obama3.jpg"),
    ("face_recognition", "tests/test_images/biden.jpg"),
)  # fmt: skip
TIGERS = "usr/src/castle-game-engine-7.0/vampyre_imaginglib/src/Demos/Data/Tigers.jpg"
MALDIVES = "usr/share/sddm/themes/maldives/background.jpg"
#: The sources whose every photo is named for the person it shows.
PEOPLE_SOURCES = ("thumbor", "face_recognition")


# ------------------------------------------------------------------------------ descriptions


def photo_title(member: str) -> str:
    """A photo's title from its file name: 'Giunchedi%2C_Filippo_January_2015_01.jpg' ->
    'giunchedi filippo january 2015 01', '800px-Guido-portrait-2014.jpg' -> 'guido portrait 2014'."""
    return file_title(unquote(Path(member).stem).replace(",", ""))


# ------------------------------------------------------------------------------ sources


def sdist_path(sdists: Path, name: str) -> Path:
    """The pinned source archive of `name`, checked against its sha256."""
    return fetched.pinned_sdist(sdists, SDISTS, name)


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them), check the archives'
    hashes and unpack the Debian ones."""
    return fetched.fetch_pinned(cache, SDISTS, DEBS)


def _photo(source_name: str, data: bytes, text: str, stem: str) -> Photo | None:
    """The photo in `data` with its words, or None when it is under the smallest size taken."""
    load = fetched.decoded(data)
    if not is_big_enough(load().size):
        return None
    rel = f"pictures/{gallery_stem(stem)}"
    return Photo(rel, heldout.words_of(text), source_name, PART, load)


def sdist_photos(sdists: Path) -> list[Photo | None]:
    out: list[Photo | None] = []
    for name, member in SDIST_PHOTOS:
        data = fetched.sdist_member(sdists, SDISTS, name, member)
        title = photo_title(member)
        out.append(_photo(name, data, title, title.replace(" ", "_")))
    return out


def debian_photos(root: Path) -> list[Photo | None]:
    return [
        _photo("castle-game-engine-src", (root / TIGERS).read_bytes(), "tigers", "tigers"),
        _photo("sddm-theme-maldives", (root / MALDIVES).read_bytes(), "maldives", "maldives"),
    ]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    return fetched.own_files(sdist_photos(cache / "sdists") + debian_photos(cache / "root"), PART)


# ------------------------------------------------------------------------------ queries


PERSON = source(*PEOPLE_SOURCES)
OBAMA = words("obama")
BIDEN = words("biden")
TIGER = words("tiger", "tigers")
ANIMAL = TIGER

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "obama",
            "biden",
            "guido",
            "katherine maher",
            "christophe henner",
            "tigers",
            "maldives",
        )
    ],  # fmt: skip
    # synonyms and everyday variants
    ("tiger", TIGER, "synonym"),
    ("barack obama", OBAMA, "synonym"),
    ("joe biden", BIDEN, "synonym"),
    ("filippo giunchedi", both(words("filippo"), words("giunchedi")), "word"),
    ("giunchedi", words("giunchedi"), "synonym"),
    ("henner", words("henner"), "synonym"),
    ("maher", words("maher"), "synonym"),
    # categories
    ("person", PERSON, "category"),
    ("people", PERSON, "category"),
    ("face", PERSON, "category"),
    ("faces", PERSON, "category"),
    ("animals", ANIMAL, "category"),
    ("animal", ANIMAL, "category"),
    ("big cat", TIGER, "category"),
    ("wild animals", ANIMAL, "category"),
    # either of two
    ("obama or biden", either(OBAMA, BIDEN), "scene"),
    # negation
    ("people but not obama", but_not(PERSON, OBAMA), "negation"),
    ("people but not biden", but_not(PERSON, BIDEN), "negation"),
    ("faces but not obama or biden", but_not(PERSON, either(OBAMA, BIDEN)), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "snowman", "birthday cake", "dog", "horse", "pizza", "guitar", "bicycle", "car",
        "airplane", "lighthouse", "waterfall", "castle", "christmas tree", "fireworks", "butterfly",
        "penguin", "elephant", "umbrella", "hamburger",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "twelfth_set", name="twelfth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "twelfth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
