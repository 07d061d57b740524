"""The real golden set: 297 real photos from installed packages and 150 queries as people type them.

Nothing is downloaded at run time; every photo comes from a package installed by the `dev` extra of
`installer/install.sh` or from a wheel:

* Debian `tuxpaint-stamps-default`: photographs of animals, food, plants, tools, instruments,
  vehicles, road signs (cut-outs; the cartoon folders are left out), each with an English
  description (`NAME.txt`, first line); flattened onto a light background.
* Debian `opencv-doc`: the sample photos (street signs with text, a footballer, buildings, fruit,
  a squirrel, a dog, a document page, ...).
* scikit-image `data`, scikit-learn sample images, matplotlib's `grace_hopper.jpg`.

Judgements come from the sources' own descriptions and names, never from a model: a query lists
the words that make a photo relevant (and the words that exclude it); the people queries name the
photos whose face the golden set's `people:` block names. The photos are written in
the formats a photo folder holds (JPEG mostly; PNG, WebP, TIFF, JPEG 2000, PPM, BMP, GIF), some
with EXIF dates. `python -m photosearch.evaluate.realset DIR` writes the gallery and
`DIR/golden.yaml`; `--write-golden` also refreshes `resources/eval/real.yaml` (the committed
judgements) from the rules below.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import numpy as np
import yaml
from PIL import Image

from photosearch.evaluate.photo_files import save_photo

REAL_GOLDEN = Path(__file__).resolve().parents[2] / "resources" / "eval" / "real.yaml"
STAMPS = Path("/usr/share/tuxpaint/stamps")
OPENCV = Path("/usr/share/doc/opencv-doc/examples")
BACKGROUND = (236, 234, 228)
MAX_SIDE = 640
#: Stamp folders used, with at most this many photos each (sorted by name, cartoon folders skipped).
STAMP_FOLDERS = {
    "animals/mammals": 65,
    "animals/birds": 30,
    "animals/fish": 8,
    "animals/insects": 9,
    "animals/marsupials": 3,
    "animals/amphibians": 2,
    "animals/lizards": 1,
    "animals/shellfish": 2,
    "food/fruit": 26,
    "food/vegetables": 18,
    "food/nuts": 3,
    "plants/flowers": 14,
    "plants/trees": 6,
    "plants/mushrooms": 3,
    "household/tools": 12,
    "household/dishes": 6,
    "household/arttools": 3,
    "hobbies/music": 11,
    "vehicles": 20,
    "sports": 10,
    "clothes/hats": 5,
    "town/roadsigns": 10,
}
#: Formats cycled over the photos (index % len): mostly JPEG, then every other format.
FORMATS = (
    "jpg",
    "jpg",
    "jpg",
    "png",
    "jpg",
    "jpg",
    "webp",
    "jpg",
    "tif",
    "jpg",
    "jp2",
    "jpg",
    "ppm",
    "bmp",
    "jpg",
    "gif",
)
#: Top folder -> EXIF date range (year, first month, last month) for "photos from 2021" queries.
DATES = {"animals": (2022, 1, 12), "food": (2021, 6, 8), "plants": (2023, 4, 6), "vehicles": (2020, 3, 3)}


@dataclass
class Photo:
    rel: str  # path in the gallery
    text: str  # what the source says the photo shows (lower case)
    folder: str  # source folder ("animals/mammals/dogs")
    make: Callable[[], Image.Image] = field(repr=False, default=None)  # type: ignore[assignment]
    taken: datetime | None = None


# ------------------------------------------------------------------------------ sources


def _stamp_image(png: Path) -> Image.Image:
    im = Image.open(png).convert("RGBA")
    scale = min(1.0, MAX_SIDE / max(im.size))
    if max(im.size) < 320:
        scale = 320 / max(im.size)
    if scale != 1.0:
        im = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
    pad = max(16, im.width // 10)
    bg = Image.new("RGBA", (im.width + 2 * pad, im.height + 2 * pad), BACKGROUND + (255,))
    bg.alpha_composite(im, (pad, pad))
    return bg.convert("RGB")


def _description(png: Path) -> str:
    txt = png.with_suffix(".txt")
    first = ""
    if txt.is_file():
        first = txt.read_text(encoding="utf-8", errors="replace").splitlines()[0:1]
        first = first[0] if first else ""
    return first


def stamp_photos(root: Path = STAMPS) -> list[Photo]:
    out: list[Photo] = []
    for folder, cap in STAMP_FOLDERS.items():
        pngs = sorted(
            p
            for p in (root / folder).rglob("*.png")
            if "cartoon" not in p.parts and "toys" not in p.parts and "_mirror" not in p.stem
        )
        for png in pngs[:cap]:
            sub = png.parent.relative_to(root).as_posix()
            name = re.sub(r"[^a-z0-9]+", "_", png.stem.lower()).strip("_")
            desc = _description(png)
            text = f"{desc} {png.stem.replace('_', ' ').replace('-', ' ')}".lower()
            out.append(Photo(f"{sub}/{name}", text, sub, make=lambda p=png: _stamp_image(p)))
    return out


def _file(path: Path) -> Callable[[], Image.Image]:
    def load() -> Image.Image:
        im = Image.open(path).convert("RGB")
        im.thumbnail((1024, 1024))
        return im

    return load


def _array(fn: Callable[[], np.ndarray]) -> Callable[[], Image.Image]:
    def load() -> Image.Image:
        a = np.asarray(fn())
        if a.ndim == 2:
            a = np.stack([a] * 3, axis=-1)
        return Image.fromarray(np.ascontiguousarray(a[..., :3]).astype(np.uint8))

    return load


#: (gallery path, source, what it shows)
OPENCV_PHOTOS = [
    (
        "street/notice_double_parking.jpg",
        "text/scenetext01.jpg",
        "street sign notice double parking prohibited at all times, a car, people, person",
    ),
    (
        "street/sports_centre_sign.jpg",
        "text/scenetext02.jpg",
        "road sign sports centre conference centre car parks",
    ),
    ("street/copy_centre.jpg", "text/scenetext03.jpg", "shop sign the copy centre, building, flowers"),
    ("street/generator_gm125.jpg", "text/scenetext04.jpg", "generator gm 125, palm trees, building"),
    ("street/no_parking_barrier.jpg", "text/scenetext05.jpg", "barrier no parking sign, street"),
    (
        "street/priory_galleries.jpg",
        "text/scenetext06.jpg",
        "pub priory galleries at the ship, building, red car",
    ),
    ("documents/book_page.png", "data/imageTextN.png", "document page of printed text"),
    ("documents/blurry_page.jpg", "data/text_defocus.jpg", "document page of printed text, blurry"),
    ("street/car_licence_plate.jpg", "data/licenseplate_motion.jpg", "car licence plate, blurry"),
    ("people/footballer.jpg", "data/messi5.jpg", "footballer soccer player man person ball stadium"),
    ("buildings/palace.jpg", "data/home.jpg", "palace building towers birds sky"),
    ("buildings/hotel.jpg", "data/building.jpg", "hotel building"),
    ("buildings/old_street.jpg", "data/leuvenA.jpg", "old brick houses street building"),
    ("buildings/aerial_city.jpg", "data/aero1.jpg", "aerial view of a city"),
    ("food/fruit/fruit_mix.jpg", "data/fruits.jpg", "fruit orange lemon lime kiwi"),
    ("food/fruit/orange_photo.jpg", "data/orange.jpg", "an orange fruit"),
    ("food/fruit/red_apple.jpg", "data/apple.jpg", "a red apple fruit"),
    ("animals/mammals/baboon.jpg", "data/baboon.jpg", "a mandrill baboon monkey"),
    ("animals/insects/swallowtail_butterfly.jpg", "data/butterfly.jpg", "a butterfly on a leaf"),
    ("animals/mammals/squirrel_branch.jpg", "data/squirrel_cls.jpg", "a squirrel on a branch"),
    ("animals/mammals/dogs/pekingese.png", "data/chicky_512.png", "a dog, pekingese puppy"),
    ("plants/aloe_pot.jpg", "data/aloeL.jpg", "an aloe plant in a pot"),
    ("food/sweets_smarties.png", "data/smarties.png", "sweets candy smarties"),
    ("people/ball_game.png", "data/basketball1.png", "two men people person playing with a ball"),
    ("household/desk_things.jpg", "data/stuff.jpg", "pencil lighter coin on a desk"),
]


def other_photos() -> list[Photo]:
    import matplotlib.cbook
    from skimage import data
    from sklearn.datasets import load_sample_images

    out = [
        Photo(rel, text, rel.rsplit("/", 1)[0], make=_file(OPENCV / src))
        for rel, src, text in OPENCV_PHOTOS
        if (OPENCV / src).is_file()
    ]
    china, flower = load_sample_images().images
    out += [
        Photo(
            "people/astronaut.jpg",
            "astronaut woman person in a space suit, flag",
            "people",
            _array(data.astronaut),
        ),
        Photo(
            "animals/mammals/cats/chelsea.jpg", "a tabby cat", "animals/mammals/cats", _array(data.chelsea)
        ),
        Photo("food/coffee.jpg", "a cup of coffee", "food", _array(data.coffee)),
        Photo("space/rocket.jpg", "a rocket on the launch pad", "space", _array(data.rocket)),
        Photo("people/cameraman.png", "a man person with a camera", "people", _array(data.camera)),
        Photo(
            "vehicles/motorcycle.jpg", "a motorcycle", "vehicles", _array(lambda: data.stereo_motorcycle()[0])
        ),
        Photo("documents/page_scan.png", "document page of printed text", "documents", _array(data.page)),
        Photo(
            "buildings/chinese_temple.jpg", "a chinese temple building", "buildings", _array(lambda: china)
        ),
        Photo("plants/flowers/dahlia.jpg", "a flower", "plants/flowers", _array(lambda: flower)),
    ]
    with matplotlib.cbook.get_sample_data("grace_hopper.jpg") as fh:
        hopper = np.asarray(Image.open(fh).convert("RGB"))
    out.append(
        Photo(
            "people/grace_hopper.jpg",
            "grace hopper woman person in navy uniform",
            "people",
            _array(lambda: hopper),
        )
    )
    return out


def all_photos() -> list[Photo]:
    """Every photo, with its format and date assigned (deterministic)."""
    photos = stamp_photos() + other_photos()
    seen: set[str] = set()
    out = []
    for i, p in enumerate(photos):
        stem = p.rel.rsplit(".", 1)[0] if "." in p.rel.rsplit("/", 1)[-1] else p.rel
        ext = p.rel.rsplit(".", 1)[-1] if "." in p.rel.rsplit("/", 1)[-1] else FORMATS[i % len(FORMATS)]
        rel = f"{stem}.{ext}"
        while rel in seen:
            stem += "_2"
            rel = f"{stem}.{ext}"
        seen.add(rel)
        top = p.folder.split("/")[0]
        taken = None
        if top in DATES and ext in ("jpg", "tif", "webp"):
            year, m0, m1 = DATES[top]
            taken = datetime(year, m0 + i % (m1 - m0 + 1), 1 + i % 27, 10 + i % 8, 0)
        out.append(Photo(rel, p.text, p.folder, p.make, taken))
    return out


def write_gallery(dest: Path, photos: list[Photo] | None = None) -> list[Photo]:
    photos = photos if photos is not None else all_photos()
    for p in photos:
        path = dest / p.rel
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        save_photo(path, p.make(), p.taken)
    return photos


# ------------------------------------------------------------------------------ queries


def words(*ws: str) -> Callable[[Photo], bool]:
    pat = re.compile(r"\b(" + "|".join(re.escape(w) for w in ws) + r")s?\b")
    return lambda p: bool(pat.search(p.text))


def folder(*prefixes: str) -> Callable[[Photo], bool]:
    return lambda p: any(p.folder == f or p.folder.startswith(f + "/") for f in prefixes)


def both(a, b):
    return lambda p: a(p) and b(p)


def but_not(a, b):
    return lambda p: a(p) and not b(p)


def dated(year: int, months: tuple[int, ...] | None = None):
    return lambda p: (
        p.taken is not None and p.taken.year == year and (months is None or p.taken.month in months)
    )


#: People named in the gallery (the golden set's `people:` block): the eval runner names each photo's
#: one face so that queries with the name can be judged.
PEOPLE = {"people/grace_hopper.jpg": "Grace Hopper", "people/astronaut.jpg": "Eileen Collins"}


def person(name: str) -> Callable[[Photo], bool]:
    return lambda p: PEOPLE.get(p.rel) == name


ANIMAL = folder("animals")
BIRD = folder("animals/birds")
FRUIT = folder("food/fruit")
VEG = folder("food/vegetables")
FLOWER = folder("plants/flowers")
VEHICLE = folder("vehicles")
TOOL = folder("household/tools")
MUSIC = folder("hobbies/music")

#: (request, relevance rule, kind) — written the way people type.
QUERIES: list[tuple[str, Callable[[Photo], bool], str]] = [
    # single everyday words
    ("goat", words("goat", "mountaingoat"), "word"),
    ("hat", lambda p: words("hat")(p) or folder("clothes/hats")(p), "word"),
    ("mushroom", lambda p: words("mushroom")(p) or folder("plants/mushrooms")(p), "word"),  # ceps too
    *[
        (w, words(w), "word")
        for w in (
            "dog",
            "cat",
            "horse",
            "cow",
            "sheep",
            "pig",
            "elephant",
            "lion",
            "bear",
            "deer",
            "camel",
            "rabbit",
            "squirrel",
            "mouse",
            "gorilla",
            "zebra",
            "giraffe",
            "owl",
            "parrot",
            "duck",
            "eagle",
            "penguin",
            "swan",
            "butterfly",
            "bee",
            "frog",
            "kangaroo",
            "apple",
            "orange",
            "lemon",
            "banana",
            "strawberry",
            "cherry",
            "grape",
            "pear",
            "pineapple",
            "watermelon",
            "carrot",
            "tomato",
            "potato",
            "pepper",
            "onion",
            "hammer",
            "saw",
            "screwdriver",
            "wrench",
            "guitar",
            "violin",
            "drum",
            "trumpet",
            "piano",
            "truck",
            "bus",
            "tractor",
            "airplane",
            "bicycle",
            "boat",
            "helicopter",
            "ball",
            "coffee",
            "rocket",
            "astronaut",
            "motorcycle",
            "footballer",
            "sign",
            "temple",
            "palm",
            "tree",
            "cup",
            "glass",
        )
    ],
    # synonyms and everyday variants
    ("kitty", words("cat"), "synonym"),
    ("puppy", words("dog", "puppy"), "synonym"),
    ("doggy", words("dog"), "synonym"),
    ("automobile", words("car", "beetle"), "synonym"),
    ("lorry", words("truck"), "synonym"),
    ("aeroplane", words("airplane", "plane", "747"), "synonym"),
    ("plane", words("airplane", "plane", "747"), "synonym"),
    ("bike", words("bicycle", "bike", "motorcycle"), "synonym"),
    ("bunny", words("rabbit", "bunny"), "synonym"),
    ("pony", words("horse", "pony"), "synonym"),
    ("kitten", words("cat"), "synonym"),
    ("hog", words("pig", "hog", "boar"), "synonym"),
    ("ape", words("gorilla", "chimpanzee", "ape", "orangutan", "baboon"), "synonym"),
    ("monkey", words("monkey", "baboon"), "synonym"),
    ("soccer", words("soccer", "footballer"), "synonym"),
    ("espresso", words("coffee"), "synonym"),
    ("blossom", FLOWER, "synonym"),
    ("spacecraft", words("rocket"), "synonym"),
    ("fiddle", words("violin", "fiddle"), "synonym"),
    ("lady", words("woman"), "synonym"),
    ("cellphone", words("phone"), "synonym"),
    # categories (hypernyms)
    ("animal", ANIMAL, "category"),
    ("animals", ANIMAL, "category"),
    ("bird", BIRD, "category"),
    ("birds", BIRD, "category"),
    ("fruit", FRUIT, "category"),
    ("vegetables", VEG, "category"),
    ("flowers", FLOWER, "category"),
    ("vehicle", VEHICLE, "category"),
    ("tools", TOOL, "category"),
    ("musical instrument", MUSIC, "category"),
    ("fish", folder("animals/fish"), "category"),
    ("insect", folder("animals/insects"), "category"),
    ("mammal", folder("animals/mammals", "animals/marsupials"), "category"),
    (
        "rodent",
        words("mouse", "rat", "squirrel", "beaver", "capybara", "marmot", "hamster", "guinea pig", "rabbit"),
        "category",
    ),
    ("big cat", words("lion", "tiger", "leopard", "cheetah", "jaguar", "panther"), "category"),
    ("citrus", words("orange", "lemon", "lime", "mandarin", "grapefruit", "clementine"), "category"),
    (
        "berries",
        words("strawberry", "raspberry", "blueberry", "blackberry", "cherry", "grape", "cranberry"),
        "category",
    ),
    ("people", words("person"), "category"),
    ("person", words("person"), "category"),
    ("building", words("building", "temple", "palace", "hotel", "house"), "category"),
    ("document", folder("documents"), "category"),
    ("food", folder("food"), "category"),
    ("plant", folder("plants"), "category"),
    ("livestock", words("cow", "sheep", "goat", "pig", "bull", "ram", "lamb", "horse"), "category"),
    ("poultry", words("chicken", "hen", "rooster", "duck", "turkey", "goose"), "category"),
    # two concepts / attributes
    ("green apple", both(words("apple"), words("green")), "two"),
    ("red apple", both(words("apple"), words("red")), "two"),
    ("police car", both(words("police"), words("car", "sedan")), "two"),
    ("garbage truck", words("garbage"), "two"),
    ("sea lion", words("sea lion"), "two"),
    ("baby sheep", words("lamb"), "two"),
    ("tennis ball", words("tennis ball"), "two"),
    ("pink tricycle", words("tricycle"), "two"),
    ("woman in uniform", words("uniform"), "two"),
    ("man with a camera", words("camera"), "two"),
    ("dog and ball", words("dog"), "two"),
    ("car on the street", both(words("car", "sedan"), folder("street")), "two"),
    ("cat on a sofa", words("cat"), "two"),
    ("player with a ball", words("footballer", "playing"), "two"),
    ("bird in a tree", BIRD, "two"),
    ("a woman astronaut", words("astronaut"), "two"),
    ("fruit and vegetables", folder("food/fruit", "food/vegetables"), "two"),
    # negation
    ("fruit but not apples", but_not(FRUIT, words("apple")), "negation"),
    ("animals not dogs", but_not(ANIMAL, words("dog", "puppy")), "negation"),
    ("vehicles without trucks", but_not(VEHICLE, words("truck")), "negation"),
    ("birds but no ducks", but_not(BIRD, words("duck")), "negation"),
    ("vegetables, not tomatoes", but_not(VEG, words("tomato")), "negation"),
    ("tools but not hammers", but_not(TOOL, words("hammer")), "negation"),
    (
        "mammals except cats",
        but_not(folder("animals/mammals"), words("cat", "lion", "tiger", "leopard")),
        "negation",
    ),
    # words in the photo
    ('"no parking"', words("no parking"), "text"),
    ("parking", words("parking"), "text"),
    ("copy centre", words("copy centre"), "text"),
    ("conference centre", words("conference centre"), "text"),
    ("sign that says galleries", words("galleries"), "text"),
    ('"GM 125"', words("gm 125"), "text"),
    ("stop sign", words("stop"), "text"),
    ("notice", words("notice"), "text"),
    ("printed text", folder("documents"), "text"),
    # dates
    ("animals from 2022", both(ANIMAL, dated(2022)), "date"),
    ("fruit in 2021", both(FRUIT, dated(2021)), "date"),
    ("flowers in spring 2023", both(FLOWER, dated(2023, (3, 4, 5))), "date"),
    ("vehicles 2020", both(VEHICLE, dated(2020)), "date"),
    ("photos from june 2021", dated(2021, (6,)), "date"),
    ("birds in 2022", both(BIRD, dated(2022)), "date"),
    # people, by the names the gallery's faces were given
    ("Grace Hopper", person("Grace Hopper"), "people"),
    ("photos of grace hopper", person("Grace Hopper"), "people"),
    ("Eileen Collins", person("Eileen Collins"), "people"),
]


#: Requests for things no photo shows (checked against every description: one a source mentions is
#: left out). Search should answer them with closest matches only (`absent_fp_rate`).
ABSENT: list[tuple[str, Callable[[Photo], bool]]] = [
    ("octopus", words("octopus")),
    ("walrus", words("walrus")),
    ("snowman", words("snowman")),
    ("laptop", words("laptop", "computer")),
    ("skateboard", words("skateboard")),
    ("surfboard", words("surfboard")),
    ("birthday cake", words("cake")),
    ("sushi", words("sushi")),
    ("fireworks", words("firework")),
    ("wedding dress", words("wedding", "dress")),
    ("christmas tree", words("christmas")),
    ("jellyfish", words("jellyfish")),
    ("shark", words("shark")),
    ("crocodile", words("crocodile", "alligator")),
    ("castle", words("castle")),
    ("pyramid", words("pyramid")),
    ("windmill", words("windmill")),
    ("tent", words("tent")),
]


def golden(photos: list[Photo]) -> dict:
    queries = []
    for request, rule, kind in QUERIES:
        rel = sorted(p.rel for p in photos if rule(p))
        if rel:
            queries.append({"id": request, "request": request, "relevant": rel, "notes": kind})
    for request, rule in ABSENT:
        if not any(rule(p) for p in photos):
            queries.append(
                {
                    "id": f"absent: {request}",
                    "request": request,
                    "relevant": [],
                    "absent": True,
                    "notes": "absent",
                }
            )
    rels = {p.rel for p in photos}
    people = {rel: name for rel, name in PEOPLE.items() if rel in rels}
    return {"name": "real", "gallery": ".", "k": [1, 3, 5, 10], "people": people, "queries": queries}


def golden_yaml(gold: dict) -> str:
    """The golden set file's text, as committed in `resources/eval/real.yaml`."""
    return (
        "# Generated by `python -m photosearch.evaluate.realset DIR --write-golden` from the sources'\n"
        "# descriptions (see photosearch/evaluate/realset.py); do not edit by hand.\n"
        + yaml.safe_dump(gold, sort_keys=False, allow_unicode=True, width=120)
    )


def write(dest: Path, write_golden: bool = False) -> dict:
    photos = write_gallery(dest)
    gold = golden(photos)
    text = golden_yaml(gold)
    (dest / "golden.yaml").write_text(text, encoding="utf-8")
    if write_golden:
        REAL_GOLDEN.write_text(text, encoding="utf-8")
    return {"photos": len(photos), "queries": len(gold["queries"])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory", type=Path)
    ap.add_argument("--write-golden", action="store_true", help="also refresh resources/eval/real.yaml")
    args = ap.parse_args(argv)
    if not STAMPS.is_dir() or not OPENCV.is_dir():
        print("install the photo sources first: apt-get install tuxpaint-stamps-default opencv-doc")
        return 2
    print(write(args.directory, args.write_golden))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
