"""The held-out real set: photos from sources the real golden set never used, in a dev and a test part.

`resources/eval/real.yaml` (photosearch/evaluate/realset.py) is what search was tuned on. This set
measures generalisation: its photos come from other installed packages, and its judgements from
what those packages say about each photo, never from a model:

* Debian `gcompris-qt-data`: the photos inside GCompris's Qt resource files (read by
  `qt_resources.py`), each described by its file name, the activity's README (the photo's source
  page title, e.g. "Saltwater Crocodile on a river bank") and, where the activity shows it, the
  title and text the game says about it (`board*.qml`).
* Debian `mate-backgrounds`: the nature wallpapers, described by their names and the translators'
  notes in `mate-nature.xml`.

The set is split **by source** into two parts with their own gallery and golden file:

* `dev` — GCompris's farm and world animals, fish, tools, household things and renewable energy
  photos: look at it and tune on it.
* `test` — GCompris's wildlife (the "erase" activity), monuments (explore_monuments and the
  categorization monuments) and MATE's nature wallpapers: different photographers and subjects.
  Score it once, after all tuning, and report it as such.

Queries are written as people type them (single words, synonyms, categories, colours, counts,
scenes, negation) and each part also asks for things none of its photos shows (`absent: true`):
search should answer those with closest matches only. Photos are written as a photo folder holds
them: JPEG mostly (some with EXIF dates), HEIC, WebP, AVIF, PNG, TIFF.

    python -m photosearch.evaluate.heldout DIR      # DIR/dev/ and DIR/test/, each with golden.yaml
    photosearch eval DIR/dev/golden.yaml --report OUT
"""

from __future__ import annotations

import argparse
import html
import io
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import yaml
from PIL import Image

from photosearch.evaluate.photo_files import save_photo
from photosearch.evaluate.qt_resources import QtResourceFile

GCOMPRIS_RCC = Path("/usr/share/gcompris-qt/rcc")
MATE_NATURE = Path("/usr/share/backgrounds/mate/nature")
MATE_XML = Path("/usr/share/mate-background-properties/mate-nature.xml")
ACTIVITIES = "/gcompris/src/activities"
PARTS = ("dev", "test")
APT_PACKAGES = ("gcompris-qt-data", "mate-backgrounds")


@dataclass(frozen=True)
class Folder:
    """One GCompris photo folder: where it is, where it goes in the gallery, which part it is in."""

    rcc: str  # resource file under GCOMPRIS_RCC
    path: str  # folder inside it, under ACTIVITIES
    gallery: str  # gallery folder
    part: str
    boards: str = ""  # folder of the activity's board*.qml (what the game says about each photo)


GCOMPRIS_FOLDERS = (
    Folder(
        "explore_farm_animals.rcc",
        "explore_farm_animals/resource/animals",
        "farm",
        "dev",
        "explore_farm_animals/resource/board",
    ),
    Folder(
        "explore_world_animals.rcc",
        "explore_world_animals/resource/animals",
        "wildlife",
        "dev",
        "explore_world_animals/resource/board",
    ),
    Folder("categorization.rcc", "categorization/resource/images/fishes", "underwater", "dev"),
    Folder("categorization.rcc", "categorization/resource/images/tools", "tools", "dev"),
    Folder("categorization.rcc", "categorization/resource/images/others", "home", "dev"),
    Folder("categorization.rcc", "categorization/resource/images/renewable", "energy", "dev"),
    Folder("erase.rcc", "erase/resource", "animals", "test"),
    Folder(
        "explore_monuments.rcc",
        "explore_monuments/resource",
        "travel",
        "test",
        "explore_monuments/resource/board",
    ),
    Folder("categorization.rcc", "categorization/resource/images/monuments", "landmarks", "test"),
)
#: Formats cycled over each part's photos: mostly JPEG, then the other formats a phone or camera folder holds.
FORMATS = ("jpg", "jpg", "heic", "jpg", "webp", "jpg", "avif", "jpg", "png", "jpg", "tif", "jpg")
#: Gallery folder -> the year its JPEGs were taken (for "photos from 2019").
YEARS = {"farm": 2019, "wildlife": 2021, "animals": 2018, "travel": 2022, "nature": 2020}


