"""The sixth set: a test part from packages no other set, and no tuning, has read. Score it once.

The fifth set (`fifth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. All are Debian packages:

* `gnome-control-center-data`: the photos GNOME offers as account pictures, named by their files
  (bicycle, coffee2, hummingbird, tomatoes).
* `lifeograph`: the diary's background photos, named by their files (fog, pier, trams).
* `liblemonldap-ng-portal-perl`: the login page's background photos, which its copyright file says
  were downloaded from Wikimedia Commons, named by their Commons titles
  ("1280px-Parry_Peak_from_Winter_Park", "Aletschgletscher_mit_Pinus_cembra1").
* `tagua-data`: the board game's wallpaper `Mont_Blanc`.
* `mate-screensaver-common`: the photos of its "Cosmos" slideshow (`background-1.xml`), which
  the translators' note in `cosmos.xml` says "shows outer space images", named by their files
  (comet, helix-nebula, jupiter).
* `ruby-rmagick-doc`: the example photos of RMagick's documentation, named by their files
  (Cheetah, Hot_Air_Balloons, Violin).
* `libdlib19.1`: the photos of dlib's example folder `faces`, whose `training.xml` and
  `testing.xml` ("These are images from the PASCAL VOC 2011 dataset") mark each face with a box,
  and the one named for the person it shows (Tom_Cruise_avp_2014_4).
* `labelme-examples`: labelme's annotated example photos, described by their annotations: the
  labels of the shapes drawn on them ("person", "bottle", "sofa", "bus") and the flags set on
  them ("cat", "dog"), a person or a bus counted once however many shapes share its group.

Left out before any model saw a photo and before any request was written: GNOME's older account
pictures (its 96 px JPEGs and PNGs, under 250 px); Tagua's other wallpapers, titles or a name
rather than what they show (Dark_Sunset, Dark_Waters, Prmao); RMagick's drawings (Coffee, Snake,
the buttons and ducks), its colour-profile test image, named after nothing it shows, and its MIFF
files (a format the gallery cannot read); dlib's `bald_guys` and `dogs` (grids of many photos,
not one photo); labelme's other copies of the same three VOC photos, its visualisations
(drawn-over copies), its `primitives` drawing and all but the first frame of its video example
(the next frames of the same scene). Lifeograph's, the login page's and the slideshow's photos
are all taken. Not used at all: Moon Lander's space backgrounds (renders among the photos, with
no word to tell them apart), Art4Apps' pictures in pysiogame (drawings), GNOME's and Sway's
wallpapers (abstract), ukui-wallpapers (kept off as an Ubuntu wallpaper package). Photos were
opened only to see that they are photos, not drawings, renders or grids, and at least 250 px.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. The names are read as what they plainly are: Mont Blanc and Parry Peak are
mountains, Anse Source d'Argent is a beach (an anse, on the island of La Digue), the
Aletschgletscher is a glacier with Pinus cembra (a pine), the Sombrero and the Whirlpool of an
outer-space slideshow are galaxies and its Blue Marble is the Earth, a ballerina and a surfer are
people, and so is a face; a flower hat shows flowers. A title is judged by its subject: the
Brocken's snowed trees are trees in snow, not a mountain; Winter Park is a place's name, not
winter; ForestWander is a photographer's site, not a forest; "cloud" in an outer-space slideshow
is not a weather cloud, and no request asks for clouds. A product name is not the thing (the
labelme shelf's "Kong air dog" ball is a dog's toy, not a dog). Counts are the annotations'
(dlib's face boxes, labelme's instances), never counted in the photos. No negation asks to leave
out a thing the words would not mention (a photo's words do not list all it shows). No places,
dates or people the words do not give are asked: the photos have no GPS, caption or date, as in
the earlier sets. Some pins are Debian security or point-release versions
(`liblemonldap-ng-portal-perl`, `ruby-rmagick-doc`, `mate-screensaver-common`,
`gnome-control-center-data`): should the mirror drop one, `fetch` fails rather than build
another set.

    python -m photosearch.evaluate.sixth_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT  # once, after all tuning
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import image_size, is_big_enough, name_words
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, source, words

PART = "test"
DEBS = {
    "gnome-control-center-data": "1:43.6-2~deb12u1",
    "lifeograph": "2.0.3-1",
    "liblemonldap-ng-portal-perl": "2.16.1+ds-deb12u10",
    "tagua-data": "1.0~alpha2-16-g618c6a0-3",
    "mate-screensaver-common": "1.26.1-1+deb12u1",
    "ruby-rmagick-doc": "4.2.3-2+deb12u1",
    "libdlib19.1": "19.24+dfsg-1",
    "labelme-examples": "5.1.1-1",
}
#: The smallest longest side of a photo taken.
GNOME_FACES = "usr/share/pixmaps/faces"
LIFEOGRAPH = "usr/share/net.sourceforge.Lifeograph/backgrounds"
LEMONLDAP = "usr/share/lemonldap-ng/portal/htdocs/static/common/backgrounds"
LEMONLDAP_COPYRIGHT = "usr/share/doc/liblemonldap-ng-portal-perl/copyright"
TAGUA_PHOTOS = ("usr/share/tagua/themes/wallpapers/Mont_Blanc.jpg",)
COSMOS_SLIDESHOW = "usr/share/backgrounds/cosmos/background-1.xml"
COSMOS_PROPERTIES = "usr/share/mate-background-properties/cosmos.xml"
RMAGICK = "usr/share/doc/ruby-rmagick-doc/html/ex/images"
RMAGICK_PHOTOS = (
    "Ballerina.jpg",
    "Ballerina3.jpg",
    "Cheetah.jpg",
    "Flower_Hat.jpg",
    "Gold_Statue.jpg",
    "Hot_Air_Balloons.jpg",
    "Hot_Air_Balloons_H.jpg",
    "Polynesia.jpg",
    "Red_Rocks.jpg",
    "Shorts.jpg",
    "Violin.jpg",
)
DLIB_FACES = "usr/share/doc/libdlib19.1/examples/faces"
DLIB_BOXES = ("training.xml", "testing.xml")
#: dlib's face photos not in its box files, named for the person they show.
DLIB_NAMED = ("Tom_Cruise_avp_2014_4.jpg",)
LABELME = "usr/share/doc/labelme-examples/examples"
#: labelme's annotated photos: (photo, its annotation), each photo once.
LABELME_PHOTOS = (
    (
        "instance_segmentation/data_annotated/2011_000003.jpg",
        "instance_segmentation/data_annotated/2011_000003.json",
    ),
    (
        "instance_segmentation/data_annotated/2011_000006.jpg",
        "instance_segmentation/data_annotated/2011_000006.json",
    ),
    (
        "instance_segmentation/data_annotated/2011_000025.jpg",
        "instance_segmentation/data_annotated/2011_000025.json",
    ),
    ("classification/data_annotated/0001.jpg", "classification/data_annotated/0001.json"),
    ("classification/data_annotated/0002.jpg", "classification/data_annotated/0002.json"),
    ("video_annotation/data_annotated/00000100.jpg", "video_annotation/data_annotated/00000100.json"),
    ("tutorial/apc2016_obj3.jpg", "tutorial/apc2016_obj3.json"),
)
FOLDERS = {"backgrounds": "pictures", "other": "downloads"}
BACKGROUNDS = frozenset({"lifeograph", "lemonldap-ng", "tagua", "mate-cosmos"})


# ------------------------------------------------------------------------------ descriptions


def commons_title(stem: str) -> str:
    """A Wikimedia Commons file's title without its thumbnail width: '1280px-Parry_Peak_from_Winter_Park'
    -> 'parry peak from winter park', "1280px-Anse_Source_d'Argent_2-La_Digue" -> "anse source
    d'argent 2 la digue"."""
    return name_words(re.sub(r"^\d+px-", "", stem))


