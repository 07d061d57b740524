"""The fourth set: a test part from packages no other set, and no tuning, has read. Score it once.

The fresh set (`fresh_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model:

* Debian `scratch` (Scratch 1.4): the photos of its background library, each named by its file
  (beach-malibu, train-tracks1, kitchen) in a folder that says its kind (Indoors, Nature,
  Outdoors, Sports). Most of the set: everyday places and scenes.
* Debian `gimp-help-en`: example photos named by their files (taj_orig, 2zinnias,
  apple-orchard-truck-from-camera, power-lines).
* Debian `cimg-examples`: CImg's example photo `parrot.ppm`.
* PyPI `pillow` and `realesrgan` (source archives): test and demo photos named by their files
  (flower, children-alpha, tree_alpha_16bit).
* PyPI `imgaug` (wheel): its `quokka.jpg`. PyPI `scipy` (wheel): `scipy.misc.face`'s photo,
  described by that function's docstring ("a raccoon face").

Left out before any model saw a photo: Scratch's drawn backgrounds (its GIFs and PNGs, and the
JPEGs `NOT_PHOTOS` names: rooms, stage, school, a flat brick texture, a wall-filling graffiti),
its costumes (cut-outs under 300 px, many drawn), GIMP's photos whose names say nothing they show
(quickie-*-source), a Norwegian-named flower (kvitveis) and a side-by-side pair; Hugin's help
photos (a "Big Ben" that shows a church, panoramas with captions in the picture), a painting
(Inkscape's oldguitar) and the other candidates an earlier search rejected. Only requests the
sources' words decide are asked: no dates (no source gives one), no "outdoors" (most photos
outside Scratch are outdoors without saying so), and no places the photos carry no data for
(Malibu, Berkeley, MIT, Route 66: names in the files, not things in the photos; the photos have no
GPS and no caption), as in the fresh set.

    python -m photosearch.evaluate.fourth_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT   # once, after all tuning
"""

from __future__ import annotations

import bz2
import re
import tarfile
import zipfile
from pathlib import Path

from PIL import Image

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.heldout import FORMATS, Photo, Rule, but_not, either, words

PART = "test"
DEBS = {
    "scratch": "1.4.0.6~dfsg1-6.1",
    "gimp-help-en": "2.10.34-2",
    "cimg-examples": "3.2.1+dfsg-1",
}
SDISTS = {"pillow": "13.0.0", "realesrgan": "0.3.0"}
WHEELS = {"imgaug": "0.4.0", "scipy": "1.9.3"}
BACKGROUNDS = "usr/share/scratch/Media/Backgrounds"
#: Scratch background JPEGs that are drawings or textures, not photos.
NOT_PHOTOS = frozenset(
    {
        "party-room",
        "room1",
        "room2",
        "room3",
        "spotlight-stage",
        "woods-and-bench",
        "school2",
        "brick-wall1",
        "graffiti",
    }
)
#: Photos in the Debian packages, named by their files.
DEB_PHOTOS = {
    "gimp-help-en": (
        "usr/share/gimp/2.0/help/en/images/filters/examples/taj_orig.jpg",
        "usr/share/gimp/2.0/help/en/images/filters/examples/2zinnias.png",
        "usr/share/gimp/2.0/help/en/images/tutorials/tone-mapping/apple-orchard-truck-from-camera.jpg",
        "usr/share/gimp/2.0/help/en/images/tutorials/tone-mapping/power-lines.jpg",
    ),
    "cimg-examples": ("usr/share/doc/cimg-dev/examples/img/parrot.ppm",),
}
#: Photos in the PyPI source archives (under their top folder) and wheels, named by their files.
SDIST_PHOTOS = {
    "pillow": ("Tests/images/flower.jpg", "Tests/images/flower2.jpg"),
    "realesrgan": ("inputs/children-alpha.png", "inputs/tree_alpha_16bit.png"),
}
WHEEL_PHOTOS = {"imgaug": ("imgaug/quokka.jpg",)}
#: scipy's raccoon: the raw pixels and the module whose `face` docstring says what they show.
FACE_DATA, FACE_DOC, FACE_SIZE = "scipy/misc/face.dat", "scipy/misc/_common.py", (1024, 768)
FOLDERS = {"scratch": "backgrounds", "other": "downloads"}