@dataclass
class Photo:
    rel: str  # path in its part's gallery
    text: str  # its name and title in the source (lower case, words only)
    source: str  # "gcompris/erase", "mate-backgrounds"
    part: str
    make: Callable[[], Image.Image] = field(repr=False, default=None)  # type: ignore[assignment]
    taken: datetime | None = None
    about: str = ""  # what the game says about it (GCompris's explore activities), lower case


# ------------------------------------------------------------------------------ descriptions


def split_name(stem: str) -> str:
    """'greatPyramidOfGiza2' -> 'great pyramid of giza'; 'polar_bear' -> 'polar bear'."""
    s = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", stem)
    s = re.sub(r"[_\-\d]+", " ", s)
    return " ".join(s.lower().split())


def source_title(url: str) -> str:
    """The words of a photo's source page: a Wikimedia file title or a `picture=` name."""
    parsed = urllib.parse.urlparse(url.strip())
    query = urllib.parse.parse_qs(parsed.query)
    name = query["picture"][0] if "picture" in query else parsed.path.rsplit("/", 1)[-1]
    name = urllib.parse.unquote(name)
    name = re.sub(r"^(File|Datei|Fichier):", "", name)
    name = re.sub(r"\.(jpe?g|png|tiff?|webp|gif|svg)$", "", name, flags=re.I)
    return " ".join(re.sub(r"[_\-,()]+", " ", name).split())


def readme_titles(text: str) -> dict[str, str]:
    """File name -> its source title, from a GCompris README (blocks of Source: and Files:)."""
    out: dict[str, str] = {}
    for block in re.split(r"\n\s*\n", text):
        m = re.search(r"^Source:\s*(\S+)", block, re.M)
        files = re.search(r"^Files?:(.*)", block, re.M | re.S)
        if not m or not files:
            continue
        for name in re.findall(r"[\w.\-]+\.(?:webp|jpe?g|png)", files.group(1)):
            out[name] = source_title(m.group(1))
    return out


def board_texts(text: str) -> dict[str, tuple[str, str]]:
    """Image file name -> (its title, the text the game says about it), from a board*.qml."""
    out: dict[str, tuple[str, str]] = {}
    for obj in re.findall(r"\{[^{}]*\}", text):
        images = re.findall(r'"image\d?"\s*:\s*"[^"]*/([^"/]+\.(?:webp|jpe?g|png))"', obj)
        titles = re.findall(r'"(?:title|text2)"\s*:\s*qsTr\("((?:[^"\\]|\\.)*)"\)', obj)
        said = re.findall(r'"text"\s*:\s*qsTr\("((?:[^"\\]|\\.)*)"\)', obj)
        for name in images:
            out[name] = (" ".join(dict.fromkeys(titles)), " ".join(said))
    return out


def file_stem(stem: str) -> str:
    """'greatPyramidOfGiza' -> 'great_pyramid_of_giza'; 'hammer3' -> 'hammer3'."""
    return "_".join(
        re.sub(r"(?<=[a-z])(?=[A-Z])", " ", stem).lower().replace("-", " ").replace("_", " ").split()
    )


def words_of(*parts: str) -> str:
    text = html.unescape(" ".join(parts)).lower()
    text = text.replace("&", " and ")
    return " ".join(re.sub(r"[^a-z0-9'éèàâîôûç]+", " ", text).split())


# ------------------------------------------------------------------------------ sources


def _decoded(data: bytes) -> Callable[[], Image.Image]:
    def load() -> Image.Image:
        with Image.open(io.BytesIO(data)) as im:
            return im.convert("RGB")

    return load