def slideshow_files(xml_text: str) -> list[str]:
    """The photos a GNOME/MATE slideshow XML shows, in order, each once (file names)."""
    names = re.findall(r"<file>\s*([^<]+?)\s*</file>", xml_text)
    return list(dict.fromkeys(n.rsplit("/", 1)[-1] for n in names))


def translator_shows(xml_text: str) -> str:
    """What a background properties file's translators' note says its wallpaper shows: '... image
    that shows outer space images.' -> 'outer space images'."""
    m = re.search(r"shows (.*?)\.", " ".join(re.findall(r"<!--(.*?)-->", xml_text, re.S)), re.S)
    return heldout.words_of(m.group(1)) if m else ""


def face_boxes(xml_text: str) -> dict[str, int]:
    """A dlib image dataset XML: file name -> how many boxes (faces) it marks (boxes marked
    `ignore` are not counted)."""
    out: dict[str, int] = {}
    for name, body in re.findall(r"<image\s+file='([^']+)'[^>]*>(.*?)</image>", xml_text, re.S):
        boxes = re.findall(r"<box\b[^>]*>", body)
        out[name] = sum("ignore='1'" not in b for b in boxes)
    return out


def labelme_labels(annotation: dict) -> dict[str, int]:
    """A labelme annotation's labels and how many of each: a shape's label counts once per group
    (shapes sharing a `group_id` are one thing), a flag set true counts once; `__ignore__` is no
    label. Underscores read as spaces ('kong_air_dog_squeakair_tennis_ball')."""
    seen: dict[str, set] = {}
    for i, shape in enumerate(annotation.get("shapes") or []):
        label = str(shape.get("label", ""))
        group = shape.get("group_id")
        seen.setdefault(label, set()).add(("g", group) if group is not None else ("s", i))
    counts = {label: len(ids) for label, ids in seen.items()}
    for flag, on in (annotation.get("flags") or {}).items():
        if on:
            counts[flag] = counts.get(flag, 0) + 1
    return {heldout.words_of(k.replace("_", " ")): n for k, n in counts.items() if k.strip("_") != "ignore"}


