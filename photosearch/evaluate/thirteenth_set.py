"""The thirteenth set: a test part from packages no other set, and no tuning, has read. Score it once.

The twelfth set (`twelfth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. The source archive is checked against its
sha256, the Debian packages by apt against the archive's signed hashes:

* `texlive-latex-extra-doc` (Debian): example photos of CTAN packages' documentation, named by
  their files. Most of the set: the `recipebook` example's seven dishes, each named by its recipe
  ("Curried_chicken_and_rice", "Hawaiian_burgers", "Italian_calzones", "French_dip"), and
  `wallcalendar`'s frog, `bearwear`'s montblanc, `papertex`'s ireland, `copyrightbox`'s coin,
  `beamertheme-trigon`'s library, `ppt-slides`' socrates, `europecv`'s Pythagoras and `wrapfig2`'s
  stele-todi-small.
* `texlive-publishers-doc` (Debian): `uestcthesis`' Chrysanthemum, Penguins and Tulips, `kdgdocs`'
  pi-orchid, `hagenberg-thesis`' cola-public-domain-photo-p and ibm-360-color, `jacow`'s
  TeamMeeting2019 and `nwafuthesis`' building.
* `texlive-pictures-doc` (Debian): `hvfloat`'s sonne-meer (German: sun, sea) and
  `tikz-imagelabels`' pleiades.
* `pillow_heif` 1.9.0 (PyPI sdist): the test photos `pug` and `nokia/bird_burst` (the first image
  of the burst).

Left out before any request was written, by these rules: drawings, renders, diagrams, plots,
screenshots and logos (the `ndsu-thesis-2022` frog and the `willowtreebook` willow are drawn,
`tcolorbox`'s `Basilica_5` is an engraving, `callouts`' `A319neo` may be a maker's render, the
`uafthesis` batteries are handwriting, `tikz-network`'s `plane` and `gridslides`' `band02` are
plots); photos whose names say nothing of what they show or only a name (`beamerdarkthemes`'
`img_5630` and `dahut`, `acmart`'s `sample-franklin`, `beamer`'s lecture pictures `pic1`..`pic6`,
`makecookbook`'s `image-a`/`image-b`, `incgraph`'s and `practicalreports`' examples, `fancyslides`'
`1`/`2`, `mlacls`' example image, `xput`'s `koepi`, `komacv`'s `jeyre`); `bearwear`'s `baer` (a
teddy bear: a "bear" request would misjudge a toy); the copies of a photo (`wallcalendar`'s
`frog-crop` and `frog-crop-thumb`, `hagenberg-thesis`' second `cola-public-domain-photo-p`);
photos under 250 px on the short side (`thesis-qom`'s knuth and lamport). From pillow_heif: its
colour and format fixtures named by a mode or a size, `zPug_3` (64 px), and the photos named by a
camera or a layout (`xiaomi`, `stereo_*`, `spatial_photo`). Not used at all, after looking at their
names or sizes: `golang-golang-x-image-dev` (its `yellow_rose` is a cut-out, on white or
transparent; `blue-purple-pink-large` names colours only), `php-horde` (avatars of 50 to 190 px)
and `lebiniou-data` (icons, drawings, visualiser images), `yolov5` (its `bus` and `zidane` are the
same photos as the `ultralytics` wheel's, which the unseen set read), `arcade` (sprites, textures),
`mtcnn`, `facenet-pytorch`, `retina-face`, `deepface`, `easyocr`, `rembg`, `supervision`,
`face-alignment`, `kornia`, `pyvips`, `pytesseract` (no photos in their wheels or sdists),
`ImageHash` (one test picture, `imagehash`, named after the library), `piexif` (numbered and
camera-named test files), and among Debian's: `freedombox-doc-en` (single-board computers named by
product: banana-pro, orange-pi-zero), `nagios-images` (icons), `focuswriter` (theme backgrounds
named by a mood: bitterskies, tranquility, writingdesk), `sddm-theme-maui`,
`sddm-theme-elarun`, `slim`, `lxde-common`, `xfdesktop4-data` (wallpapers named for a theme),
`latte-dock`, `caja-common`, `pekwm-themes`, `wmaker-common` (textures), `python-pygame-doc`,
`xsane-common`, `python3-traitsui`, `mayavi2`, `openshot-qt`, `python3-pyimagetool` (screenshots,
renders, colour maps, transitions) and the games' data (textures, sprites, renders). Photos were
opened only to see that they are photos, not drawings, renders, gradients or screenshots, and at
least 250 px on their short side.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. The recipes are food: two soups (pumpkin pie soup, curried butternut squash soup),
burgers (hamburgers), calzones, a French dip, curried chicken with rice and grilled chicken with
capers ("curried" is curry). Penguins are birds; a pug is a dog; penguins, a pug, a frog and a bird
are animals; a chrysanthemum, tulips and an orchid are flowers. Mont Blanc is a mountain;
"sonne meer" is German for sun and sea; the Pleiades are asked by their name only. Socrates and
Pythagoras are Greek philosophers, asked by name and as philosophers only: their photos are busts,
so no person or face request takes them. A team meeting is a group of people; the IBM 360 is a
computer; a stele, a coin, a library, a building and cola are asked by their own words; Ireland
answers "ireland" only (what its photo shows, the words do not say). No colour, count, date or
setting is asked that the words do not give, and no negation asks to leave out a thing the words
would not mention. Should a pinned package change or vanish, `fetch` fails rather than build
another set.

    python -m photosearch.evaluate.thirteenth_set DIR    # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import file_title, gallery_stem
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words
from photosearch.ingest.decode import heif_available

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: PyPI source archive -> (exact version, the archive's sha256).
SDISTS = {
    "pillow_heif": ("1.9.0", "8a13d15106c9dbbd66a65966edee2ee0de3950c18dc3ea42912442cda803ea4c"),
}
DEBS = {
    "texlive-latex-extra-doc": "2022.20230122-4",
    "texlive-publishers-doc": "2022.20230122-4",
    "texlive-pictures-doc": "2022.20230122-3",
}
#: Photos named by their files: (source, member of its source archive, without the top folder).
SDIST_PHOTOS = (
    ("pillow_heif", "tests/images/heif_other/pug.heic"),
    ("pillow_heif", "tests/images/heif_other/nokia/bird_burst.heic"),
)  # fmt: skip
TEXDOC = "usr/share/doc/texlive-doc"
#: Photos named by their files: (Debian package, path under its root).
DEB_PHOTOS = (
    *(
        ("texlive-latex-extra-doc", f"{TEXDOC}/latex/recipebook/images/{n}.jpg")
        for n in (
            "Pumpkin_pie_soup", "Hawaiian_burgers", "Italian_calzones",
            "Curried_butternut_squash_soup", "French_dip", "Curried_chicken_and_rice",
            "Grilled_chicken_with_capers",
        )
    ),
    ("texlive-latex-extra-doc", f"{TEXDOC}/lualatex/wallcalendar/doc/examples/photos/frog.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/bearwear/montblanc.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/papertex/example/img/ireland.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/copyrightbox/coin.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/beamertheme-trigon/library.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/ppt-slides/socrates.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/europecv/examples/Pythagoras.jpg"),
    ("texlive-latex-extra-doc", f"{TEXDOC}/latex/wrapfig2/stele-todi-small.jpg"),
    ("texlive-publishers-doc", f"{TEXDOC}/latex/uestcthesis/doc/pics/Chrysanthemum.jpg"),
    ("texlive-publishers-doc", f"{TEXDOC}/latex/uestcthesis/doc/pics/Penguins.jpg"),
    ("texlive-publishers-doc", f"{TEXDOC}/latex/uestcthesis/doc/pics/Tulips.jpg"),
    ("texlive-publishers-doc", f"{TEXDOC}/latex/kdgdocs/pi-orchid.jpg"),
    (
        "texlive-publishers-doc",
        f"{TEXDOC}/latex/hagenberg-thesis/examples/HgbArticle/images/cola-public-domain-photo-p.jpg",
    ),
    (
        "texlive-publishers-doc",
        f"{TEXDOC}/latex/hagenberg-thesis/examples/HgbThesisTutorial/images/ibm-360-color.jpg",
    ),
    ("texlive-publishers-doc", f"{TEXDOC}/latex/jacow/TeamMeeting2019.jpg"),
    ("texlive-publishers-doc", f"{TEXDOC}/latex/nwafuthesis/logo/building.jpg"),
    ("texlive-pictures-doc", f"{TEXDOC}/latex/hvfloat/sonne-meer.jpg"),
    ("texlive-pictures-doc", f"{TEXDOC}/latex/tikz-imagelabels/pleiades.jpg"),
)  # fmt: skip


# ------------------------------------------------------------------------------ descriptions


def photo_title(member: str) -> str:
    """A photo's title from its file name: 'images/Curried_chicken_and_rice.jpg' -> 'curried
    chicken and rice', 'TeamMeeting2019.jpg' -> 'team meeting 2019', 'sonne-meer.jpg' -> 'sonne
    meer', 'nokia/bird_burst.heic' -> 'bird burst'."""
    return file_title(Path(member).stem)