def gcompris_photos(root: Path = GCOMPRIS_RCC) -> list[Photo]:
    out: list[Photo] = []
    files: dict[str, QtResourceFile] = {}
    for folder in GCOMPRIS_FOLDERS:
        if folder.rcc not in files:
            files[folder.rcc] = QtResourceFile.open(root / folder.rcc)
        rcc = files[folder.rcc]
        base = f"{ACTIVITIES}/{folder.path}/"
        paths = [p for p in rcc.paths() if p.startswith(base)]
        titles: dict[str, str] = {}
        for readme in (p for p in paths if p.endswith("/README")):
            titles.update(readme_titles(rcc.read(readme).decode("utf-8", "replace")))
        said: dict[str, tuple[str, str]] = {}
        if folder.boards:
            for qml in (p for p in rcc.paths() if p.startswith(f"{ACTIVITIES}/{folder.boards}/")):
                said.update(board_texts(rcc.read(qml).decode("utf-8", "replace")))
        for p in paths:
            if not p.endswith((".webp", ".jpg", ".png")) or "/board/" in p:
                continue
            name = p.rsplit("/", 1)[-1]
            sub = p[len(base) :].rsplit("/", 1)[0] if "/" in p[len(base) :] else ""
            stem = name.rsplit(".", 1)[0]
            title, about = said.get(name, ("", ""))
            text = words_of(split_name(stem), sub, titles.get(name, ""), title)
            rel = "/".join(x for x in (folder.gallery, sub, file_stem(stem)) if x)
            source = "gcompris/" + folder.path.split("/", 1)[0]
            out.append(Photo(rel, text, source, folder.part, _decoded(rcc.read(p)), about=words_of(about)))
    return out


def mate_names(xml_text: str) -> dict[str, str]:
    """File name -> its English name and the translators' note about what it shows."""
    out: dict[str, str] = {}
    for w in re.findall(r"<wallpaper\b.*?</wallpaper>", xml_text, re.S):
        f = re.search(r"<filename>([^<]+)</filename>", w)
        n = re.search(r"<name>([^<]+)</name>", w)
        note = re.search(r"<!--(.*?)-->", w, re.S)
        if f and n:
            shows = re.search(r"shows (.*?)\.", note.group(1), re.S) if note else None
            out[f.group(1).rsplit("/", 1)[-1]] = " ".join([n.group(1), shows.group(1) if shows else ""])
    return out


def mate_photos(folder: Path = MATE_NATURE, xml: Path = MATE_XML) -> list[Photo]:
    names = mate_names(xml.read_text(encoding="utf-8"))
    out = []
    for path in sorted(folder.glob("*.jpg")):
        text = words_of(split_name(path.stem), names.get(path.name, ""))
        rel = "nature/" + file_stem(path.stem)
        out.append(Photo(rel, text, "mate-backgrounds", "test", _file(path)))
    return out


def _file(path: Path) -> Callable[[], Image.Image]:
    def load() -> Image.Image:
        with Image.open(path) as im:
            im.draft("RGB", (2048, 2048))
            im = im.convert("RGB")
        im.thumbnail((2048, 2048))
        return im

    return load


def all_photos() -> list[Photo]:
    """Every photo of both parts, with its format and date assigned (deterministic)."""
    photos = gcompris_photos() + mate_photos()
    out: list[Photo] = []
    seen: set[str] = set()
    counters = dict.fromkeys(PARTS, 0)
    for p in photos:
        i = counters[p.part]
        counters[p.part] += 1
        ext = FORMATS[i % len(FORMATS)]
        stem = p.rel
        while f"{p.part}/{stem}.{ext}" in seen:
            stem += "_2"
        rel = f"{stem}.{ext}"
        seen.add(f"{p.part}/{rel}")
        year = YEARS.get(rel.split("/", 1)[0])
        taken = datetime(year, 1 + i % 12, 1 + i % 27, 9 + i % 9, 30) if year and ext == "jpg" else None
        out.append(Photo(rel, p.text, p.source, p.part, p.make, taken, p.about))
    return out


def write_gallery(dest: Path, photos: list[Photo]) -> None:
    for p in photos:
        path = dest / p.part / p.rel
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        save_photo(path, p.make(), p.taken, jpeg_quality=88)


# ------------------------------------------------------------------------------ queries

Rule = Callable[[Photo], bool]


def words(*ws: str) -> Rule:
    """The photo's name or source title has one of these words (a plural 's' or 'es' allowed)."""
    pat = re.compile(r"\b(" + "|".join(re.escape(w) for w in ws) + r")(s|es)?\b")
    return lambda p: bool(pat.search(p.text))