def counts_text(counts: dict[str, int]) -> str:
    """Counts as a photo's `about`: {'person': 2, 'bottle': 1} -> 'bottle=1 person=2'."""
    return " ".join(f"{k.replace(' ', '_')}={n}" for k, n in sorted(counts.items()))


def count_of(about: str, label: str) -> int:
    """How many of `label` a photo's `about` counts (0 when it says nothing)."""
    m = re.search(rf"(?:^| ){re.escape(label.replace(' ', '_'))}=(\d+)\b", about)
    return int(m.group(1)) if m else 0


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def gallery_stem(stem: str) -> str:
    """A photo's file name in the gallery: "1280px-Anse_Source_d'Argent_2-La_Digue" ->
    'anse_source_dargent_2_la_digue'."""
    return heldout.file_stem(re.sub(r"[^\w\-]+", "", re.sub(r"^\d+px-", "", stem)))


def _photo(source: str, path: Path, text: str, about: str = "") -> Photo:
    folder = FOLDERS["backgrounds" if source in BACKGROUNDS else "other"]
    rel = f"{folder}/{gallery_stem(path.stem)}"
    return Photo(rel, text, source, PART, fetched.decoded(path.read_bytes()), about=about)


def gnome_photos(root: Path) -> list[Photo]:
    """GNOME's account photos (its JPEGs, not the `legacy` folder) at least `MIN_SIDE` px."""
    paths = sorted((root / GNOME_FACES).glob("*.jpg"))
    return [_photo("gnome", p, name_words(p.stem)) for p in paths if is_big_enough(image_size(p))]


def background_photos(root: Path) -> list[Photo]:
    out = [_photo("lifeograph", p, name_words(p.stem)) for p in sorted((root / LIFEOGRAPH).glob("*.jpg"))]
    if "wikimedia" not in (root / LEMONLDAP_COPYRIGHT).read_text(encoding="utf-8").lower():
        raise ValueError("the login backgrounds are no longer credited to Wikimedia Commons")
    out += [
        _photo("lemonldap-ng", p, commons_title(p.stem)) for p in sorted((root / LEMONLDAP).glob("*.jpg"))
    ]
    out += [_photo("tagua", root / m, name_words(Path(m).stem)) for m in TAGUA_PHOTOS]
    shows = translator_shows((root / COSMOS_PROPERTIES).read_text(encoding="utf-8"))
    folder = (root / COSMOS_SLIDESHOW).parent
    for name in slideshow_files((root / COSMOS_SLIDESHOW).read_text(encoding="utf-8")):
        out.append(_photo("mate-cosmos", folder / name, heldout.words_of(name_words(Path(name).stem), shows)))
    return out


