"""The seventh set: a test part from packages no other set, and no tuning, has read. Score it once.

The sixth set (`sixth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. All are Debian packages:

* `darknet`: the detector's demo photos, named by their files (dog, eagle, giraffe, horses).
* `gnome-taquin`: the photos of the puzzle's `cats` theme, which its copyright file credits to
  Wikimedia Commons, named by the theme and their files (Cat_face_day, Tortoiseshell).
* `gramps`: the photos of the genealogy program's example tree (`example.gramps`) that the tree
  attaches to a person, read as photos of people, with their titles and the tree's description
  ("This seems to be a photo of a relative"); the 1897 `expeditionsmannschaft` (an expedition's
  crew) is a group of people.
* `libsixel-examples`, `octave-vlfeat`, `node-opencv`, `pinpoint`, `gambas3-examples`,
  `libvips-doc`, `gdk-pixbuf-tests`, `python3-pattern`, `libjxl-testdata`: example and test photos
  named by their files (egret, snake, river1, roofs1, car1, coin1, bowls, rose, owl, cat, flower).
* `libjs-jquery-backstretch`, `zoph`: example and background photos named by their files (coffee,
  dome, pot-holder; fir, flower).
* `hugin-data`: photos of the panorama stitcher's help named for what they show rather than for a
  projection (Tuebingen_Neckarfront, C_Marchi-GrandCentral, Lamp_enfuse).
* `pikepdf-doc`: the documentation's photos, described by their alt texts ("pike fish being
  released to water", "A square of pikemen, carrying pikes").
* `castle-game-engine-doc`: the photos of the `fixed_camera_game` example, which its `AUTHORS.txt`
  credits one by one to Flickr, named by their files (human_beach, train_crash, water_ducks,
  wild_road, forest).
* `psychtoolbox-3-common`: demo photos named by their files (konijntjes, Dutch for little rabbits;
  town).
* `firmware-microbit-micropython-doc`, `python-ruffus-doc`: documentation photos named by their
  files (matrioshka, piezo_buzzer, queen; wikimedia_bandedkrait, a banded krait).
* `visp-images-data`: the 1927 Solvay conference photo (one of its sizes), a group of people.

Left out before any request was written, by these rules: darknet's `scream` (named for a painting)
and its `person` and `kite` (the detector's published demo output finds a dog and a horse beside the
person, and a crowd of people with the kites: the dog, horse and people requests would misjudge
them); the puzzle's `numbers` theme (drawn); gramps' photos the tree attaches to no person
(`Alimehemet`, a family's), its scanned record and `AntoineClaudet` (244 px); libsixel's other
copies of the snake (the same photo in other formats) and its drawings; vlfeat's `spots` and `box`
(under 250 px, a test pattern); node-opencv's `car1_template` (a crop of car1), `stuff`, `mona` and
`over_text` (a name that says nothing, a painting and a copy of it with text), `quads` and `shapes`
(drawings); pinpoint's `bg` and `linus` (a name that says nothing, a name only); gambas' other
example pictures (sprites, textures, screenshots, the card game's `tierra3`, a picture card);
libvips' other images (diagrams); gdk-pixbuf's other test photos (named for bugs); pattern's other
images (screenshots, charts); libjxl's other copies of the flower (re-encodings and crops);
backstretch's `sample1`/`sample2` (a name that says nothing) and its smaller copies; hugin's
projection examples (Big_ben_*, Pantheon, LagardePont, named for a projection: remapped photos or
comparisons), its chromatic aberration and distortion examples (named for the fault) and photos
under 250 px; pikepdf's `28fish` (its alt text calls it an image of many species of fish: an
engraving) and `congress_im0` (a scanned page); castle's credited `main_menu` photo (a name that
says nothing), its textures and its jquery-colorbox demo photos (names only: marylou, daisy, homer,
ohoopee); psychtoolbox's blurred and grey copies of the rabbits, its faces (drawn), stimuli and
textures; the micro:bit `dalek` (drawn over with a speech bubble), `files` (a screenshot); ruffus'
`cyl_ruffus` (a species name only); ViSP's other sizes of the same photo, its Klimt (a painting) and
test chart. Not used at all: cinnamon's account pictures (96 px), qabcs-data's pictures (cut-outs,
drawings among the photos, with no word to tell them apart), ulcc's (drawings), wx's horse (200 px),
Evolution's and the luma, hackrf, peewee, celery and stevedore docs' images (stamps, devices,
diagrams, screenshots). Photos were opened only to see that they are photos, not drawings, renders
or grids, and at least 250 px.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. The names are read as what they plainly are: an egret, an eagle, an owl and ducks are
birds; a banded krait is a snake; konijntjes are rabbits; a matrioshka is a set of Russian nesting
dolls; Grand Central is a train station; Tübingen is a town; a pike is a fish (and the pikemen's
pikes are pikes); pikemen are soldiers; a queen, a human and a person are people, and so is each
photo the gramps tree attaches to a person; an expedition's crew and a conference photo are groups
of people. A game's name for a scene is read for what it names: the
`train_crash` photo is of a train, and no request asks for a crash. Darknet's photos are a
detector's demos and are known to show more than their one-word names (a bicycle and a truck beside
the dog, a zebra beside the giraffe); no request asks for a thing a name leaves out there, and no
absent request names one. Requests for things nearly every photo of a kind shows (trees, buildings,
water, sky, people at large) are not asked: the words name what a photo is of, not all it shows.
No negation asks to leave out a thing the words would not mention. No places, dates or people the
words do not give are asked: the photos have no GPS, caption or date, as in the earlier sets.
Some pins are Debian security or point-release versions (`gdk-pixbuf-tests`, `libvips-doc`):
should the mirror drop one, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.seventh_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import alt_texts, file_title, gallery_stem, image_size, is_big_enough
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
DEBS = {
    "darknet": "0.0.0+git20180914.61c9d02e-2+b4",
    "gnome-taquin": "3.38.1-2+b1",
    "gramps": "5.1.5-1",
    "libsixel-examples": "1.10.3-3",
    "octave-vlfeat": "0.9.21+full-1",
    "node-opencv": "7.0.0+git20200316.f0a03a4b-1+b3",
    "pinpoint": "1:0.1.8-6",
    "gambas3-examples": "3.18.0-4",
    "libvips-doc": "8.14.1-3+deb12u3",
    "gdk-pixbuf-tests": "2.42.10+dfsg-1+deb12u4",
    "python3-pattern": "2.6+git20180818-4",
    "libjxl-testdata": "0.0~git20230110.d6168ff-1",
    "libjs-jquery-backstretch": "2.1.17-4",
    "zoph": "1.0.1-3",
    "hugin-data": "2022.0.0+dfsg-2",
    "pikepdf-doc": "6.0.0+dfsg-1",
    "castle-game-engine-doc": "7.0~alpha.2+dfsg1-5",
    "psychtoolbox-3-common": "3.0.18.12.dfsg1-1.1",
    "firmware-microbit-micropython-doc": "1.0.1-4",
    "python-ruffus-doc": "2.8.4-5",
    "visp-images-data": "3.5.0-1",
}
#: The smallest longest side of a photo taken.

TAQUIN_CATS = "usr/share/gnome-taquin/themes/cats"
TAQUIN_COPYRIGHT = "usr/share/doc/gnome-taquin/copyright"
GRAMPS = "usr/share/doc/gramps/example/gramps"
GRAMPS_TREE = "example.gramps"
#: Photos named by their files: (source, path in the unpacked packages).
NAMED = (
    ("darknet", "usr/share/darknet/data/dog.jpg"),
    ("darknet", "usr/share/darknet/data/eagle.jpg"),
    ("darknet", "usr/share/darknet/data/giraffe.jpg"),
    ("darknet", "usr/share/darknet/data/horses.jpg"),
    ("libsixel", "usr/share/doc/libsixel-examples/examples/images/egret.jpg"),
    ("libsixel", "usr/share/doc/libsixel-examples/examples/images/snake.jpg"),
    ("vlfeat", "usr/share/octave/site/m/vlfeat/data/river1.jpg"),
    ("vlfeat", "usr/share/octave/site/m/vlfeat/data/river2.jpg"),
    ("vlfeat", "usr/share/octave/site/m/vlfeat/data/roofs1.jpg"),
    ("vlfeat", "usr/share/octave/site/m/vlfeat/data/roofs2.jpg"),
    ("node-opencv", "usr/share/doc/node-opencv/examples/files/car1.jpg"),
    ("node-opencv", "usr/share/doc/node-opencv/examples/files/car2.jpg"),
    ("node-opencv", "usr/share/doc/node-opencv/examples/files/coin1.jpg"),
    ("node-opencv", "usr/share/doc/node-opencv/examples/files/coin2.jpg"),
    ("pinpoint", "usr/share/doc/pinpoint/examples/bowls.jpg"),
    ("gambas", "usr/share/doc/gambas3-examples/examples/Drawing/Fractal/rose.jpg"),
    ("libvips", "usr/share/gtk-doc/html/libvips/owl.jpg"),
    ("gdk-pixbuf", "usr/libexec/installed-tests/gdk-pixbuf/test-images/reftests/cat.jpg"),
    ("pattern", "usr/share/doc/python3-pattern/examples/08-server/01-basic/static/cat.jpg"),
    ("libjxl", "usr/share/libjxl-testdata/jxl/flower/flower.png.im_q85_444.jpg"),
    ("backstretch", "usr/share/doc/libjs-jquery-backstretch/examples/coffee.jpg"),
    ("backstretch", "usr/share/doc/libjs-jquery-backstretch/examples/dome.jpg"),
    ("backstretch", "usr/share/doc/libjs-jquery-backstretch/examples/pot-holder.jpg"),
    ("zoph", "usr/share/zoph/www/php/templates/default/images/backgrounds/fir.jpg"),
    ("zoph", "usr/share/zoph/www/php/templates/default/images/backgrounds/flower.jpg"),
    ("hugin", "usr/share/hugin/xrc/data/help_en_EN/600px-Tuebingen_Neckarfront_small15_2006-06-11.jpg"),
    ("hugin", "usr/share/hugin/xrc/data/help_en_EN/800px-C_Marchi-GrandCentral-adj.jpg"),
    ("hugin", "usr/share/hugin/xrc/data/help_en_EN/300px-Lamp_enfuse.jpg"),
    ("psychtoolbox", "usr/share/psychtoolbox-3/PsychDemos/konijntjes1024x768.jpg"),
    ("psychtoolbox", "usr/share/psychtoolbox-3/PsychHardware/EyelinkToolbox/EyelinkDemos/SR-ResearchDemo/town.jpg"),
    ("microbit", "usr/share/doc/firmware-microbit-micropython/html/_images/matrioshka.jpg"),
    ("microbit", "usr/share/doc/firmware-microbit-micropython/html/_images/piezo_buzzer.jpg"),
    ("microbit", "usr/share/doc/firmware-microbit-micropython/html/_images/queen.jpg"),
    ("ruffus", "usr/share/doc/python-ruffus-doc/html/_images/wikimedia_bandedkrait.jpg"),
    ("visp", "usr/share/visp-images-data/ViSP-images/Solvay/Solvay_conference_1927_Version2_1280x881.jpg"),
)  # fmt: skip
PIKEPDF_HTML = "usr/share/doc/python3-pikepdf/html"
PIKEPDF_PHOTOS = ("pike-release.jpg", "pikemen.jpg")
CASTLE_GAME = "usr/share/doc/castle-game-engine-doc/examples/deprecated_to_upgrade/fixed_camera_game/data"
CASTLE_AUTHORS = "AUTHORS.txt"
#: The castle credits whose names say nothing a photo can be judged by.
CASTLE_LEFT_OUT = frozenset({"main_menu_original"})
FOLDERS = {"backgrounds": "pictures", "other": "downloads"}
BACKGROUNDS = frozenset({"zoph", "backstretch", "castle"})


# ------------------------------------------------------------------------------ descriptions


def name_words(stem: str) -> str:
    """A file name's words, dots parting them too: 'river1' -> 'river 1', 'Cat_face_day' -> 'cat face
    day', 'GrandCentral-adj' -> 'grand central adj', 'konijntjes1024x768' -> 'konijntjes 1024 x 768'."""
    return fetched.name_words(stem.replace(".", "_"))