def source(*names: str) -> Rule:
    """The photos that came from one of these sources."""
    return lambda p: p.source in names


def said(*ws: str) -> Rule:
    """What the game says about the photo has one of these words."""
    pat = re.compile(r"\b(" + "|".join(re.escape(w) for w in ws) + r")(s|es)?\b")
    return lambda p: bool(pat.search(p.about))


def folder(*prefixes: str) -> Rule:
    return lambda p: any(p.rel == f or p.rel.startswith(f + "/") for f in prefixes)


def either(*rules: Rule) -> Rule:
    return lambda p: any(r(p) for r in rules)


def both(a: Rule, b: Rule) -> Rule:
    return lambda p: a(p) and b(p)


def but_not(a: Rule, b: Rule) -> Rule:
    return lambda p: a(p) and not b(p)


def year(y: int) -> Rule:
    return lambda p: p.taken is not None and p.taken.year == y


#: What each request's relevant photos are, in the words of the sources' descriptions.
BIRD = words(
    "chicken", "duck", "owl", "macaw", "parrot", "gosling", "heron", "kingfisher", "harrier",
    "penguin", "spoonbill", "swan", "toucan",
)  # fmt: skip
FARM = folder("farm")
WILD = folder("wildlife", "animals")
FISH = folder("underwater")
ANIMAL = either(FARM, WILD, FISH)
MONKEY = words("monkey", "macaque", "gibbon", "lemur")
MONUMENT = folder("travel", "landmarks")
CASTLE = words("castle", "château", "chateau", "castillo", "schloss", "fort")
CHURCH = words("cathedral", "church", "kirche", "dom", "catedral")
PYRAMID = words("pyramid")
FLOWER = either(words("flower"), folder("nature/garden.jpg"))
WINDMILL = words("windmill")
SOLAR = words("solar")
HAMMER = words("hammer", "sledgehammer")