def rmagick_photos(root: Path) -> list[Photo]:
    return [_photo("rmagick", root / RMAGICK / n, name_words(Path(n).stem)) for n in RMAGICK_PHOTOS]


def dlib_photos(root: Path) -> list[Photo]:
    folder = root / DLIB_FACES
    counts: dict[str, int] = {}
    for name in DLIB_BOXES:
        counts.update(face_boxes((folder / name).read_text(encoding="latin-1")))
    out = [_photo("dlib", folder / n, "faces", counts_text({"face": k})) for n, k in counts.items() if k]
    out += [
        _photo("dlib", folder / n, heldout.words_of("faces", name_words(Path(n).stem))) for n in DLIB_NAMED
    ]
    return out


def labelme_photos(root: Path) -> list[Photo]:
    out = []
    for photo, annotation in LABELME_PHOTOS:
        labels = labelme_labels(json.loads((root / LABELME / annotation).read_text(encoding="utf-8")))
        out.append(_photo("labelme", root / LABELME / photo, " ".join(labels), counts_text(labels)))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = (
        gnome_photos(root)
        + background_photos(root)
        + rmagick_photos(root)
        + dlib_photos(root)
        + labelme_photos(root)
    )
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


def counted(label: str, least: int, most: int | None = None) -> Rule:
    """The annotations count at least `least` (and at most `most`) of `label` on the photo."""
    return lambda p: least <= count_of(p.about, label) and (most is None or count_of(p.about, label) <= most)