def copyright_credits(copyright_text: str, folder: str, credit: str) -> list[str]:
    """The files under `folder` that a Debian copyright file's stanzas mentioning `credit` name one
    by one ('data/themes/cats/1-maine.jpg' -> '1-maine.jpg')."""
    out: list[str] = []
    for stanza in re.split(r"\n\s*\n", copyright_text):
        if credit.lower() in stanza.lower():
            out += re.findall(rf"{re.escape(folder)}/([^\s/*?]+)", stanza)
    return out


def gramps_people_photos(tree_xml: str) -> dict[str, str]:
    """A Gramps XML tree's media files that a person refers to: file name -> its description and
    attribute texts. A file only families, events or sources refer to is not taken."""
    objects: dict[str, tuple[str, str]] = {}
    for handle, body in re.findall(r'<object handle="([^"]+)"[^>]*>(.*?)</object>', tree_xml, re.S):
        f = re.search(r'<file src="([^"]+)"[^>]*?(?:description="([^"]*)")?\s*/>', body)
        if not f:
            continue
        said = " ".join([f.group(2) or "", *re.findall(r'<attribute type="[^"]*" value="([^"]*)"', body)])
        objects[handle] = (f.group(1), html.unescape(said))
    out: dict[str, str] = {}
    for person in re.findall(r"<person\b.*?</person>", tree_xml, re.S):
        for handle in re.findall(r'<objref hlink="([^"]+)"', person):
            if handle in objects:
                name, said = objects[handle]
                out[name] = said
    return out