#: (request, relevance rule, kind): single words, synonyms, categories, colours, counts, scenes,
#: negation, dates, as people type them. A request whose rule finds nothing in a part is left out
#: of that part.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "cat",
            "chicken",
            "cow",
            "dog",
            "duck",
            "horse",
            "owl",
            "pig",
            "sheep",
            "bison",
            "chameleon",
            "crocodile",
            "giraffe",
            "hedgehog",
            "jaguar",
            "kangaroo",
            "koala",
            "lemur",
            "moose",
            "narwhal",
            "polar bear",
            "fish",
            "clownfish",
            "hammer",
            "multimeter",
            "scissors",
            "screwdriver",
            "wrench",
            "sickle",
            "tweezers",
            "baseball",
            "bucket",
            "cup",
            "chair",
            "igloo",
            "knife",
            "pencil",
            "plate",
            "spoon",
            "volleyball",
            "dam",
            "windmill",
            "alpaca",
            "bee",
            "butterfly",
            "caterpillar",
            "cheetah",
            "crab",
            "dolphin",
            "gibbon",
            "goat",
            "gorilla",
            "heron",
            "kingfisher",
            "kitten",
            "macaque",
            "meerkat",
            "penguin",
            "pika",
            "red panda",
            "rhinoceros",
            "spoonbill",
            "squirrel",
            "swan",
            "toucan",
            "pyramid",
            "cathedral",
            "eiffel tower",
            "colosseum",
            "taj mahal",
            "statue of liberty",
            "mount rushmore",
            "great wall of china",
            "brandenburg gate",
            "christ the redeemer",
            "opera house",
            "parthenon",
            "storm",
            "dune",
        )
    ],  # fmt: skip
    ("temple", but_not(words("temple"), words("temple mount")), "word"),
    # synonyms and everyday variants
    ("goldfish", words("goldfish", "goldfisch"), "word"),
    ("kitty", words("cat", "kitten"), "synonym"),
    ("doggy", words("dog"), "synonym"),
    ("pony", words("horse"), "synonym"),
    ("hen", words("chicken"), "synonym"),
    ("parrot", words("macaw", "parrot"), "synonym"),
    ("panda bear", words("giant panda"), "synonym"),
    ("komodo dragon", words("komodo"), "synonym"),
    ("salmon", words("lachs", "salmon", "trout"), "synonym"),
    ("puffer fish", words("puffer"), "synonym"),
    ("tape measure", words("measuring tape", "tape measure"), "synonym"),
    ("pliers", words("plier", "pliers", "ploskogubcy"), "synonym"),
    ("spanner", words("wrench"), "synonym"),
    ("light bulb", words("bulb"), "synonym"),
    ("frying pan", words("pan", "pfanne"), "synonym"),
    ("weighing scales", words("weighing machine", "balance"), "synonym"),
    ("solar panels", words("solar panel", "solarcellpanel", "solar collector"), "synonym"),
    ("rhino", words("rhinoceros"), "synonym"),
    ("ladybug", words("lady bird"), "synonym"),
    ("goose", words("gosling", "graugans", "goose"), "synonym"),
    ("bat", words("flying fox"), "synonym"),
    ("chateau", words("château", "chateau"), "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("birds", BIRD, "category"),
    ("farm animals", FARM, "category"),
    ("reptile", words("chameleon", "chamaeleon", "crocodile", "komodo"), "category"),
    ("bears", words("polar bear", "giant panda"), "category"),
    ("monkeys", MONKEY, "category"),
    ("insects", words("bee", "butterfly", "caterpillar"), "category"),
    ("big cat", words("jaguar", "cheetah"), "category"),
    ("tools", folder("tools"), "category"),
    ("kitchen utensils", words("knife", "spoon", "pan", "plate", "cup"), "category"),
    ("renewable energy", folder("energy"), "category"),
    ("monuments", MONUMENT, "category"),
    ("castle", CASTLE, "category"),
    ("church", CHURCH, "category"),
    ("flowers", FLOWER, "category"),
    # colours (said by the description)
    ("red parrot", words("scarlet macaw"), "colour"),
    ("grey kangaroo", words("grey kangaroo"), "colour"),
    ("black and white bear", both(words("panda"), said("black and white")), "colour"),
    ("red pyramid", words("red pyramid"), "colour"),
    ("golden temple", words("golden temple"), "colour"),
    ("yellow flower", words("yellow flower"), "colour"),
    ("orange flower", words("orange red flower"), "colour"),
    ("green meadow", words("green meadow"), "colour"),
    ("white marble mausoleum", both(words("taj mahal"), said("white marble")), "colour"),
    # counts and groups
    ("two jaguars", words("two jaguar"), "count"),
    ("a herd of horses", words("stud band"), "count"),
    ("kangaroo with her baby", words("kangaroo and joey"), "count"),
    ("chickens", words("chickens"), "count"),
    ("group of meerkats", words("meerkat"), "count"),
    ("swans with their cygnets", words("cygnet"), "count"),
    ("monkey mother and baby", words("female and baby"), "count"),
    ("several windmills", words("mykonos windmill"), "count"),
    # scenes
    ("animal at the zoo", words("zoo", "zoological"), "scene"),
    ("crocodile by the river", words("river bank"), "scene"),
    ("bird in flight", words("in flight", "im flug"), "scene"),
    ("solar panels on a roof", words("on a roof"), "scene"),
    ("windmill by the harbour", words("harbour"), "scene"),
    ("penguin in antarctica", words("antarctica"), "scene"),
    ("aquarium", words("aquarium", "sea world"), "scene"),
    ("pyramid in the desert", both(PYRAMID, said("desert")), "scene"),
    ("castle on a lake", words("schwerin"), "scene"),
    ("rain drops", words("rain drop"), "scene"),
    # negation
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("farm animals except the dog", but_not(FARM, words("dog")), "negation"),
    ("tools but not hammers", but_not(folder("tools"), HAMMER), "negation"),
    ("fish but not goldfish", but_not(FISH, words("goldfish", "goldfisch")), "negation"),
    ("windmills, not solar panels", WINDMILL, "negation"),
    ("birds but no swans", but_not(BIRD, words("swan")), "negation"),
    ("monuments not in india", but_not(folder("travel"), folder("travel/india")), "negation"),
    ("castles without the french ones", but_not(CASTLE, words("france", "paris")), "negation"),
    ("pyramids except the red pyramid", but_not(PYRAMID, words("red pyramid")), "negation"),
    # places the descriptions name
    ("paris", words("paris", "eiffel", "louvre"), "place"),
    ("india", words("india"), "place"),
    ("new york", words("new york"), "place"),
    ("egypt", words("egypt"), "place"),
    # dates (EXIF of the written JPEGs)
    ("farm animals from 2019", both(FARM, year(2019)), "date"),
    ("wildlife photos 2021", both(folder("wildlife"), year(2021)), "date"),
    ("animals in 2018", both(folder("animals"), year(2018)), "date"),
    ("holiday photos from 2022", both(folder("travel"), year(2022)), "date"),
]

