"""The fourteenth set: a test part from packages no other set, and no tuning, has read. Score it once.

The thirteenth set (`thirteenth_set.py`) is spent like the sets before it. This set is built the
same way from other packages, fetched pinned and never installed, and its judgements come from what
each package says about its photos, never from a model. The npm tarball is checked against the
registry's `dist.integrity` (sha512), the Debian packages by apt against the archive's signed
hashes:

* `plasma-workspace-data` (Debian): the photos KDE Plasma offers as account pictures
  (`plasma/avatars/photos`), named by their files (Cat, Owl, Sushi, Air Balloon) and by the
  Pexels page each one's `.license` file credits, whose address is the photo's title there
  ("https://www.pexels.com/photo/brown-tabby-cat-on-floor-1457595/" -> "brown tabby cat on
  floor"). Most of the set: animals, food and everyday things.
* `texlive-lang-arabic` (Debian): `bidi`'s `gull`, which its example captions "A gull" beside a
  text on gulls, "birds in the family Laridae".
* `texlive-lang-english` (Debian): `latex-for-undergraduates`' `M33_figure` (captioned "M33") and
  `latex-course`'s `campus3`.
* `texlive-lang-other` (Debian): `latex-mr`'s `Leslie_Lamport`, a photo of the person it names.
* `texlive-science-doc` (Debian): `fascicules`' chapter background `vieuxlivres` (French: vieux
  livres, old books).
* `texlive-xetex` (Debian): `cqubeamer`'s `CQU_Campus_D` (a campus of Chongqing University).
* `context` (Debian): the `details` manual's `mill` and the `nodes` manual's cover
  `nodes-sun-pia-03149` (the sun, NASA's PIA03149).
* `afterstep-data`, `libmlv3-dev`, `librust-rust-embed-dev` (Debian): example photos named by
  their files (rose512; flower; flower).
* `exif-parser` 0.1.12 (npm): its test photo `starfish`, which the tenth set found after its
  requests were written and left for a later set.

Left out before any request was written, by these rules: drawings, renders, logos and scans
(`texlive-plain-generic`'s `present/Stern`, a render; `latex-course`'s `Ross-Siegel`, a seal;
`context`'s `hacker` and `visualtikz`' `tiger`, drawings; `optex`'s demo `op-ring`, a render;
`pmhanguljamo`'s `munjangganghwa`, a scanned page; the PyPI `blurhash`'s `cool_cat`, a drawing); a
handwritten word (`latex-for-undergraduates`' `whiteboard`); names that say nothing of what a photo
shows or that would misjudge it (`tlc3-examples`' `longlife`, named for the words written in it;
`lecturer`'s `universe`; `matapli`'s `portrait`, a word for a kind of picture, not its subject;
`fascicules`' `ch2`, `ch3` and `chapitre`); a second photo under the same words (`context`'s
`nodes-sun-pia-03150`, the other cover of the same manual, and its `sample/common/mill`, the same
file again; `libafterimage-dev`'s `rose512`, afterstep's again); a country's name only
(`xepersian`'s `ireland`: what its photo shows, the word does not say); `matapli`'s `corona` (a word
for several things), `couverture` (a cover) and `CIMPA` (a name); `exif-parser`'s `test` and
`featpost`'s `pifpafphoto`, `cqubeamer`'s `go` and `context`'s `luatex-co-acceptablelowres` (names
that say nothing); maps and textures (`pysatellites`' `moon`, a map of the moon; `chinesechess`'
`bg01`/`bg02`); photos under 250 px on their short side (`ctable`'s `lion` and `penguin`,
`xepersian`'s `clouds` and `rain`); a file that does not decode (`golang-go4-dev`'s `park.heic`, a
truncated HEIF test file). Not used at all, after looking at their names or sizes:
`texlive-latex-recommended-doc` (but `ctable`'s), `texlive-latex-base-doc`,
`texlive-humanities-doc`, `texlive-fonts-recommended-doc` (no photo files: their documentation is
PDF), `texlive-metapost-doc` (drawings, plots, book covers, a map), `texlive-fonts-extra-doc`
(manuscript scans), `texlive-games` (cards, boards, textures), `texlive-pstricks-doc`,
`texlive-luatex`, `texlive-bibtex-extra`, `texlive-formats-extra`, `texlive-music`,
`texlive-lang-french`, `-german`, `-chinese`, `-japanese`, `-korean`, `-cyrillic`, `-czechslovak`,
`-european`, `-italian`, `-polish`, `-portuguese`, `-spanish`, `-greek` and the rest of `-arabic`
(screenshots, logos, book covers, music, numbered files such as `alpha-persian`'s `sh*` and
`sexam`'s, camera numbers such as `dscf4684`, a first name such as `menno-a`), `libvisp-doc`
(screenshots; robots and boards named by product, as the thirteenth set's `freedombox-doc-en`),
`golang-github-disintegration-gift-dev` (`src`), `golang-github-marekm4-color-extractor-dev` (a
stock number), `propaganda-debian` (wallpapers titled for a joke), `xplanet-images` (maps),
`gimp-data` (a cartoon, textures), `qiv` (`intro`), `shotwell-common` (`crop_thirds`, named for a
rule), `darktable` (`image-1`), and from PyPI `smartcrop` (`business-work-1`, `nature-1`,
`travel-1`: kinds of stock photo, not what they show), `pylette` (a screenshot, a logo), `img2pdf`
(named by a colour space), `colorthief`, `imutils`, `Willow`, `easy-thumbnails`, `fpdf2`,
`django-versatileimagefield`, `python-resize-image`, `pillow-avif-plugin`, `extcolors` (no photo in
their source archives), `torchvision` (no source archive on the index); from npm `color-thief`
(`photo1`..`photo3`: numbers), `lwip` (a retired test portrait, test names), `slick-carousel`,
`swiper`, `cropperjs`, `openseadragon`, `blurhash`, `heic-decode`, `heic-convert`, `libheif-js`,
`image-size`, `resemblejs`, `looks-same`, `pixelmatch`, `exif-reader`, `jpeg-autorotate`,
`lazysizes`, `lozad`, `vanilla-lazyload`, `masonry-layout`, `isotope-layout`, `packery`,
`photo-sphere-viewer`, `react-image-gallery`, `react-images`, `react-photo-gallery`, `node-vibrant`,
`gm`, `exiftool-vendored` (no photo in the package). Photos were opened only to see that they are
photos, not drawings, renders, scans or maps, and at least 250 px on their short side.

How words become judgements: a photo is relevant to a request when its source's words say so, read
plainly. A Plasma photo's words are its file name and its Pexels title: an owl and a parrot ("bird
on tree") are birds, and so is the gull; a cat, a dog, a fish, a chameleon ("animal green reptile")
and a starfish are animals, the starfish not a fish; a chameleon is a lizard and a reptile; a
sunflower, a rose and the two flowers are flowers; sushi (maki) and pancakes are food, the cocktail
a drink; the air balloon is a hot air balloon, the shuttle ("flight sky earth space") the space
shuttle, the car ("auto racing automobile") a car, the soccer photo a soccer ball, the gamepad a
game controller, the bulb a light bulb, the brushes (the title says art) paintbrushes, the pencils
coloured pencils. M33 is the Triangulum galaxy, a galaxy; the `nodes` cover is the sun; vieux livres
are books, beside Plasma's books; the two campuses are campuses; the mill is asked as a mill only.
No colour is asked, though the Pexels titles give some (a brown tabby cat, an orange and white
fish): they are a stock site's tags, and no request needs them. Things a title names around its
subject (sky, clouds, grass, a tree, a floor, a bench, the cocktail's "sea sky beach holiday") are
not asked, and no negation asks to leave out a thing the words would not mention. Leslie Lamport is
a person, asked by name and as a person; so is the astronaut, asked as an astronaut and as a person;
no gender, age or clothing is asked. No places or dates are asked: the photos have no GPS, caption
or date, as in the earlier sets. Should a pinned package change or vanish, `fetch` fails rather than
build another set.

    python -m photosearch.evaluate.fourteenth_set DIR    # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import file_title
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: npm package -> (exact version, the registry's `dist.integrity` for its tarball).
NPM = {
    "exif-parser": (
        "0.1.12",
        "sha512-c2bQfLNbMzLPmzQuOr8fy0csy84WmwnER81W88DzTp9CYNPJ6yzOj2EZAh9pywYpqHnshVLHQJ8WzldAyfY+Iw==",
    ),
}
DEBS = {
    "plasma-workspace-data": "4:5.27.5-2+deb12u2",
    "texlive-lang-arabic": "2022.20230122-1",
    "texlive-lang-english": "2022.20230122-1",
    "texlive-lang-other": "2022.20230122-1",
    "texlive-science-doc": "2022.20230122-4",
    "texlive-xetex": "2022.20230122-3",
    "context": "2021.03.05.20230120+dfsg-1+deb12u1",
    "afterstep-data": "2.2.12-15",
    "libmlv3-dev": "3.1.0-8",
    "librust-rust-embed-dev": "6.4.2-1",
}
#: Plasma's account photos, each with its `.license` file beside it.
PLASMA = "usr/share/plasma/avatars/photos"
PLASMA_PHOTOS = (
    "Air Balloon", "Astronaut", "Books", "Brushes", "Bulb", "Car", "Cat", "Chameleon", "Cocktail",
    "Dog", "Fish", "Gamepad", "Owl", "Pancakes", "Parrot", "Pencils", "Shuttle", "Soccer",
    "Sunflower", "Sushi",
)  # fmt: skip
TEXDOC = "usr/share/doc/texlive-doc"
CONTEXT = "usr/share/texmf/doc/context/sources/general/manuals"
#: Photos named by their files: (Debian package, path under its root).
DEB_PHOTOS = (
    ("texlive-lang-arabic", f"{TEXDOC}/xelatex/bidi/gull.jpg"),
    ("texlive-lang-english", f"{TEXDOC}/latex/latex-for-undergraduates/images/M33_figure.jpeg"),
    ("texlive-lang-english", f"{TEXDOC}/latex/latex-course/Graphics/campus3.png"),
    ("texlive-lang-other", f"{TEXDOC}/latex/latex-mr/Leslie_Lamport.jpg"),
    ("texlive-science-doc", f"{TEXDOC}/latex/fascicules/guide/content/img/vieuxlivres.jpg"),
    ("texlive-xetex", f"{TEXDOC}/xelatex/cqubeamer/figure/CQU_Campus_D.jpg"),
    ("context", f"{CONTEXT}/details/mill.png"),
    ("context", f"{CONTEXT}/nodes/nodes-sun-pia-03149.jpg"),
    ("afterstep-data", "usr/share/afterstep/desktop/tiles/rose512.jpg"),
    ("libmlv3-dev", "usr/share/doc/libmlv3-dev/doc/mlv/examples/advanced/flower.jpg"),
    (
        "librust-rust-embed-dev",
        "usr/share/cargo/registry/rust-embed-6.4.2/examples/public/images/flower.jpg",
    ),
)  # fmt: skip
#: Photos of npm packages named by their files: (package, path in its tarball).
NPM_PHOTOS = (("exif-parser", "test/starfish.jpg"),)
#: A file name that is words run together, in the words its package's language gives it.
SPLIT = {"vieuxlivres": "vieux livres"}


# ------------------------------------------------------------------------------ descriptions


def photo_title(member: str) -> str:
    """A photo's title from its file name: 'img/vieuxlivres.jpg' -> 'vieux livres',
    'nodes/nodes-sun-pia-03149.jpg' -> 'nodes sun pia 03149', 'CQU_Campus_D.jpg' -> 'cqu campus d'."""
    stem = Path(member).stem
    return SPLIT.get(stem) or file_title(stem)


def pexels_title(license_text: str) -> str:
    """The title of the Pexels page a `.license` file credits, from its address:
    '# https://www.pexels.com/photo/brown-tabby-cat-on-floor-1457595/' -> 'brown tabby cat on floor'."""
    page = re.search(r"pexels\.com/photo/([a-z0-9-]+?)(?:-\d+)?/", license_text)
    if page is None:
        raise ValueError("the license file credits no Pexels photo")
    return heldout.words_of(page.group(1).replace("-", " "))


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_npm(NPM, cache / "npm", cache / "root")
    fetched.download_debs(DEBS, cache / "debs", cache / "root" / "debian")
    return cache


def plasma_photos(debian: Path) -> list[Photo | None]:
    """Plasma's account photos: each file's name and the title of the Pexels photo it credits."""
    out: list[Photo | None] = []
    for name in PLASMA_PHOTOS:
        path = debian / PLASMA / f"{name}.png"
        credit = (debian / PLASMA / f"{name}.png.license").read_text(encoding="utf-8")
        out.append(fetched.file_photo("plasma-workspace-data", path, f"{name} {pexels_title(credit)}", name))
    return out


def debian_photos(debian: Path) -> list[Photo | None]:
    return [
        fetched.file_photo(name, debian / path, photo_title(path), photo_title(path).replace(" ", "_"))
        for name, path in DEB_PHOTOS
    ]


def npm_photos(root: Path) -> list[Photo | None]:
    return [
        fetched.file_photo(name, root / name / member, photo_title(member), photo_title(member))
        for name, member in NPM_PHOTOS
    ]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    debian = cache / "root" / "debian"
    photos = plasma_photos(debian) + debian_photos(debian) + npm_photos(cache / "root")
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


CAT = words("cat")
DOG = words("dog")
OWL = words("owl")
BIRD = words("bird", "owl", "parrot", "gull")
ANIMAL = either(BIRD, CAT, DOG, words("fish", "chameleon", "starfish"))
SUNFLOWER = words("sunflower")
FLOWER = words("flower", "sunflower", "rose")
SUSHI = words("sushi", "maki")
FOOD = either(SUSHI, words("pancake"))
BOOKS = words("books", "livres")
ASTRONAUT = words("astronaut")
PERSON = either(ASTRONAUT, words("leslie lamport"))
SHUTTLE = words("shuttle")
GALAXY = words("m 33")
SUN = words("sun")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "cat", "dog", "fish", "owl", "parrot", "chameleon", "gull", "starfish", "sunflower",
            "rose", "sushi", "pancakes", "cocktail", "astronaut", "brushes", "pencils", "gamepad",
            "car", "mill", "campus", "light bulb", "hot air balloon", "soccer ball",
        )
    ],
    ("books", BOOKS, "word"),
    ("leslie lamport", words("leslie lamport"), "word"),
    ("lamport", words("lamport"), "word"),
    ("sun", SUN, "word"),
    ("m33", GALAXY, "word"),
    ("space shuttle", SHUTTLE, "word"),
    # synonyms and everyday variants
    ("seagull", words("gull"), "synonym"),
    ("sea star", words("starfish"), "synonym"),
    ("lizard", words("chameleon"), "synonym"),
    ("reptile", words("reptile"), "synonym"),
    ("maki", words("maki"), "synonym"),
    ("automobile", words("car"), "synonym"),
    ("balloon", words("balloon"), "synonym"),
    ("game controller", words("gamepad"), "synonym"),
    ("paintbrushes", words("brush"), "synonym"),
    ("colored pencils", words("colored pencil"), "synonym"),
    ("tabby cat", both(CAT, words("tabby")), "word"),
    ("drink", words("cocktail"), "synonym"),
    ("galaxy", GALAXY, "category"),
    # categories
    ("animals", ANIMAL, "category"),
    ("animal", ANIMAL, "category"),
    ("birds", BIRD, "category"),
    ("bird", BIRD, "category"),
    ("flowers", FLOWER, "category"),
    ("flower", FLOWER, "category"),
    ("food", FOOD, "category"),
    ("person", PERSON, "category"),
    # either of two
    ("cat or dog", either(CAT, DOG), "scene"),
    ("owl or parrot", words("owl", "parrot"), "scene"),
    ("sushi or pancakes", FOOD, "scene"),
    ("astronaut or space shuttle", either(ASTRONAUT, SHUTTLE), "scene"),
    ("galaxy or sun", either(GALAXY, SUN), "scene"),
    ("books or pencils", either(BOOKS, words("pencil")), "scene"),
    # negation
    ("birds but not owls", but_not(BIRD, OWL), "negation"),
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("animals but not cats", but_not(ANIMAL, CAT), "negation"),
    ("flowers but not sunflowers", but_not(FLOWER, SUNFLOWER), "negation"),
    ("food but not sushi", but_not(FOOD, SUSHI), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "elephant", "zebra", "kangaroo", "tiger", "horse", "penguin", "violin", "guitar",
        "piano", "snowboard", "snowman", "bicycle", "pizza", "lighthouse", "volcano", "waterfall",
        "fireworks", "helicopter", "tractor",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(
        dest, all_photos(cache), PART, QUERIES, ABSENT, "fourteenth_set", name="fourteenth"
    )


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "fourteenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