def credited_photos(authors_text: str, credit: str) -> list[str]:
    """The image files an AUTHORS text credits to `credit` one by one: a line naming a file followed
    by a 'from <url>' line with `credit` in it ('images/train_crash_original.jpg')."""
    lines = [line.strip() for line in authors_text.splitlines()]
    out = []
    for name, source in zip(lines, lines[1:], strict=False):
        if re.fullmatch(r"[\w./\-]+\.jpe?g", name) and source.startswith("from ") and credit in source:
            out.append(name)
    return out


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def _photo(source: str, path: Path, text: str) -> Photo | None:
    """The photo at `path` with its words, or None when it is under `MIN_SIDE` px."""
    if not is_big_enough(image_size(path)):
        return None
    folder = FOLDERS["backgrounds" if source in BACKGROUNDS else "other"]
    rel = f"{folder}/{gallery_stem(path.stem)}"
    return Photo(rel, text, source, PART, fetched.decoded(path.read_bytes()))


def named_photos(root: Path) -> list[Photo | None]:
    return [_photo(source, root / member, file_title(Path(member).stem)) for source, member in NAMED]


def taquin_photos(root: Path) -> list[Photo | None]:
    copyright_text = (root / TAQUIN_COPYRIGHT).read_text(encoding="utf-8")
    names = copyright_credits(copyright_text, "data/themes/cats", "Wikimedia Commons")
    if not names:
        raise ValueError("the puzzle's cat photos are no longer credited to Wikimedia Commons")
    folder = root / TAQUIN_CATS
    return [_photo("taquin", folder / n, heldout.words_of("cats", file_title(Path(n).stem))) for n in names]