# ------------------------------------------------------------------------------ descriptions


def name_words(stem: str) -> str:
    """A file name's words: '2zinnias' -> '2 zinnias', 'flower2' -> 'flower 2', 'taj_orig' -> 'taj orig'."""
    return heldout.words_of(re.sub(r"(?<=\d)(?=[a-z])|(?<=[a-z])(?=\d)|[_\-]+", " ", stem.lower()))


def background_words(category: str, stem: str) -> str:
    """A Scratch background's words: its folder and its name ('Outdoors', 'train-tracks1')."""
    return heldout.words_of(category, heldout.split_name(stem))


def is_background_photo(path: Path) -> bool:
    """A Scratch background that is a photo: a JPEG not named in `NOT_PHOTOS`."""
    return path.suffix.lower() == ".jpg" and path.stem not in NOT_PHOTOS


def docstring_subject(source: str, function: str) -> str:
    """What a function's docstring says its image shows: 'Get a ... image of a raccoon face.' ->
    'raccoon face'."""
    m = re.search(rf'def {function}\(.*?"""(.*?)"""', source, re.S)
    said = re.search(r"image of an? ([^.]+)\.", m.group(1)) if m else None
    if said is None:
        raise ValueError(f"no image subject in {function}'s docstring")
    return heldout.words_of(said.group(1))


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack the Debian ones."""
    fetched.download_pip(SDISTS, cache / "sdists", sdist=True)
    fetched.download_pip(WHEELS, cache / "wheels")
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def scratch_photos(root: Path) -> list[Photo]:
    out = []
    for path in sorted((root / BACKGROUNDS).glob("*/*")):
        if is_background_photo(path):
            text = background_words(path.parent.name, path.stem)
            rel = f"{FOLDERS['scratch']}/{heldout.file_stem(path.stem)}"
            out.append(Photo(rel, text, "scratch", PART, fetched.decoded(path.read_bytes())))
    return out


def _named(source: str, member: str, data: bytes) -> Photo:
    stem = Path(member).stem
    rel = f"{FOLDERS['other']}/{heldout.file_stem(stem)}"
    return Photo(rel, name_words(stem), source, PART, fetched.decoded(data))


def deb_photos(root: Path) -> list[Photo]:
    return [_named(src, p, (root / p).read_bytes()) for src, paths in DEB_PHOTOS.items() for p in paths]


def sdist_photos(sdists: Path) -> list[Photo]:
    out = []
    for name, members in SDIST_PHOTOS.items():
        with tarfile.open(next(sdists.glob(f"{name}-{SDISTS[name]}.tar.gz"))) as tar:
            top = tar.getnames()[0].split("/")[0]
            for member in members:
                data = tar.extractfile(f"{top}/{member}").read()  # type: ignore[union-attr]
                out.append(_named(name, member, data))
    return out


def _wheel(wheels: Path, name: str) -> zipfile.ZipFile:
    return zipfile.ZipFile(next(wheels.glob(f"{name}-{WHEELS[name]}-*.whl")))


def wheel_photos(wheels: Path) -> list[Photo]:
    out = []
    for name, members in WHEEL_PHOTOS.items():
        with _wheel(wheels, name) as whl:
            out += [_named(name, m, whl.read(m)) for m in members]
    with _wheel(wheels, "scipy") as whl:
        text = docstring_subject(whl.read(FACE_DOC).decode("utf-8"), "face")
        pixels = bz2.decompress(whl.read(FACE_DATA))
    make = fetched.shrunk(lambda: Image.frombytes("RGB", FACE_SIZE, pixels))
    out.append(Photo(f"{FOLDERS['other']}/{heldout.file_stem(text)}", text, "scipy", PART, make))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic)."""
    root = cache / "root"
    photos = (
        scratch_photos(root)
        + deb_photos(root)
        + sdist_photos(cache / "sdists")
        + wheel_photos(cache / "wheels")
    )
    return [
        Photo(f"{p.rel}.{FORMATS[i % len(FORMATS)]}", p.text, p.source, PART, p.make)
        for i, p in enumerate(photos)
    ]