SPACE = source("mate-cosmos")
GALAXY = both(SPACE, words("galaxy", "sombrero", "whirlpool"))
PLANET = both(SPACE, words("jupiter", "blue marble", "earth"))
EARTH = both(SPACE, words("blue marble", "earth"))
MOUNTAIN = words("mountain", "mont blanc", "peak")
SNOW = words("snow", "snowed")
TREE = words("tree", "pinus")
BEACH = words("anse")
WATERFALL = words("waterfall")
CAT = words("cat")
DOG = but_not(words("dog"), words("air dog"))
BIRD = words("hummingbird")
ANIMAL = either(CAT, DOG, BIRD, words("cheetah"))
PET = either(CAT, DOG)
BALLERINA = words("ballerina")
FACES = source("dlib")
PEOPLE = either(FACES, words("person", "ballerina", "surfer"))
TWO_PEOPLE = either(counted("face", 2, 2), counted("person", 2, 2))
GROUP = either(counted("face", 3), counted("person", 3))
CAR = words("car")
BUS = words("bus")
VEHICLE = either(CAR, BUS, words("bicycle", "plane", "trams"))
AIRCRAFT = words("plane", "hot air balloon")
BALLOONS = words("hot air balloon")
INSTRUMENT = words("guitar", "violin")
FLOWER = words("flower")
FURNITURE = words("chair", "sofa", "shelf")
GADGET = words("calculator", "headphones", "gamepad")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "bicycle",
            "book",
            "calculator",
            "coffee",
            "guitar",
            "headphones",
            "hummingbird",
            "plane",
            "surfer",
            "tomatoes",
            "fog",
            "pier",
            "street",
            "cloister",
            "waterfall",
            "autumn",
            "jupiter",
            "comet",
            "nebula",
            "ballerina",
            "cheetah",
            "hat",
            "statue",
            "violin",
            "shorts",
            "bus",
            "car",
            "sofa",
            "chair",
            "bottle",
            "shelf",
            "tennis ball",
        )
    ],  # fmt: skip
    ("cat", CAT, "word"),
    ("dog", DOG, "word"),
    ("tree", TREE, "word"),
    ("mountain", MOUNTAIN, "word"),
    ("snow", SNOW, "word"),
    ("beach", BEACH, "word"),
    ("glacier", words("aletschgletscher"), "word"),
    ("galaxy", GALAXY, "word"),
    ("tram", words("trams"), "word"),
    ("sand", words("sands"), "word"),
    ("hot air balloon", BALLOONS, "word"),
    ("faces", FACES, "word"),
    ("people", PEOPLE, "word"),
    # synonyms and everyday variants
    ("bike", words("bicycle"), "synonym"),
    ("airplane", words("plane"), "synonym"),
    ("game controller", words("gamepad"), "synonym"),
    ("headset", words("headphones"), "synonym"),
    ("kitty", CAT, "synonym"),
    ("pine tree", words("pinus"), "synonym"),
    ("snowy", SNOW, "synonym"),
    ("winter", SNOW, "synonym"),
    ("mist", words("fog"), "synonym"),
    ("jetty", words("pier"), "synonym"),
    ("streetcar", words("trams"), "synonym"),
    ("seaside", BEACH, "synonym"),
    ("planets", PLANET, "synonym"),
    ("the earth from space", EARTH, "synonym"),
    ("outer space", SPACE, "synonym"),
    ("dancer", BALLERINA, "synonym"),
    ("ballet", BALLERINA, "synonym"),
    ("surfing", words("surfer"), "synonym"),
    ("sculpture", words("statue"), "synonym"),
    ("couch", words("sofa"), "synonym"),
    ("automobile", CAR, "synonym"),
    # categories
    ("animals", ANIMAL, "category"),
    ("pets", PET, "category"),
    ("birds", BIRD, "category"),
    ("big cat", words("cheetah"), "category"),
    ("vehicles", VEHICLE, "category"),
    ("aircraft", AIRCRAFT, "category"),
    ("musical instruments", INSTRUMENT, "category"),
    ("flowers", FLOWER, "category"),
    ("furniture", FURNITURE, "category"),
    ("gadgets", GADGET, "category"),
    ("vegetables", words("tomatoes"), "category"),
    ("space", SPACE, "category"),
    ("clothing", words("shorts", "hat"), "category"),
    # colours (the names say them)
    ("red rocks", words("red rocks"), "colour"),
    ("golden statue", words("gold statue"), "colour"),
    # counts (the annotations and names say them)
    ("two people", TWO_PEOPLE, "count"),
    ("group of people", GROUP, "count"),
    ("two buses", counted("bus", 2, 2), "count"),
    ("several hot air balloons", BALLOONS, "count"),
    # scenes
    ("waterfall in autumn", both(WATERFALL, words("autumn")), "scene"),
    ("snow covered trees", both(SNOW, TREE), "scene"),
    ("glacier with pine trees", both(words("aletschgletscher"), words("pinus")), "scene"),
    ("people on a sofa", both(words("person"), words("sofa")), "scene"),
    ("cars on a track", both(CAR, words("track")), "scene"),
    # negation
    ("animals but not cats", but_not(ANIMAL, CAT), "negation"),
    ("vehicles except the bus", but_not(VEHICLE, BUS), "negation"),
    ("cars, not buses", but_not(CAR, BUS), "negation"),
    ("people but not the ballerinas", but_not(PEOPLE, BALLERINA), "negation"),
    ("galaxies except the whirlpool", but_not(GALAXY, words("whirlpool")), "negation"),
    ("space photos but not planets", but_not(SPACE, PLANET), "negation"),
    ("musical instruments but not the guitar", but_not(INSTRUMENT, words("guitar")), "negation"),
]

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "zebra", "elephant", "horse", "cow", "birthday cake", "pizza", "hamburger", "sushi",
        "laptop", "piano", "wedding dress", "christmas tree", "fireworks", "lighthouse", "motorcycle",
        "tennis racket", "umbrella", "skateboard", "teddy bear",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "sixth_set", name="sixth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "sixth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