def gramps_photos(root: Path) -> list[Photo | None]:
    folder = root / GRAMPS
    people = gramps_people_photos((folder / GRAMPS_TREE).read_text(encoding="utf-8"))
    out = []
    for name, said in sorted(people.items()):
        text = heldout.words_of("person", file_title(Path(name).stem), name_words(said))
        out.append(_photo("gramps", folder / name, text))
    return out


def pikepdf_photos(root: Path) -> list[Photo | None]:
    alts: dict[str, str] = {}
    for page in sorted((root / PIKEPDF_HTML).rglob("*.html")):
        alts.update(alt_texts(page.read_text(encoding="utf-8", errors="replace")))
    out = []
    for name in PIKEPDF_PHOTOS:
        if name not in alts:
            raise ValueError(f"pikepdf's documentation no longer describes {name}")
        out.append(_photo("pikepdf", root / PIKEPDF_HTML / "_images" / name, heldout.words_of(alts[name])))
    return out


def castle_photos(root: Path) -> list[Photo | None]:
    folder = root / CASTLE_GAME
    credited = credited_photos((folder / CASTLE_AUTHORS).read_text(encoding="utf-8"), "flickr.com")
    out = []
    for name in credited:
        stem = Path(name).stem
        if stem in CASTLE_LEFT_OUT:
            continue
        path = folder / name if "/" in name else folder / "images" / name
        out.append(_photo("castle", path, name_words(re.sub(r"_original$", "", stem))))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = (
        named_photos(root)
        + taquin_photos(root)
        + gramps_photos(root)
        + pikepdf_photos(root)
        + castle_photos(root)
    )
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


