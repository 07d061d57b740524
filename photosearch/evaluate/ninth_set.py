"""The ninth set: a test part from packages no other set, and no tuning, has read. Score it once.

The eighth set (`eighth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. All are Debian packages:

* `stellarium-data`: the planetarium's photos of nebulae, galaxies and star clusters
  (`nebulae/default`, listed in `textures.json`). A photo named by its object's catalogue number
  (`n7000.png` is NGC 7000, `ic434.png` IC 434, `barnard72.png` Barnard 72, `m8.png` M 8) is
  described by the names `names.dat` gives that object and marks well known (`WK`: "North America
  Nebula", "Witch Head Nebula", "Lagoon Nebula"); a photo named by words is described by its file
  (`pleiades`, `coma_cluster`, `red_rectangle`, `barnard_loop-1`), its photographer's suffix
  dropped (`darkshark-vasey` -> dark shark).
* `scribus-template`: the photos of the brochure, calendar, menu and newsletter templates, named by
  their files (moon, halfmoon, nature, sunset, pizza, teriyaki, kites-bw).
* `libjs-jquery-colorbox`: the photos of the lightbox examples, described by the titles the example
  page gives them ("Me and my grandfather on the Ohoopee.", "Marylou on Cumberland Island").
* `golang-github-disintegration-imaging-dev`: the library's two test photos, named by their files
  (branches, flowers).

Left out before any request was written, by these rules: Stellarium's sky photos whose object
`names.dat` gives no well-known name (nearly all of its 440: catalogue numbers only, or names from
observing lists that read like riddles, "Darth Vader's Starfighter"), its Messier photos whose
object `names.dat` lists under its NGC number only (the file's number says nothing there), the
photos named by words that are not a name (`lmc_01`..`lmc_16`, `smc29-1`, `rho-a00`, `cas`,
`wilds`, `p143`, `u1810`, `sh2-1-1`: numbers or abbreviations), its planet and moon textures
(maps, not photos), sky-culture drawings, landscape panoramas (cut out, their skies transparent)
and the photos under 250 px; Scribus's `brightness` (a name that says nothing), `teriyaki-bw` (a
grey copy of `teriyaki`) and its template previews (drawings of pages); Colorbox's `daisy`
(titled only "Retina", and a dog's name that reads as a flower) and `homer` (under 250 px); the
imaging library's `flowers_small` (a copy under 250 px) and its `out_*` files (filtered copies).
Not used at all: `gnome-backgrounds`, `sway-backgrounds`, `fvwm-crystal`, `krita-data`,
`digikam-data` (renders, textures, patterns), `kstars-data` (renders, drawings, screenshots),
`forensics-samples-files` (camera numbers only), `lyx-common`, `cheese-common`, `gthumb-data`,
`khangman`, `kanagram`, `marble-data` (screenshots, drawings). Photos were opened only to see that
they are photos, not drawings, renders or grids, and at least 250 px.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. A sky photo's names are what the object is called, not what it shows: the
Cat's Paw, Lobster, Butterfly and Elephant's Trunk nebulae are nebulae, never a cat, lobster,
butterfly or elephant, and no request asks for an animal or a thing a nebula is named after; a
request for "nebula", "galaxy" or "cluster" takes the photos whose names say that word, so the
Pleiades, the Antennae and the Leo Triplet (names without a kind) answer only their own names.
The halfmoon and moon photos are of the moon; teriyaki and pizza are food; Marylou is a person on
an island; the Ohoopee photos show their titles' people (a grandfather, a child, an adult). No
colours are asked but those names state (Blue Snowball, Red Rectangle). No negation asks to leave
out a thing the words would not mention. No dates or people the words do not give are asked: the
photos have no GPS, caption or date, as in the earlier sets. The pins are Debian's: should the
mirror drop one, `fetch` fails rather than build another set (apt checks each file against the
archive's signed hashes).

    python -m photosearch.evaluate.ninth_set DIR        # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import alt_texts, file_title, gallery_stem, image_size, is_big_enough
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, source, words

PART = "test"
DEBS = {
    "stellarium-data": "0.22.2-1",
    "scribus-template": "1.2.4.1-6",
    "libjs-jquery-colorbox": "1.6.4-1.1",
    "golang-github-disintegration-imaging-dev": "1.6.2-2",
}

NEBULAE = "usr/share/stellarium/nebulae/default"
#: A sky photo's file-name prefix -> the catalogue `names.dat` files it under.
CATALOGUES = {
    "m": "M",
    "n": "NGC",
    "ic": "IC",
    "barnard": "B",
    "sh2-": "SH2",
    "vdb": "VDB",
    "lbn": "LBN",
    "ldn": "LDN",
}
#: Sky photos named by words, not catalogue numbers.
SKY_NAMED = (
    "pleiades", "etaCarinae", "cassiopeia_a", "coma_cluster", "fornax_cluster", "hercules_cluster",
    "hydra_cluster", "leo_cluster", "perseus_cluster", "virgo_cluster", "red_rectangle", "calabash",
    "barnard_loop-1", "barnard_loop-2", "barnard_loop-3", "barnard_loop-4", "darkshark-vasey",
    "Medusa-vasey",
)  # fmt: skip
#: A photographer's or survey's suffix on a sky photo's file name ('n7635-vasey', 'm1dumont').
CREDIT_SUFFIX = r"(-?(vasey|dss|sdss2?|2mass|trev|darkskies|spano|dumont))$"
COLORBOX = "usr/share/doc/libjs-jquery-colorbox/examples"
#: Photos named by their files: (source, path in the unpacked packages).
NAMED = (
    ("scribus", "usr/share/scribus/templates/br2/halfmoon.jpg"),
    ("scribus", "usr/share/scribus/templates/br2/moon.jpg"),
    ("scribus", "usr/share/scribus/templates/br2/nature.jpg"),
    ("scribus", "usr/share/scribus/templates/br2/sunset.jpg"),
    ("scribus", "usr/share/scribus/templates/cal2/moon.jpg"),
    ("scribus", "usr/share/scribus/templates/menu2/pizza.jpg"),
    ("scribus", "usr/share/scribus/templates/menu1/teriyaki.png"),
    ("scribus", "usr/share/scribus/templates/nl1-bw/kites-bw.png"),
    ("imaging", "usr/share/gocode/src/github.com/disintegration/imaging/testdata/branches.jpg"),
    ("imaging", "usr/share/gocode/src/github.com/disintegration/imaging/testdata/flowers.png"),
)  # fmt: skip
FOLDERS = {"stellarium": "astronomy", "colorbox": "family"}


# ------------------------------------------------------------------------------ descriptions


def well_known_names(names_dat: str) -> dict[tuple[str, str], list[str]]:
    """`names.dat`'s well-known names: (catalogue, number) -> the names marked `WK`, in order
    ('NGC  7000            _("North America Nebula") # WK, SIMBAD' -> ('NGC', '7000'))."""
    out: dict[tuple[str, str], list[str]] = {}
    for line in names_dat.splitlines():
        if line.startswith("#") or len(line) < 21:
            continue
        m = re.search(r'_\("([^"]+)"\)\s*(?:#(.*))?', line[20:])
        if m and re.search(r"\bWK\b", m.group(2) or ""):
            key = (line[:5].strip().upper(), line[5:20].strip().upper())
            out.setdefault(key, []).append(m.group(1))
    return out


def catalogue_key(stem: str) -> tuple[str, str] | None:
    """A sky photo's catalogue number from its file name: 'n7635-vasey' -> ('NGC', '7635'),
    'ic2118-1' -> ('IC', '2118'), 'barnard72' -> ('B', '72'), 'pleiades' -> None."""
    m = re.match(r"(barnard|sh2-|vdb|lbn|ldn|ic|m|n)(\d+)", stem, re.I)
    return (CATALOGUES[m.group(1).lower()], m.group(2)) if m else None


def sky_file_words(stem: str) -> str:
    """A sky photo's file name as words, its credit dropped: 'darkshark-vasey' -> 'darkshark',
    'etaCarinae' -> 'eta carinae', 'barnard_loop-2' -> 'barnard loop 2'."""
    return fetched.name_words(re.sub(CREDIT_SUFFIX, "", stem, flags=re.I))


def colorbox_titles(html_text: str) -> dict[str, str]:
    """The example page's photos with the titles its links give them ('ohoopee2.jpg' -> 'On the
    Ohoopee as a child'); a link's image without a title keeps its alt text."""
    out = {}
    for href, title in re.findall(r'<a [^>]*href="([^"]+\.jpg)"[^>]*title="([^"]*)"', html_text):
        out.setdefault(href.rsplit("/", 1)[-1], title.strip())
    for name, alt in alt_texts(html_text).items():
        out.setdefault(name, alt)
    return out


#: Titles that say nothing of the photo (Colorbox's retina demo).
EMPTY_TITLES = frozenset({"retina", "non retina"})


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_debs(DEBS, cache / "debs", cache / "root")
    return cache


def _photo(source: str, path: Path, text: str) -> Photo | None:
    """The photo at `path` with its words, or None when it is under the smallest size taken."""
    if not is_big_enough(image_size(path)):
        return None
    rel = f"{FOLDERS.get(source, 'pictures')}/{gallery_stem(path.stem)}"
    return Photo(rel, text, source, PART, fetched.decoded(path.read_bytes()))


def sky_photos(root: Path) -> list[Photo | None]:
    folder = root / NEBULAE
    names = well_known_names((folder / "names.dat").read_text(encoding="utf-8"))
    if not names:
        raise ValueError("Stellarium's names.dat no longer marks well-known names")
    listed = re.findall(r'"imageUrl"\s*:\s*"([^"]+)"', (folder / "textures.json").read_text(encoding="utf-8"))
    out = []
    for name in listed:
        path, stem = folder / name, Path(name).stem
        if not path.is_file():
            continue
        if stem in SKY_NAMED:
            out.append(_photo("stellarium", path, sky_file_words(stem)))
        elif (key := catalogue_key(stem)) in names:
            said_names = " ".join(names[key])
            out.append(_photo("stellarium", path, heldout.words_of(said_names, f"{key[0]} {key[1]}")))
    return out


def colorbox_photos(root: Path) -> list[Photo | None]:
    titles: dict[str, str] = {}
    for page in sorted((root / COLORBOX).rglob("*.html")):
        titles.update(colorbox_titles(page.read_text(encoding="utf-8", errors="replace")))
    out = []
    for path in sorted((root / COLORBOX).rglob("content/*.jpg")):
        title = heldout.words_of(titles.get(path.name, ""))
        if title and title not in EMPTY_TITLES and "@" not in path.name:
            out.append(_photo("colorbox", path, title))
    return out


def named_photos(root: Path) -> list[Photo | None]:
    return [_photo(source, root / member, file_title(Path(member).stem)) for source, member in NAMED]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = sky_photos(root) + colorbox_photos(root) + named_photos(root)
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


NEBULA = words("nebula")
GALAXY = words("galaxy")
CLUSTER = words("cluster")
SKY = source("stellarium")
MOON = words("moon", "halfmoon")
FOOD = words("pizza", "teriyaki")
FLOWER = words("flowers", "branches")
PEOPLE = words("grandfather", "child", "adult", "marylou")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "lagoon nebula",
            "rosette nebula",
            "helix nebula",
            "north america nebula",
            "california nebula",
            "eskimo nebula",
            "bubble nebula",
            "saturn nebula",
            "witch head nebula",
            "elephant's trunk",
            "flaming star",
            "cat's paw",
            "lobster nebula",
            "christmas tree cluster",
            "cone nebula",
            "jewel box",
            "double cluster",
            "sculptor galaxy",
            "leo triplet",
            "antennae",
            "pleiades",
            "eta carinae",
            "cassiopeia",
            "coma cluster",
            "virgo cluster",
            "red rectangle",
            "medusa",
            "sagittarius",
            "ghost of jupiter",
            "butterfly nebula",
            "blue snowball",
            "ohoopee",
            "grandfather",
            "cumberland island",
            "pizza",
            "teriyaki",
            "sunset",
            "nature",
            "kites",
            "branches",
        )
    ],  # fmt: skip
    ("nebula", NEBULA, "word"),
    ("galaxy", GALAXY, "word"),
    ("cluster", CLUSTER, "word"),
    ("moon", MOON, "word"),
    ("flowers", words("flowers"), "word"),
    ("island", words("island"), "word"),
    ("child", words("child"), "word"),
    ("barnard's loop", words("barnard loop"), "word"),
    # synonyms and everyday variants
    ("nebulae", NEBULA, "synonym"),
    ("galaxies", GALAXY, "synonym"),
    ("seven sisters", words("pleiades"), "synonym"),
    ("half moon", words("halfmoon"), "synonym"),
    ("grandpa", words("grandfather"), "synonym"),
    ("kid", words("child"), "synonym"),
    ("pizza pie", words("pizza"), "synonym"),
    # categories
    ("astronomy", either(SKY, MOON), "category"),
    ("deep sky objects", SKY, "category"),
    ("food", FOOD, "category"),
    ("people", PEOPLE, "category"),
    ("family", words("grandfather"), "category"),
    ("plants", FLOWER, "category"),
    # colours the names state
    ("blue", words("blue"), "colour"),
    ("red", words("red"), "colour"),
    ("black and white", words("bw"), "colour"),
    # scenes
    ("me and my grandfather", words("grandfather"), "scene"),
    ("on the ohoopee as a child", both(words("ohoopee"), words("child")), "scene"),
    ("marylou on cumberland island", both(words("marylou"), words("cumberland island")), "scene"),
    ("star cloud in sagittarius", both(words("star cloud"), words("sagittarius")), "scene"),
    # negation
    ("nebulae but not the witch head", but_not(NEBULA, words("witch head")), "negation"),
    ("nebulae but not planetary nebulae", but_not(NEBULA, words("planetary nebula")), "negation"),
    ("clusters but not the coma cluster", but_not(CLUSTER, words("coma")), "negation"),
    ("moon but not the half moon", but_not(MOON, words("halfmoon")), "negation"),
]  # fmt: skip

#: Requests for things no photo shows: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "giraffe", "zebra", "penguin", "hamburger", "ice cream", "birthday cake", "piano", "guitar",
        "snowman", "tennis racket", "skateboard", "teddy bear", "wedding dress", "toothbrush",
        "laptop", "hot air balloon", "bicycle", "fireworks", "umbrella", "sailboat",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "ninth_set", name="ninth")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "ninth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