# ------------------------------------------------------------------------------ queries


def kind(*categories: str) -> Rule:
    """Scratch backgrounds in these library folders ('nature', 'sports')."""
    return lambda p: p.source == "scratch" and p.text.split()[0] in categories


FLOWER = words("flower", "zinnia")
BIRD = words("parrot")
ANIMAL = either(BIRD, words("quokka", "raccoon"))
SPORTS = words("sports")  # the Sports folder and the all-sports mural
TRAIN_TRACKS = words("train tracks")
MURAL = words("mural")
MOVIES = words("movies")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "beach",
            "canyon",
            "grand canyon",
            "forest",
            "lake",
            "moon",
            "tree",
            "castle",
            "mansion",
            "village",
            "kitchen",
            "chalkboard",
            "playground",
            "boardwalk",
            "silos",
            "driveway",
            "mural",
            "baseball",
            "football",
            "tennis",
            "basketball court",
            "parrot",
            "quokka",
            "raccoon",
            "truck",
            "power lines",
            "flower bed",
            "zinnias",
            "children",
            "pathway",
            "stairs",
            "orchard",
        )
    ],  # fmt: skip
    ("flowers", FLOWER, "word"),
    ("houses", words("house"), "word"),
    ("train tracks", TRAIN_TRACKS, "word"),
    ("swimming pool", words("pool"), "word"),
    ("brick wall", words("brick wall"), "word"),
    ("clothing store", words("clothing store"), "word"),
    ("hay field", words("hay field"), "word"),
    ("rocks", words("rock"), "word"),
    ("city by the water", words("city with water"), "word"),
    ("ocean wave", words("wave"), "word"),
    ("taj mahal", words("taj"), "word"),
    ("bench with a view", words("bench with view"), "word"),
    # synonyms and everyday variants
    ("woods", words("forest"), "synonym"),
    ("seaside", words("beach"), "synonym"),
    ("railway", TRAIN_TRACKS, "synonym"),
    ("railroad tracks", TRAIN_TRACKS, "synonym"),
    ("blackboard", words("chalkboard"), "synonym"),
    ("parking garage", words("parking ramp"), "synonym"),
    ("clothes shop", words("clothing store"), "synonym"),
    ("kids", words("children"), "synonym"),
    ("movie theater", MOVIES, "synonym"),
    ("hallway", words("hall", "hallway"), "synonym"),
    ("wall painting", MURAL, "synonym"),
    ("highway", words("route"), "synonym"),
    ("pickup truck", words("truck"), "synonym"),
    ("electricity lines", words("power lines"), "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("birds", BIRD, "category"),
    ("mammals", words("quokka", "raccoon"), "category"),
    ("sports", SPORTS, "category"),
    ("sports fields", kind("sports"), "category"),
    ("nature", kind("nature"), "category"),
    ("indoors", kind("indoors"), "category"),
    ("vehicles", words("truck"), "category"),
    ("fields", words("field"), "category"),
    ("city", words("city"), "category"),
    # counts (the file name says it: 2zinnias)
    ("two flowers", words("2 zinnias"), "count"),
    # negation
    ("flowers, not zinnias", but_not(FLOWER, words("zinnia")), "negation"),
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("sports fields except basketball", but_not(kind("sports"), words("basketball")), "negation"),
    ("brick walls without stairs", but_not(words("brick wall"), words("stairs")), "negation"),
    ("houses, not wooden ones", but_not(words("house"), words("wooden")), "negation"),
    ("canyon but not the grand canyon", but_not(words("canyon"), words("grand canyon")), "negation"),
    ("indoor photos except the kitchen", but_not(kind("indoors"), words("kitchen")), "negation"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "zebra", "elephant", "giraffe", "penguin", "dog", "cat", "horse", "snowman", "fireworks",
        "hot air balloon", "sushi", "pizza", "birthday cake", "violin", "piano", "wedding dress",
        "christmas tree", "lighthouse", "motorcycle", "snow",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "fourth_set", name="fourth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "fourth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