# ------------------------------------------------------------------------------ sources


def sdist_path(sdists: Path, name: str) -> Path:
    """The pinned source archive of `name`, checked against its sha256."""
    return fetched.pinned_sdist(sdists, SDISTS, name)


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them), check the archive's
    hash and unpack the Debian ones."""
    return fetched.fetch_pinned(cache, SDISTS, DEBS)


def _photo(source_name: str, data: bytes, title: str) -> Photo | None:
    """The photo in `data` with its words, or None when it is under the smallest size taken."""
    heif_available()  # HEIC test photos: register the opener before decoding
    load = fetched.decoded(data)
    if not is_big_enough(load().size):
        return None
    rel = f"pictures/{gallery_stem(title.replace(' ', '_'))}"
    return Photo(rel, heldout.words_of(title), source_name, PART, load)


def sdist_photos(sdists: Path) -> list[Photo | None]:
    out: list[Photo | None] = []
    for name, member in SDIST_PHOTOS:
        data = fetched.sdist_member(sdists, SDISTS, name, member)
        out.append(_photo(name, data, photo_title(member)))
    return out


def debian_photos(root: Path) -> list[Photo | None]:
    return [_photo(name, (root / path).read_bytes(), photo_title(path)) for name, path in DEB_PHOTOS]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    return fetched.own_files(debian_photos(cache / "root") + sdist_photos(cache / "sdists"), PART)


# ------------------------------------------------------------------------------ queries


SOUP = words("soup")
CHICKEN = words("chicken")
FOOD = words("soup", "burger", "calzone", "french dip", "chicken")
PENGUIN = words("penguin")
BIRD = words("bird", "penguin")
DOG = words("pug")
FROG = words("frog")
ANIMAL = either(BIRD, DOG, FROG)
TULIP = words("tulip")
FLOWER = words("chrysanthemum", "tulip", "orchid")
MOUNTAIN = words("montblanc")
SEA = words("meer")
PHILOSOPHER = words("socrates", "pythagoras")
PEOPLE = words("team meeting")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "penguins", "tulips", "chrysanthemum", "orchid", "frog", "pug", "pleiades", "ireland",
            "socrates", "pythagoras", "coin", "library", "building", "stele", "cola", "soup",
            "calzones", "french dip", "burgers", "pumpkin", "butternut squash", "capers", "rice",
        )
    ],
    ("team meeting", PEOPLE, "word"),
    ("ibm 360", words("ibm 360"), "word"),
    # synonyms and everyday variants
    ("penguin", PENGUIN, "synonym"),
    ("tulip", TULIP, "synonym"),
    ("calzone", words("calzone"), "synonym"),
    ("hamburger", words("burger"), "synonym"),
    ("curry", words("curried"), "synonym"),
    ("mont blanc", MOUNTAIN, "synonym"),
    ("sea", SEA, "synonym"),
    ("sun", words("sonne"), "synonym"),
    ("grilled chicken", both(words("grilled"), CHICKEN), "word"),
    # categories
    ("food", FOOD, "category"),
    ("chicken", CHICKEN, "category"),
    ("flowers", FLOWER, "category"),
    ("flower", FLOWER, "category"),
    ("animals", ANIMAL, "category"),
    ("animal", ANIMAL, "category"),
    ("bird", BIRD, "category"),
    ("birds", BIRD, "category"),
    ("dog", DOG, "category"),
    ("mountain", MOUNTAIN, "category"),
    ("computer", words("ibm 360"), "category"),
    ("group of people", PEOPLE, "category"),
    ("philosophers", PHILOSOPHER, "category"),
    ("greek philosopher", PHILOSOPHER, "category"),
    # either of two
    ("penguins or frogs", either(PENGUIN, FROG), "scene"),
    ("soup or calzone", either(SOUP, words("calzone")), "scene"),
    ("socrates or pythagoras", PHILOSOPHER, "scene"),
    ("mountain or sea", either(MOUNTAIN, SEA), "scene"),
    # negation
    ("flowers but not tulips", but_not(FLOWER, TULIP), "negation"),
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("birds but not penguins", but_not(BIRD, PENGUIN), "negation"),
    ("food but not soup", but_not(FOOD, SOUP), "negation"),
    ("food but not chicken", but_not(FOOD, CHICKEN), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "elephant", "giraffe", "guitar", "bicycle", "snowman", "horse", "cat", "waterfall",
        "lighthouse", "christmas tree", "fireworks", "butterfly", "umbrella", "tiger", "zebra",
        "piano", "sailboat", "volcano", "bridge", "kangaroo",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(
        dest, all_photos(cache), PART, QUERIES, ABSENT, "thirteenth_set", name="thirteenth"
    )


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "thirteenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