#: Requests for things no photo of the part shows: search should answer them with closest matches
#: only (each is checked against the part's descriptions; one a part mentions is left out there).
ABSENT: list[tuple[str, Rule]] = [
    ("zebra", words("zebra")),
    ("elephant", words("elephant")),
    ("tiger", words("tiger")),
    ("octopus", words("octopus")),
    ("snowman", words("snowman")),
    ("pizza", words("pizza")),
    ("birthday cake", words("cake")),
    ("laptop", words("laptop", "computer")),
    ("guitar", words("guitar")),
    ("skateboard", words("skateboard")),
    ("hot air balloon", words("balloon")),
    ("fireworks", words("firework")),
    ("wedding dress", words("wedding")),
    ("christmas tree", words("christmas")),
    ("sushi", words("sushi")),
    ("dog", words("dog")),
    ("windmill", words("windmill")),
    ("pyramid", words("pyramid")),
]


def golden(
    photos: list[Photo],
    part: str,
    queries_of: list[tuple[str, Rule, str]] | None = None,
    absent: list[tuple[str, Rule]] | None = None,
    name: str = "heldout",
) -> dict:
    """The golden set of one part: judged queries, then the absent-concept requests."""
    mine = [p for p in photos if p.part == part]
    queries = []
    for request, rule, kind in QUERIES if queries_of is None else queries_of:
        rel = sorted(p.rel for p in mine if rule(p))
        if rel:
            queries.append({"id": request, "request": request, "relevant": rel, "notes": kind})
    ids = {q["id"] for q in queries}
    for request, rule in ABSENT if absent is None else absent:
        qid = f"absent: {request}"
        if request not in ids and not any(rule(p) for p in mine):
            queries.append({"id": qid, "request": request, "relevant": [], "absent": True, "notes": "absent"})
    return {"name": f"{name}-{part}", "gallery": ".", "k": [1, 3, 5, 10], "queries": queries}


def golden_yaml(gold: dict, module: str = "heldout") -> str:
    return (
        f"# Generated by `python -m photosearch.evaluate.{module} DIR` from the sources' descriptions\n"
        f"# (see photosearch/evaluate/{module}.py); do not edit by hand.\n"
        + yaml.safe_dump(gold, sort_keys=False, allow_unicode=True, width=120)
    )


def write(dest: Path) -> dict:
    """Write both parts' galleries and golden files under `dest`; return counts per part."""
    photos = all_photos()
    write_gallery(dest, photos)
    out = {}
    for part in PARTS:
        gold = golden(photos, part)
        (dest / part).mkdir(parents=True, exist_ok=True)
        (dest / part / "golden.yaml").write_text(golden_yaml(gold), encoding="utf-8")
        out[part] = {
            "photos": sum(p.part == part for p in photos),
            "queries": sum(not q.get("absent") for q in gold["queries"]),
            "absent": sum(bool(q.get("absent")) for q in gold["queries"]),
            "sources": sorted({p.source for p in photos if p.part == part}),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("directory", type=Path)
    args = ap.parse_args(argv)
    if not GCOMPRIS_RCC.is_dir() or not MATE_NATURE.is_dir():
        print(f"install the photo sources first: apt-get install {' '.join(APT_PACKAGES)}")
        return 2
    print(yaml.safe_dump(write(args.directory), sort_keys=False).rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