CAT = words("cat")
DOG = words("dog")
BIRD = words("eagle", "egret", "owl", "ducks")
SNAKE = words("snake", "bandedkrait")
RABBIT = words("konijntjes")
FISH = words("fish")
ANIMAL = either(CAT, DOG, BIRD, SNAKE, RABBIT, FISH, words("giraffe", "horses"))
PEOPLE_GROUP = words("expeditionsmannschaft", "conference", "pikemen")
FLOWER = words("flower", "rose")
DOLLS = words("matrioshka")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "cat",
            "dog",
            "eagle",
            "giraffe",
            "horses",
            "egret",
            "owl",
            "ducks",
            "river",
            "roofs",
            "car",
            "coin",
            "coffee",
            "dome",
            "pot holder",
            "bowls",
            "rose",
            "flower",
            "lamp",
            "train",
            "road",
            "forest",
            "beach",
            "queen",
            "pikemen",
            "pike",
        )
    ],  # fmt: skip
    ("snake", SNAKE, "word"),
    ("fish", FISH, "word"),
    ("rabbits", RABBIT, "word"),
    ("town", words("town", "tuebingen"), "word"),
    ("fir tree", words("fir"), "word"),
    ("Tübingen", words("tuebingen"), "word"),
    ("grand central", words("grand central"), "word"),
    ("solvay conference", words("solvay conference"), "word"),
    ("piezo buzzer", words("piezo buzzer"), "word"),
    ("tortoiseshell cat", words("tortoiseshell"), "word"),
    ("photo of a relative", words("relative"), "word"),
    # synonyms and everyday variants
    ("kitty", CAT, "synonym"),
    ("bunny", RABBIT, "synonym"),
    ("serpent", SNAKE, "synonym"),
    ("automobile", words("car"), "synonym"),
    ("coins", words("coin"), "synonym"),
    ("money", words("coin"), "synonym"),
    ("woods", words("forest"), "synonym"),
    ("russian dolls", DOLLS, "synonym"),
    ("nesting dolls", DOLLS, "synonym"),
    ("train station", words("grand central"), "synonym"),
    ("railway", words("train"), "synonym"),
    ("soldiers", words("pikemen"), "synonym"),
    ("rooftops", words("roofs"), "synonym"),
    ("buzzer", words("buzzer"), "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("pets", either(CAT, DOG), "category"),
    ("birds", BIRD, "category"),
    ("water birds", words("egret", "ducks"), "category"),
    ("birds of prey", words("eagle", "owl"), "category"),
    ("reptiles", SNAKE, "category"),
    ("flowers", FLOWER, "category"),
    ("toys", DOLLS, "category"),
    ("electronic component", words("piezo buzzer"), "category"),
    # counts (the names say them)
    ("group of people", PEOPLE_GROUP, "count"),
    ("several horses", words("horses"), "count"),
    ("ducks in a group", words("ducks"), "count"),
    # scenes
    ("fish being released into the water", words("released"), "scene"),
    ("ducks on the water", both(words("ducks"), words("water")), "scene"),
    ("person on a beach", both(words("human"), words("beach")), "scene"),
    # negation
    ("birds but not the owl", but_not(BIRD, words("owl")), "negation"),
    ("animals, not cats", but_not(ANIMAL, CAT), "negation"),
    ("animals but not birds", but_not(ANIMAL, BIRD), "negation"),
    ("snakes except the banded krait", but_not(SNAKE, words("bandedkrait")), "negation"),
    ("flowers but not roses", but_not(FLOWER, words("rose")), "negation"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "elephant", "penguin", "pizza", "birthday cake", "sushi", "hamburger", "ice cream", "piano",
        "guitar", "christmas tree", "fireworks", "snowman", "tennis racket", "skateboard", "teddy bear",
        "wedding dress", "toothbrush", "motorcycle", "hot air balloon", "volcano",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "seventh_set", name="seventh")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "seventh-sources")


if __name__ == "__main__":
    raise SystemExit(main())
